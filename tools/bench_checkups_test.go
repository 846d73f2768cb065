package tools_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestBenchCheckups is `make bench`'s checkup part (BENCH_ONLY=checkups), run only with
// LOKAL_BENCH_CHECKUPS=1. On a project of BENCH_CHECKUP_KEYS keys (default 100,000; sv
// missing everywhere, nb on half of them) it times the first checkup and then
// BENCH_CHECKUP_REPORTS (default 20) checkups each after 1,000 nb values changed, and
// measures what the checkup tables take in the database; then a 5,000-key sync alone and
// while eight checkups are triggered at once (as eight workers would run them), and how
// long a checkup takes to return once its context is cancelled mid-pass. It uses only the
// catalogue's public operations, so the same file measures an older tree. One line per
// figure; nothing here is an assertion on time.
func TestBenchCheckups(t *testing.T) {
	if os.Getenv("LOKAL_BENCH_CHECKUPS") == "" {
		t.Skip("a benchmark: set LOKAL_BENCH_CHECKUPS=1 (make bench BENCH_ONLY=checkups)")
	}
	n := envInt("BENCH_CHECKUP_KEYS", 100000)
	reports := envInt("BENCH_CHECKUP_REPORTS", 20)
	dialects := strings.Split(os.Getenv("BENCH_CHECKUP_DIALECTS"), ",")
	if dialects[0] == "" {
		dialects = []string{"sqlite"}
	}
	storagetest.ForEachDialectInOrder(t, func(t *testing.T, dialect string) {
		if !slices.Contains(dialects, dialect) {
			t.Skip("not in BENCH_CHECKUP_DIALECTS")
		}
		dsn, f := storagetest.FixtureDSN(t, dialect)
		db := storagetest.MustOpen(t, dsn, nil)
		raw := storagetest.SQL(t, dsn)
		cat := storagetest.Catalog(db, &tools.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		ctx := model.WithPrincipal(context.Background(), tools.System)
		p := f.Project.ID
		line := func(format string, args ...any) {
			fmt.Printf("BENCH checkups %s %d keys: %s\n", dialect, n, fmt.Sprintf(format, args...))
		}

		entries := benchEntries(n)
		names := make([]string, 0, n)
		for k := range entries {
			names = append(names, k)
		}
		where := make(map[string]int, n) // key to namespace
		for i, k := range names {
			where[k] = i / 50000
		}
		start := time.Now()
		for i := 0; i < len(names); i += 50000 {
			part := map[string]string{}
			nb := map[string]string{}
			for j, k := range names[i:min(i+50000, len(names))] {
				part[k] = entries[k]
				if j%2 == 0 {
					nb[k] = "NB " + entries[k]
				}
			}
			ns := fmt.Sprintf("ns%d", i/50000)
			if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: p, Language: "en", Namespace: ns}, Translations: part, Partial: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := cat.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: tools.NamespaceRef{ProjectID: p, Language: "nb", Namespace: ns}, Translations: nb}); err != nil {
				t.Fatal(err)
			}
		}
		line("seeded in %.1f s", time.Since(start).Seconds())

		start = time.Now()
		r, err := cat.RunCheckup(ctx, p, "bench")
		if err != nil {
			t.Fatal(err)
		}
		line("first checkup %.2f s, %d findings, reports and findings %.1f MB", time.Since(start).Seconds(), r.FindingsTotal, mb(checkupBytes(t, raw, dialect)))

		var times []string
		var total time.Duration
		for i := range reports {
			nb := map[string]string{}
			for j := range 1000 {
				k := names[(i*1000+j*2)%len(names)/2*2] // keys with an nb row
				nb[k] = fmt.Sprintf("NB %d %s", i, entries[k])
			}
			for ns := 0; ns*50000 < len(names); ns++ {
				part := map[string]string{}
				for k, v := range nb {
					if where[k] == ns {
						part[k] = v
					}
				}
				if len(part) > 0 {
					if _, err := cat.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: tools.NamespaceRef{ProjectID: p, Language: "nb", Namespace: fmt.Sprintf("ns%d", ns)}, Translations: part}); err != nil {
						t.Fatal(err)
					}
				}
			}
			start := time.Now()
			if _, err := cat.RunCheckup(ctx, p, "bench"); err != nil {
				t.Fatal(err)
			}
			d := time.Since(start)
			total += d
			times = append(times, fmt.Sprintf("%.2f", d.Seconds()))
		}
		line("%d checkups after 1,000 changed values each: %.2f s on average (%s), reports and findings %.1f MB", reports,
			total.Seconds()/float64(reports), strings.Join(times, " "), mb(checkupBytes(t, raw, dialect)))

		for _, offset := range []int{0, 100000} {
			start := time.Now()
			page, err := cat.GetCheckupReport(ctx, tools.CheckupIn{ProjectArg: tools.ProjectArg{ProjectID: p}, Offset: offset})
			if err != nil {
				t.Fatal(err)
			}
			line("get_checkup_report from offset %d: %d findings in %.3f s", offset, len(page.Findings), time.Since(start).Seconds())
		}

		syncNew := func(ns string) string {
			tr := make(map[string]string, 5000)
			for i := range 5000 {
				tr[fmt.Sprintf("%s.key_%d", ns, i)] = fmt.Sprintf("A new line number %d to sync.", i)
			}
			start := time.Now()
			// A refusal (the write budget ran out) is a figure too, not a failure.
			_, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: p, Language: "en", Namespace: ns}, Translations: tr})
			return fmt.Sprintf("%.2f s (%s)", time.Since(start).Seconds(), errCode(err))
		}
		alone := syncNew("alone")
		// A glossary term: the next checkup analyses every key.
		if _, err := cat.AddGlossaryTerm(ctx, tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: p}, SourceTerm: "account", TargetTerm: "konto", Locale: "nb"}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		var runs []string
		for range 8 {
			wg.Go(func() {
				start := time.Now()
				_, err := cat.RunCheckup(ctx, p, "job")
				mu.Lock()
				runs = append(runs, fmt.Sprintf("%.1f s (%s)", time.Since(start).Seconds(), errCode(err)))
				mu.Unlock()
			})
		}
		time.Sleep(500 * time.Millisecond)
		during := syncNew("during")
		wg.Wait()
		line("5,000-key sync alone %s, while 8 checkups are triggered %s; the checkups: %s", alone, during, strings.Join(runs, ", "))

		if _, err := cat.AddGlossaryTerm(ctx, tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: p}, SourceTerm: "invoice", TargetTerm: "faktura", Locale: "nb"}); err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithCancel(ctx)
		done := make(chan time.Time)
		go func() {
			cat.RunCheckup(cctx, p, "bench") //nolint:errcheck // cancelled on purpose
			done <- time.Now()
		}()
		time.Sleep(time.Second)
		cancelled := time.Now()
		cancel()
		line("a checkup cancelled 1 s into a whole pass returned %.3f s after the cancel", (<-done).Sub(cancelled).Seconds())
	})
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func errCode(err error) string {
	if err == nil {
		return "ok"
	}
	if c := model.ErrorCode(err); c != "" {
		return c
	}
	return err.Error()
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }

// checkupBytes is what the reports and their findings take with their indexes (and
// TOAST on PostgreSQL), from dbstat on SQLite; the queue of changed keys is not counted.
func checkupBytes(t *testing.T, db *sql.DB, dialect string) int64 {
	t.Helper()
	var n int64
	var err error
	if dialect == "postgres" {
		err = db.QueryRow(`SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c
			WHERE c.relkind = 'r' AND c.relname IN ('checkup_reports', 'checkup_findings') AND c.relnamespace = 'public'::regnamespace`).Scan(&n)
	} else {
		err = db.QueryRow(`SELECT COALESCE(SUM(d.pgsize), 0) FROM dbstat AS d JOIN sqlite_schema AS s ON s.name = d.name
			WHERE s.tbl_name IN ('checkup_reports', 'checkup_findings')`).Scan(&n)
	}
	if err != nil {
		t.Fatal(err)
	}
	return n
}
