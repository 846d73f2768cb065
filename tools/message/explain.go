package message

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/message/plural"
)

// quoteRunes is how much nearby text an explanation quotes.
const quoteRunes = 20

// Explain says in a sentence a translator reads where the syntax error e of
// value is and what is wrong, quoting the text around it: `the } after
// "pliki" closes the plural early`. It names no offsets and no codes.
func Explain(value string, e SyntaxError) string {
	at := min(max(e.Offset, 0), len(value))
	switch e.Code {
	case UnclosedBrace:
		if sel, close, ok := formAfterClose(value, at); ok {
			return "the } after " + quoteBefore(value, close) + " closes the " + blockWord(sel) + " early, so " +
				strconv.Quote(sel) + " and what follows are left outside it"
		}
		if next := textAfter(value, at+1); next != "" {
			return "the { before " + quote(next) + " is never closed"
		}
		return "the { at the end is never closed"
	case UnmatchedBrace:
		if prev := textBefore(value, at); prev != "" {
			return "the } after " + quote(prev) + " closes nothing (write '}' for a brace in the text)"
		}
		return "the } at the start closes nothing (write '}' for a brace in the text)"
	case UnclosedSelect:
		return "the " + blockAt(value, at) + " is never closed: a } is missing at its end"
	case BadSelector:
		junk := textAfter(value, at)
		if i := strings.IndexAny(junk, "{}"); i >= 0 {
			junk = junk[:i]
		}
		if f := strings.Fields(junk); len(f) > 1 { // the last word is the next form's selector
			junk = strings.Join(f[:len(f)-1], " ")
		}
		return "the text " + quote(junk) + " stands between two forms, where only a form like one {…} may be"
	case MissingOther:
		return "the " + blockAt(value, at) + ` has no "other" form`
	case DuplicateSelector:
		sel, _ := ident(value, at)
		if sel == "" {
			sel = textAfter(value, at)
		}
		return "the form " + strconv.Quote(sel) + " is written twice in one plural or select"
	case UnclosedQuote:
		return "the ' before " + quote(textAfter(value, at+1)) + " starts quoted text that never ends (write '' for an apostrophe)"
	case TooDeep:
		return "the plurals and selects are nested too deeply to read"
	}
	if prev := textBefore(value, at); prev != "" {
		return "the text has a syntax error after " + quote(prev)
	}
	return "the text has a syntax error"
}

// AddedErrors returns the syntax errors of value (parsed in syn) that its
// source has not, counted by kind: a source's own error may stay in its
// translation.
func AddedErrors(source, value string, syn Syntax) []SyntaxError {
	had := map[ProblemCode]int{}
	for _, p := range Parse(source, syn).Problems {
		had[p.Code]++
	}
	var out []SyntaxError
	for _, p := range Parse(value, syn).Problems {
		if had[p.Code] > 0 {
			had[p.Code]--
			continue
		}
		out = append(out, p)
	}
	return out
}

// formAfterClose recognises "} many {" at the '{' at: a form's selector
// right after a '}', which closed its plural before this form. It returns
// the selector and the index of that '}'.
func formAfterClose(value string, at int) (sel string, close int, ok bool) {
	head := strings.TrimRightFunc(value[:at], unicode.IsSpace)
	i := strings.LastIndexFunc(head, func(r rune) bool {
		return !(r == '=' || r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r))
	})
	sel = head[i+1:]
	if sel == "" || i < 0 {
		return "", 0, false
	}
	rest := strings.TrimRightFunc(head[:i+1], unicode.IsSpace)
	if !strings.HasSuffix(rest, "}") {
		return "", 0, false
	}
	return sel, len(rest) - 1, true
}

// blockWord names the kind of block a form with selector sel belongs to.
func blockWord(sel string) string {
	if _, ok := plural.ParseCategory(sel); ok || strings.HasPrefix(sel, "=") {
		return "plural"
	}
	return "select"
}

// blockAt names the block that starts at the '{' at: "plural on count".
func blockAt(value string, at int) string {
	s := value[at:]
	if !strings.HasPrefix(s, "{") {
		return "plural or select"
	}
	j := space(s, 1)
	name, j := ident(s, j)
	j = space(s, j)
	if name == "" || j >= len(s) || s[j] != ',' {
		return "plural or select"
	}
	typ, _ := ident(s, space(s, j+1))
	switch strings.ToLower(typ) {
	case "select":
		return "select on " + name
	case "selectordinal":
		return "ordinal plural on " + name
	}
	return "plural on " + name
}

