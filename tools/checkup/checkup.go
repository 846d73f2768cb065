package checkup

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
)

// Input is everything Analyze looks at for one project.
type Input struct {
	SourceLanguage string
	Languages      []string // enabled target languages (the source language is not in it)
	Keys           []Key    // visible keys only
	Glossary       []GlossaryPair
	DoNotTranslate []string // terms that must appear verbatim in every language
	// Syntax is the syntaxes the values are read in (the project's, from
	// its setting or detection); 0 detects them from the keys' sources.
	Syntax message.Syntax
}

// Key is one translation key with its source text and its translations.
type Key struct {
	Namespace    string
	Key          string
	Source       string                 // source-language value ("" = no source text)
	Translations map[string]Translation // by language code
}

// Translation is one language's row of a key.
type Translation struct {
	Value          string
	Stale          bool // made against an older source value
	DoNotTranslate bool // the row's do_not_translate flag: value must equal the source
}

// GlossaryPair is a fixed translation of a term.
type GlossaryPair struct{ SourceTerm, TargetTerm, Locale string } // Locale is a language code or "all"

// Finding is one problem with one key in one language.
type Finding struct {
	Kind      string            `json:"kind"` // one of the Kind* constants
	Namespace string            `json:"namespace"`
	Key       string            `json:"key"`
	Language  string            `json:"language"`
	Message   string            `json:"message"` // one readable sentence
	Detail    map[string]string `json:"detail,omitempty"`
}

// Finding kinds.
const (
	KindMissing        = "missing_translation"
	KindPlaceholder    = "placeholder_mismatch"
	KindMarkup         = "markup_mismatch"
	KindStale          = "stale_translation"
	KindGlossary       = "glossary_violation"
	KindDoNotTranslate = "do_not_translate_violation"
	KindIdentical      = "identical_to_source"
	KindSyntax         = "icu_syntax"        // the translation has a syntax error its source has not
	KindPluralForms    = "plural_categories" // plural forms are not the target language's CLDR categories
)

// kindLabels name the kinds for people: reports, the editor and the CLI show these, the
// kinds themselves stay in the machine fields (JSON "kind").
var kindLabels = map[string]string{
	KindMissing:        "not translated",
	KindPlaceholder:    "placeholders differ from the source",
	KindMarkup:         "tags differ from the source",
	KindStale:          "the source changed since",
	KindGlossary:       "glossary term not used",
	KindDoNotTranslate: "do-not-translate term changed",
	KindIdentical:      "same as the source",
	KindSyntax:         "broken message syntax",
	KindPluralForms:    "plural forms not the language's",
}

// KindLabel is kind in plain words; a kind it does not know reads with spaces for its
// underscores.
func KindLabel(kind string) string {
	if l, ok := kindLabels[kind]; ok {
		return l
	}
	return strings.ReplaceAll(kind, "_", " ")
}

// kinds lists every finding kind, for the zero entries of Summary.ByKind.
var kinds = []string{KindMissing, KindPlaceholder, KindMarkup, KindStale, KindGlossary, KindDoNotTranslate, KindIdentical,
	KindSyntax, KindPluralForms}

// structuralKinds maps the codes of message.Check the checkup reports to
// finding kinds. Terms and prose have the checkup's own kinds
// (glossary_violation, identical_to_source...), so Check's term and prose
// codes are not reported here.
var structuralKinds = map[string]string{
	message.CodeSyntax:      KindSyntax,
	message.CodePluralForms: KindPluralForms,
	message.CodePound:       KindPlaceholder,
	message.CodeMissingArg:  KindPlaceholder,
	message.CodeExtraArg:    KindPlaceholder,
	message.CodePrintfOrder: KindPlaceholder,
	message.CodeQuoted:      KindPlaceholder,
	message.CodeMarkup:      KindMarkup,
	message.CodeLink:        KindMarkup,
}

// Summary counts findings. ByKind has an entry for every kind and
// ByLanguage one for every checked language, zero included, so a clean
// language shows up as clean rather than absent.
type Summary struct {
	Total      int            `json:"total"`
	ByKind     map[string]int `json:"by_kind"`
	ByLanguage map[string]int `json:"by_language"`
}

