package ai

import (
	"fmt"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/valuecheck"
)

// Term is a glossary pair: Source is always translated as Target in
// Locale (a language code, or "all").
type Term struct {
	Source string `json:"source"`
	Target string `json:"target"`
	Locale string `json:"locale"`
}

// Sub is a substitution rule applied to translations in Locale (or "all")
// after they pass every check: From becomes To.
type Sub struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Locale string `json:"locale"`
}

// Rules are what a translation into TargetLang must honour.
type Rules struct {
	SourceLang     string
	TargetLang     string
	Glossary       []Term
	DoNotTranslate []string
	Substitutions  []Sub
	// Syntax is the project's syntaxes; 0 means the masked text's own.
	Syntax message.Syntax
	// Check is the value check every stored value must pass; nil means
	// valuecheck.Check.
	Check func(string) error
}

// Problem is one reason a translation was refused. Detail is written for
// the model (it goes into the retry prompt) and for the caller's report;
// Path names the plural/select form it is in ("" for the whole text).
type Problem struct {
	Code   string // unknown_token, malformed_token, value_check, bad_answer, missing_id, or a message.Check code
	Path   string
	Detail string
}

// String is the problem for people (a failed key's reason): Detail, without the code.
func (p Problem) String() string { return p.Detail }

// Verify checks a model's translation (masked text) of src and returns the
// value to store: unmasked, with the substitution rules applied. It returns
// problems instead when anything is wrong, and then the value must not be
// stored.
//
// Tokens only have to be well formed and known: the answer is judged by
// its unmasked value, which message.Check compares with the source form by
// form (arguments, plural categories, '#', printf order, tags, links,
// terms, language, chatter, length), and then the value check. A model
// that writes {name}, <b> or a do-not-translate term itself instead of its
// token is right when the value is right.
func Verify(src Masked, translated string, r Rules) (string, []Problem) {
	var probs []Problem
	add := func(code, path, format string, args ...any) {
		probs = append(probs, Problem{Code: code, Path: path, Detail: fmt.Sprintf(format, args...)})
	}
	if strings.TrimSpace(translated) == "" && strings.TrimSpace(src.Value) != "" {
		add(message.CodeEmpty, "", "the translation is empty")
		return "", probs
	}
	ids, stray := tokens(translated)
	for _, id := range ids {
		if id >= len(src.Table) {
			add("unknown_token", "", "%s is not a token of the source; remove it", Placeholder(id))
		}
	}
	if stray {
		add("malformed_token", "", "a token was altered (write tokens exactly as ⟦N⟧)")
	}
	if len(probs) > 0 {
		return "", probs
	}
	// The one thing the value cannot show: which form is which. A model
	// that moves the tokens starting the forms swaps their texts.
	if !skeletonInOrder(src.Table, ids) {
		add(message.CodePluralForms, "", "the tokens that start and end plural/select forms must stay in the source's order: translate each form in place")
	}

	masked := translated
	for _, s := range r.Substitutions {
		if s.From != "" && localeApplies(s.Locale, r.TargetLang) {
			masked = strings.ReplaceAll(masked, s.From, s.To)
		}
	}
	final := Unmask(masked, src.Table)

	syn := r.Syntax
	if syn == 0 {
		syn = src.Syntax
	}
	for _, p := range message.Check(src.Value, final, message.Rules{
		SourceLang:     r.SourceLang,
		TargetLang:     r.TargetLang,
		Syntax:         syn,
		Glossary:       messageTerms(r.Glossary),
		DoNotTranslate: r.DoNotTranslate,
	}) {
		add(p.Code, p.Path, "%s", p.Detail)
	}
	if extra := invented(final, syn); extra != 0 {
		add("invented_syntax", "", "the translation uses %s syntax the source has not (placeholders, tags, entities or links); write only the source's own", extra)
	}
	check := r.Check
	if check == nil {
		check = valuecheck.Check
	}
	if err := check(final); err != nil {
		add("value_check", "", "the value was refused: %v", err)
	}
	if len(probs) > 0 {
		return "", probs
	}
	return final, nil
}

// skeletonInOrder reports whether the skeleton tokens of each plural/select
// block come in the source's order in the answer. Whole blocks may move
// ("{a} and {b}" may become "{b} und {a}"); their forms may not.
func skeletonInOrder(t Table, ids []int) bool {
	last := map[int]int{}
	for _, id := range ids {
		if k := t[id].Kind; k == KindICUOpen || k == KindICUNext || k == KindICUClose {
			if prev, ok := last[t[id].Block]; ok && id < prev {
				return false
			}
			last[t[id].Block] = id
		}
	}
	return true
}

// loose are the syntaxes whose pieces prose can show by accident (10%igen,
// 50%1): they are judged against the source's own syntax only.
const loose = message.Printf | message.Qt

// invented returns the syntaxes an answer shows unmistakably that the
// source's syntax set lacks: a model that adds <b> or &nbsp; to a project
// without markup, or {name} to one without ICU, writes what the project
// would print literally, which the checks in syn cannot see.
func invented(value string, syn message.Syntax) message.Syntax {
	return message.DetectSyntax([]string{value}) &^ syn &^ loose
}

func messageTerms(g []Term) []message.Term {
	out := make([]message.Term, len(g))
	for i, t := range g {
		out[i] = message.Term{Source: t.Source, Target: t.Target, Locale: t.Locale}
	}
	return out
}

// localeApplies reports whether a substitution rule for locale applies to
// lang: "all", the same code, or the base language of lang (a "pt" rule
// for "pt-BR"). Substitutions are not terms (their To may be empty), so
// message.TermsFor does not pick them.
func localeApplies(locale, lang string) bool {
	locale = strings.ToLower(strings.TrimSpace(locale))
	lang = strings.ToLower(lang)
	if locale == "" || locale == "all" || locale == lang {
		return true
	}
	base, _, _ := strings.Cut(strings.ReplaceAll(lang, "_", "-"), "-")
	return locale == base
}
