package ai

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/message/plural"
)

// Token brackets. A token is written ⟦N⟧ (U+27E6, decimal index, U+27E7).
// These brackets were chosen over XML-like tokens such as <x id="0"/>
// because they share no character with any syntax we protect ('{', '%',
// '<', '&', '['), so a placeholder a model invents can never be mistaken
// for a token or the other way round; they survive JSON without escaping;
// they carry nothing translatable (models translate attribute values and
// "reformat" XML); and models keep them as single opaque units.
const (
	tokOpen  = "⟦"
	tokClose = "⟧"
)

// Kind says what a token stands for.
type Kind uint8

// Token kinds.
const (
	KindPlaceholder Kind = iota + 1 // an argument of any syntax, an ICU quoted literal
	KindICUOpen                     // "{n, plural, one {": an ICU block and its first form
	KindICUNext                     // "} other {": one form ends, the next begins
	KindICUClose                    // "}}": the last form and the block end
	KindHash                        // "#" inside a plural form
	KindMarkup                      // a tag, a piece of a tag around translatable text, a link's "[" or "](url)"
	KindEntity                      // &amp; &nbsp; &#39;
	KindTerm                        // a do-not-translate term
)

// Token is one protected piece of a text.
type Token struct {
	Raw  string // the exact source bytes it replaces
	Kind Kind
	// Name is the selector of the form an ICU open or next token starts
	// (one, few, =0, male ...).
	Name string
	// Block numbers the plural/select block a skeleton token belongs to.
	Block int
}

// Table holds the tokens of one masked text; token N is Table[N].
type Table []Token

// Placeholder returns how token n is written in masked text.
func Placeholder(n int) string { return tokOpen + strconv.Itoa(n) + tokClose }

// MaskOptions says how to read a text and what to protect beyond its
// syntax.
type MaskOptions struct {
	// Syntax is the set of syntaxes the text is read in; 0 detects them
	// from the text alone.
	Syntax message.Syntax
	// DoNotTranslate terms are matched case-sensitively as whole words.
	DoNotTranslate []string
	// PluralLang, when set, rewrites ICU plural and selectordinal blocks
	// to the CLDR categories of that language before masking (see
	// ExpandPlurals), so that a translation into Polish gets
	// one/few/many/other forms.
	PluralLang string
}

// Masked is a text ready for a model.
type Masked struct {
	Value  string // the source value as given
	Source string // the text that was masked (after plural expansion)
	Text   string // Source with every protected piece replaced by a token
	Table  Table
	Syntax message.Syntax
}

