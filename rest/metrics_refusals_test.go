package rest_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/public"
	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

// TestMetricsCountEveryRefusal: wired as lokal serve wires them, a public route's refusal
// and a write's reach lokal_write_refusals_total alike, by budget name, scraped over HTTP.
func TestMetricsCountEveryRefusal(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		m := rest.NewMetrics()
		cat := storagetest.Catalog(db, &tools.Options{OnRefused: m.Refused,
			Budgets: map[string]int{tools.PublicResolveBudget.Name: 1, tools.WriteBudget.Name: 1}})
		quiet := slog.New(slog.DiscardHandler)
		api := httptest.NewServer(rest.New(cat, &rest.Options{Logger: quiet, Health: db.Ping, Metrics: m,
			Public: public.Mount(cat, &public.Options{Logger: quiet})}))
		t.Cleanup(api.Close)
		metrics := httptest.NewServer(m.Handler())
		t.Cleanup(metrics.Close)

		do := func(method, path, auth, body string) int {
			t.Helper()
			req, err := http.NewRequest(method, api.URL+path, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			if auth != "" {
				req.Header.Set("Authorization", "Token token="+auth)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			return res.StatusCode
		}
		resolve := `{"token":"` + f.Workspace.PublicToken + `","host":"www.example.test","page_lang":"en","languages":["de"]}`
		if code := do("POST", "/api/embed/resolve", "", resolve); code == http.StatusTooManyRequests {
			t.Fatal("the first resolve was refused")
		}
		for range 2 {
			if code := do("POST", "/api/embed/resolve", "", resolve); code != http.StatusTooManyRequests {
				t.Fatalf("resolve over its budget: %d, want 429", code)
			}
		}
		sync := "/api/sync/" + f.Project.ID + "/latest/en/ui"
		if code := do("PUT", sync, f.RW, `{"a":"A"}`); code != http.StatusOK {
			t.Fatalf("first write: %d", code)
		}
		if code := do("PUT", sync, f.RW, `{"b":"B"}`); code != http.StatusTooManyRequests {
			t.Fatalf("write over its budget: %d, want 429", code)
		}

		res, err := http.Get(metrics.URL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		wantLines(t, string(b),
			`lokal_write_refusals_total{bucket="resolve"} 2`,
			`lokal_write_refusals_total{bucket="writes"} 1`,
		)
	})
}
