package rest_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/checkup"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestRetranslateReadsTheProjectSyntax: endpoint 6 and the checkup read values in the
// project's syntax, not each string's guess. Set to i18next, "Use { and } to group
// {{name}}" has one placeholder: an answer keeping the braces as text is stored and the
// checkup finds nothing wrong with it. Set to icu, "{ and }" is an argument: the model
// never sees it, and the checkup reports the stored translation that lost it.
func TestRetranslateReadsTheProjectSyntax(t *testing.T) {
	t.Parallel()
	const src, nb = "Use { and } to group {{name}}", "Bruk { og } for å gruppere {{name}}"
	answer := aitest.Echo(func(_, masked string) string {
		return strings.Replace(masked, "Use { and } to group", "Bruk { og } for å gruppere", 1)
	})
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, llm := aiServer(t, dialect, answer, nil)
		// The plural makes the detected syntax icu,i18next: only the setting says i18next.
		s.sync(t, "en", "g", map[string]string{"group": src, "files": "{n, plural, one {# file} other {# files}}"})
		admin := model.WithPrincipal(t.Context(), tools.System)
		set := func(list string) {
			t.Helper()
			if _, err := s.cat.SetProject(admin, s.proj.ID, tools.SetProjectIn{Syntax: &list}); err != nil {
				t.Fatal(err)
			}
		}
		placeholderFindings := func() int {
			t.Helper()
			r, err := s.cat.RunCheckup(admin, s.proj.ID, "cli")
			if err != nil {
				t.Fatal(err)
			}
			if r.Truncated {
				t.Fatalf("the report's first page is truncated")
			}
			n := 0
			for _, f := range r.Findings {
				if f.Key == "group" && f.Language == "nb" && f.Kind == checkup.KindPlaceholder {
					n++
				}
			}
			return n
		}

		set("i18next")
		// With the plural in the batch, the batch's own guess would mask "{ and }" too.
		r := s.call(t, "POST", s.retranslatePath("nb", "g"), tokenAuth(s.rw), []string{"group", "files"})
		r.wantStatus(t, http.StatusOK)
		var out retranslateOut
		if err := json.Unmarshal(r.body, &out); err != nil {
			t.Fatal(err)
		}
		if out.Retranslated["group"] != nb || slices.Contains(out.Failed, "group") {
			t.Errorf("i18next: retranslated %v, failed %v; want %q stored", out.Retranslated, out.Failed, nb)
		}
		if n := placeholderFindings(); n != 0 {
			t.Errorf("i18next: %d placeholder findings for a translation keeping the braces as text", n)
		}

		set("icu")
		if n := placeholderFindings(); n == 0 {
			t.Errorf("icu: no placeholder finding for a translation that lost the argument { and }")
		}
		before := len(llm.Calls())
		r = s.call(t, "POST", s.retranslatePath("nb", "g"), tokenAuth(s.rw), []string{"group"})
		r.wantStatus(t, http.StatusOK)
		calls := llm.Calls()
		if len(calls) <= before {
			t.Fatalf("icu: no model call")
		}
		for _, masked := range calls[before].Strings {
			if strings.Contains(masked, "{ and }") {
				t.Errorf("icu: the model saw the argument { and } as text: %q", masked)
			}
		}
	})
}