// identicalMaxLetters: values with at most this many letters of real prose
// ("OK", "FAQ") are often legitimately the same in every language.
const identicalMaxLetters = 3

// Analyze returns findings sorted by namespace, key, language, kind;
// deterministic.
func Analyze(in Input) ([]Finding, Summary) {
	langs := targetLanguages(in.SourceLanguage, in.Languages)
	srcLang := in.SourceLanguage

	dnt := cleanTerms(in.DoNotTranslate)
	gloss, glossTerms := buildGlossary(in.Glossary, langs)

	srcBase := baseLang(in.SourceLanguage)
	a := analyzer{findings: []Finding{}}
	syn := in.Syntax
	if syn == 0 {
		sources := make([]string, len(in.Keys))
		for i, k := range in.Keys {
			sources[i] = k.Source
		}
		syn = message.DetectSyntax(sources)
	}
	for _, k := range in.Keys {
		src := prepareSource(k.Source, syn, dnt, glossTerms)
		for _, lang := range langs {
			t, ok := k.Translations[lang]
			a.check(k, srcLang, lang, t, ok, src, gloss[lang], baseLang(lang) == srcBase)
		}
	}

	slices.SortStableFunc(a.findings, compareFindings)

	sum := EmptySummary(in.SourceLanguage, in.Languages)
	for _, f := range a.findings {
		sum.Add(f.Kind, f.Language, 1)
	}
	return a.findings, sum
}

// EmptySummary is the summary of no findings: zero for every kind and for every language
// Analyze checks.
func EmptySummary(sourceLanguage string, languages []string) Summary {
	langs := targetLanguages(sourceLanguage, languages)
	sum := Summary{ByKind: make(map[string]int, len(kinds)), ByLanguage: make(map[string]int, len(langs))}
	for _, k := range kinds {
		sum.ByKind[k] = 0
	}
	for _, l := range langs {
		sum.ByLanguage[l] = 0
	}
	return sum
}

// Add counts n findings of kind in language.
func (s *Summary) Add(kind, language string, n int) {
	s.Total += n
	s.ByKind[kind] += n
	s.ByLanguage[language] += n
}

type analyzer struct {
	findings []Finding
}

func (a *analyzer) add(k Key, lang, kind, msg string, detail map[string]string) {
	a.findings = append(a.findings, Finding{
		Kind: kind, Namespace: k.Namespace, Key: k.Key, Language: lang,
		Message: msg, Detail: detail,
	})
}

// source is what Analyze derives once per key from its source text.
type source struct {
	text      string // trimmed
	syntax    message.Syntax
	dnt       []string // do-not-translate terms present in the source
	glossHits []string // lower-cased glossary source terms present, sorted
	residual  *string  // prose left for the identical check; lazy
}

func prepareSource(s string, syn message.Syntax, dnt, glossTerms []string) *source {
	src := &source{text: strings.TrimSpace(s), syntax: syn}
	if src.text == "" {
		return src
	}
	for _, t := range dnt {
		if containsWord(src.text, t) {
			src.dnt = append(src.dnt, t)
		}
	}
	if len(glossTerms) > 0 {
		lower := strings.ToLower(src.text)
		for _, t := range glossTerms {
			if containsWord(lower, t) {
				src.glossHits = append(src.glossHits, t)
			}
		}
	}
	return src
}

// prose returns the source with placeholders, markup, URLs, e-mail addresses
// and do-not-translate terms removed: the part a translator would translate.
func (s *source) prose() string {
	if s.residual != nil {
		return *s.residual
	}
	r := message.Parse(s.text, s.syntax).PlainText()
	fields := strings.Fields(r)
	kept := fields[:0]
	for _, f := range fields {
		if !isURLish(f) {
			kept = append(kept, f)
		}
	}
	r = strings.Join(kept, " ")
	// Longest first, so "Lokal" does not leave "Cloud" of "Lokal Cloud".
	terms := slices.Clone(s.dnt)
	slices.SortStableFunc(terms, func(a, b string) int { return len(b) - len(a) })
	for _, t := range terms {
		r = removeWord(r, t)
	}
	s.residual = &r
	return r
}

