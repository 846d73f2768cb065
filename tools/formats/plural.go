package formats

import (
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/message/plural"
)

// Inside lokal a plural is one ICU value; every format's edge converts its native forms to
// one and back with the helpers here, so that all codecs agree on which categories a
// language has and on what happens to the ones it lacks.

// valueSyntax is how the codecs read a value's structure (message.FileSyntax, the rule the
// import's plural report shares).
const valueSyntax = message.FileSyntax

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

// Piece is a run of a value: text, or a plural block.
type Piece struct {
	Text   string
	Plural *Plural // nil for text
}

// Pieces splits a value into its top-level plural blocks and the text between them. A
// value without a closed plural or selectordinal block is one text piece.
func Pieces(value string) []Piece {
	m := message.Parse(value, valueSyntax)
	var out []Piece
	var text strings.Builder
	for _, n := range m.Nodes {
		s, ok := n.(*message.Select)
		if !ok || s.Tail == "" || (s.Type != "plural" && s.Type != "selectordinal") {
			text.WriteString(n.String())
			continue
		}
		if text.Len() > 0 {
			out = append(out, Piece{Text: text.String()})
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
		out = append(out, Piece{Plural: p})
	}
	if text.Len() > 0 || len(out) == 0 {
		out = append(out, Piece{Text: text.String()})
	}
	return out
}

// SinglePlural returns the plural block a value consists of, or false when the value is
// anything else (text, or a block with text around it).
func SinglePlural(value string) (*Plural, bool) {
	ps := Pieces(value)
	if len(ps) != 1 || ps[0].Plural == nil {
		return nil, false
	}
	return ps[0].Plural, true
}

// JoinPieces writes pieces back as one value.
func JoinPieces(ps []Piece) string {
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
// CLDR's order: the native forms a file in lang has.
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

// explicitFor is the explicit number a category stands for when the language lacks it.
var explicitFor = map[string]string{"zero": "=0", "one": "=1", "two": "=2"}

// FromNative builds the ICU block of a file's native plural forms in lang: forms keep the
// file's order, a category lang lacks that names one number (Xcode's "zero" for Russian)
// becomes that explicit form ("=0"), unless lang's own forms already have it, and every
// other selector is kept as written (a QA check, not the codec, reports it).
func FromNative(lang, arg string, ordinal bool, forms []PluralForm) *Plural {
	has := Categories(lang, ordinal)
	p := &Plural{Arg: arg, Ordinal: ordinal}
	for _, f := range forms {
		sel := f.Selector
		if !slices.Contains(has, sel) {
			if exp, ok := explicitFor[sel]; ok && !hasSelector(forms, exp) {
				sel = exp
			}
		}
		p.Forms = append(p.Forms, PluralForm{Selector: sel, Text: f.Text})
	}
	return p
}

// ToNative lists the forms a file in lang writes for p: first the explicit forms the
// format can hold (explicit lists the selectors it can, such as "=0" written as "zero"; nil
// for none), then exactly lang's categories in CLDR order. A category p lacks is left out
// and named in missing; explicit forms the format cannot hold are named in dropped.
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
// language (Apple's stringsdict and xcstrings, Android's quantity="zero" is not one).
var ZeroExplicit = map[string]string{"=0": "zero"}

// ReplacePound replaces the '#' of a form's text (the number, outside nested blocks and
// quoting) with what a format writes for it ("%d", "{{count}}", "%{count}").
func ReplacePound(text, with string) string {
	m := message.Parse("{n, plural, other {"+text+"}}", valueSyntax)
	if len(m.Nodes) != 1 {
		return text
	}
	s, ok := m.Nodes[0].(*message.Select)
	if !ok || len(s.Forms) != 1 || s.Tail == "" {
		return text
	}
	var b strings.Builder
	for _, n := range s.Forms[0].Message.Nodes {
		if _, ok := n.(*message.Pound); ok {
			b.WriteString(with)
		} else {
			b.WriteString(n.String())
		}
	}
	return b.String()
}

func hasSelector(forms []PluralForm, sel string) bool {
	for _, f := range forms {
		if f.Selector == sel {
			return true
		}
	}
	return false
}