// Mask replaces every piece of syntax of text, as message.Parse reads it in
// o.Syntax (message.Spans: arguments, the skeleton of plural/select blocks
// and '#', tags and the pieces of a tag around translatable attribute
// values, entities, markdown link brackets and targets), and every
// do-not-translate term, by an opaque token. The text in between stays
// translatable.
func Mask(text string, o MaskOptions) Masked {
	syn := o.Syntax
	if syn == 0 {
		syn = message.DetectSyntax([]string{text})
	}
	src := text
	if o.PluralLang != "" {
		src = expandPlurals(text, o.PluralLang, syn)
	}
	m := message.Parse(src, syn)
	_, dnt := message.TermsFor(o.PluralLang, nil, o.DoNotTranslate)
	// Longest first, so "Lokal Cloud" wins over "Lokal".
	slices.SortFunc(dnt, func(a, b string) int { return len(b) - len(a) })

	var out strings.Builder
	var table Table
	block := map[*message.Select]int{}
	emit := func(raw string, k Kind, name string) {
		out.WriteString(Placeholder(len(table)))
		table = append(table, Token{Raw: raw, Kind: k, Name: name})
	}
	text2 := func(s string) {
		for i := 0; i < len(s); {
			if n := termAt(s, i, dnt); n > 0 {
				emit(s[i:i+n], KindTerm, "")
				i += n
				continue
			}
			_, size := utf8.DecodeRuneInString(s[i:])
			out.WriteString(s[i : i+size])
			i += size
		}
	}
	pos := 0
	for _, sp := range message.Spans(m) {
		if q, ok := sp.Node.(*message.Quoted); ok && q.Raw == "''" {
			// An escaped apostrophe is the prose's own (It''s): the
			// model writes whatever apostrophes its language needs.
			continue
		}
		text2(src[pos:sp.Start])
		raw := src[sp.Start:sp.End]
		pos = sp.End
		switch n := sp.Node.(type) {
		case *message.Select:
			if _, ok := block[n]; !ok {
				block[n] = len(block)
			}
			switch sp.Part {
			case message.Open:
				emit(raw, KindICUOpen, n.Forms[0].Selector)
			case message.Inner:
				emit(raw, KindICUNext, nextSelector(n, raw))
			default:
				emit(raw, KindICUClose, "")
			}
			table[len(table)-1].Block = block[n]
		case *message.Pound:
			emit(raw, KindHash, "")
		case *message.Entity:
			emit(raw, KindEntity, "")
		case *message.Arg, *message.Quoted:
			emit(raw, KindPlaceholder, "")
		default:
			emit(raw, KindMarkup, "")
		}
	}
	text2(src[pos:])
	return Masked{Value: text, Source: src, Text: out.String(), Table: table, Syntax: syn}
}

// nextSelector names the form an Inner span of a block starts: the spans
// come in form order, so it is the first form whose prefix ends raw.
func nextSelector(n *message.Select, raw string) string {
	for i := 1; i < len(n.Forms); i++ {
		if raw == n.Forms[i-1].Close+n.Forms[i].Prefix {
			return n.Forms[i].Selector
		}
	}
	return ""
}

// termAt returns the length of the do-not-translate term at s[i] that
// stands as a whole word, or 0.
func termAt(s string, i int, terms []string) int {
	for _, t := range terms {
		if strings.HasPrefix(s[i:], t) && wordBoundary(s, i, i+len(t)) {
			return len(t)
		}
	}
	return 0
}

// wordBoundary reports whether s[i:j] is not glued to a word character on
// either side. ASCII words only stop at ASCII word characters, so a Latin
// brand name inside Japanese text ("Lokalを") still counts as a word.
func wordBoundary(s string, i, j int) bool {
	if i > 0 {
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		first, _ := utf8.DecodeRuneInString(s[i:])
		if glued(before, first) {
			return false
		}
	}
	if j < len(s) {
		after, _ := utf8.DecodeRuneInString(s[j:])
		last, _ := utf8.DecodeLastRuneInString(s[:j])
		if glued(last, after) {
			return false
		}
	}
	return true
}

