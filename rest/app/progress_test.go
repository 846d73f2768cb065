package app_test

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// progressCells reads the progress page's counts and percentages of lang, in the page's
// order: approved, AI drafts, needs review, stale, missing.
func progressCells(t *testing.T, body, lang string) []string {
	t.Helper()
	row := regexp.MustCompile(`(?s)<tr data-lang="` + lang + `">(.*?)</tr>`).FindStringSubmatch(body)
	if row == nil {
		t.Fatalf("the progress page has no row of %s: %.1500s", lang, body)
	}
	var out []string
	for _, m := range regexp.MustCompile(`class="part-(\w+)"><span class="count">(\d+)</span> <span class="pct">\((\d+)%\)</span>`).FindAllStringSubmatch(row[1], -1) {
		out = append(out, m[1]+" "+m[2]+" "+m[3]+"%")
	}
	return out
}

// TestProgressView: the progress page shows each category of a language in count and
// percent, AI drafts apart from approved rows, from the counters the writes keep (equal
// to a recount); anyone who may read the project sees it, no one else.
func TestProgressView(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} {
			ns := "app"
			if k >= "h" {
				ns = "web"
			}
			e.source(t, ns, k, "Text "+k)
		}
		set := func(key, lang, value, status string) {
			t.Helper()
			ns := "app"
			if key >= "h" {
				ns = "web"
			}
			if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref(ns, key, lang), Value: value, Status: status}); err != nil {
				t.Fatal(err)
			}
		}
		set("a", "nb", "Tekst a", model.StatusApproved)
		set("b", "nb", "Tekst b", model.StatusApproved)
		e.draft(t, "app", "c", "nb", "Tekst c")
		e.draft(t, "app", "d", "nb", "Tekst d")
		e.draft(t, "app", "e", "nb", "Tekst e")
		set("f", "nb", "Tekst f", model.StatusNeedsReview) // a person's, to review
		set("g", "nb", "Tekst g", model.StatusApproved)
		set("g", "en", "Text g, changed", model.StatusApproved) // nb's g is now stale
		set("h", "nb", "", model.StatusApproved)                // empty: missing

		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		path := "/app/p/" + e.f.Project.ID + "/progress"
		page := b.get(t, path).want(t, http.StatusOK, "AI drafts", "Needs review", `role="img"`)
		check := func(lang string, want ...string) {
			t.Helper()
			if got := progressCells(t, page.body, lang); !slices.Equal(got, want) {
				t.Errorf("%s: %q, want %q", lang, got, want)
			}
		}
		check("nb", "approved 2 20%", "ai 3 30%", "review 1 10%", "stale 1 10%", "missing 3 30%")
		check("sv", "approved 0 0%", "ai 0 0%", "review 0 0%", "stale 0 0%", "missing 10 100%")
		if want := `aria-label="nb — Norwegian Bokmål: 10 keys; approved 2 (20%), ai drafts 3 (30%), needs review 1 (10%), stale 1 (10%), missing 3 (30%)"`; !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(page.body) {
			t.Errorf("the bar's text alternative is not %s", want)
		}

		// The project page's table splits the same way: AI drafts are not "translated".
		proj := b.get(t, "/app/p/"+e.f.Project.ID+"/").want(t, http.StatusOK)
		for _, cell := range []string{`<td data-label="Approved">2</td>`, `<td data-label="AI drafts">3</td>`, `<td data-label="Needs review">1</td>`,
			`<td data-label="Stale">1</td>`, `<td data-label="Missing">3</td>`} {
			if !strings.Contains(proj.body, cell) {
				t.Errorf("the project page has no %s", cell)
			}
		}

		// Approving a draft moves it from AI drafts to approved at once.
		if _, err := e.cat.SetTranslationStatus(e.sys(t), tools.SetStatusIn{RowRef: e.ref("app", "c", "nb"), Status: model.StatusApproved}); err != nil {
			t.Fatal(err)
		}
		page = b.get(t, path).want(t, http.StatusOK)
		check("nb", "approved 3 30%", "ai 2 20%", "review 1 10%", "stale 1 10%", "missing 3 30%")

		// The counters equal a recount: lokal project recount leaves the page as it is.
		before := page.body
		if _, err := e.cat.RecountProject(e.sys(t), e.f.Project.ID); err != nil {
			t.Fatal(err)
		}
		page = b.get(t, path).want(t, http.StatusOK)
		if got, want := fmt.Sprint(progressCells(t, page.body, "nb")), fmt.Sprint(progressCells(t, before, "nb")); got != want {
			t.Errorf("after a recount nb is %s, the counters said %s", got, want)
		}

		// One language per namespace, from the rows' marks.
		page = b.get(t, path+"?lang=nb").want(t, http.StatusOK, `id="progress-ns"`)
		nsCells := func(ns string) []string {
			t.Helper()
			row := regexp.MustCompile(`(?s)<tr data-ns="` + ns + `">(.*?)</tr>`).FindStringSubmatch(page.body)
			if row == nil {
				t.Fatalf("no row of namespace %s", ns)
			}
			return progressCells(t, `<tr data-lang="x">`+row[1]+`</tr>`, "x")
		}
		if got, want := nsCells("app"), []string{"approved 3 42%", "ai 2 28%", "review 1 14%", "stale 1 14%", "missing 0 0%"}; !slices.Equal(got, want) {
			t.Errorf("nb in app: %q, want %q", got, want)
		}
		if got, want := nsCells("web"), []string{"approved 0 0%", "ai 0 0%", "review 0 0%", "stale 0 0%", "missing 3 100%"}; !slices.Equal(got, want) {
			t.Errorf("nb in web: %q, want %q", got, want)
		}
		// It is kept in memory until the next write, which it then shows.
		if _, err := e.cat.SetTranslationStatus(e.sys(t), tools.SetStatusIn{RowRef: e.ref("app", "d", "nb"), Status: model.StatusApproved}); err != nil {
			t.Fatal(err)
		}
		page = b.get(t, path+"?lang=nb").want(t, http.StatusOK, `id="progress-ns"`)
		if got, want := nsCells("app"), []string{"approved 4 57%", "ai 1 14%", "review 1 14%", "stale 1 14%", "missing 0 0%"}; !slices.Equal(got, want) {
			t.Errorf("nb in app after approving a draft: %q, want %q", got, want)
		}
		b.get(t, path+"?lang=en").want(t, http.StatusBadRequest, "source language")
		if p := b.get(t, path+"?lang=xx"); p.status < 400 || p.status >= 500 {
			t.Errorf("an unknown language: %d, want a 4xx", p.status)
		}

		// The project page links to it; a user of another workspace may not read it.
		b.get(t, "/app/p/"+e.f.Project.ID+"/").want(t, http.StatusOK, `href="`+path+`"`)
		other := e.browser(t)
		other.signIn(t, e.f.OtherUser.Email)
		if p := other.get(t, path); p.status == http.StatusOK || p.status >= 500 {
			t.Errorf("another workspace's user: %d, want a refusal", p.status)
		}
	})
}
