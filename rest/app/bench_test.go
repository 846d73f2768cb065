package app_test

// Benchmarks of the review queue of a 50,000-key project, server time through the handler
// (session lookup, CSRF, the catalogue, rendering); .ci/bench BENCH_ONLY=editor runs them:
//
//	go test -run '^$' -bench Editor ./rest/app/          # SQLite (and PostgreSQL if set)

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/rest/app"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

const benchKeys = 50000

// cpuTime is the process's CPU time so far (user and system): beside wall time per
// request, since wall time on a shared machine measures the neighbours too. It includes
// SQLite's work, which runs in process, not PostgreSQL's.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru) //nolint:errcheck // cannot fail for SELF
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportPer reports wall and CPU milliseconds per iteration of a loop that began at cpu0.
func reportPer(b *testing.B, cpu0 time.Duration, unit string) {
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/"+unit)
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N)/1000, "cpu-ms/"+unit)
}

// benchEnv is a project of benchKeys keys in namespace common: every key has an nb row,
// one in eight an AI draft, one in 64 of those a lost placeholder.
type benchEnv struct {
	h       http.Handler
	cookie  *http.Cookie
	csrf    string
	project string
	drafts  []string // keys of the AI drafts, in key order
	page100 string   // the queue's cursor after the 5,000th AI draft in key order (page 101 of 50 rows)
	values  map[string]string
	cat     *tools.Catalog
}

func newBenchEnv(b *testing.B, dialect string) *benchEnv {
	b.Helper()
	dsn, f := storagetest.FixtureDSN(b, dialect)
	db := storagetest.MustOpen(b, dsn, nil)
	// The write budget is the API's; the benchmark approves far faster than 300 a minute.
	cat := storagetest.Catalog(db, &tools.Options{Budgets: map[string]int{tools.WriteBudget.Name: 1 << 30}})
	ctx := model.WithPrincipal(b.Context(), tools.System)
	src, nb := map[string]string{}, map[string]string{}
	var drafts []string
	for i := range benchKeys {
		k := fmt.Sprintf("section_%d.element_%d.label", i/100, i%100)
		src[k] = fmt.Sprintf("Review the %d items {{count}} before you continue.", i)
		nb[k] = fmt.Sprintf("Se gjennom de %d elementene {{count}} før du fortsetter.", i)
		if i%8 == 0 {
			drafts = append(drafts, k)
			if i%512 == 0 {
				nb[k] = fmt.Sprintf("Se gjennom de %d elementene før du fortsetter.", i)
			}
		}
	}
	ref := tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "common"}
	if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ref, Translations: src}); err != nil {
		b.Fatalf("syncing %d keys: %v", benchKeys, err)
	}
	ref.Language = "nb"
	if _, err := cat.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: ref, Translations: nb}); err != nil {
		b.Fatalf("writing nb: %v", err)
	}
	// The drafts, as the AI's writes leave them: set in SQL, since 6,250 single writes
	// would take longer than the benchmark.
	sqlDB := storagetest.SQL(b, dsn)
	for i := 0; i < len(drafts); i += 500 {
		quoted := make([]string, 0, 500)
		for _, k := range drafts[i:min(i+500, len(drafts))] {
			quoted = append(quoted, "'"+k+"'")
		}
		if _, err := sqlDB.Exec(`UPDATE translations SET status = 'needs_review', updated_by = 'ai:bench-model' WHERE language = 'nb' AND key_id IN
			(SELECT id FROM translation_keys WHERE key IN (` + strings.Join(quoted, ",") + `))`); err != nil {
			b.Fatalf("marking drafts: %v", err)
		}
	}
	// The drafts were marked behind the catalogue's back: the repair puts the status
	// counters (the progress view's) and the syntax detection right, as after the AI's writes.
	if _, err := cat.RecountProject(ctx, f.Project.ID); err != nil {
		b.Fatal(err)
	}
	if dialect == "postgres" {
		// As autovacuum does shortly after a big write: the planner needs the new row counts.
		if _, err := sqlDB.Exec("ANALYZE"); err != nil {
			b.Fatal(err)
		}
	}
	if err := cat.SetPassword(ctx, f.User.ID, password); err != nil {
		b.Fatal(err)
	}
	in, err := cat.SignIn(b.Context(), tools.SignInIn{Email: f.User.Email, Password: password, ClientIP: "127.0.0.1"})
	if err != nil {
		b.Fatal(err)
	}
	return &benchEnv{h: app.New(cat, &app.Options{Logger: slog.New(slog.DiscardHandler)}), cookie: &http.Cookie{Name: "lokal_session", Value: in.Token},
		csrf: in.Session.CSRF, project: f.Project.ID, drafts: drafts, values: nb, cat: cat, page100: "common/" + slices.Sorted(slices.Values(drafts))[4999]}
}

