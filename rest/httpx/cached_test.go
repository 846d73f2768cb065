package httpx

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

func TestETagMatches(t *testing.T) {
	const etag = `"abc"`
	for header, want := range map[string]bool{
		``:                false,
		`"abc"`:           true,
		`W/"abc"`:         true,
		`"xyz"`:           false,
		`abc`:             false,
		`"xyz", W/"abc"`:  true,
		`"xyz","abc"`:     true,
		` "xyz" , "uvw" `: false,
		`*`:               true,
		`"xyz", *`:        true,
		`W/"abcd"`:        false,
	} {
		if got := ETagMatches(header, etag); got != want {
			t.Errorf("If-None-Match %q: %v, want %v", header, got, want)
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	for header, want := range map[string]bool{
		"":                       false,
		"gzip":                   true,
		"GZip":                   true,
		"deflate, gzip":          true,
		"gzip;q=0":               false,
		"gzip; q=0.0, deflate":   false,
		"gzip;q=0.5":             true,
		"br;q=1, gzip ; q=0.001": true,
		"deflate, br":            false,
		"x-gzip":                 false,
	} {
		if got := AcceptsGzip(header); got != want {
			t.Errorf("Accept-Encoding %q: %v, want %v", header, got, want)
		}
	}
}

// TestServeCached: ServeCached, and ServeFile with the header values a stored file carries,
// answer the same.
func TestServeCached(t *testing.T) {
	body := []byte(`{"k":"v"}`)
	t.Run("ServeCached", func(t *testing.T) {
		testServeCached(t, func(w http.ResponseWriter, r *http.Request, gz []byte) {
			ServeCached(w, r, body, gz, `"e1"`, NoCache, JSONType)
		})
	})
	t.Run("ServeFile", func(t *testing.T) {
		testServeCached(t, func(w http.ResponseWriter, r *http.Request, gz []byte) {
			ServeFile(w, r, model.NewFile(body, gz, `"e1"`, time.Time{}), NoCache, JSONType)
		})
	})
}

func testServeCached(t *testing.T, serveFn func(w http.ResponseWriter, r *http.Request, gz []byte)) {
	body, gz := []byte(`{"k":"v"}`), []byte("gzipped")
	serve := func(method string, header map[string]string, gz []byte) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "/x", nil)
		for k, v := range header {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		serveFn(w, r, gz)
		return w
	}
	common := func(name string, w *httptest.ResponseRecorder) {
		t.Helper()
		h := w.Header()
		if h.Get("ETag") != `"e1"` || h.Get("Cache-Control") != "no-cache" || h.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: headers %v", name, h)
		}
	}

	w := serve("GET", nil, gz)
	common("plain", w)
	if w.Code != 200 || w.Body.String() != string(body) || w.Header().Get("Content-Length") != "9" ||
		w.Header().Get("Content-Type") != "application/json; charset=utf-8" || w.Header().Get("Content-Encoding") != "" {
		t.Errorf("plain: %d %v %s", w.Code, w.Header(), w.Body)
	}

	w = serve("GET", map[string]string{"Accept-Encoding": "gzip"}, gz)
	common("gzip", w)
	if w.Code != 200 || w.Body.String() != "gzipped" || w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("Content-Length") != "7" {
		t.Errorf("gzip: %d %v %s", w.Code, w.Header(), w.Body)
	}

	// No gzip form: the plain body even when gzip is accepted.
	w = serve("GET", map[string]string{"Accept-Encoding": "gzip"}, nil)
	if w.Body.String() != string(body) || w.Header().Get("Content-Encoding") != "" {
		t.Errorf("no gzip form: %v %s", w.Header(), w.Body)
	}

	for _, inm := range []string{`"e1"`, `W/"e1"`, `"e0", "e1"`, `*`} {
		w = serve("GET", map[string]string{"If-None-Match": inm, "Accept-Encoding": "gzip"}, gz)
		common("304", w)
		if w.Code != 304 || w.Body.Len() != 0 || w.Header().Get("Content-Type") != "" || w.Header().Get("Content-Length") != "" {
			t.Errorf("If-None-Match %s: %d %v %q", inm, w.Code, w.Header(), w.Body)
		}
	}

	w = serve("GET", map[string]string{"If-None-Match": `"e0"`}, gz)
	if w.Code != 200 || w.Body.String() != string(body) {
		t.Errorf("stale ETag: %d %s", w.Code, w.Body)
	}

	w = serve("HEAD", nil, gz)
	common("HEAD", w)
	if w.Code != 200 || w.Body.Len() != 0 || w.Header().Get("Content-Length") != "9" {
		t.Errorf("HEAD: %d %v %q", w.Code, w.Header(), w.Body)
	}
}

// TestServeFileAllocates: a stored file's answer sets its header values without making any.
func TestServeFileAllocates(t *testing.T) {
	f := model.NewFile([]byte(`{"k":"v"}`), []byte("gzipped"), `"e1"`, time.Time{})
	r := httptest.NewRequest("GET", "/x", nil)
	w := &headerSink{h: http.Header{}}
	if n := testing.AllocsPerRun(100, func() { ServeFile(w, r, f, NoCache, JSONType) }); n != 0 {
		t.Errorf("%v allocations per answer", n)
	}
}

type headerSink struct{ h http.Header }

func (d *headerSink) Header() http.Header         { return d.h }
func (d *headerSink) Write(b []byte) (int, error) { return len(b), nil }
func (d *headerSink) WriteHeader(int)             {}
