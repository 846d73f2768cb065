package message

import (
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools/message/plural"
)

// Inside lokal a plural is one ICU value; a file format's or a door's native forms (i18next's
// suffix keys, Xcode's and Android's quantities) are converted to one and back with the helpers
// here, so that every caller agrees on which categories a language has and on what happens to
// the ones it lacks.

// Plural is one ICU plural or selectordinal block.
type Plural struct {
	Arg     string // the argument the block selects on ("count")
	Ordinal bool   // selectordinal
	Forms   []PluralForm
}

// PluralForm is one form of a block: a CLDR category ("one") or an explicit number ("=0"),
// and its text as ICU writes it inside the braces ('#' is the number).
type PluralForm struct {
	Selector string
	Text     string
}

// PluralPiece is a run of a value: text, or a plural block.
type PluralPiece struct {
	Text   string
	Plural *Plural // nil for text
}

// PluralPieces splits a value, read in FileSyntax, into its top-level plural blocks and the text
// between them. A value without a closed plural or selectordinal block is one text piece.
func PluralPieces(value string) []PluralPiece {
	m := Parse(value, FileSyntax)
	var out []PluralPiece
	var text strings.Builder
	for _, n := range m.Nodes {
		s, ok := n.(*Select)
		if !ok || s.Tail == "" || (s.Type != "plural" && s.Type != "selectordinal") {
			text.WriteString(n.String())
			continue
		}
		if text.Len() > 0 {
			out = append(out, PluralPiece{Text: text.String()})
			text.Reset()
		}
		p := &Plural{Arg: s.Arg, Ordinal: s.Type == "selectordinal"}
		for _, f := range s.Forms {
			if f.Close == "" {
				p = nil
				break
			}
			p.Forms = append(p.Forms, PluralForm{Selector: f.Selector, Text: f.Message.String()})
		}
		if p == nil {
			text.WriteString(n.String())
			continue
		}
		out = append(out, PluralPiece{Plural: p})
	}
	if text.Len() > 0 || len(out) == 0 {
		out = append(out, PluralPiece{Text: text.String()})
	}
	return out
}

// SinglePlural returns the plural block a value consists of, or false when the value is
// anything else (text, or a block with text around it).
func SinglePlural(value string) (*Plural, bool) {
	if !strings.HasPrefix(value, "{") || !strings.HasSuffix(value, "}") {
		return nil, false
	}
	ps := PluralPieces(value)
	if len(ps) != 1 || ps[0].Plural == nil {
		return nil, false
	}
	return ps[0].Plural, true
}

