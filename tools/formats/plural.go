package formats

import (
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
)

// Inside lokal a plural is one ICU value; every format's edge converts its native forms to
// one and back with the message model's helpers (message.FromNative, message.ToNative), so
// that all codecs, and the doors that read i18next plural families, agree on which
// categories a language has and on what happens to the ones it lacks.

// valueSyntax is how the codecs read a value's structure (message.FileSyntax, the rule the
// import's plural report shares).
const valueSyntax = message.FileSyntax

// The plural model is the message package's; these names keep the codecs short.
type (
	Plural     = message.Plural
	PluralForm = message.PluralForm
	Piece      = message.PluralPiece
)

var (
	Pieces       = message.PluralPieces
	SinglePlural = message.SinglePlural
	JoinPieces   = message.JoinPluralPieces
	Categories   = message.Categories
	FromNative   = message.FromNative
	ToNative     = message.ToNative
	ReplacePound = message.ReplacePound
	// ZeroExplicit is the explicit map of formats whose "zero" form applies to 0 in every
	// language (Apple's stringsdict and xcstrings; Android's quantity="zero" is not one).
	ZeroExplicit = message.ZeroExplicit
)

func nativeToICU(text string, syntax message.Syntax) string { return message.NativeToICU(text, syntax) }
func icuToNative(text, pound string) string                 { return message.ICUToNative(text, pound) }

// explicitFor is the explicit number a category stands for when the language lacks it.
var explicitFor = message.ExplicitFor

func hasSelector(forms []PluralForm, sel string) bool {
	for _, f := range forms {
		if f.Selector == sel {
			return true
		}
	}
	return false
}

// pluralOfForms is the ICU plural on count of a file's native forms, forms in the order
// Encode writes them (explicit ones, then CLDR's order), or "" when writing it back would
// not give the same forms (a category the language lacks that names no number).
func pluralOfForms(lang string, ordinal bool, forms []PluralForm, explicit map[string]string) string {
	p := FromNative(lang, "count", ordinal, forms)
	back, _, dropped := ToNative(lang, p, explicit)
	if len(dropped) > 0 || len(back) != len(forms) {
		return ""
	}
	return FromNative(lang, "count", ordinal, back).String()
}

// nativeLiteral writes a native text (a form's when plural) as ICU that reads back as it
// (message.QuoteLiteral); without quoteBraces, what the text already reads as an argument
// or block ({name}) stays one, the text around it quoted, and a text whose braces do not
// pair is given back as it is (its brace problems send the caller to quoteBraces).
func nativeLiteral(s string, plural, quoteBraces bool) string {
	if quoteBraces || !strings.ContainsAny(s, "{}") {
		return message.QuoteLiteral(s, plural)
	}
	var b strings.Builder
	for _, n := range message.Parse(s, valueSyntax).Nodes {
		switch n.(type) {
		case *message.Text, *message.Quoted:
			if _, q := n.(*message.Quoted); !q && strings.ContainsAny(n.String(), "{}") {
				return s
			}
			b.WriteString(message.QuoteLiteral(n.String(), plural))
		default:
			b.WriteString(n.String())
		}
	}
	return b.String()
}

// formPounds counts the '#'s (the number) of a plural form's text.
func formPounds(text string) int {
	m, ok := message.ParseForm(text)
	if !ok {
		return 0
	}
	n := 0
	for _, x := range m.Nodes {
		if _, ok := x.(*message.Pound); ok {
			n++
		}
	}
	return n
}
