package app_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

// TestReviewWindowPages: a filter few rows pass (missing, with one key of 200 untranslated)
// walks the project a window of keys per page: the pages before the row say they stopped
// and link on, the row is found, the last page says nothing of stopping; once nothing is
// missing the counters answer at once; and a filter most rows pass fills its page without
// stopping.
func TestReviewWindowPages(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, d string) {
		e := newEnv(t, d, &tools.Options{ReviewWindow: 60})
		en, nb := map[string]string{}, map[string]string{}
		for i := range 200 {
			k := fmt.Sprintf("k%03d", i)
			en[k], nb[k] = fmt.Sprintf("Line %d", i), fmt.Sprintf("Linje %d", i)
		}
		delete(nb, "k150")
		keep := false
		for lang, tr := range map[string]map[string]string{"en": en, "nb": nb} {
			if _, err := e.cat.Sync(e.sys(t), tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: e.f.Project.ID, Language: lang, Namespace: "few"},
				Translations: tr, PreserveSourceValues: &keep}); err != nil {
				t.Fatal(err)
			}
		}
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		url := "/app/p/" + e.f.Project.ID + "/review/nb?filter=missing&ns=few"
		var found []string
		partial := 0
		for range 10 {
			p := b.get(t, url).want(t, http.StatusOK)
			for k := range versions(p.body) {
				found = append(found, k)
			}
			if !strings.Contains(p.body, `id="partial"`) {
				if strings.Contains(p.body, `rel="next"`) {
					t.Errorf("the last page links on")
				}
				break
			}
			partial++
			if !strings.Contains(p.body, "Few rows match here") {
				t.Errorf("a partial page of the missing filter does not say why it stopped")
			}
			url = nextRowsLink(t, p.body, "Look through the next keys")
		}
		if len(found) != 1 || found[0] != "k150" {
			t.Errorf("the missing filter's pages showed %v, want k150", found)
		}
		if partial < 3 {
			t.Errorf("%d pages stopped short over 200 keys in windows of 60, want at least 3", partial)
		}
		// Once nothing is missing, the counters answer the filter: no rows and no stop.
		nb["k150"] = "Linje 150"
		if _, err := e.cat.Sync(e.sys(t), tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: e.f.Project.ID, Language: "nb", Namespace: "few"},
			Translations: nb, PreserveSourceValues: &keep}); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"filter=missing&ns=few", "filter=missing"} {
			p := b.get(t, "/app/p/"+e.f.Project.ID+"/review/nb?"+q).want(t, http.StatusOK)
			if strings.Contains(p.body, `id="partial"`) || len(versions(p.body)) != 0 || !strings.Contains(p.body, `id="empty"`) {
				t.Errorf("%s with nothing missing: partial %v, %d rows", q, strings.Contains(p.body, `id="partial"`), len(versions(p.body)))
			}
		}
		p := b.get(t, "/app/p/"+e.f.Project.ID+"/review/nb?ns=few").want(t, http.StatusOK)
		if strings.Contains(p.body, `id="partial"`) || len(versions(p.body)) != tools.ReviewPageSize {
			t.Errorf("the unfiltered queue: partial %v, %d rows; want a full page of its window",
				strings.Contains(p.body, `id="partial"`), len(versions(p.body)))
		}
	})
}
