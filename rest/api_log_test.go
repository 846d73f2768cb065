package rest_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/public"
	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/storage/storagetest"
)

// TestRequestLogBytes: the request log counts the body bytes sent: 0 for a 201 or 204
// without a body (gin reports -1 there), the body's length for a 200, the compressed length
// when the answer is gzipped, on the token API and the Embed's public routes alike.
func TestRequestLogBytes(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		cat := storagetest.Catalog(db, nil)
		logs := &syncBuffer{}
		hs := httptest.NewServer(rest.New(cat, &rest.Options{Logger: slog.New(slog.NewJSONHandler(logs, nil)),
			Health: db.Ping, Public: public.Mount(cat, nil)}))
		t.Cleanup(hs.Close)
		client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
		t.Cleanup(client.CloseIdleConnections)
		rw := "Token token=" + f.RW
		p := f.Project.ID

		for _, c := range []struct {
			name, method, path, body string
			header                   map[string]string
			status                   int
			empty                    bool // the answer has no body: 0 bytes
		}{
			{name: "sync, 200 with a body", method: "PUT", path: "/api/sync/" + p + "/latest/en/ui",
				body: `{"nav.home": "Home", "nav.cart": "Cart"}`, header: map[string]string{"Authorization": rw}, status: 200},
			{name: "missing keys, 201 without a body", method: "POST", path: "/api/missing/" + p + "/latest/en/ui",
				body: `{"nav.help": "Help"}`, header: map[string]string{"Authorization": rw}, status: 201, empty: true},
			{name: "read, 200 with a body", method: "GET", path: "/api/" + p + "/latest/en/ui",
				header: map[string]string{"Authorization": rw}, status: 200},
			{name: "read gzipped, 200 with the compressed body", method: "GET", path: "/api/" + p + "/latest/en/ui",
				header: map[string]string{"Authorization": rw, "Accept-Encoding": "gzip"}, status: 200},
			{name: "preflight, 204", method: "OPTIONS", path: "/api/sync/" + p + "/latest/en/ui",
				header: map[string]string{"Origin": "https://app.example", "Access-Control-Request-Method": "PUT"}, status: 204, empty: true},
			{name: "public harvest, 204", method: "POST", path: "/api/embed/" + p + "/harvest",
				body: `{"strings": ["Sign in"]}`, status: 204, empty: true},
			{name: "unknown route, 404 with an error body", method: "GET", path: "/api/nope",
				status: 404},
		} {
			t.Run(c.name, func(t *testing.T) {
				var rd io.Reader
				if c.body != "" {
					rd = strings.NewReader(c.body)
				}
				req, _ := http.NewRequestWithContext(t.Context(), c.method, hs.URL+c.path, rd)
				for k, v := range c.header {
					req.Header.Set(k, v)
				}
				res, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != c.status {
					t.Fatalf("status %d, want %d: %s", res.StatusCode, c.status, body)
				}
				if c.empty != (len(body) == 0) {
					t.Fatalf("answered %d body bytes, the case says empty=%v", len(body), c.empty)
				}
				if c.header["Accept-Encoding"] == "gzip" && res.Header.Get("Content-Encoding") != "gzip" {
					t.Fatalf("not gzipped: %v", res.Header)
				}
				line := requestLine(t, logs, c.method, c.path)
				if got, ok := line["bytes"].(float64); !ok || int(got) != len(body) {
					t.Errorf("logged bytes %v, want %d (the body sent)", line["bytes"], len(body))
				}
			})
		}
	})
}

// requestLine is the one request line logged for method and path, waited for (a client
// may read the whole answer before the handler has returned and logged it) and then taken
// out of the log, so the next request of the same route finds its own line.
func requestLine(t *testing.T, logs *syncBuffer, method, path string) map[string]any {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		var found map[string]any
		for line := range strings.Lines(logs.String()) {
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil && m["msg"] == "request" && m["method"] == method && m["path"] == path {
				if found != nil {
					t.Fatalf("two request lines for %s %s:\n%s", method, path, logs)
				}
				found = m
			}
		}
		if found != nil {
			logs.mu.Lock()
			logs.buf.Reset()
			logs.mu.Unlock()
			return found
		}
		select {
		case <-logs.written():
		case <-timeout:
			t.Fatalf("no request line for %s %s:\n%s", method, path, logs)
		}
	}
}
