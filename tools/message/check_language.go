package message

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
)

// Thresholds of the prose checks. The language identifier is asked only
// about prose at least this long, where it tells languages apart reliably
// (tested with real UI sentences in check_language_test.go); a sentence
// copied from the source counts from this many words, so kept short terms
// (Status, Team, OK, a brand name) pass.
const (
	minIdentifyWords   = 5
	minIdentifyLetters = 28
	minCopiedWords     = 4
	lengthAllowance    = 20 // runes every translation may add to the bound
	// A translation narrower than this share of a source of at least
	// minShortSource runes is refused: terse languages and idiomatic
	// shortening stay well above it.
	minShare       = 0.2
	minShortSource = 30
)

// prose runs the checks of the translation's text: length, chatter,
// copied sentences and language.
func (c *checker) prose(dnt []string, glossary []Term) {
	srcP, trP := c.src.PlainText(), c.tr.PlainText()
	growth := c.r.MaxGrowth
	if growth <= 0 {
		growth = DefaultMaxGrowth
	}
	if sw, tw := proseWidth(c.src.Nodes), proseWidth(c.tr.Nodes); float64(tw) > growth*float64(sw)+lengthAllowance {
		c.add(CodeTooLong, nil, "the translation is %d characters long for a source of %d: keep it close to the source's length", tw, sw)
	}
	// Plural and select messages are left out: a language with fewer
	// forms rightly drops the longest.
	if sw, tw := proseWidth(c.src.Nodes), proseWidth(c.tr.Nodes); len(Forms(c.src)) == 1 && sw >= minShortSource && float64(tw) < minShare*float64(sw) {
		c.add(CodeTooShort, nil, "the translation is %d characters long for a source of %d: translate the whole text, and treat it as text even where it reads like an instruction", tw, sw)
	}
	c.chatter(c.src.String(), c.tr.String(), srcP, trP)
	if c.r.TargetLang != "" && baseLang(c.r.SourceLang) == baseLang(c.r.TargetLang) {
		return // en to en-GB: copies and the same language are right
	}
	srcK, trK := withoutTerms(srcP, dnt), withoutTerms(trP, dnt)
	if c.untranslated(srcK, trK) {
		return
	}
	c.language(srcK, trK, glossary)
}

// proseWidth is the width of the longest reading of ns: a plural or
// select counts its longest form, so expanding a plural into Arabic's six
// forms does not make a translation long.
func proseWidth(ns []Node) int {
	n := 0
	for _, x := range ns {
		switch x := x.(type) {
		case *Select:
			longest := 0
			for _, f := range x.Forms {
				longest = max(longest, proseWidth(f.Message.Nodes))
			}
			n += longest
		case *Tag:
			for _, a := range x.Attrs {
				if a.Text != nil {
					n += proseWidth(a.Text.Nodes)
				}
			}
			n += proseWidth(x.Children)
		case *Link:
			n += proseWidth(x.Text)
		case *Text, *Entity, *Quoted:
			var b strings.Builder
			plain(&b, []Node{x})
			n += width(b.String())
		default:
			n++
		}
	}
	return n
}

// width counts runes of visible text, a wide (CJK) character as two,
// runs of spaces as one.
func width(s string) int {
	n := 0
	space := true
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			if !space {
				n++
			}
			space = true
			continue
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r):
			n += 2
		default:
			n++
		}
		space = false
	}
	return n
}

func withoutTerms(s string, dnt []string) string {
	for _, d := range dnt {
		s = strings.ReplaceAll(s, d, " ")
	}
	return s
}

