package app_test

import (
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

var rowPlace = regexp.MustCompile(`data-ns="([^"]*)" data-key="([^"]*)"`)

// rowsOf lists a queue page's rows as namespace/key, in page order.
func rowsOf(body string) []string {
	var out []string
	for _, m := range rowPlace.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1]+"/"+m[2])
	}
	return out
}

// TestReviewQueueKeyOrder: the queue lists rows by namespace name, then key bytewise,
// whatever order the namespaces and keys were added in, and pages on from the last row
// shown: keys written between two pages before that row do not appear and none repeats,
// those after it do. Both the walk (every row) and the drive (needs review, few rows)
// order so, and so does a page a window of keys ended early, and a text search.
func TestReviewQueueKeyOrder(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, d string) {
		e := newEnv(t, d, &tools.Options{ReviewWindow: 40})
		keep := false
		write := func(lang, ns string, tr map[string]string) {
			t.Helper()
			if _, err := e.cat.Sync(e.sys(t), tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: e.f.Project.ID, Language: lang, Namespace: ns},
				Translations: tr, PreserveSourceValues: &keep}); err != nil {
				t.Fatal(err)
			}
		}
		// zeta is added first and its keys in reverse order, so key ids run against key
		// order; the names mix cases, separators and an i18next family, which byte order
		// keeps together ("_" sorts before letters). Every second row is needs review.
		all, review := map[string]bool{}, map[string]bool{}
		n := 0
		for _, ns := range []string{"zeta", "alpha"} {
			en, nb := map[string]string{}, map[string]string{}
			for i := 59; i >= 0; i-- {
				k := fmt.Sprintf("k%02d", i)
				switch i % 4 {
				case 1:
					k = fmt.Sprintf("K%02d.title", i)
				case 2:
					k = fmt.Sprintf("files.count%02d_one", i/10)
					if en[k] != "" {
						k = fmt.Sprintf("files.count%02d_other", i/10)
					}
				}
				if en[k] != "" {
					continue
				}
				en[k], nb[k] = "Line "+k, "Linje "+k
				all[ns+"/"+k] = true
			}
			write("en", ns, en)
			write("nb", ns, nb)
			for _, k := range slices.Sorted(maps.Keys(en)) {
				if n++; n%2 == 0 {
					e.needsReview(t, ns, k, nb[k])
					review[ns+"/"+k] = true
				}
			}
		}
		lines := maps.Clone(all) // the keys whose source is "Line " and the key
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		for filter, want := range map[string]map[string]bool{"": all, "needs_review": review} {
			t.Run("filter="+filter, func(t *testing.T) {
				url := "/app/p/" + e.f.Project.ID + "/review/nb?filter=" + filter
				var got []string
				expect := maps.Clone(want)
				wrote := false
				for range 20 {
					p := b.get(t, url).want(t, http.StatusOK)
					got = append(got, rowsOf(p.body)...)
					if !strings.Contains(p.body, `rel="next"`) {
						break
					}
					if !wrote && len(got) > 0 {
						// A write between pages: keys before the last row shown and after it.
						wrote = true
						lastNS, lastKey, _ := strings.Cut(got[len(got)-1], "/")
						for _, k := range []string{"A0" + filter, lastKey + "0" + filter, "zz" + filter} {
							e.addKey(t, lastNS, k)
							all[lastNS+"/"+k] = true
							if filter != "" {
								e.needsReview(t, lastNS, k, "Ny "+k)
								review[lastNS+"/"+k] = true
							}
							if k > lastKey {
								expect[lastNS+"/"+k] = true
							}
						}
					}
					url = nextRowsLink(t, p.body, nextText(p.body))
				}
				if !slices.IsSortedFunc(got, placeCompare) {
					t.Errorf("rows not in key order: %q", got)
				}
				if n := len(slices.Compact(slices.Clone(got))); n != len(got) {
					t.Errorf("%d rows repeat across pages: %q", len(got)-n, got)
				}
				if w := slices.SortedFunc(maps.Keys(expect), placeCompare); !slices.Equal(got, w) {
					t.Errorf("pages showed\n%q\nwant\n%q", got, w)
				}
			})
		}
		// A text search (its candidates sorted by key before their rows are read) pages
		// in key order too: "line k" is in the source of the k and K keys.
		t.Run("q=line k", func(t *testing.T) {
			var want, got []string
			for place := range lines {
				_, k, _ := strings.Cut(place, "/")
				if strings.HasPrefix(strings.ToLower(k), "k") {
					want = append(want, place)
				}
			}
			slices.SortFunc(want, placeCompare)
			url := "/app/p/" + e.f.Project.ID + "/review/nb?q=line+k"
			for range 20 {
				p := b.get(t, url).want(t, http.StatusOK)
				got = append(got, rowsOf(p.body)...)
				if !strings.Contains(p.body, `rel="next"`) {
					break
				}
				url = nextRowsLink(t, p.body, nextText(p.body))
			}
			if !slices.Equal(got, want) {
				t.Errorf("pages showed\n%q\nwant\n%q", got, want)
			}
		})
	})
}

// addKey adds a source key to ns with its nb row (approved), leaving the other keys as they are.
func (e *env) addKey(t *testing.T, ns, key string) {
	t.Helper()
	for lang, v := range map[string]string{"en": "New " + key, "nb": "Ny " + key} {
		if _, err := e.cat.Sync(e.sys(t), tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: e.f.Project.ID, Language: lang, Namespace: ns},
			Translations: map[string]string{key: v}, Partial: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// needsReview writes value to key's nb row with the status needs review.
func (e *env) needsReview(t *testing.T, ns, key, value string) {
	t.Helper()
	if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID},
		NamespaceKey: ns, TranslationKey: key}, Language: "nb"}, Value: value + " ", Status: "needs_review"}); err != nil {
		t.Fatal(err)
	}
}

// placeCompare orders namespace/key places as the queue does: namespace, then key, bytewise.
func placeCompare(a, b string) int {
	an, ak, _ := strings.Cut(a, "/")
	bn, bk, _ := strings.Cut(b, "/")
	if c := strings.Compare(an, bn); c != 0 {
		return c
	}
	return strings.Compare(ak, bk)
}

func nextText(body string) string {
	if strings.Contains(body, `id="partial"`) {
		return "Look through the next keys"
	}
	return "Next page"
}
