package ai

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

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
	TargetLang     string
	Glossary       []Term
	DoNotTranslate []string
	Substitutions  []Sub
	// Check is the value check every stored value must pass; nil means
	// valuecheck.Check.
	Check func(string) error
}

// Problem is one reason a translation was refused. Detail is written for
// the model (it goes into the retry prompt) and for the caller's report.
type Problem struct {
	Code   string // empty, missing_token, duplicate_token, unknown_token, malformed_token, raw_markup, structure, glossary, integrity, icu, value_check, bad_answer
	Detail string
}

func (p Problem) String() string { return p.Code + ": " + p.Detail }

// Verify checks a model's translation (masked text) of src against the
// placeholder contract and r, and returns the value to store: unmasked,
// with the substitution rules applied. It returns problems instead when
// anything is wrong, and then the value must not be stored.
//
// The checks: every token of src exactly once (order may change), no other
// token and no raw placeholder, tag, entity or link the model wrote itself,
// tags and ICU branches nested as in the source and ICU branches in source
// order, the glossary target present where its source term occurs; then,
// on the final value, the same placeholder and markup multiset as the
// source, the same ICU arguments when the source is ICU, and the value
// check.
func Verify(src Masked, translated string, r Rules) (string, []Problem) {
	var probs []Problem
	add := func(code, format string, args ...any) {
		probs = append(probs, Problem{Code: code, Detail: fmt.Sprintf(format, args...)})
	}
	if strings.TrimSpace(translated) == "" && strings.TrimSpace(src.Text) != "" {
		add("empty", "the translation is empty")
		return "", probs
	}

	ids, stray := tokens(translated)
	count := make([]int, len(src.Table))
	for _, id := range ids {
		if id >= len(src.Table) {
			add("unknown_token", "%s is not a token of the source; remove it", Placeholder(id))
			continue
		}
		count[id]++
	}
	for id, n := range count {
		switch {
		case n == 0:
			add("missing_token", "%s is missing; it must appear exactly once", Placeholder(id))
		case n > 1:
			add("duplicate_token", "%s appears %d times; it must appear exactly once", Placeholder(id), n)
		}
	}
	if stray {
		add("malformed_token", "a token was altered (write tokens exactly as ⟦N⟧)")
	}

	// What the model wrote itself: anything our scanner protects is a
	// placeholder or markup that is not in the source.
	if raw := Mask(stripTokens(translated), MaskOptions{}); len(raw.Table) > 0 {
		var pieces []string
		for _, t := range raw.Table {
			pieces = append(pieces, t.Raw)
		}
		add("raw_markup", "remove placeholders or markup not given as tokens: %s", strings.Join(pieces, " "))
	}
	if len(probs) > 0 {
		return "", probs
	}

	if msg := structure(src.Table, ids); msg != "" {
		add("structure", "%s", msg)
	}
	for _, t := range glossaryFor(r.Glossary, r.TargetLang) {
		if containsWordFold(src.Text, t.Source) && !containsTarget(translated, t.Target) {
			add("glossary", "translate %q as %q", t.Source, t.Target)
		}
	}
	if len(probs) > 0 {
		return "", probs
	}

	masked := translated
	for _, s := range r.Substitutions {
		if s.From != "" && localeApplies(s.Locale, r.TargetLang) {
			masked = strings.ReplaceAll(masked, s.From, s.To)
		}
	}
	final := Unmask(masked, src.Table)

	// The final value, independently of the tokens: the same pieces.
	again := Mask(final, MaskOptions{DoNotTranslate: r.DoNotTranslate})
	missing, extra := diffRaw(src.Table, again.Table)
	// A do-not-translate term the model repeats is harmless.
	extra = slices.DeleteFunc(extra, func(raw string) bool { return slices.Contains(r.DoNotTranslate, raw) })
	if len(missing)+len(extra) > 0 {
		add("integrity", "placeholders or markup differ from the source (missing %q, unexpected %q)", missing, extra)
	}
	if args, ok := isICU(src.Source); ok {
		nodes, err := parseICU(final)
		if err != nil {
			add("icu", "the result is not a valid ICU message")
		} else if got := icuArgs(nodes); !slices.Equal(got, args) {
			add("icu", "ICU arguments differ: want %v, got %v", args, got)
		}
	}
	check := r.Check
	if check == nil {
		check = valuecheck.Check
	}
	if err := check(final); err != nil {
		add("value_check", "the value was refused: %v", err)
	}
	if len(probs) > 0 {
		return "", probs
	}
	return final, nil
}

