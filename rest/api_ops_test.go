package rest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/storage/storagetest"
)

// syncBuffer is a log sink that tests read while the server writes.
type syncBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{} // holds a token after a write, for a reader waiting on a line
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, err := b.buf.Write(p)
	select {
	case b.signal() <- struct{}{}:
	default: // a token is already waiting
	}
	return n, err
}

// signal is the write notification channel; b.mu is held.
func (b *syncBuffer) signal() chan struct{} {
	if b.wrote == nil {
		b.wrote = make(chan struct{}, 1)
	}
	return b.wrote
}

// written receives after a write that came after the last receive.
func (b *syncBuffer) written() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.signal()
}
func (b *syncBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return b.buf.String() }

// opsServer is the router over a fixture database with opts, its request log captured.
func opsServer(t *testing.T, opts rest.Options) (*httptest.Server, storagetest.Fixture, *syncBuffer) {
	t.Helper()
	db, f := storagetest.MustOpenFixture(t, "sqlite")
	logs := &syncBuffer{}
	opts.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	hs := httptest.NewServer(rest.New(storagetest.Catalog(db, nil), &opts))
	t.Cleanup(hs.Close)
	return hs, f, logs
}

func get(t *testing.T, url string, header map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// lastLog is the last request line of the log, decoded.
func lastLog(t *testing.T, logs *syncBuffer) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
		t.Fatalf("log line %q: %v", lines[len(lines)-1], err)
	}
	return m
}

// TestTrustedProxies: the client IP in logs (and per-IP limits) comes from X-Forwarded-For
// only on connections from a trusted proxy; anyone else cannot choose their own IP.
func TestTrustedProxies(t *testing.T) {
	t.Parallel()
	forwarded := map[string]string{"X-Forwarded-For": "203.0.113.7"}
	for _, c := range []struct {
		name    string
		trusted []string
		want    string
	}{
		{"no proxy is trusted", nil, "127.0.0.1"},
		{"another network is trusted", []string{"10.0.0.0/8"}, "127.0.0.1"},
		{"the peer is a trusted proxy", []string{"127.0.0.1/32"}, "203.0.113.7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			hs, _, logs := opsServer(t, rest.Options{TrustedProxies: c.trusted})
			get(t, hs.URL+"/healthz", forwarded)
			if got := lastLog(t, logs)["ip"]; got != c.want {
				t.Errorf("logged ip %v, want %s", got, c.want)
			}
		})
	}
}

// TestRequestLog: one line per request with the duration in milliseconds, and never a
// header (tokens travel in them).
func TestRequestLog(t *testing.T) {
	t.Parallel()
	hs, f, logs := opsServer(t, rest.Options{})
	get(t, hs.URL+"/api/"+f.Project.ID+"/latest/en/nope", map[string]string{"Authorization": "Token token=" + f.RO})
	m := lastLog(t, logs)
	if _, ok := m["duration_ms"].(float64); !ok {
		t.Errorf("duration_ms is %v (%T), want a number of milliseconds", m["duration_ms"], m["duration_ms"])
	}
	if m["status"] != float64(404) || m["method"] != "GET" {
		t.Errorf("logged %v", m)
	}
	if strings.Contains(logs.String(), f.RO) {
		t.Errorf("the token reached the log")
	}
}

// TestErrorMessagesAreNotEscaped: messages quote keys and values as they are; JSON's HTML
// escapes (\u003c) only make them unreadable.
func TestErrorMessagesAreNotEscaped(t *testing.T) {
	t.Parallel()
	hs, f, _ := opsServer(t, rest.Options{})
	req, _ := http.NewRequest("PUT", hs.URL+"/api/sync/"+f.Project.ID+"/latest/en/ui",
		strings.NewReader(`{"<b>k</b>": "<a href=\"javascript:alert(1)\">x</a>"}`))
	req.Header.Set("Authorization", "Token token="+f.RW)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusUnprocessableEntity || !bytes.Contains(body, []byte("<b>k</b>")) || bytes.Contains(body, []byte(`\u003c`)) {
		t.Errorf("status %d body %s, want 422 naming <b>k</b> unescaped", res.StatusCode, body)
	}
}

// TestMetricsThroughTheRouter: with Metrics set, requests are counted by route template
// (never the raw path, which carries ids), and write refusals by budget.
func TestMetricsThroughTheRouter(t *testing.T) {
	t.Parallel()
	m := rest.NewMetrics()
	hs, f, _ := opsServer(t, rest.Options{Metrics: m})
	get(t, hs.URL+"/api/"+f.Project.ID+"/latest/en/nope", map[string]string{"Authorization": "Token token=" + f.RO})
	m.Refused("writes")
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	out := rec.Body.String()
	for _, want := range []string{`route="/api/:project_id/latest/:language/:namespace"`, `status="404"`, `lokal_write_refusals_total{bucket="writes"} 1`} {
		if !strings.Contains(out, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if strings.Contains(out, f.Project.ID) {
		t.Errorf("a project id reached a metric label")
	}
}
