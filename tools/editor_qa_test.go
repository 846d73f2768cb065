package tools_test

import (
	"fmt"
	"slices"
	"strconv"
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
			return qaPages(t, x, ns, func(p tools.ReviewPage, _ int64) {
				for _, r := range p.Rows {
					if len(r.Findings) == 0 {
						t.Errorf("%s/%s is shown without findings", r.Namespace, r.Key)
					}
				}
			})
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

// TestQAFilterBoundedPages: a page of the QA filter checks at most its bound of the rows
// the checkup has not checked since their last write (every row before a checkup; the
// queued ones after) and, stopped there, says so (Partial) with Next at the last row it
// checked; the pages together show every row with a problem and no other. The keys the
// queue does not hold are read from the stored findings however many keys it holds: with
// the findings gone, only the rows written since show.
func TestQAFilterBoundedPages(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: reads after writes, one call at a time; the plain run keeps it")
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		x := newCheckupFixture(t, dialect)
		const bound = 4
		tools.SetQACheckMax(x.cat, bound)
		broken := map[string]bool{}
		written := map[string]bool{} // since the checkup, each to a new value
		value := func(key string) string {
			v := "Hei {name}, du har nye meldinger"
			if broken[key] {
				v = "Hei, du har nye meldinger"
			}
			if written[key] {
				v += "!"
			}
			return v
		}
		for _, ns := range []string{"app", "web"} {
			en, nb := map[string]string{}, map[string]string{}
			for i := range 20 {
				k := fmt.Sprintf("k%02d", i)
				broken[ns+"/"+k] = i%5 == 3
				en[k], nb[k] = "Hello {name}, you have new messages", value(ns+"/"+k)
			}
			x.sync(t, "en", ns, en, false)
			x.overwrite(t, "nb", ns, nb)
		}
		// Key ids in order, by namespace, to count what a page covered.
		ids := map[string][]int64{}
		all, err := x.cat.ReviewQueue(x.ctx, tools.ReviewIn{ProjectID: x.proj, Language: "nb", Limit: 200})
		if err != nil {
			t.Fatal(err)
		}
		name := map[int64]string{}
		for _, r := range all.Rows {
			ids[r.Namespace] = append(ids[r.Namespace], r.KeyID)
			ids[""] = append(ids[""], r.KeyID)
			name[r.KeyID] = r.Namespace + "/" + r.Key
		}
		// pages pages through the filter; unchecked tells which rows the checkup has not
		// checked, which a partial page may cover at most bound of.
		pages := func(t *testing.T, ns string, unchecked func(string) bool) (got []string, partial int) {
			t.Helper()
			got = qaPages(t, x, ns, func(p tools.ReviewPage, after int64) {
				if !p.Partial {
					return
				}
				partial++
				n := 0
				for _, id := range ids[ns] {
					if id > after && id <= nextID(p) && unchecked(name[id]) {
						n++
					}
				}
				if n > bound || nextID(p) <= after {
					t.Errorf("a partial page after %d ends at %s, covering %d rows not checked; want at most %d and to move on", after, p.Next, n, bound)
				}
			})
			return got, partial
		}
		check := func(t *testing.T, when string, unchecked func(string) bool, stops []string) {
			t.Helper()
			for _, ns := range []string{"", "app", "web"} {
				var want []string
				for k, b := range broken {
					if b && (ns == "" || strings.HasPrefix(k, ns+"/")) {
						want = append(want, k)
					}
				}
				got, partial := pages(t, ns, unchecked)
				if !sameStrings(got, want) {
					t.Errorf("%s, namespace %q: QA shows %q, want %q", when, ns, got, want)
				}
				if partial == 0 && slices.Contains(stops, ns) {
					t.Errorf("%s, namespace %q: no page stopped at the bound of %d rows checked", when, ns, bound)
				}
			}
		}
		check(t, "before a checkup", func(string) bool { return true }, []string{"", "app", "web"})

		x.run(t)
		nb := map[string]string{}
		for i := range 12 {
			k := fmt.Sprintf("k%02d", i)
			written["app/"+k] = true
			broken["app/"+k] = i%3 == 0
			nb[k] = value("app/" + k)
		}
		x.overwrite(t, "nb", "app", nb)
		check(t, "after a write of 12 keys not checked yet", func(k string) bool { return written[k] }, []string{"", "app"})

		if _, err := storagetest.SQL(t, x.dsn).Exec(`DELETE FROM checkup_findings`); err != nil {
			t.Fatal(err)
		}
		var want []string
		for k := range written {
			if broken[k] {
				want = append(want, k)
			}
		}
		if got, _ := pages(t, "", func(k string) bool { return written[k] }); !sameStrings(got, want) {
			t.Errorf("with the findings gone: QA shows %q, want the rows written since, %q", got, want)
		}
	})
}

// TestQAFilterWholeProjectMark: after a write of more keys than a write queues one by one,
// which queues the project once instead of each key, the QA filter checks the rows rather
// than trust findings the checkup has yet to bring up to date.
func TestQAFilterWholeProjectMark(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		x := newCheckupFixture(t, dialect, wholeProjectAt(300))
		tools.SetQACheckMax(x.cat, 100) // pages that stop and link on, as at 10,000 keys and more
		en, nb := map[string]string{}, map[string]string{}
		for i := range 301 {
			k := fmt.Sprintf("k%05d", i)
			en[k], nb[k] = fmt.Sprintf("Hello {name}, line %d", i), fmt.Sprintf("Hei {name}, linje %d", i)
		}
		x.sync(t, "en", "many", en, false)
		x.overwrite(t, "nb", "many", nb)
		x.run(t)
		// Every value rewritten, two of them losing their placeholder.
		for k, v := range nb {
			nb[k] = v + "."
		}
		for i, k := range []string{"k00005", "k00290"} {
			nb[k] = fmt.Sprintf("Hei, linje %d", i)
		}
		x.overwrite(t, "nb", "many", nb)
		var got []string
		var after string
		for range 100 {
			p, err := x.cat.ReviewQueue(x.ctx, tools.ReviewIn{ProjectID: x.proj, Language: "nb", Filter: tools.FilterQA, After: after})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range p.Rows {
				got = append(got, r.Key)
			}
			if after = p.Next; after == "" {
				break
			}
		}
		if want := []string{"k00005", "k00290"}; !slices.Equal(got, want) {
			t.Errorf("after a write of 301 keys the checkup has not checked: QA shows %q, want %q", got, want)
		}
	})
}

// qaPages pages through nb's QA filter of ns (every namespace when "") three rows at a
// time, calling each with every page and the cursor it started after, and returns the
// rows' namespace/key in order.
func qaPages(t *testing.T, x *checkupFixture, ns string, each func(p tools.ReviewPage, after int64)) []string {
	t.Helper()
	var got []string
	var after int64
	for range 100 {
		p, err := x.cat.ReviewQueue(x.ctx, tools.ReviewIn{ProjectID: x.proj, Language: "nb", Namespace: ns, Filter: tools.FilterQA, After: idOf(after), Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Rows {
			got = append(got, r.Namespace+"/"+r.Key)
		}
		each(p, after)
		if p.Next == "" {
			return got
		}
		after, _ = strconv.ParseInt(p.Next, 10, 64)
	}
	t.Fatal("pages do not end")
	return nil
}

// idOf and nextID are the QA filter's cursors, which are key ids.
func idOf(id int64) string {
	if id == 0 {
		return ""
	}
	return strconv.FormatInt(id, 10)
}

func nextID(p tools.ReviewPage) int64 {
	id, _ := strconv.ParseInt(p.Next, 10, 64)
	return id
}