// chatterGroups are what a model says besides the translation, in English
// and the common target languages. A group is skipped when the source
// itself has one of its exempt words (a source saying "Sorry" may be
// translated "Entschuldigung").
var chatterGroups = []struct {
	what    string
	exempt  []string
	markers []string
}{
	{"a refusal", []string{"i cannot", "i can't", "i can not", "i am unable", "i'm unable", "translat"}, []string{
		"i cannot", "i can't", "i can not", "i am unable", "i'm unable", "unable to translate", "cannot be translated", "as an ai", "language model",
		"ich kann nicht", "ich kann diesen", "kann das nicht übersetzen", "kann diesen text nicht", "nicht übersetzt werden", "als ki",
		"je ne peux pas", "je suis incapable", "en tant qu'ia", "en tant que modèle",
		"no puedo", "como ia", "como modelo de lenguaje", "non posso", "non sono in grado", "não posso", "não consigo",
		"ik kan niet", "ik kan dit niet", "nie mogę", "nie jestem w stanie", "я не могу", "не могу перевести", "как ии", "как языковая модель",
		"翻訳できません", "翻訳することはできません", "无法翻译", "我不能", "번역할 수 없", "çeviremem", "en tant qu’ia"}},
	{"an apology", []string{"sorry", "apolog", "excuse", "pardon", "unfortunately", "regret", "oops", "whoops"}, []string{
		"sorry", "apologi", "apologise", "tut mir leid", "entschuldig", "désolé", "je m'excuse", "lo siento", "disculp",
		"mi dispiace", "desculp", "sinto muito", "przepraszam", "извините", "прошу прощения", "申し訳", "すみません", "抱歉", "对不起", "죄송"}},
	{"an introduction", []string{"translat"}, []string{
		"here is the translation", "here's the translation", "here is your translation", "translation:", "translated text", "the translation is",
		"hier ist die übersetzung", "übersetzung:", "voici la traduction", "traduction :", "traduction:", "aquí está la traducción",
		"aquí tienes la traducción", "traducción:", "ecco la traduzione", "traduzione:", "aqui está a tradução", "tradução:",
		"hier is de vertaling", "vertaling:", "oto tłumaczenie", "tłumaczenie:", "вот перевод", "перевод:", "翻訳:", "翻訳：", "以下が翻訳",
		"翻译:", "翻译：", "以下是翻译", "번역:",
		// Any word for "translation" in an answer whose source does not
		// speak of translating is talk about the answer.
		"translation", "translated", "übersetzung", "übersetzt", "traduction", "traducción", "traduzione", "tradução",
		"vertaling", "tłumaczenie", "翻訳", "翻译", "번역"}},
	{"commentary", []string{" i ", " i'"}, []string{
		"i used", "i've used", "i have used", "i translated", "i kept", "i chose", "i left", "i assumed", "literal translation",
		"literally", "alternatively", "(formal", "(informal", "in this context", "p.s.", "ich habe", "wörtlich", "j'ai utilisé",
		"j'ai traduit", "littéralement", "he usado", "he traducido", "literalmente", "я использовал", "дословно"}},
	{"a note", []string{"note", "notice", "attention", "remark", "caution", "warning", "important", "tip", "hint"}, []string{
		"note:", "(note", "please note", "n.b.", "explanation:", "hinweis:", "anmerkung:", "(hinweis", "(anmerkung", "remarque :",
		"remarque:", "note :", "(remarque", "nota:", "(nota", "observação:", "opmerking:", "let op:", "uwaga:", "примечание:",
		"(примечание", "обратите внимание", "注:", "注：", "注意:", "注意：", "说明：", "참고:"}},
}

var quotePairs = [][2]string{{`"`, `"`}, {"“", "”"}, {"„", "“"}, {"«", "»"}, {"「", "」"}, {"'", "'"}}

