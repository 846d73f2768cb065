package message

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/arabic"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/finnish"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/hungarian"
	"github.com/blevesearch/snowballstem/irish"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/romanian"
	"github.com/blevesearch/snowballstem/russian"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
	"github.com/blevesearch/snowballstem/tamil"
	"github.com/blevesearch/snowballstem/turkish"
)

// TermKey is what makes two glossary source terms the same term ("Account " and
// "account"): TermsFor applies one target per key and locale, and the catalogue refuses a
// second pair for the same key and locale.
func TermKey(source string) string { return strings.ToLower(strings.TrimSpace(source)) }

// TermsFor returns the glossary entries and do-not-translate terms that
// apply to lang: entries for "all" (or no locale), for lang's language
// ("de" applies to de-AT) and for lang itself; where several give the same
// source term, the most specific wins (de-AT over de over all). Entries
// without a source or target and blank DNT terms are dropped, duplicates
// once. This is the one rule of which terms apply, for the AI, the
// checkup, the editor and the evals.
func TermsFor(lang string, glossary []Term, dnt []string) ([]Term, []string) {
	tag := normTag(lang)
	base := baseLang(tag)
	rank := func(loc string) int {
		l := normTag(loc)
		switch {
		case l == "" || l == "all" || l == "*":
			return 1
		case l == tag:
			return 3
		case l == base:
			return 2
		}
		return 0
	}
	best := map[string]int{}
	chosen := map[string]Term{}
	for _, t := range glossary {
		src, tgt := strings.TrimSpace(t.Source), strings.TrimSpace(t.Target)
		r := rank(t.Locale)
		if src == "" || tgt == "" || r == 0 {
			continue
		}
		k := TermKey(src)
		if r > best[k] {
			best[k] = r
			chosen[k] = Term{Source: src, Target: tgt, Locale: t.Locale}
		}
	}
	terms := make([]Term, 0, len(chosen))
	for _, t := range chosen {
		terms = append(terms, t)
	}
	sort.Slice(terms, func(i, j int) bool { return strings.ToLower(terms[i].Source) < strings.ToLower(terms[j].Source) })
	var out []string
	seen := map[string]bool{}
	for _, d := range dnt {
		d = strings.TrimSpace(d)
		if d != "" && !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return terms, out
}

// normTag lower-cases a BCP 47 tag and writes '_' as '-'.
func normTag(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "_", "-")
}

// baseLang is the language subtag: "pt" for pt-BR.
func baseLang(tag string) string {
	tag = normTag(tag)
	if i := strings.IndexByte(tag, '-'); i >= 0 {
		return tag[:i]
	}
	return tag
}