// textBefore is up to quoteRunes characters of the text before at, without
// the syntax characters and spaces next to it, starting at a word.
func textBefore(value string, at int) string {
	s := strings.TrimRight(value[:at], " \t\r\n{}#")
	if n := utf8.RuneCountInString(s); n > quoteRunes {
		cut := len(s)
		for k := 0; k < quoteRunes; k++ {
			_, w := utf8.DecodeLastRuneInString(s[:cut])
			cut -= w
		}
		s = s[cut:]
		if sp := strings.IndexFunc(s, unicode.IsSpace); sp >= 0 && sp < len(s)/2 {
			s = s[sp:]
		}
	}
	if i := strings.LastIndexAny(s, "{}\n"); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(s), "#"))
}

// quoteBefore quotes the text before the '}' at close, or says it is at the start.
func quoteBefore(value string, close int) string {
	if t := strings.TrimSpace(textBefore(value, close)); t != "" {
		return quote(t)
	}
	return "the form before it"
}

// textAfter is up to quoteRunes characters of the text from at, up to the
// next line.
func textAfter(value string, at int) string {
	s := strings.TrimLeft(value[at:], " \t")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	n := 0
	for i := range s {
		if n == quoteRunes {
			s = s[:i]
			if sp := strings.LastIndexFunc(s, unicode.IsSpace); sp > len(s)/2 {
				s = s[:sp]
			}
			break
		}
		n++
	}
	return strings.TrimSpace(s)
}

func quote(s string) string { return `"` + s + `"` }

// Breaks reports whether value, a translation of source in syn that parses,
// would still break an app: show its users raw syntax or make its formatter
// throw. That is an argument the source has not ({{cnt}} for {{count}}: the
// app has no value for it), more unnamed printf arguments than the source
// consumes, or a plural or select without "other" that the source has with
// one. reason says which, quoting it. What still renders (a missing `few`,
// which formatters fill from other; an argument left out) is no break: the
// checks report it. In i18next, a plural family's translation that is not one
// plural block (FamilyOutside) breaks too.
func Breaks(source, value string, syn Syntax) (reason string, broken bool) {
	if syn.Has(I18next) {
		if reason, broken := FamilyOutside(source, value); broken {
			return reason, true
		}
	}
	src, tr := Parse(source, syn), Parse(value, syn)
	noOther := func(m *Message) map[string]int {
		out := map[string]int{}
		Walk(m, func(n Node, _ Path) bool {
			if s, ok := n.(*Select); ok && s.Form("other") == nil {
				out[blockKey(s)]++
			}
			return true
		})
		return out
	}
	srcNoOther := noOther(src)
	var lacking *Select
	Walk(tr, func(n Node, _ Path) bool {
		s, ok := n.(*Select)
		if !ok || s.Form("other") != nil || lacking != nil {
			return lacking == nil
		}
		if srcNoOther[blockKey(s)] > 0 {
			srcNoOther[blockKey(s)]--
			return true
		}
		lacking = s
		return false
	})
	if lacking != nil {
		what := "plural on " + lacking.Arg
		switch lacking.Type {
		case "select":
			what = "select on " + lacking.Arg
		case "selectordinal":
			what = "ordinal plural on " + lacking.Arg
		}
		return "the " + what + ` has no "other" form`, true
	}
	names := map[string]bool{}
	printf := 0 // the source's printf arguments, which a translation may number (%1$s)
	Walk(src, func(n Node, _ Path) bool {
		switch n := n.(type) {
		case *Select:
			names["n:"+n.Arg] = true
		case *Arg:
			if n.Kind == ArgPrintf {
				printf++
			} else if k := breakKey(n); k != "" {
				names[k] = true
			}
		}
		return true
	})
	var extra *Arg
	unnamed := 0
	eachGlued(tr.Nodes, func(a *Arg, glued bool) {
		switch {
		case extra != nil || !a.Consumes() || glued: // 10%igen is prose
		case a.Kind == ArgPrintf && a.Positional:
			if a.Index > printf {
				extra = a
			}
		case a.Kind == ArgPrintf:
			unnamed++
		case !names[breakKey(a)]:
			extra = a
		}
	})
	if extra != nil {
		return "the translation uses " + extra.Raw + ", which the source does not have", true
	}
	if unnamed > printf {
		return "the translation has " + strconv.Itoa(unnamed) + " placeholders such as %s where the source has " +
			strconv.Itoa(printf) + ": the app passes no value for the others", true
	}
	return "", false
}

// breakKey is what an argument other than printf's is looked up by when an
// app formats a message: its name, or its index.
func breakKey(a *Arg) string {
	if a.Name != "" {
		return "n:" + a.Name
	}
	return "i:" + strconv.Itoa(a.Index)
}
