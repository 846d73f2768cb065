package tools_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/checkup"
)

// TestQAKindsLeaveMissingAndStale: the editor's QA problems are every kind of finding but
// missing and stale, as the open findings' index (checkup_findings_open) has them.
func TestQAKindsLeaveMissingAndStale(t *testing.T) {
	t.Parallel()
	for kind := range checkup.EmptySummary("en", []string{"nb"}).ByKind {
		want := kind != checkup.KindMissing && kind != checkup.KindStale
		if got := tools.IsQAKind(kind); got != want {
			t.Errorf("%s: QA %v, want %v", kind, got, want)
		}
	}
}

// TestQAFilterFindings: the editor's QA filter shows the rows with a problem as they are
// now, page by page, in one namespace or the project: before any checkup, from the
// checkup's stored findings once it ran, after writes it has not checked yet, and when
// the project's terms changed since. A page read from the findings reads them from the
// store: with the findings gone, only the rows written since show.
func TestQAFilterFindings(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: reads after writes, one call at a time; the plain run keeps it")
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		x := newCheckupFixture(t, dialect)
		// nb values of the keys in broken lose their placeholder; the others keep it.
		broken := map[string]bool{}
		values := func(ns string, n int) (map[string]string, map[string]string) {
			en, nb := map[string]string{}, map[string]string{}
			for i := range n {
				k := fmt.Sprintf("k%02d", i)
				en[k] = fmt.Sprintf("Hello {name}, you have %d new messages", i)
				nb[k] = fmt.Sprintf("Hei {name}, du har %d nye meldinger", i)
				if broken[ns+"/"+k] {
					nb[k] = fmt.Sprintf("Hei, du har %d nye meldinger", i)
				}
			}
			return en, nb
		}
		for i := range 30 {
			if i%4 == 1 {
				broken[fmt.Sprintf("app/k%02d", i)] = true
			}
			if i%6 == 2 {
				broken[fmt.Sprintf("web/k%02d", i)] = true
			}
		}
		for _, ns := range []string{"app", "web"} {
			en, nb := values(ns, 30)
			x.sync(t, "en", ns, en, false)
			x.overwrite(t, "nb", ns, nb)
		}
		page := func(t *testing.T, ns string) []string {
			t.Helper()
			var got []string
			var after int64
			for range 100 {
				p, err := x.cat.ReviewQueue(x.ctx, tools.ReviewIn{ProjectID: x.proj, Language: "nb", Namespace: ns, Filter: tools.FilterQA, After: after, Limit: 3})
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range p.Rows {
					got = append(got, r.Namespace+"/"+r.Key)
					if len(r.Findings) == 0 {
						t.Errorf("%s/%s is shown without findings", r.Namespace, r.Key)
					}
				}
				if p.Next == 0 {
					return got
				}
				after = p.Next
			}
			t.Fatal("pages do not end")
			return nil
		}
		check := func(t *testing.T, when string) {
			t.Helper()
			for _, ns := range []string{"", "app", "web"} {
				var want []string
				for k := range broken {
					if ns == "" || strings.HasPrefix(k, ns+"/") {
						want = append(want, k)
					}
				}
				got := page(t, ns)
				if !sameStrings(got, want) {
					t.Errorf("%s, namespace %q: QA shows %q, want %q", when, ns, got, want)
				}
			}
		}
		write := func(key string, breakIt bool) {
			broken[key] = breakIt
			if !breakIt {
				delete(broken, key)
			}
			ns, k, _ := strings.Cut(key, "/")
			_, nb := values(ns, 30)
			x.overwrite(t, "nb", ns, map[string]string{k: nb[k]})
		}
		check(t, "before a checkup")
		x.run(t)
		check(t, "after the checkup")
		write("app/k01", false)
		write("app/k02", true)
		write("web/k29", true)
		check(t, "after writes not checked yet")
		x.run(t)
		check(t, "after the next checkup")
		if _, err := x.cat.AddDoNotTranslate(x.ctx, x.proj, "Lokal"); err != nil {
			t.Fatal(err)
		}
		check(t, "after the terms changed")
		x.run(t)
		check(t, "after the full pass")

		if _, err := storagetest.SQL(t, x.dsn).Exec(`DELETE FROM checkup_findings`); err != nil {
			t.Fatal(err)
		}
		write("web/k03", true)
		if got, want := page(t, ""), []string{"web/k03"}; !slices.Equal(got, want) {
			t.Errorf("with the findings gone: QA shows %q, want %q", got, want)
		}
	})
}

func sameStrings(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