// JoinPluralPieces writes pieces back as one value.
func JoinPluralPieces(ps []PluralPiece) string {
	var b strings.Builder
	for _, p := range ps {
		if p.Plural != nil {
			b.WriteString(p.Plural.String())
		} else {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// String writes the block in ICU: "{count, plural, one {# file} other {# files}}".
func (p *Plural) String() string {
	var b strings.Builder
	b.WriteString("{")
	b.WriteString(p.Arg)
	if p.Ordinal {
		b.WriteString(", selectordinal,")
	} else {
		b.WriteString(", plural,")
	}
	for _, f := range p.Forms {
		b.WriteString(" ")
		b.WriteString(f.Selector)
		b.WriteString(" {")
		b.WriteString(f.Text)
		b.WriteString("}")
	}
	b.WriteString("}")
	return b.String()
}

// Form returns the text of the form with the given selector.
func (p *Plural) Form(selector string) (string, bool) {
	for _, f := range p.Forms {
		if f.Selector == selector {
			return f.Text, true
		}
	}
	return "", false
}

// Categories are the CLDR categories lang uses ("one", "few", "many", "other" for pl), in
// CLDR's order: the forms a message in lang needs.
func Categories(lang string, ordinal bool) []string {
	kind := plural.KindCardinal
	if ordinal {
		kind = plural.KindOrdinal
	}
	cs := plural.Categories(lang, kind)
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// ExplicitFor is the explicit number a category stands for when the language lacks it.
var ExplicitFor = map[string]string{"zero": "=0", "one": "=1", "two": "=2"}

// FromNative builds the ICU block of native plural forms in lang: forms keep their order,
// a category lang lacks that names one number (Xcode's "zero" for Russian) becomes that
// explicit form ("=0"), unless lang's own forms already have it, and every other selector
// is kept as written (a QA check reports it).
func FromNative(lang, arg string, ordinal bool, forms []PluralForm) *Plural {
	has := Categories(lang, ordinal)
	p := &Plural{Arg: arg, Ordinal: ordinal}
	for _, f := range forms {
		sel := f.Selector
		if !slices.Contains(has, sel) {
			if exp, ok := ExplicitFor[sel]; ok && !hasSelector(forms, exp) {
				sel = exp
			}
		}
		p.Forms = append(p.Forms, PluralForm{Selector: sel, Text: f.Text})
	}
	return p
}

// ToNative lists the native forms of p in lang: first the explicit forms the format can
// hold (explicit maps the selectors it can, such as "=0" written as "zero"; nil for none),
// then exactly lang's categories in CLDR order. A category p lacks is left out and named in
// missing; forms the format cannot hold (explicit ones, categories lang does not have) are
// named in dropped.
func ToNative(lang string, p *Plural, explicit map[string]string) (forms []PluralForm, missing, dropped []string) {
	cats := Categories(lang, p.Ordinal)
	for _, f := range p.Forms {
		if !strings.HasPrefix(f.Selector, "=") {
			continue
		}
		if native, ok := explicit[f.Selector]; ok && !slices.Contains(cats, native) {
			forms = append(forms, PluralForm{Selector: native, Text: f.Text})
		} else {
			dropped = append(dropped, f.Selector)
		}
	}
	for _, c := range cats {
		text, ok := p.Form(c)
		if !ok {
			missing = append(missing, c)
			continue
		}
		forms = append(forms, PluralForm{Selector: c, Text: text})
	}
	for _, f := range p.Forms {
		if !strings.HasPrefix(f.Selector, "=") && !slices.Contains(cats, f.Selector) {
			dropped = append(dropped, f.Selector)
		}
	}
	return forms, missing, dropped
}

// ZeroExplicit is the explicit map of formats whose "zero" form applies to 0 in every
// language (Apple's stringsdict and xcstrings, i18next's _zero; Android's quantity="zero"
// is not one).
var ZeroExplicit = map[string]string{"=0": "zero"}

func hasSelector(forms []PluralForm, sel string) bool {
	for _, f := range forms {
		if f.Selector == sel {
			return true
		}
	}
	return false
}

// NativeToICU writes the text of a native plural form (i18next's, Xcode's) as the text of
// an ICU form: the arguments syntax names (i18next's {{count}}) are kept as written, and
// ICU's syntax characters {, } and # are quoted with apostrophes, apostrophes doubled where
// ICU would read them as quotes, so that ICUToNative gives the text back.
func NativeToICU(text string, syntax Syntax) string {
	if !strings.ContainsAny(text, "{}#'") {
		return text
	}
	var b strings.Builder
	quoted := false
	for _, n := range Parse(text, syntax).Nodes {
		if a, ok := n.(*Arg); ok {
			if quoted {
				b.WriteByte('\'')
				quoted = false
			}
			b.WriteString(a.Raw)
			continue
		}
		s := n.String()
		for i := 0; i < len(s); i++ {
			c := s[i]
			special := c == '{' || c == '}' || c == '#'
			switch {
			case quoted && (special || c == '\''):
				if c == '\'' {
					b.WriteByte('\'')
				}
				b.WriteByte(c)
				continue
			case quoted:
				b.WriteByte('\'')
				quoted = false
			}
			switch {
			case special:
				b.WriteByte('\'')
				b.WriteByte(c)
				quoted = true
			case c == '\'' && i+1 < len(s) && strings.IndexByte("'{}|#", s[i+1]) >= 0:
				b.WriteString("''")
			case c == '\'' && i+1 == len(s):
				// The next node may start with a character that would open a quote.
				b.WriteString("''")
			default:
				b.WriteByte(c)
			}
		}
	}
	if quoted {
		b.WriteByte('\'')
	}
	return b.String()
}

// ICUToNative is the text of an ICU plural form as a native form writes it: '#' becomes
// pound (the format's number placeholder) and quoted text is unquoted.
func ICUToNative(text, pound string) string {
	if !strings.ContainsAny(text, "#'") {
		return text
	}
	s, ok := oneForm(text)
	if !ok {
		return text
	}
	var b strings.Builder
	for _, n := range s.Forms[0].Message.Nodes {
		switch n := n.(type) {
		case *Pound:
			b.WriteString(pound)
		case *Quoted:
			b.WriteString(n.Value)
		default:
			b.WriteString(n.String())
		}
	}
	return b.String()
}

// ReplacePound replaces the '#' of a form's text (the number, outside nested blocks and
// quoting) with what a format writes for it ("%d", "{{count}}", "%{count}").
func ReplacePound(text, with string) string {
	s, ok := oneForm(text)
	if !ok {
		return text
	}
	var b strings.Builder
	for _, n := range s.Forms[0].Message.Nodes {
		if _, ok := n.(*Pound); ok {
			b.WriteString(with)
		} else {
			b.WriteString(n.String())
		}
	}
	return b.String()
}

// oneForm reads text as the one form of a plural block.
func oneForm(text string) (*Select, bool) {
	m := Parse("{n, plural, other {"+text+"}}", FileSyntax)
	if len(m.Nodes) != 1 {
		return nil, false
	}
	s, ok := m.Nodes[0].(*Select)
	if !ok || len(s.Forms) != 1 || s.Tail == "" {
		return nil, false
	}
	return s, true
}
