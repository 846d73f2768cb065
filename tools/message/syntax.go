package message

import (
	"fmt"
	"strings"
)

// Syntax is the set of placeholder and markup syntaxes a project's values
// are written in. What a syntax outside the set would recognise is text.
type Syntax uint16

// Syntaxes.
const (
	ICU      Syntax = 1 << iota // {x}, {x, number, ...}, plural/select/selectordinal, #, '...' quoting
	I18next                     // i18next {{x}}, {{- x}}, {{x, format}}, $t(key, {...})
	React                       // react-i18next components: <0>...</0>, <1/>, <bold>...</bold>
	Rails                       // %{x}, %<x>s
	Printf                      // %s %d %.2f %ld %@ %1$s %%, Python %(x)s
	Braces                      // .NET/Python {0} {0:C} {name:.1f} {} and {{ }} escapes
	Template                    // ${x}
	Qt                          // %1 %L1 %n
	HTML                        // HTML/XML tags, comments and entities
	Markdown                    // [text](target) and ![alt](target)

	// All is every syntax; where two read the same bytes differently the
	// parser prefers, in order: i18next over ICU over braces ({{x}}), printf
	// over Qt (%1$s).
	All = ICU | I18next | React | Rails | Printf | Braces | Template | Qt | HTML | Markdown
)

// FileSyntax is the one syntax a value's plural and select blocks are read in where they
// cross a file's edge (the codecs that convert native plurals, the import that reports
// their gaps), whatever the project's own: ICU blocks, with i18next's {{x}} an argument so
// that a form's "{{count}} files" is not read as a nested brace. Rails' %{x} and printf's
// %d read the same in it as in ICU.
const FileSyntax = ICU | I18next

// syntaxNames are the names ParseSyntax reads and String writes, in order.
var syntaxNames = []struct {
	s    Syntax
	name string
}{
	{ICU, "icu"}, {I18next, "i18next"}, {React, "react"}, {Rails, "rails"}, {Printf, "printf"},
	{Braces, "braces"}, {Template, "template"}, {Qt, "qt"}, {HTML, "html"}, {Markdown, "markdown"},
}

// SyntaxNames returns the names of every syntax, as ParseSyntax accepts them.
func SyntaxNames() []string {
	out := make([]string, len(syntaxNames))
	for i, n := range syntaxNames {
		out[i] = n.name
	}
	return out
}