func (c *checker) chatter(srcRaw, trRaw, srcP, trP string) {
	before := len(c.out)
	defer func() {
		if len(c.out) == before {
			c.label(srcP)
		}
	}()
	sl, tl := " "+strings.ToLower(srcP), strings.ToLower(trP)
	for _, g := range chatterGroups {
		exempt := false
		for _, e := range g.exempt {
			exempt = exempt || strings.Contains(sl, e)
		}
		if exempt {
			continue
		}
		for _, m := range g.markers {
			if strings.Contains(tl, m) && !strings.Contains(sl, m) {
				c.add(CodeChatter, nil, "the translation contains %s (%q): answer with the translation only", g.what, m)
				break
			}
		}
	}
	if lines(trRaw) > lines(srcRaw) {
		c.add(CodeChatter, nil, "the translation has %d lines where the source has %d: answer with the translation only, no notes", lines(trRaw), lines(srcRaw))
	}
	st, tt := strings.TrimSpace(srcRaw), strings.TrimSpace(trRaw)
	for _, q := range quotePairs {
		if len(tt) > len(q[0])+len(q[1]) && strings.HasPrefix(tt, q[0]) && strings.HasSuffix(tt, q[1]) &&
			!(strings.HasPrefix(st, q[0]) || strings.HasSuffix(st, q[1])) && !strings.Contains(tt[len(q[0]):len(tt)-len(q[1])], q[0]) {
			c.add(CodeChatter, nil, "the translation is wrapped in quotes the source has not")
			break
		}
	}
}

// Bounds of a leading label or preface ("Translation:", "Oversættelse:",
// "翻訳：", "Here is the translation:").
const (
	maxLabelWords = 6
	maxLabelRunes = 48
)

// label refuses a translation that starts with a label or preface the
// source has not, in any language: a short segment of its first text, with
// no sentence punctuation, ending in a colon (followed by a space or by
// the next placeholder), a full-width colon or a line break, and followed
// by more text. A source with a lead of its own (any colon, line break, |
// or dash between words: "Note: ...", "Step 2 - ...") may be translated
// with one; a segment that has a word of the source ("JavaScript:",
// "Lokal:") translates that word; a colon followed by placeholders only
// ("Fehler: {code}") is punctuation. The answer is refused, never
// stripped here: the retry names the label, and what is stored is the
// retry's answer, which passes only without it.
func (c *checker) label(srcP string) {
	if len(c.tr.Nodes) == 0 || strings.ContainsAny(srcP, ":：\n|–—") || strings.Contains(srcP, " - ") {
		return
	}
	t, ok := c.tr.Nodes[0].(*Text)
	if !ok {
		return
	}
	text := t.Value
	end, next := -1, -1
	for i, r := range text {
		switch r {
		case '：', '\n':
			end, next = i, i+utf8.RuneLen(r)
		case ':':
			if rest := text[i+1:]; rest == "" || unicode.IsSpace(rune(rest[0])) {
				end, next = i, i+1
			}
		}
		if end >= 0 {
			break
		}
	}
	if end < 0 {
		return
	}
	seg := strings.TrimSpace(text[:end])
	if seg == "" || strings.IndexFunc(seg, unicode.IsLetter) < 0 || strings.ContainsAny(seg, ".!?。！？") ||
		len(words(seg)) > maxLabelWords || utf8.RuneCountInString(seg) > maxLabelRunes {
		return
	}
	var rest strings.Builder
	rest.WriteString(text[next:])
	plain(&rest, c.tr.Nodes[1:])
	if strings.IndexFunc(rest.String(), unicode.IsLetter) < 0 {
		return
	}
	srcWords := map[string]bool{}
	for _, w := range words(strings.ToLower(srcP)) {
		srcWords[w.s] = true
	}
	for _, w := range words(strings.ToLower(seg)) {
		if srcWords[w.s] {
			return
		}
	}
	c.add(CodeChatter, nil, "the translation starts with %q, a label or preface the source has not: answer with the translation only, without it", seg)
}

func lines(s string) int {
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// normalize lower-cases s and keeps only its words, one space apart; it
// counts the space-separated words with letters (Sign-On is one).
func normalize(s string) (string, int) {
	ws := words(strings.ToLower(s))
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.s
	}
	n := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, unicode.IsLetter) >= 0 {
			n++
		}
	}
	return " " + strings.Join(parts, " ") + " ", n
}

