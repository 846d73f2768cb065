package app_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/checkup"
)

var findingText = regexp.MustCompile(`<li class="finding"[^>]*>([^<]*)</li>`)

// internalWords are what a person must never read in a finding: the checkup's kinds, the
// message checks' and the parser's codes, byte offsets.
func internalWords() []string {
	words := []string{"byte", "plural_forms", "missing_arg", "extra_arg", "printf_order", "too_long", "too_short",
		"unclosed-brace", "unmatched-brace", "unclosed-select", "bad-selector", "missing-other", "duplicate-selector", "unclosed-quote"}
	for kind := range checkup.EmptySummary("en", []string{"nb"}).ByKind {
		words = append(words, kind)
	}
	return words
}

// TestFindingsInPlainWords: the QA findings the editor's queue shows, the check while
// typing answers and the refusal of an approval over findings say what is wrong in plain
// words, with no internal code or byte offset; the codes stay in the machine fields.
func TestFindingsInPlainWords(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		if _, err := e.cat.EnableLanguage(e.sys(t), tools.EnableLanguageIn{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID}, Language: "pl"}); err != nil {
			t.Fatal(err)
		}
		e.source(t, "qa", "files", "{n, plural, one {# file} other {# files}}",
			"hello", "Hello {name}",
			"save", "<b>Save</b> your work %s")
		for k, v := range map[string]string{"files": "{n, plural, one {# plik} other {# pliki}}", "hello": "Cześć", "save": "Zapisz swoją pracę %d"} {
			if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID},
				NamespaceKey: "qa", TranslationKey: k}, Language: "pl"}, Value: v}); err != nil {
				t.Fatal(err)
			}
		}
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		var texts []string
		for _, q := range []string{"", "?filter=qa"} {
			body := b.get(t, p+"/review/pl"+q).want(t, http.StatusOK).body
			for _, m := range findingText.FindAllStringSubmatch(body, -1) {
				texts = append(texts, m[1])
			}
		}
		if len(texts) < 6 {
			t.Fatalf("the queue shows %d findings, want the three rows' findings on both pages: %q", len(texts), texts)
		}
		res := b.json(t, p+"/review/pl/check", `{"namespace_key":"qa","translation_key":"hello","value":"Cześć"}`, true).want(t, http.StatusOK)
		var out tools.CheckOut
		if err := json.Unmarshal([]byte(res.body), &out); err != nil {
			t.Fatal(err)
		}
		for _, f := range out.Findings {
			if f.Kind != checkup.KindPlaceholder {
				t.Errorf("the check's finding keeps its kind in the machine field: %+v", f)
			}
			texts = append(texts, f.Message)
		}
		vs := versions(b.get(t, p+"/review/pl").body)
		_, err := e.cat.SaveRow(e.sys(t), tools.SaveRowIn{RowRef: tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID},
			NamespaceKey: "qa", TranslationKey: "hello"}, Language: "pl"}, Value: "Cześć", Status: "approved", Version: vs["hello"]})
		var qa *tools.QAError
		if !errors.As(err, &qa) {
			t.Fatalf("approving a value with findings: %v, want a QA refusal", err)
		}
		texts = append(texts, qa.Error())
		for _, s := range texts {
			for _, w := range internalWords() {
				if strings.Contains(s, w) {
					t.Errorf("%q shows %q to people", s, w)
				}
			}
		}
	})
}