// String returns the comma-separated names of the syntaxes in s ("icu,html"),
// or "none".
func (s Syntax) String() string {
	var parts []string
	for _, n := range syntaxNames {
		if s&n.s != 0 {
			parts = append(parts, n.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

// ParseSyntax reads a comma-separated list of syntax names ("icu,html");
// "none" or "" is the empty set, "all" every syntax.
func ParseSyntax(list string) (Syntax, error) {
	var s Syntax
	for _, part := range strings.Split(list, ",") {
		part = strings.ToLower(strings.TrimSpace(part))
		switch part {
		case "", "none":
			continue
		case "all":
			s |= All
			continue
		}
		found := false
		for _, n := range syntaxNames {
			if n.name == part {
				s |= n.s
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("unknown syntax %q (known: %s)", part, strings.Join(SyntaxNames(), ", "))
		}
	}
	return s, nil
}

// Has reports whether every syntax of t is in s.
func (s Syntax) Has(t Syntax) bool { return s&t == t }

// DetectSyntax returns the syntaxes a project's source values use. A
// syntax counts when some value shows it unmistakably: ICU by a
// plural/select block (unless the values show i18next and the block has a
// family's shape, a plural on count without '#': lokal stores an i18next
// plural family as one, which an i18next project's values read whole), a
// formatted argument or a quote, or by tight {name}
// arguments unless the project shows braces, or i18next together with
// braces used as text (so "Use { and } to group" in an i18next project
// stays text, a Python project reads {name} with its {{ escapes, and a
// mixed project's {n} stays a placeholder); i18next by {{x}} or $t(); react by
// indexed tags <0>, or component tags that are not HTML elements in an
// i18next project; HTML by an element or entity; braces by {0:C},
// {name:.1f} or {}; printf, Rails, template, Qt and markdown by any
// argument or link of theirs.
func DetectSyntax(sources []string) Syntax { return Evidence(sources).Syntax() }

// SyntaxEvidence is what DetectSyntax reads in values before it decides: syntaxes shown
// unmistakably, tight {name} arguments, tags that are no HTML element, braces used as text.
// The evidence of two sets of values merges into that of their union, so a project's
// detection can take in new values without reading the others again.
type SyntaxEvidence struct {
	Found, ICUWeak, OtherTags Syntax
	BraceText                 bool // a brace that is no tight {name}: "Use { and } to group"
	// Blocks: a plural block of a family's shape (on count, no '#'), or ICU quoting inside
	// one. It shows ICU unless the values show i18next, whose plural families lokal stores
	// as such blocks; any other block shows ICU.
	Blocks bool
}

// Evidence reads values for DetectSyntax.
func Evidence(sources []string) SyntaxEvidence {
	var found, icuWeak, otherTags Syntax
	braceText, blocks := false, false
	for _, v := range sources {
		m := Parse(v, All)
		for _, p := range m.Problems {
			braceText = braceText || p.Code == UnclosedBrace || p.Code == UnmatchedBrace
		}
		family := false // the top-level block being walked has a family's shape
		Walk(m, func(n Node, path Path) bool {
			switch n := n.(type) {
			case *Select:
				if len(path) == 0 {
					family = familyShape(n)
				}
				if family {
					blocks = true
				} else {
					found |= ICU
				}
			case *Quoted:
				if n.Raw != "''" && strings.HasPrefix(n.Raw, "'") {
					if len(path) > 0 && family {
						blocks = true
					} else {
						found |= ICU
					}
				}
			case *Entity:
				if n.Char != "" {
					found |= HTML
				}
			case *Link:
				found |= Markdown
			case *Tag:
				switch {
				case isIndex(n.Name):
					found |= React
				case n.Kind == Unclosed || n.Kind == Unmatched || n.Kind == Comment:
				case htmlElements[n.Key()] || strings.Contains(n.Name, ":"):
					found |= HTML
				default:
					otherTags = HTML
				}
			case *Arg:
				switch n.Kind {
				case ArgICU:
					if n.Raw == "{"+n.Name+"}" {
						icuWeak = ICU
					} else {
						braceText = true
					}
				case ArgICUFormatted:
					found |= ICU
				case ArgI18next, ArgNesting:
					found |= I18next
				case ArgRails, ArgRailsFormatted:
					found |= Rails
				case ArgPrintf, ArgPrintfNamed, ArgPercent:
					found |= Printf
				case ArgBrace:
					found |= Braces
				case ArgTemplate:
					found |= Template
				case ArgQt:
					found |= Qt
				}
			}
			return true
		})
	}
	return SyntaxEvidence{Found: found, ICUWeak: icuWeak, OtherTags: otherTags, BraceText: braceText, Blocks: blocks}
}

// Merge is the evidence of both sets of values.
func (e SyntaxEvidence) Merge(o SyntaxEvidence) SyntaxEvidence {
	return SyntaxEvidence{Found: e.Found | o.Found, ICUWeak: e.ICUWeak | o.ICUWeak, OtherTags: e.OtherTags | o.OtherTags,
		BraceText: e.BraceText || o.BraceText, Blocks: e.Blocks || o.Blocks}
}

// Syntax decides: DetectSyntax's answer for the values read.
func (e SyntaxEvidence) Syntax() Syntax {
	found := e.Found
	if e.Blocks && found&I18next == 0 {
		found |= ICU
	}
	if found&Braces == 0 && !(found&I18next != 0 && e.BraceText) {
		found |= e.ICUWeak
	}
	if e.OtherTags != 0 {
		if found&I18next != 0 {
			found |= React
		} else {
			found |= HTML
		}
	}
	return found
}

// String encodes the evidence for storage; ParseEvidence reads it back.
func (e SyntaxEvidence) String() string {
	b, k := 0, 0
	if e.BraceText {
		b = 1
	}
	if e.Blocks {
		k = 1
	}
	return fmt.Sprintf("%d/%d/%d/%d/%d", e.Found, e.ICUWeak, e.OtherTags, b, k)
}

// ParseEvidence reads SyntaxEvidence.String, also as stored before Blocks was kept
// ("found/weak/tags/brace": a block was then counted in Found as ICU).
func ParseEvidence(s string) (SyntaxEvidence, error) {
	var e SyntaxEvidence
	var b, k int
	if strings.Count(s, "/") == 3 {
		if _, err := fmt.Sscanf(s, "%d/%d/%d/%d", &e.Found, &e.ICUWeak, &e.OtherTags, &b); err != nil {
			return SyntaxEvidence{}, fmt.Errorf("syntax evidence %q: %w", s, err)
		}
	} else if _, err := fmt.Sscanf(s, "%d/%d/%d/%d/%d", &e.Found, &e.ICUWeak, &e.OtherTags, &b, &k); err != nil {
		return SyntaxEvidence{}, fmt.Errorf("syntax evidence %q: %w", s, err)
	}
	e.BraceText, e.Blocks = b == 1, k == 1
	return e, nil
}

// htmlElements are the element names of HTML; a tag with another name is
// a component or XML.
var htmlElements = setOf(`a abbr address area article aside audio b bdi bdo blockquote body br button canvas caption
cite code col colgroup data dd del details dfn dialog div dl dt em embed fieldset figcaption figure font footer form
h1 h2 h3 h4 h5 h6 head header hr html i iframe img input ins kbd label legend li link main mark menu meta nav noscript
object ol optgroup option output p param picture pre progress q rp rt ruby s samp section select small source span
strike strong sub summary sup table tbody td template textarea tfoot th thead time title tr track tt u ul var video wbr`)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