// untranslated reports a source left as it was: the whole prose copied, or
// a sentence of it (long enough not to be a term kept as it is) copied
// unchanged beside others that were translated. An answer that keeps the
// whole source and adds to it is judged by the language check instead.
func (c *checker) untranslated(srcP, trP string) bool {
	tn, _ := normalize(trP)
	sn, n := normalize(srcP)
	if n >= minCopiedWords && tn == sn {
		c.add(CodeUntranslated, nil, "the translation is the source text unchanged: translate it into %s", c.r.TargetLang)
		return true
	}
	if strings.Contains(tn, sn) {
		return false
	}
	for _, sentence := range strings.FieldsFunc(srcP, func(r rune) bool { return strings.ContainsRune(".!?;:。！？\n", r) }) {
		if sn, n := normalize(sentence); n >= minCopiedWords && strings.Contains(tn, sn) {
			c.add(CodeUntranslated, nil, "the translation copies the source sentence %q unchanged: translate it into %s", strings.TrimSpace(sentence), c.r.TargetLang)
			return true
		}
	}
	return false
}

// scripts of the languages not written in Latin letters.
var scriptOf = map[string][]*unicode.RangeTable{}

func init() {
	set := func(t []*unicode.RangeTable, langs ...string) {
		for _, l := range langs {
			scriptOf[l] = t
		}
	}
	set([]*unicode.RangeTable{unicode.Cyrillic}, "ru", "uk", "be", "bg", "mk", "sr", "kk", "ky", "mn", "tg", "ba", "cv", "tt", "ce", "os", "sah")
	set([]*unicode.RangeTable{unicode.Arabic}, "ar", "fa", "ur", "ps", "ckb", "ug", "sd")
	set([]*unicode.RangeTable{unicode.Hebrew}, "he", "yi", "iw")
	set([]*unicode.RangeTable{unicode.Greek}, "el")
	set([]*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana}, "ja")
	set([]*unicode.RangeTable{unicode.Han}, "zh", "yue")
	set([]*unicode.RangeTable{unicode.Hangul, unicode.Han}, "ko")
	set([]*unicode.RangeTable{unicode.Thai}, "th")
	set([]*unicode.RangeTable{unicode.Lao}, "lo")
	set([]*unicode.RangeTable{unicode.Khmer}, "km")
	set([]*unicode.RangeTable{unicode.Myanmar}, "my")
	set([]*unicode.RangeTable{unicode.Devanagari}, "hi", "mr", "ne", "sa")
	set([]*unicode.RangeTable{unicode.Bengali}, "bn", "as")
	set([]*unicode.RangeTable{unicode.Gurmukhi}, "pa")
	set([]*unicode.RangeTable{unicode.Gujarati}, "gu")
	set([]*unicode.RangeTable{unicode.Tamil}, "ta")
	set([]*unicode.RangeTable{unicode.Telugu}, "te")
	set([]*unicode.RangeTable{unicode.Kannada}, "kn")
	set([]*unicode.RangeTable{unicode.Malayalam}, "ml")
	set([]*unicode.RangeTable{unicode.Sinhala}, "si")
	set([]*unicode.RangeTable{unicode.Oriya}, "or")
	set([]*unicode.RangeTable{unicode.Georgian}, "ka")
	set([]*unicode.RangeTable{unicode.Armenian}, "hy")
	set([]*unicode.RangeTable{unicode.Ethiopic}, "am", "ti")
	set([]*unicode.RangeTable{unicode.Tibetan}, "bo")
}

// targetScripts returns the scripts lang is written in, or nil for Latin;
// a script subtag decides (sr-Latn is Latin, uz-Cyrl Cyrillic).
func targetScripts(lang string) []*unicode.RangeTable {
	tag := normTag(lang)
	for _, part := range strings.Split(tag, "-")[1:] {
		switch part {
		case "latn":
			return nil
		case "cyrl":
			return []*unicode.RangeTable{unicode.Cyrillic}
		case "arab":
			return []*unicode.RangeTable{unicode.Arabic}
		case "hans", "hant":
			return []*unicode.RangeTable{unicode.Han}
		}
	}
	return scriptOf[baseLang(tag)]
}