// stripTokens replaces well-formed tokens by a space, so that the rest can
// be scanned for raw placeholders.
func stripTokens(s string) string {
	var b strings.Builder
	for rest := s; ; {
		i := strings.Index(rest, tokOpen)
		if i < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:i])
		if _, size := parseToken(rest[i:]); size > 0 {
			b.WriteByte(' ')
			rest = rest[i+size:]
			continue
		}
		b.WriteString(tokOpen)
		rest = rest[i+len(tokOpen):]
	}
}

// structure checks, when the source is well nested, that the translation
// is too (tags close in order, link texts and ICU branches close where they
// opened) and that ICU skeleton tokens keep the source's order, since
// swapping "} one {" and "} other {" would swap plural forms.
func structure(t Table, ids []int) string {
	src := make([]int, len(t))
	for i := range src {
		src[i] = i
	}
	if !nested(t, src) {
		return ""
	}
	if !nested(t, ids) {
		return "tags, links or plural branches are not nested as in the source: every opening token must be closed by its closing token in the same order"
	}
	var want, got []int
	for _, id := range src {
		if isSkeleton(t[id].Kind) {
			want = append(want, id)
		}
	}
	for _, id := range ids {
		if isSkeleton(t[id].Kind) {
			got = append(got, id)
		}
	}
	if !slices.Equal(want, got) {
		return "plural/select tokens must stay in the source's order"
	}
	return ""
}

func isSkeleton(k Kind) bool { return k == KindICUOpen || k == KindICUNext || k == KindICUClose }

func nested(t Table, ids []int) bool {
	var stack []string
	pop := func(want string) bool {
		if len(stack) == 0 || stack[len(stack)-1] != want {
			return false
		}
		stack = stack[:len(stack)-1]
		return true
	}
	for _, id := range ids {
		tok := t[id]
		switch tok.Kind {
		case KindTag:
			stack = append(stack, "<"+tok.Name)
		case KindEndTag:
			if !pop("<" + tok.Name) {
				return false
			}
		case KindLinkOpen:
			stack = append(stack, "[")
		case KindLinkClose:
			if !pop("[") {
				return false
			}
		case KindICUOpen:
			stack = append(stack, "{")
		case KindICUNext:
			if len(stack) == 0 || stack[len(stack)-1] != "{" {
				return false
			}
		case KindICUClose:
			if !pop("{") {
				return false
			}
		}
	}
	return len(stack) == 0
}

// diffRaw compares the raw pieces of two tables as multisets.
func diffRaw(want, got Table) (missing, extra []string) {
	n := map[string]int{}
	for _, t := range want {
		n[t.Raw]++
	}
	for _, t := range got {
		n[t.Raw]--
	}
	for raw, c := range n {
		for ; c > 0; c-- {
			missing = append(missing, raw)
		}
		for ; c < 0; c++ {
			extra = append(extra, raw)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	return missing, extra
}

// localeApplies reports whether a rule for locale applies to lang: "all",
// the same code, or the base language of lang (a "pt" rule for "pt-BR").
func localeApplies(locale, lang string) bool {
	locale = strings.ToLower(strings.TrimSpace(locale))
	lang = strings.ToLower(lang)
	if locale == "" || locale == "all" || locale == lang {
		return true
	}
	base, _, _ := strings.Cut(strings.ReplaceAll(lang, "_", "-"), "-")
	return locale == base
}

// glossaryFor returns the pairs that apply to lang. A pair for the language
// itself overrides "all" pairs of the same source term.
func glossaryFor(g []Term, lang string) []Term {
	specific := map[string]bool{}
	for _, t := range g {
		l := strings.ToLower(t.Locale)
		if l != "" && l != "all" && localeApplies(l, lang) {
			specific[strings.ToLower(t.Source)] = true
		}
	}
	var out []Term
	for _, t := range g {
		if t.Source == "" || t.Target == "" || !localeApplies(t.Locale, lang) {
			continue
		}
		l := strings.ToLower(t.Locale)
		if (l == "" || l == "all") && specific[strings.ToLower(t.Source)] {
			continue
		}
		out = append(out, t)
	}
	return out
}

// containsWordFold reports whether s contains term case-insensitively as a
// whole word.
func containsWordFold(s, term string) bool {
	ls, lt := strings.ToLower(s), strings.ToLower(term)
	for i := 0; ; {
		j := strings.Index(ls[i:], lt)
		if j < 0 {
			return false
		}
		if wordBoundary(ls, i+j, i+j+len(lt)) {
			return true
		}
		i += j + 1
	}
}

// containsTarget reports whether s contains the glossary target, allowing
// only its first letter to change case (it may start a sentence).
func containsTarget(s, target string) bool {
	if strings.Contains(s, target) {
		return true
	}
	r, size := utf8.DecodeRuneInString(target)
	for _, v := range [...]rune{unicode.ToUpper(r), unicode.ToLower(r)} {
		if v != r && strings.Contains(s, string(v)+target[size:]) {
			return true
		}
	}
	return false
}
