package message

import "testing"

func TestCheckSkipProse(t *testing.T) {
	t.Parallel()
	src, tr := "Save your changes before you leave this page, {name}", "Save your changes before you leave this page, {name"
	full := Check(src, tr, Rules{SourceLang: "en", TargetLang: "de"})
	skip := Check(src, tr, Rules{SourceLang: "en", TargetLang: "de", SkipProse: true})
	codes := func(ps []Problem) map[string]bool {
		m := map[string]bool{}
		for _, p := range ps {
			m[p.Code] = true
		}
		return m
	}
	if f := codes(full); !f[CodeSyntax] || !(f[CodeUntranslated] || f[CodeLanguage]) {
		t.Fatalf("without SkipProse: %v, want syntax and a prose problem", full)
	}
	s := codes(skip)
	if !s[CodeSyntax] {
		t.Errorf("SkipProse dropped the structural problem: %v", skip)
	}
	for _, c := range []string{CodeLanguage, CodeUntranslated, CodeChatter, CodeTooLong} {
		if s[c] {
			t.Errorf("SkipProse still reports %s: %v", c, skip)
		}
	}
}
