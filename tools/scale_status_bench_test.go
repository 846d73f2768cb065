package tools_test

// Benchmarks of what looks at a whole large project: get_project_status, the stale list
// of one namespace and every filter of the editor's queue. The project has
// LOKAL_SCALE_KEYS keys (default 20,000) in 20 namespaces, nb 90% translated, sv 60%, de
// 10%, 1% of the sources changed after translation, one AI draft in 100 nb rows:
//
//	LOKAL_SCALE_KEYS=100000 go test -run '^$' -bench Scale -benchtime 20x ./tools/

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

const scaleNamespaces = 20

func statusScaleKeys(b *testing.B) int {
	n := 20000
	if s := os.Getenv("LOKAL_SCALE_KEYS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < scaleNamespaces*100 {
			b.Fatalf("LOKAL_SCALE_KEYS=%q: want a number of at least %d", s, scaleNamespaces*100)
		}
	}
	return n
}

// seedScale writes the project through the catalogue and returns its id.
func seedScale(b *testing.B, dialect string, keys int) (*tools.Catalog, string) {
	dsn, f := storagetest.FixtureDSN(b, dialect)
	db := storagetest.MustOpen(b, dsn, nil)
	cat := storagetest.Catalog(db, nil)
	ctx := model.WithPrincipal(b.Context(), tools.System)
	pid := f.Project.ID
	if _, err := cat.EnableLanguage(ctx, tools.EnableLanguageIn{ProjectArg: tools.ProjectArg{ProjectID: pid}, Language: "de"}); err != nil {
		b.Fatal(err)
	}
	per := keys / scaleNamespaces
	coverage := map[string]int{"nb": 90, "sv": 60, "de": 10}
	for ns := range scaleNamespaces {
		src := map[string]string{}
		for i := range per {
			src[scaleKey(ns, i)] = scaleSource(ns*per+i, 0)
		}
		ref := tools.NamespaceRef{ProjectID: pid, Language: "en", Namespace: fmt.Sprintf("ns%02d", ns)}
		syncSource(b, ctx, cat, ref, src)
		for lang, pct := range coverage {
			vals := map[string]string{}
			for i := range per {
				if (i*7)%100 < pct {
					v := "tr " + src[scaleKey(ns, i)]
					if (ns*per+i)%512 == 0 {
						v = fmt.Sprintf("tr %d lost its placeholder", i)
					}
					vals[scaleKey(ns, i)] = v
				}
			}
			ref.Language = lang
			if _, err := cat.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: ref, Translations: vals}); err != nil {
				b.Fatal(err)
			}
		}
		for i := range per {
			if i%100 == 50 {
				src[scaleKey(ns, i)] = scaleSource(ns*per+i, 1)
			}
		}
		ref.Language = "en"
		preserve := false
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: src, PreserveSourceValues: &preserve}); err != nil {
			b.Fatal(err)
		}
	}
	raw := storagetest.SQL(b, dsn)
	if _, err := raw.Exec(`UPDATE translations SET status = 'needs_review', updated_by = 'ai:bench' WHERE language = 'nb' AND id % 100 = 1`); err != nil {
		b.Fatal(err)
	}
	for i := range 5 {
		if _, err := cat.AddComment(ctx, tools.AddCommentIn{RowRef: tools.RowRef{KeyRef: keyRef(pid, "ns07", scaleKey(7, i*37)), Language: "nb"},
			Body: "check this"}); err != nil {
			b.Fatal(err)
		}
	}
	if dialect == "postgres" {
		if _, err := raw.Exec("ANALYZE"); err != nil {
			b.Fatal(err)
		}
	}
	return cat, pid
}

func syncSource(b *testing.B, ctx context.Context, cat *tools.Catalog, ref tools.NamespaceRef, src map[string]string) {
	if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: src}); err != nil {
		b.Fatal(err)
	}
}

func scaleKey(ns, i int) string { return fmt.Sprintf("screen_%d.item_%d.label_%d", i/100, i%100, ns) }

// scaleSource is key n's source text; one in 10,000 holds the rare word "zebrafish".
func scaleSource(n, edition int) string {
	word := "item"
	if n%10000 == 77 {
		word = "zebrafish"
	}
	if n%16 == 0 {
		return fmt.Sprintf("Review the %d %ss {{count}} before you continue (%d).", n, word, edition)
	}
	return fmt.Sprintf("Review the %d %ss before you continue (%d).", n, word, edition)
}

// BenchmarkScaleReads reports server time per call (ms/op) of each whole-project read.
func BenchmarkScaleReads(b *testing.B) {
	keys := statusScaleKeys(b)
	storagetest.ForEachDialectInOrder(b, func(b *testing.B, dialect string) {
		cat, pid := seedScale(b, dialect, keys)
		ctx := model.WithPrincipal(b.Context(), tools.System)
		run := func(name string, fn func() (int, error)) {
			b.Run(name, func(b *testing.B) {
				if n, err := fn(); err != nil || n == 0 {
					b.Fatalf("%s: %d results, %v", name, n, err)
				}
				for b.Loop() {
					if _, err := fn(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/call")
			})
		}
		run("project_status", func() (int, error) {
			out, err := cat.GetProjectStatus(ctx, tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: pid}})
			return out.Languages[0].Total, err
		})
		run("stale_list", func() (int, error) {
			out, err := cat.ListStale(ctx, tools.StaleIn{ProjectID: pid, Namespace: "ns07", Language: "nb"})
			return len(out.StaleKeys), err
		})
		editor := func(name, lang, ns, filter, text string) {
			run(name, func() (int, error) {
				page, err := cat.ReviewQueue(ctx, tools.ReviewIn{ProjectID: pid, Language: lang, Namespace: ns, Filter: filter, Text: text})
				return len(page.Rows), err
			})
		}
		// The QA filter checks rows on the request until the checkup has run, then reads its
		// findings.
		editor("editor_qa_ns_unchecked", "nb", "ns07", tools.FilterQA, "")
		if _, err := cat.RunCheckup(ctx, pid, "bench"); err != nil {
			b.Fatal(err)
		}
		for _, q := range []struct{ name, lang, ns, filter, text string }{
			{"editor_all", "nb", "", tools.FilterAll, ""},
			{"editor_ai", "nb", "", tools.FilterAIDrafts, ""},
			{"editor_needs_review", "nb", "", tools.FilterNeedsReview, ""},
			{"editor_approved", "nb", "", tools.FilterApproved, ""},
			{"editor_stale", "nb", "", tools.FilterStale, ""},
			{"editor_missing_de", "de", "", tools.FilterMissing, ""},
			{"editor_missing_nb", "nb", "", tools.FilterMissing, ""},
			{"editor_comments", "nb", "", tools.FilterComments, ""},
			{"editor_qa_ns", "nb", "ns07", tools.FilterQA, ""},
			{"editor_qa", "nb", "", tools.FilterQA, ""},
			{"editor_stale_ns", "nb", "ns19", tools.FilterStale, ""},
			{"editor_search_rare", "nb", "", tools.FilterAll, "zebrafish"},
		} {
			editor(q.name, q.lang, q.ns, q.filter, q.text)
		}
	})
}