func glued(a, b rune) bool {
	if !isWord(a) || !isWord(b) {
		return false
	}
	return (a < utf8.RuneSelf) == (b < utf8.RuneSelf)
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// ExpandPlurals rewrites every ICU plural (selectordinal) block of text to
// the CLDR cardinal (ordinal) categories of lang: exact forms (=0) stay, a
// category the source lacks gets a copy of the source's "other" form (for
// the model to translate into that form), and categories the language does
// not use are dropped. Text without such blocks, or a language CLDR has no
// rules for, is returned as is.
func ExpandPlurals(text, lang string) string {
	return expandPlurals(text, lang, message.DetectSyntax([]string{text}))
}

func expandPlurals(text, lang string, syn message.Syntax) string {
	// i18next reads a whole plural block too: the form lokal stores a plural family in.
	if syn&(message.ICU|message.I18next) == 0 || !strings.Contains(text, "plural") && !strings.Contains(text, "selectordinal") {
		return text
	}
	m := message.Parse(text, syn)
	var blocks []*message.Select
	message.Walk(m, func(n message.Node, _ message.Path) bool {
		if s, ok := n.(*message.Select); ok && (s.Type == "plural" || s.Type == "selectordinal") {
			blocks = append(blocks, s)
		}
		return true
	})
	changed := false
	for _, s := range blocks {
		kind := plural.KindCardinal
		if s.Type == "selectordinal" {
			kind = plural.KindOrdinal
		}
		if plural.Locale(lang, kind) == "und" || s.Form("other") == nil || s.Tail == "" {
			continue
		}
		if forms := expandForms(s.Forms, plural.Categories(lang, kind)); forms != nil {
			s.Forms = forms
			changed = true
		}
	}
	if !changed {
		return text
	}
	return m.String()
}

// expandForms returns the forms for cats, or nil when they are the
// source's already.
func expandForms(src []*message.Form, cats []plural.Category) []*message.Form {
	var out []*message.Form
	var other *message.Form
	for _, f := range src {
		if strings.HasPrefix(f.Selector, "=") {
			out = append(out, f)
		}
		if f.Selector == "other" {
			other = f
		}
	}
	for _, c := range cats {
		name := c.String()
		if f := formOf(src, name); f != nil {
			out = append(out, f)
			continue
		}
		out = append(out, &message.Form{Prefix: " " + name + " {", Selector: name, Message: other.Message, Close: "}"})
	}
	if len(out) == len(src) {
		same := true
		for i := range out {
			same = same && out[i] == src[i]
		}
		if same {
			return nil
		}
	}
	return out
}

func formOf(forms []*message.Form, sel string) *message.Form {
	for _, f := range forms {
		if f.Selector == sel {
			return f
		}
	}
	return nil
}

// Unmask puts the raw pieces back in place of the tokens of masked. Text
// that is not a well-formed token of t is left as it is; Verify reports it.
func Unmask(masked string, t Table) string {
	return replaceTokens(masked, func(n int) (string, bool) {
		if n < len(t) {
			return t[n].Raw, true
		}
		return "", false
	})
}

// replaceTokens writes s with each well-formed token numbered n replaced by with(n), when
// with accepts it; other text, and tokens it refuses, stay as they are.
func replaceTokens(s string, with func(n int) (string, bool)) string {
	var b strings.Builder
	for rest := s; ; {
		i := strings.Index(rest, tokOpen)
		if i < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:i])
		if n, size := parseToken(rest[i:]); size > 0 {
			if r, ok := with(n); ok {
				b.WriteString(r)
				rest = rest[i+size:]
				continue
			}
		}
		b.WriteString(tokOpen)
		rest = rest[i+len(tokOpen):]
	}
}

// parseToken reads a token at the start of s and returns its number and
// length, or size 0.
func parseToken(s string) (n, size int) {
	if !strings.HasPrefix(s, tokOpen) {
		return 0, 0
	}
	j := len(tokOpen)
	k := j
	for k < len(s) && k-j < 6 && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	if k == j || !strings.HasPrefix(s[k:], tokClose) {
		return 0, 0
	}
	n, _ = strconv.Atoi(s[j:k])
	return n, k + len(tokClose)
}

// tokens returns the token numbers in masked, in order, and whether any
// token bracket was left that is not part of a well-formed token.
func tokens(masked string) (ids []int, stray bool) {
	for rest := masked; ; {
		i := strings.Index(rest, tokOpen)
		j := strings.Index(rest, tokClose)
		if i < 0 {
			return ids, stray || j >= 0
		}
		if j >= 0 && j < i {
			stray = true
		}
		n, size := parseToken(rest[i:])
		if size == 0 {
			stray = true
			rest = rest[i+len(tokOpen):]
			continue
		}
		ids = append(ids, n)
		rest = rest[i+size:]
	}
}

// stripTokens replaces well-formed tokens by a space.
func stripTokens(s string) string {
	return replaceTokens(s, func(int) (string, bool) { return " ", true })
}