// word is a run of letters, digits and marks with its byte offsets.
type word struct {
	s          string
	start, end int
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// scriptClass groups letters by the scripts that separate words with
// spaces; a change of script ends a word ("Lokalの設定" is Lokal and の設定).
func scriptClass(r rune) byte {
	switch {
	case r < 0x80 || unicode.Is(unicode.Latin, r):
		return 'L'
	case unicode.Is(unicode.Cyrillic, r):
		return 'C'
	case unicode.Is(unicode.Greek, r):
		return 'G'
	case unicode.Is(unicode.Arabic, r):
		return 'A'
	case unicode.Is(unicode.Hebrew, r):
		return 'H'
	case unicode.IsMark(r):
		return 'M'
	}
	return 'O'
}

// joined reports whether a and b are letters of one word.
func joined(a, b rune) bool {
	if !isWordRune(a) || !isWordRune(b) {
		return false
	}
	ca, cb := scriptClass(a), scriptClass(b)
	return ca == cb || ca == 'M' || cb == 'M' || unicode.IsDigit(a) || unicode.IsDigit(b)
}

func words(s string) []word {
	var out []word
	start := -1
	prev := rune(-1)
	for i, r := range s {
		if start >= 0 && isWordRune(r) && !joined(prev, r) {
			out = append(out, word{s[start:i], start, i})
			start = -1
		}
		prev = r
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			out = append(out, word{s[start:i], start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, word{s[start:], start, len(s)})
	}
	return out
}

var stemmers = map[string]func(*snowballstem.Env) bool{
	"ar": arabic.Stem, "da": danish.Stem, "nl": dutch.Stem, "en": english.Stem, "fi": finnish.Stem,
	"fr": french.Stem, "de": german.Stem, "hu": hungarian.Stem, "ga": irish.Stem, "it": italian.Stem,
	"no": norwegian.Stem, "nb": norwegian.Stem, "nn": norwegian.Stem, "pt": portuguese.Stem,
	"ro": romanian.Stem, "ru": russian.Stem, "es": spanish.Stem, "sv": swedish.Stem, "ta": tamil.Stem,
	"tr": turkish.Stem,
}

// matcher finds a term's words in text in one language: by Snowball stem
// where there is a stemmer for the language. Otherwise (Polish, Czech,
// Greek, ...) a word of the text is the term's word when, Greek accents
// and final sigma folded, it starts with all of a word of four letters, or
// with all but the last two letters of a longer one, and has at most three
// letters after what it shares: Polish plik, pliki; przestrzeń,
// przestrzeni; Czech složka, složky; Greek χώρος, χώρου; πίνακας, πινάκων.
// A word that shares the letters but goes on longer is another word
// (πινακίδας is not πίνακας).
type matcher struct {
	stem func(*snowballstem.Env) bool
	env  *snowballstem.Env
	// unspaced: a language written without spaces between words, where a
	// term is found as a substring.
	unspaced bool
	// The words of the last text searched, and their stems.
	text      string
	textWords []word
	textStems []string
}

var unspacedLangs = map[string]bool{"ja": true, "zh": true, "th": true, "lo": true, "km": true, "my": true, "bo": true}

func newMatcher(lang string) *matcher {
	b := baseLang(lang)
	return &matcher{stem: stemmers[b], env: snowballstem.NewEnv(""), unspaced: unspacedLangs[b]}
}

func (m *matcher) norm(w string) string {
	// Russian writes ё as е as often as not, and the Snowball stemmer
	// knows only е: счёт and счета are the same word.
	w = strings.ReplaceAll(strings.ToLower(w), "ё", "е")
	if m.stem == nil {
		return w
	}
	m.env.SetCurrent(w)
	m.stem(m.env)
	return m.env.Current()
}

func (m *matcher) same(termWord, textWord string) bool {
	if strings.EqualFold(termWord, textWord) {
		return true
	}
	if m.stem != nil {
		return m.norm(termWord) == m.norm(textWord)
	}
	t, w := []rune(foldAccents(termWord)), []rune(foldAccents(textWord))
	if len(t) < 4 {
		return false
	}
	cp := 0
	for cp < len(t) && cp < len(w) && t[cp] == w[cp] {
		cp++
	}
	// A four-letter word keeps all its letters; a longer one may change
	// its last two (Polish przestrzeń, przestrzeni; robocza, roboczej).
	need := len(t)
	if len(t) >= 5 {
		need = len(t) - 2
	}
	return cp >= need && len(w)-cp <= 3
}

// accentFold maps the Greek vowels with tonos or dialytika to the bare
// vowel and final sigma to sigma: Greek moves the accent when it inflects
// (πίνακας, πινάκων), which would cut the shared prefix at its first
// letters.
var accentFold = strings.NewReplacer("ά", "α", "έ", "ε", "ή", "η", "ί", "ι", "ό", "ο", "ύ", "υ", "ώ", "ω",
	"ϊ", "ι", "ϋ", "υ", "ΐ", "ι", "ΰ", "υ", "ς", "σ")

// foldAccents lower-cases w and folds what accentFold folds.
func foldAccents(w string) string { return accentFold.Replace(strings.ToLower(w)) }

// find reports whether the words of term occur in text as whole,
// consecutive words: never inside another word (App is not in
// Applikation).
func (m *matcher) find(term, text string) bool {
	if m.unspaced {
		return strings.Contains(strings.ToLower(text), strings.ToLower(term))
	}
	tw := words(term)
	if len(tw) == 0 {
		return false
	}
	if m.text != text || m.textWords == nil {
		m.text, m.textWords, m.textStems = text, words(text), nil
		if m.stem != nil {
			for _, w := range m.textWords {
				m.textStems = append(m.textStems, m.norm(w.s))
			}
		}
	}
	xw := m.textWords
	var ts []string
	if m.stem != nil {
		for _, t := range tw {
			ts = append(ts, m.norm(t.s))
		}
	}
outer:
	for i := 0; i+len(tw) <= len(xw); i++ {
		for j, t := range tw {
			x := xw[i+j].s
			switch {
			case strings.EqualFold(t.s, x):
			case m.stem != nil:
				if ts[j] != m.textStems[i+j] {
					continue outer
				}
			case !m.same(t.s, x):
				continue outer
			}
		}
		return true
	}
	return false
}

// maxEnding is the most letters glued after a DNT term that still count as
// a grammatical ending (Finnish Lokalissa); more make another word
// (Lokalisierung).
const maxEnding = 5

// containsDNT reports whether term occurs in text verbatim, starting at a
// word boundary; up to maxEnding letters glued after it are a grammatical
// ending (Finnish Lokalin, English Lokal's).
func containsDNT(text, term string) bool {
	for i := 0; i <= len(text)-len(term); {
		j := strings.Index(text[i:], term)
		if j < 0 {
			return false
		}
		at := i + j
		r, _ := utf8.DecodeLastRuneInString(text[:at])
		first, _ := utf8.DecodeRuneInString(term)
		if at == 0 || !joined(r, first) {
			last, _ := utf8.DecodeLastRuneInString(term)
			n := 0
			for _, c := range text[at+len(term):] {
				if !joined(last, c) || n > maxEnding {
					break
				}
				last = c
				n++
			}
			if n <= maxEnding {
				return true
			}
		}
		i = at + 1
	}
	return false
}

// containsWord is containsDNT with a boundary after the term too, for
// finding a DNT term in the source.
func containsWord(text, term string) bool {
	for i := 0; i <= len(text)-len(term); {
		j := strings.Index(text[i:], term)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(term)
		before, _ := utf8.DecodeLastRuneInString(text[:at])
		after, _ := utf8.DecodeRuneInString(text[end:])
		first, _ := utf8.DecodeRuneInString(term)
		last, _ := utf8.DecodeLastRuneInString(term)
		if (at == 0 || !joined(before, first)) && (end == len(text) || !joined(last, after)) {
			return true
		}
		i = at + 1
	}
	return false
}

// terms checks the DNT terms and glossary entries the source uses.
func (c *checker) terms(glossary []Term, dnt []string) {
	srcText, trText := c.src.PlainText(), c.tr.PlainText()
	for _, d := range dnt {
		if containsWord(srcText, d) && !containsDNT(trText, d) {
			c.add(CodeDNT, nil, "%q must stay as it is (not translated, same spelling and case); an ending glued to it is fine", d)
		}
	}
	if len(glossary) == 0 {
		return
	}
	sm, tm := newMatcher(c.r.SourceLang), newMatcher(c.r.TargetLang)
	trR := readings(c.tr)
	srcForms := map[string]*FormContent{}
	for _, f := range Forms(c.src) {
		srcForms[f.Path.String()] = f
	}
	for _, t := range glossary {
		if !sm.find(t.Source, srcText) {
			continue
		}
		// Each reading of the translation (the text shown for one choice of
		// its plural and select forms) that answers a source reading with
		// the term must have the target.
		var lack []Path
		checked := false
		for _, r := range trR {
			sp, ok := c.mapPath(r.path, srcForms)
			if !ok {
				continue
			}
			checked = true
			if sm.find(t.Source, readingText(c.src, sp, true)) && !tm.find(t.Target, r.text) {
				lack = append(lack, r.path)
			}
		}
		switch {
		case !checked && !tm.find(t.Target, trText), len(lack) > 0 && len(lack) == len(trR):
			c.add(CodeGlossary, nil, "the glossary translates %q as %q, which the translation does not use", t.Source, t.Target)
		default:
			for _, p := range lack {
				c.add(CodeGlossary, p, "the glossary translates %q as %q, which %s does not use", t.Source, t.Target, formName(p))
			}
		}
	}
}

// reading is the text shown for one choice of a message's plural and
// select forms: a form without blocks of its own, with the text of the
// forms around it.
type reading struct {
	path Path
	text string
}

// readings returns the readings of m, one per innermost form; a message
// without plural or select has one, its whole text.
func readings(m *Message) []reading {
	var out []reading
	for _, f := range Forms(m) {
		if len(f.Selects) > 0 {
			continue
		}
		out = append(out, reading{f.Path, readingText(m, f.Path, true)})
	}
	return out
}

// readingText is the plain text of the form at p and of the forms around
// it, leaving out every other form of their blocks; inner keeps the text
// of blocks nested in the form itself (for a source form whose blocks a
// translation may have flattened). Blocks are counted per form, tags
// included, as Forms counts them.
func readingText(m *Message, p Path, inner bool) string {
	var b strings.Builder
	var visit func(ns []Node, depth int, nth map[string]int)
	visit = func(ns []Node, depth int, nth map[string]int) {
		for _, n := range ns {
			switch n := n.(type) {
			case *Select:
				k := n.Arg + "\x00" + n.Type
				i := nth[k]
				nth[k]++
				b.WriteByte(' ')
				if depth >= len(p) {
					if inner {
						plain(&b, []Node{n})
					}
					continue
				}
				s := p[depth]
				if s.Arg != n.Arg || s.Type != n.Type || s.Nth != i {
					continue
				}
				if f := n.Form(s.Selector); f != nil {
					visit(f.Message.Nodes, depth+1, map[string]int{})
				}
				b.WriteByte(' ')
			case *Tag:
				b.WriteByte(' ')
				for _, a := range n.Attrs {
					if a.Text != nil {
						visit(a.Text.Nodes, depth, nth)
						b.WriteByte(' ')
					}
				}
				visit(n.Children, depth, nth)
				b.WriteByte(' ')
			case *Link:
				b.WriteByte(' ')
				visit(n.Text, depth, nth)
				b.WriteByte(' ')
			default:
				plain(&b, []Node{n})
			}
		}
	}
	visit(m.Nodes, 0, map[string]int{})
	return b.String()
}

// GlossaryTargetFound reports whether a glossary target appears in text the
// way Check requires it: as whole words at word boundaries, allowing the
// inflection of lang. The checkup and the editor call it so that every door
// judges a glossary term alike.
func GlossaryTargetFound(lang, target, text string) bool {
	return newMatcher(lang).find(target, text)
}