func (e *benchEnv) get(b *testing.B, path string) string {
	req := httptest.NewRequestWithContext(b.Context(), http.MethodGet, path, nil)
	req.AddCookie(e.cookie)
	w := httptest.NewRecorder()
	e.h.ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		b.Fatalf("GET %s: %d %.300s", path, w.Code, w.Body.String())
	}
	return w.Body.String()
}

// BenchmarkEditorQueue is one page of the queue under each filter.
func BenchmarkEditorQueue(b *testing.B) {
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		e := newBenchEnv(b, dialect)
		base := "/app/p/" + e.project + "/review/nb"
		for _, q := range []struct{ name, query string }{
			{"all", ""}, {"ai_drafts", "?filter=ai"}, {"ai_drafts_page_100", "?filter=ai&after=" + url.QueryEscape(e.page100)},
			{"search", "?q=" + url.QueryEscape("49 items")}, {"qa", "?filter=qa"}, {"approved", "?filter=approved"},
		} {
			b.Run(q.name, func(b *testing.B) {
				if n := strings.Count(e.get(b, base+q.query), `class="row`); n == 0 {
					b.Fatalf("%s shows no rows", q.query)
				}
				b.ResetTimer()
				cpu0 := cpuTime()
				for b.Loop() {
					e.get(b, base+q.query)
				}
				reportPer(b, cpu0, "page")
			})
		}
		// The progress view of every language, from the status counters, and of nb per
		// namespace, from the rows' marks.
		for _, q := range []struct{ name, query, want string }{
			{"progress", "", `<span class="count">6250</span>`},
			{"progress_namespaces_cached", "?lang=nb", `id="progress-ns"`}, // a pass over the keys, kept until the next write
		} {
			b.Run(q.name, func(b *testing.B) {
				path := "/app/p/" + e.project + "/progress" + q.query
				if body := e.get(b, path); !strings.Contains(body, `<span class="count">6250</span>`) || !strings.Contains(body, q.want) {
					b.Fatalf("the progress view does not show the 6,250 AI drafts: %.2000s", body[strings.Index(body, "<main"):])
				}
				b.ResetTimer()
				cpu0 := cpuTime()
				for b.Loop() {
					e.get(b, path)
				}
				reportPer(b, cpu0, "page")
			})
		}
	})
}

var benchVersion = regexp.MustCompile(`data-version="([^"]+)"`)

// BenchmarkEditorApproveNext is the server's part of approve-and-next: the save that
// approves a row and answers its fresh HTML (the focus then moves in the browser). Each
// iteration approves another draft; past the last one the rows go back to needs review and
// round again, so every iteration writes.
func BenchmarkEditorApproveNext(b *testing.B) {
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		e := newBenchEnv(b, dialect)
		path := "/app/p/" + e.project + "/review/nb/save"
		versions := map[string]string{}
		sys := model.WithPrincipal(b.Context(), tools.System)
		for after := ""; ; {
			page, err := e.cat.ReviewQueue(sys, tools.ReviewIn{ProjectID: e.project, Language: "nb", Filter: tools.FilterAIDrafts, After: after, Limit: 200})
			if err != nil {
				b.Fatal(err)
			}
			for _, r := range page.Rows {
				versions[r.Key] = r.Version
			}
			if after = page.Next; after == "" {
				break
			}
		}
		i := 0
		b.ResetTimer()
		cpu0 := cpuTime()
		for b.Loop() {
			k := e.drafts[i%len(e.drafts)]
			action := "approve"
			if (i/len(e.drafts))%2 == 1 {
				action = "save"
			}
			i++
			v := versions[k]
			// One draft in 64 has a lost placeholder: its approval is an override with a reason.
			form := url.Values{"csrf": {e.csrf}, "ns": {"common"}, "key": {k}, "value": {e.values[k]}, "version": {v}, "action": {action},
				"override": {"1"}, "reason": {"benchmark"}}
			req := httptest.NewRequestWithContext(b.Context(), http.MethodPost, path, strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("X-Lokal-Fragment", "1")
			req.AddCookie(e.cookie)
			w := httptest.NewRecorder()
			e.h.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				b.Fatalf("approving %s: %d %.300s", k, w.Code, w.Body.String())
			}
			versions[k] = benchVersion.FindStringSubmatch(w.Body.String())[1]
		}
		reportPer(b, cpu0, "approve")
	})
}
