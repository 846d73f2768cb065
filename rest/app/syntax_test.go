package app_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
)

// TestHighlightReadsTheProjectSyntax: the editor highlights the source and checks a value
// while typing in the project's syntax: set to i18next only {{name}} is marked and a value
// keeping the braces as text is fine; set to icu "{ and }" is an argument it lost.
func TestHighlightReadsTheProjectSyntax(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		if _, err := e.cat.EnableLanguage(e.sys(t), tools.EnableLanguageIn{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID}, Language: "pl"}); err != nil {
			t.Fatal(err)
		}
		// The plural makes the detected syntax icu,i18next: only the setting says i18next.
		e.source(t, "g", "group", "Use { and } to group {{name}}", "files", "{n, plural, one {# file} other {# files}}")
		set := func(list string) {
			t.Helper()
			if _, err := e.cat.SetProject(e.sys(t), e.f.Project.ID, tools.SetProjectIn{Syntax: &list}); err != nil {
				t.Fatal(err)
			}
		}
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID + "/review/pl"

		placeholders := func() int {
			t.Helper()
			res := b.json(t, p+"/check", `{"namespace_key":"g","translation_key":"group","value":"Bruk { og } for å gruppere {{name}}"}`, true).want(t, http.StatusOK)
			var out tools.CheckOut
			if err := json.Unmarshal([]byte(res.body), &out); err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, f := range out.Findings {
				if f.Kind == "placeholder_mismatch" {
					n++
				}
			}
			return n
		}

		set("i18next")
		if n := placeholders(); n != 0 {
			t.Errorf("i18next: %d placeholder findings for a value keeping the braces as text", n)
		}
		pg := b.get(t, p).want(t, http.StatusOK, `Use { and } to group <mark class="ph" title="placeholder">{{name}}</mark>`)
		if strings.Contains(pg.body, `<mark class="ph" title="placeholder">{ and }</mark>`) {
			t.Errorf("i18next: { and } highlighted as a placeholder")
		}

		set("icu")
		if n := placeholders(); n == 0 {
			t.Errorf("icu: no placeholder finding for a value that lost the argument { and }")
		}
		b.get(t, p).want(t, http.StatusOK, `Use <mark class="ph" title="placeholder">{ and }</mark> to group`)
	})
}
