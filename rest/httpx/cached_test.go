package httpx

import (
	"net/http/httptest"
	"testing"
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

func TestServeCached(t *testing.T) {
	body, gz := []byte(`{"k":"v"}`), []byte("gzipped")
	serve := func(method string, header map[string]string, gz []byte) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "/x", nil)
		for k, v := range header {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		ServeCached(w, r, body, gz, `"e1"`, NoCache, JSONType)
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
