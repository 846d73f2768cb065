package rest_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestAPIRobustness sends hostile bodies to every endpoint that takes translations: each
// answers a 4xx in the error shape and leaves the namespace as it was.
func TestAPIRobustness(t *testing.T) {
	t.Parallel()
	oneAtATime(t)
	deep := func(open, leaf, close string, n int) string {
		return strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
	}
	// Bodies of a flat map; those starting with {"ok":"OK", also go inside the sync object
	// form and, as their one bad string, into page strings.
	bodies := []struct {
		name string
		body string
		bad  string // the bad string alone, JSON-encoded, for page strings ("" for none)
	}{
		{"malformed JSON", `{"a": "b"`, ""},
		{"an unquoted key", `{a: "b"}`, ""},
		{"a second JSON value after the object", `{"a":"A"} {"b":"B"}`, ""},
		{"an empty body", ``, ""},
		{"null", `null`, ""},
		{"a string", `"a"`, ""},
		{"deeply nested objects", deep(`{"a":`, `"x"`, `}`, 100000), ""},
		{"deeply nested arrays", deep(`[`, `"x"`, `]`, 100000), ""},
		{"nested objects under a key", `{"ok":"OK","a":` + deep(`{"a":`, `"x"`, `}`, 20000) + `}`, deep(`{"a":`, `"x"`, `}`, 20000)},
		{"invalid UTF-8 in a key", "{\"ok\":\"OK\",\"k\xff\xfe\":\"v\"}", "\"k\xff\xfe\""},
		{"invalid UTF-8 in a value", "{\"ok\":\"OK\",\"k\":\"v\xc3\x28\"}", "\"v\xc3\x28\""},
		{"an overlong UTF-8 encoding", "{\"ok\":\"OK\",\"k\":\"\xc0\xaf\"}", "\"\xc0\xaf\""},
		{"an escaped NUL in a key", `{"ok":"OK","a\u0000b":"v"}`, `"a\u0000b"`},
		{"an escaped NUL in a value", `{"ok":"OK","k":"a\u0000b"}`, ""},
		{"a raw NUL in a value", "{\"ok\":\"OK\",\"k\":\"a\x00b\"}", "\"a\x00b\""},
		{"an empty key", `{"ok":"OK","":"v"}`, ""},
		{"a 1 MB key", `{"ok":"OK","` + strings.Repeat("k", 1<<20) + `":"v"}`, `"` + strings.Repeat("k", 1<<20) + `"`},
		{"a refused value among good ones", `{"ok":"OK","k":"<img src=x onerror=alert(1)>"}`, `"<img src=x onerror=alert(1)>"`},
	}
	type endpoint struct {
		name   string
		method string
		path   func(s *server, ns string) string
		body   func(flat, bad string) (string, bool)
	}
	flatBody := func(flat, _ string) (string, bool) { return flat, true }
	endpoints := []endpoint{
		{"missing", "POST", func(s *server, ns string) string { return s.missingPath("en", ns) }, flatBody},
		{"sync", "PUT", func(s *server, ns string) string { return s.syncPath("en", ns) }, flatBody},
		{"sync in a target language", "PUT", func(s *server, ns string) string { return s.syncPath("nb", ns) }, flatBody},
		{"sync object form", "PUT", func(s *server, ns string) string { return s.syncPath("en", ns) }, func(flat, _ string) (string, bool) {
			if !strings.HasPrefix(flat, `{"ok":"OK",`) {
				return "", false
			}
			return `{"partial":true,"translations":` + flat + `}`, true
		}},
		{"overwrite", "PUT", func(s *server, ns string) string { return s.overwritePath("nb", ns) }, flatBody},
		{"overwrite in the source language", "PUT", func(s *server, ns string) string { return s.overwritePath("en", ns) }, flatBody},
		{"page strings", "POST", func(s *server, ns string) string { return s.pageStringsPath(ns) }, func(_, bad string) (string, bool) {
			return `{"source_strings":["OK",` + bad + `]}`, bad != ""
		}},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		for i, e := range endpoints {
			ns := fmt.Sprintf("ui%d", i)
			abcIn(t, s, ns)
			t.Run(e.name, func(t *testing.T) {
				for _, b := range bodies {
					body, ok := e.body(b.body, b.bad)
					if !ok {
						continue
					}
					t.Run(b.name, func(t *testing.T) {
						before := snapshot(t, s, ns)
						r := s.call(t, e.method, e.path(s, ns), tokenAuth(s.rw), body)
						if r.status < 400 || r.status > 499 {
							t.Errorf("status %d, want a 4xx; body: %s", r.status, truncated(r.body))
						} else {
							r.wantError(t, "")
						}
						if after := snapshot(t, s, ns); after != before {
							t.Errorf("namespace changed:\nbefore %s\n after %s", before, after)
						}
					})
				}
			})
		}
	})
}

// snapshot is the namespace in every language of the project, with its ETags.
func snapshot(t *testing.T, s *server, ns string) string {
	t.Helper()
	var b strings.Builder
	for _, lang := range []string{"en", "nb", "sv"} {
		r := s.call(t, "GET", s.readPath(lang, ns), tokenAuth(s.rw), nil).wantStatus(t, 200)
		b.WriteString(lang + " " + r.header.Get("ETag") + " " + string(r.body) + "\n")
	}
	return b.String()
}