func (a *analyzer) check(k Key, srcLang, lang string, t Translation, present bool, src *source, gloss map[string]*glossGroup, sameBase bool) {
	value := strings.TrimSpace(t.Value)
	if src.text == "" {
		// Nothing to compare against; only staleness is still meaningful.
		if present && value != "" && t.Stale {
			a.add(k, lang, KindStale, "translation was made against an older source value", nil)
		}
		return
	}
	if value == "" {
		a.add(k, lang, KindMissing, "translation is missing", nil)
		return
	}
	if t.Stale {
		a.add(k, lang, KindStale, "translation was made against an older source value", nil)
	}

	a.checkStructure(k, srcLang, lang, value, src)

	if t.DoNotTranslate {
		if value != src.text {
			a.add(k, lang, KindDoNotTranslate,
				"row is marked do-not-translate but its value differs from the source",
				map[string]string{"flag": "do_not_translate"})
		}
	} else {
		// A do-not-translate row keeps the source verbatim, so glossary
		// translations do not apply to it.
		a.checkGlossary(k, lang, value, src, gloss)
	}
	for _, term := range src.dnt {
		// Substring, not whole word: inflecting languages attach endings
		// to the term ("Lokalissa") and it is still verbatim.
		if !strings.Contains(value, term) {
			a.add(k, lang, KindDoNotTranslate,
				fmt.Sprintf("do-not-translate term %q is missing from the translation", term),
				map[string]string{"term": term})
		}
	}

	if !t.DoNotTranslate && !sameBase && value == src.text && a.isProse(src, gloss) {
		a.add(k, lang, KindIdentical, "translation is identical to the source text", nil)
	}
}

// checkStructure reports message.Check's structural problems, one finding
// per problem and form: Message is Check's detail, Detail has its "check"
// code and the "form" path ("n:few") when the problem is in a form.
func (a *analyzer) checkStructure(k Key, srcLang, lang, value string, src *source) {
	for _, p := range message.Check(src.text, value, message.Rules{SourceLang: srcLang, TargetLang: lang, Syntax: src.syntax, SkipProse: true}) {
		kind, ok := structuralKinds[p.Code]
		if !ok {
			continue
		}
		d := map[string]string{"check": p.Code}
		if p.Path != "" {
			d["form"] = p.Path
		}
		a.add(k, lang, kind, p.Detail, d)
	}
}

func (a *analyzer) checkGlossary(k Key, lang, value string, src *source, gloss map[string]*glossGroup) {
	var lower string
	for _, f := range src.glossHits {
		g := gloss[f]
		if g == nil {
			continue // the term's pairs are for other languages
		}
		if lower == "" {
			lower = strings.ToLower(value)
		}
		ok := false
		for _, t := range g.foldedTargets {
			// Whole words allowing the language's inflection, as the AI's
			// check reads them (never inside another word).
			if message.GlossaryTargetFound(lang, t, lower) {
				ok = true
				break
			}
		}
		if ok {
			continue
		}
		quoted := make([]string, len(g.targets))
		for i, t := range g.targets {
			quoted[i] = fmt.Sprintf("%q", t)
		}
		a.add(k, lang, KindGlossary,
			fmt.Sprintf("glossary term %q should be translated as %s", g.source, strings.Join(quoted, " or ")),
			map[string]string{"source_term": g.source, "target_term": strings.Join(g.targets, " | ")})
	}
}

// isProse reports whether the source has enough translatable text for an
// identical translation to be suspicious.
func (a *analyzer) isProse(src *source, gloss map[string]*glossGroup) bool {
	r := src.prose()
	if countLetters(r, identicalMaxLetters) <= identicalMaxLetters {
		return false
	}
	// Glossary terms whose fixed translation is the term itself behave
	// like do-not-translate terms for this language.
	var keep []string
	for _, f := range src.glossHits {
		if g := gloss[f]; g != nil && g.keepsItself {
			keep = append(keep, f)
		}
	}
	if len(keep) == 0 {
		return true
	}
	slices.SortStableFunc(keep, func(a, b string) int { return len(b) - len(a) }) // longest first
	lower := strings.ToLower(r)
	for _, f := range keep {
		lower = removeWord(lower, f)
	}
	return countLetters(lower, identicalMaxLetters) > identicalMaxLetters
}

