package rest_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/lokal-dev/lokal/rest"
)

func scrape(t *testing.T, m *rest.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("scrape: %d %s", rec.Code, rec.Body)
	}
	return rec.Body.String()
}

func wantLines(t *testing.T, out string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(out, "\n"+l+"\n") {
			t.Errorf("metrics lack line %q", l)
		}
	}
}

// Requests are counted by route pattern, method and status, with a latency histogram by
// route; a path no route matches is "unmatched" and never appears itself.
func TestMetricsMiddleware(t *testing.T) {
	t.Parallel()
	m := rest.NewMetrics()
	r := gin.New()
	r.Use(m.Middleware())
	r.GET("/api/things/:id", func(c *gin.Context) { c.String(http.StatusOK, "ok") })
	r.POST("/api/things", func(c *gin.Context) {
		m.Refused("writes")
		c.Status(http.StatusTooManyRequests)
	})
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)

	for _, req := range []struct{ method, path string }{
		{"GET", "/api/things/p1"},
		{"GET", "/api/things/p2"},
		{"POST", "/api/things"},
		{"GET", "/secret-project-id/namespace"},
		{"BREW", "/api/things/p3"},
	} {
		hr, err := http.NewRequest(req.method, srv.URL+req.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := srv.Client().Do(hr)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}

	out := scrape(t, m)
	wantLines(t, out,
		`lokal_http_requests_total{method="GET",route="/api/things/:id",status="200"} 2`,
		`lokal_http_requests_total{method="POST",route="/api/things",status="429"} 1`,
		`lokal_http_requests_total{method="GET",route="unmatched",status="404"} 1`,
		`lokal_http_requests_total{method="other",route="unmatched",status="404"} 1`,
		`lokal_http_request_duration_seconds_count{route="/api/things/:id"} 2`,
		`lokal_http_request_duration_seconds_count{route="unmatched"} 2`,
		`lokal_write_refusals_total{bucket="writes"} 1`,
	)
	for _, leak := range []string{"secret-project-id", "p1", "BREW"} {
		if strings.Contains(out, leak) {
			t.Errorf("metrics contain the raw request detail %q", leak)
		}
	}
	for _, family := range []string{"go_goroutines", "process_start_time_seconds"} {
		if !strings.Contains(out, "\n"+family+" ") {
			t.Errorf("metrics lack %s", family)
		}
	}
}

// Numbers from other packages are read at scrape time, under the lokal_ prefix.
func TestMetricsFuncs(t *testing.T) {
	t.Parallel()
	m := rest.NewMetrics()
	pending, hits := 7.0, 3.0
	m.AddGaugeFunc("jobs_pending", "Jobs waiting to run.", func() float64 { return pending })
	m.AddCounterFunc("lokal_cache_hits_total", "Cache hits.", func() float64 { return hits })
	wantLines(t, scrape(t, m), "lokal_jobs_pending 7", "lokal_cache_hits_total 3")
	pending, hits = 2, 5
	wantLines(t, scrape(t, m), "lokal_jobs_pending 2", "lokal_cache_hits_total 5")
}

// Metrics off is a nil *Metrics: the middleware passes requests through and nothing panics.
func TestMetricsNil(t *testing.T) {
	t.Parallel()
	var m *rest.Metrics
	r := gin.New()
	r.Use(m.Middleware())
	r.GET("/x", func(c *gin.Context) { c.String(http.StatusOK, "ok") })
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/x", nil))
	if rec.Code != http.StatusOK || rec.Body.String() != "ok" {
		t.Fatalf("GET /x through a nil Metrics = %d %q", rec.Code, rec.Body)
	}
	m.Refused("writes")
	m.AddGaugeFunc("x", "x", func() float64 { return 0 })
	m.AddCounterFunc("y", "y", func() float64 { return 0 })
}