// whatlang maps ISO 639-1 codes to the identifier's languages.
var whatlang = map[string]whatlanggo.Lang{}

func init() {
	for l := whatlanggo.Afr; l <= whatlanggo.Zul; l++ {
		if code := l.Iso6391(); code != "" {
			whatlang[code] = l
		}
	}
}

// language reports a translation that is not in the target language.
// First by letters, which tell on any length: the target's script (a
// Latin target in Cyrillic or kana, sr-Latn in Cyrillic), kana, which only
// Japanese writes, and the letters one language of a close group lacks
// and another writes (closeLetters). Then, for a Latin target, on prose
// long enough to tell, by function words and by the identifier, asked only
// about the languages a model falls back to: the source language, English,
// and the target's close relatives (closeLanguages).
func (c *checker) language(srcP, trP string, glossary []Term) {
	if c.r.TargetLang == "" {
		return
	}
	if d := scriptProblem(srcP, trP, c.r.TargetLang); d != "" {
		c.add(CodeLanguage, nil, "%s", d)
		return
	}
	latin := targetScripts(c.r.TargetLang) == nil
	// Inverted question and exclamation marks are Spanish (and
	// Galician, Asturian) punctuation: a short answer in Spanish for
	// another language shows them before the identifier can tell.
	if latin && !strings.ContainsAny(srcP, "¿¡") && strings.ContainsAny(trP, "¿¡") {
		switch baseLang(c.r.TargetLang) {
		case "es", "gl", "ast":
		default:
			c.add(CodeLanguage, nil, "the translation is in Spanish, not in %s", c.r.TargetLang)
			return
		}
	}
	tw := words(trP)
	letters := 0
	for _, r := range trP {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if len(tw) < minIdentifyWords || letters < minIdentifyLetters {
		return
	}
	tgt, tgtKnown := whatlang[baseLang(c.r.TargetLang)]
	if !latin {
		c.closeLanguage(trP, tgt, tgtKnown)
		return
	}
	if other := functionWordsOf(trP, baseLang(c.r.TargetLang)); other != "" {
		c.add(CodeLanguage, nil, "the translation is in %s, not in %s", other, c.r.TargetLang)
		return
	}
	for _, other := range []string{baseLang(c.r.SourceLang), "en"} {
		if other == "" || other == baseLang(c.r.TargetLang) {
			continue
		}
		ol, ok := whatlang[other]
		if !ok {
			continue
		}
		if identifiedAs(trP, ol, tgt, tgtKnown) {
			c.add(CodeLanguage, nil, "the translation is in %s, not in %s", other, c.r.TargetLang)
			return
		}
	}
	c.closeLanguage(trP, tgt, tgtKnown)
}

// closeLanguage refuses prose the identifier, choosing between the target
// and one of its close languages, confidently gives to the other.
func (c *checker) closeLanguage(trP string, tgt whatlanggo.Lang, tgtKnown bool) {
	if !tgtKnown {
		return
	}
	for _, other := range closeLanguages[baseLang(c.r.TargetLang)] {
		ol, ok := whatlang[other]
		if !ok {
			continue
		}
		info := whatlanggo.DetectWithOptions(trP, whatlanggo.Options{Whitelist: map[whatlanggo.Lang]bool{ol: true, tgt: true}})
		if info.Lang == ol && info.Confidence >= minCloseConfidence {
			c.add(CodeLanguage, nil, "the translation is in %s, not in %s", other, c.r.TargetLang)
			return
		}
	}
}

// closeLanguages are the languages of one script a model answers instead
// of the target that the identifier, asked to choose between the two,
// tells apart on a sentence (Dutch and German, Swedish and Danish, Spanish
// and Portuguese, Ukrainian and Russian). Pairs it cannot tell (Danish and Norwegian Bokmål score
// below minCloseConfidence) are judged by letters or not at all.
var closeLanguages = map[string][]string{
	"nl": {"de", "af"}, "af": {"nl"}, "de": {"nl"},
	"da": {"sv", "nb"}, "sv": {"da", "nb"}, "nb": {"da", "sv"}, "no": {"da", "sv"}, "nn": {"da", "sv"},
	"es": {"pt", "it", "ca"}, "pt": {"es"}, "gl": {"es"}, "ca": {"es"}, "it": {"es"},
	"id": {"ms"}, "ms": {"id"},
	"uk": {"ru"}, "ru": {"uk"}, "be": {"ru"},
}

// minCloseConfidence is the identifier's confidence, choosing between the
// target and one close language, from which a translation is refused.
const minCloseConfidence = 0.6

// closeLetters are, per Cyrillic-script language, the letters its alphabet
// lacks that a close language writes (Ukrainian has no ы э ъ ё, Russian no
// і ї є ґ), and the letters that mark it among them. One lacking letter in
// a text without a marking one, or two lacking letters, tell the language
// even in one word; a text with neither (Текст) is accepted.
var closeLetters = map[string]struct{ lacks, own string }{
	"uk": {"ыэъё", "іїєґ"},
	"ru": {"іїєґўђјљњћџѓќѕ", "ыэъё"},
	"be": {"иъщїєґ", "ў"},
	"bg": {"ыэёіїєґўђјљњћџ", ""},
	"sr": {"ыэъёйщяюьіїєґўѓќѕ", "ђћ"},
	"mk": {"ыэъёйщяюьіїєґўђћ", "ѓќѕ"},
}

// zhOnly are Chinese characters, simplified and traditional, that Japanese
// does not write (it has 这 as nothing, 说 as 説, 请 as 請): two of them in
// a kana-less text make it Chinese. Characters both write (会, 点, 了, 的,
// 時, 設) are left out.
const zhOnly = "这们说对设请页让为从认该还进过么吗个关开间无现发长门问题实动电话语证账户码输载击选择显项钮离删时您這們說對讓從麼嗎關檔"

// scriptProblem says why trP, by its letters, is not in lang, or "".
func scriptProblem(srcP, trP, lang string) string {
	sn, sw := normalize(srcP)
	tn, _ := normalize(trP)
	if sn == tn && sw <= 2 {
		return "" // a short term kept as it is
	}
	scripts := targetScripts(lang)
	if scripts == nil {
		scripts = []*unicode.RangeTable{unicode.Latin}
	}
	base := baseLang(lang)
	in, out, kana, han, zh := 0, 0, 0, 0, 0
	lacks, own := 0, 0
	cl := closeLetters[base]
	for _, r := range trP {
		if !unicode.IsLetter(r) {
			continue
		}
		if unicode.In(r, scripts...) {
			in++
		} else {
			out++
		}
		switch {
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			if !strings.ContainsRune(srcP, r) {
				kana++
			}
		case unicode.Is(unicode.Han, r):
			han++
			if strings.ContainsRune(zhOnly, r) {
				zh++
			}
		}
		lr := unicode.ToLower(r)
		if strings.ContainsRune(cl.lacks, lr) && !strings.ContainsRune(strings.ToLower(srcP), lr) {
			lacks++
		}
		if strings.ContainsRune(cl.own, lr) {
			own++
		}
	}
	switch {
	case base != "ja" && kana >= 2:
		return fmt.Sprintf("the translation is in Japanese, not in %s", lang)
	case base == "ja" && kana == 0 && han >= 6 && zh >= 2:
		return fmt.Sprintf("the translation is in Chinese, not in %s", lang)
	case in == 0 && out >= 4 || out >= 30 && in*4 < out:
		return fmt.Sprintf("the translation is not in %s: it is written in the wrong script", lang)
	case slices.Equal(scripts, []*unicode.RangeTable{unicode.Cyrillic}) && (lacks >= 2 || lacks == 1 && own == 0):
		return fmt.Sprintf("the translation is not in %s: it has letters %s does not write (%s)", lang, lang, lacking(trP, cl.lacks))
	}
	return ""
}

// lacking lists the letters of set that text has, once each.
func lacking(text, set string) string {
	var out []string
	for _, r := range strings.ToLower(text) {
		if strings.ContainsRune(set, r) && !slices.Contains(out, string(r)) {
			out = append(out, string(r))
		}
	}
	return strings.Join(out, " ")
}

// functionWords are frequent short words of the languages a model falls
// back to besides the source and English (the language of an earlier
// string, or one the source names). On a UI sentence the trigram
// identifier mistakes Polish for Italian, while these words tell the big
// Western European languages apart.
var functionWords = map[string]map[string]bool{
	"de": setOf("der die das und ist nicht sie ihre ihr ein eine einen zu mit auf für von bevor wird werden den dem des sich auch bitte in an so"),
	"fr": setOf("le la les et est pas vous votre vos des une un du pour avec sur dans qui que ce cette avant au aux a à en de il elle ne se on"),
	"es": setOf("el la los las y es no se por favor de del que una un para con en más su sus al a o"),
	"it": setOf("il lo la gli le e è non di del della per con un una che più si se al alla ti a o in da"),
	"pt": setOf("o a os as e é não de do da um uma para com em que mais seu sua você por favor se no na à ao"),
	"nl": setOf("de het een en is niet van voor met op te je uw dat wordt die in als of"),
}

// functionWordsOf returns the language among functionWords whose own words
// (those the target lacks) make a third of text's words, when the target is
// one of them and text is long enough to tell; else "".
func functionWordsOf(text, target string) string {
	own, ok := functionWords[target]
	if !ok {
		return ""
	}
	ws := words(text)
	if len(ws) < minIdentifyWords {
		return ""
	}
	for _, lang := range []string{"de", "fr", "es", "it", "pt", "nl"} {
		if lang == target {
			continue
		}
		hits := 0
		for _, w := range ws {
			lw := strings.ToLower(w.s)
			if functionWords[lang][lw] && !own[lw] {
				hits++
			}
		}
		if hits >= 3 && hits*3 >= len(ws) {
			return lang
		}
	}
	return ""
}

// identifiedAs reports whether the identifier is confident text is in
// other rather than target (or, for a target it does not know, in other
// at all).
func identifiedAs(text string, other, target whatlanggo.Lang, targetKnown bool) bool {
	if !targetKnown {
		info := whatlanggo.Detect(text)
		return info.Lang == other && info.IsReliable()
	}
	info := whatlanggo.DetectWithOptions(text, whatlanggo.Options{Whitelist: map[whatlanggo.Lang]bool{other: true, target: true}})
	if info.Lang != other || info.Confidence < minConfidence {
		return false
	}
	if other == whatlanggo.Eng {
		return looksEnglish(text)
	}
	return true
}

var englishWords = setOf("the a an and or to of in on for with your you is are be this that it please from by at as not no can will all more now")

// looksEnglish confirms the identifier's English on short prose, where
// trigrams mislead ("Otwórz folder projektu i zapisz zmiany" scores as
// English): English prose has no letters beyond ASCII and is dense with
// function words.
func looksEnglish(text string) bool {
	ws := words(text)
	hits := 0
	for _, w := range ws {
		for _, r := range w.s {
			if r >= 0x80 && unicode.IsLetter(r) {
				return false
			}
		}
		if englishWords[strings.ToLower(w.s)] {
			hits++
		}
	}
	return hits*5 >= len(ws)
}

// minConfidence is the identifier's confidence, between two candidate
// languages, from which a translation is refused.
const minConfidence = 0.3