// glossGroup is the glossary for one source term in one language.
type glossGroup struct {
	folded        string   // lower-cased source term
	source        string   // source term as written
	targets       []string // accepted target terms
	foldedTargets []string
	keepsItself   bool // a target equals the source term
}

// buildGlossary resolves the glossary per language. Which entry applies
// to a language is message.TermsFor's rule (the most specific locale wins);
// several targets given for one source term in that locale are
// alternatives. It also returns every lower-cased source term, to be looked
// up once per key.
func buildGlossary(pairs []GlossaryPair, langs []string) (map[string]map[string]*glossGroup, []string) {
	all := make([]message.Term, len(pairs))
	for i, p := range pairs {
		all[i] = message.Term{Source: p.SourceTerm, Target: p.TargetTerm, Locale: p.Locale}
	}
	terms := map[string]bool{}
	out := make(map[string]map[string]*glossGroup, len(langs))
	for _, lang := range langs {
		chosen, _ := message.TermsFor(lang, all, nil)
		groups := make(map[string]*glossGroup, len(chosen))
		for _, c := range chosen {
			f := strings.ToLower(strings.TrimSpace(c.Source))
			gg := &glossGroup{folded: f, source: strings.TrimSpace(c.Source)}
			targets := map[string]string{} // folded -> as written
			for _, p := range pairs {
				st, tt := strings.TrimSpace(p.SourceTerm), strings.TrimSpace(p.TargetTerm)
				if tt == "" || strings.ToLower(st) != f || localeKey(p.Locale) != localeKey(c.Locale) {
					continue
				}
				gg.source = min(gg.source, st) // independent of input order
				ft := strings.ToLower(tt)
				if old, ok := targets[ft]; !ok || tt < old {
					targets[ft] = tt
				}
			}
			for _, ft := range slices.Sorted(maps.Keys(targets)) {
				gg.targets = append(gg.targets, targets[ft])
				gg.foldedTargets = append(gg.foldedTargets, ft)
				gg.keepsItself = gg.keepsItself || ft == f
			}
			groups[f] = gg
			terms[f] = true
		}
		out[lang] = groups
	}
	return out, slices.Sorted(maps.Keys(terms))
}

// localeKey spells a glossary locale so that entries TermsFor ranks alike
// compare equal: "all", "" and "*" are one, case and '_' do not matter.
func localeKey(l string) string {
	l = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(l)), "_", "-")
	if l == "" || l == "*" {
		return "all"
	}
	return l
}

// targetLanguages returns the enabled languages to check: de-duplicated,
// sorted, without empty codes and without the source language.
func targetLanguages(sourceLang string, langs []string) []string {
	var out []string
	for _, l := range langs {
		if l == "" || strings.EqualFold(l, sourceLang) {
			continue
		}
		out = append(out, l)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// cleanTerms is the do-not-translate terms message.TermsFor keeps, sorted.
func cleanTerms(terms []string) []string {
	_, out := message.TermsFor("", nil, terms)
	slices.Sort(out)
	return out
}

// baseLang returns the primary subtag: "pt-BR" -> "pt". A regional variant
// of the source language (en -> en-GB) is legitimately identical.
func baseLang(l string) string {
	if i := strings.IndexAny(l, "-_"); i >= 0 {
		l = l[:i]
	}
	return strings.ToLower(l)
}

func compareFindings(a, b Finding) int {
	if c := cmp.Or(
		cmp.Compare(a.Namespace, b.Namespace),
		cmp.Compare(a.Key, b.Key),
		cmp.Compare(a.Language, b.Language),
		cmp.Compare(a.Kind, b.Kind),
		cmp.Compare(a.Message, b.Message),
	); c != 0 {
		return c
	}
	return cmp.Compare(detailString(a.Detail), detailString(b.Detail))
}

func detailString(d map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(d)) {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(d[k])
		b.WriteByte(0)
	}
	return b.String()
}
