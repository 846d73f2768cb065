package rest_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestAPIRead covers endpoint 1: the flat map, hidden keys, target languages, and 404s.
func TestAPIRead(t *testing.T) {
	t.Parallel()
	const read = "/api/{project}/latest/"
	isJSON := func(t *testing.T, _ *server, r *response) {
		t.Helper()
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("Content-Type %q, want application/json", ct)
		}
	}
	// seedMore adds a key with no Norwegian value and gives the hidden key one.
	seedMore := func(t *testing.T, s *server) {
		t.Helper()
		seed(t, s)
		s.sync(t, "en", "common", map[string]string{"greeting": "Hello", "farewell": "Bye", "nav.home": "Home"})
		s.call(t, "POST", s.missingPath("en", "common"), tokenAuth(s.rw), map[string]string{"old": "ignored"}).wantStatus(t, http.StatusCreated)
	}
	scenarios := []scenario{
		{name: "source language: visible keys only", setup: seedMore, method: "GET", path: read + "en/common", auth: "{rw}",
			wantStatus: 200, wantJSON: `{"greeting":"Hello","farewell":"Bye","nav.home":"Home"}`, check: isJSON},
		{name: "target language: only keys with a value", setup: seedMore, method: "GET", path: read + "nb/common", auth: "{rw}",
			wantStatus: 200, wantJSON: `{"greeting":"Hei"}`, check: isJSON},
		{name: "target language: drafts and approved values", setup: func(t *testing.T, s *server) {
			seedMore(t, s)
			s.draft(t, "common", "farewell", "nb", "Ha det")
		}, method: "GET", path: read + "nb/common", auth: "{rw}", wantStatus: 200, wantJSON: `{"greeting":"Hei","farewell":"Ha det"}`},
		{name: "target language: a hidden key's value is not served", setup: func(t *testing.T, s *server) {
			seed(t, s)
			s.draft(t, "common", "old", "nb", "Gammel")
		}, method: "GET", path: read + "nb/common", auth: "{rw}", wantStatus: 200, wantJSON: `{"greeting":"Hei"}`},
		{name: "target language with no values yet", setup: seed, method: "GET", path: read + "sv/common", auth: "{rw}",
			wantStatus: 200, wantJSON: `{}`, check: isJSON},
		{name: "a key made in a target language has no source value", setup: func(t *testing.T, s *server) {
			seed(t, s)
			s.sync(t, "nb", "common", map[string]string{"only.nb": "Bare norsk"})
		}, method: "GET", path: read + "en/common", auth: "{rw}", wantStatus: 200, wantJSON: `{"greeting":"Hello"}`},
		{name: "values with markup are served verbatim", setup: func(t *testing.T, s *server) {
			s.sync(t, "en", "markup", map[string]string{"a": `Read <a href="https://x.test/?a=1&b=2">the <strong>terms</strong></a>, %{name}`})
		}, method: "GET", path: read + "en/markup", auth: "{rw}", wantStatus: 200,
			check: func(t *testing.T, _ *server, r *response) {
				want := `Read <a href="https://x.test/?a=1&b=2">the <strong>terms</strong></a>, %{name}`
				var m map[string]string
				r.decode(t, &m)
				if m["a"] != want {
					t.Errorf("value %q, want %q", m["a"], want)
				}
			}},
		{name: "unknown namespace", setup: seed, method: "GET", path: read + "en/nope", auth: "{rw}", wantStatus: 404, wantError: "not_found"},
		{name: "unknown namespace in a target language", setup: seed, method: "GET", path: read + "nb/nope", auth: "{rw}", wantStatus: 404, wantError: "not_found"},
		{name: "language not on for the project", setup: seed, method: "GET", path: read + "de/common", auth: "{rw}", wantStatus: 404, wantError: "not_found"},
		{name: "language that does not exist", setup: seed, method: "GET", path: read + "xx/common", auth: "{rw}", wantStatus: 404, wantError: "not_found"},
		{name: "language not on, with a workspace token", setup: seed, method: "GET", path: read + "de/common", auth: "Bearer {ws}", wantStatus: 404, wantError: "not_found"},
		{name: "unknown project with a workspace token", setup: seed, method: "GET", path: "/api/00000000-0000-4000-8000-000000000000/latest/en/common",
			auth: "Bearer {ws}", wantStatus: 404, wantError: "not_found"},
		{name: "project id that is not a UUID, with a workspace token", setup: seed, method: "GET", path: "/api/not-a-uuid/latest/en/common",
			auth: "Bearer {ws}", wantStatus: 404, wantError: "not_found"},
	}
	runScenarios(t, scenarios)
}

// TestAPIReadETag covers the ETag, If-None-Match (strong, weak, lists, *) and 304.
func TestAPIReadETag(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		seed(t, s)
		path := s.readPath("en", "common")
		first := s.call(t, "GET", path, tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
		etag := first.header.Get("ETag")
		if etag == "" || !strings.HasPrefix(strings.TrimPrefix(etag, "W/"), `"`) || !strings.HasSuffix(etag, `"`) {
			t.Fatalf("ETag %q, want a quoted entity tag", etag)
		}
		if again := s.call(t, "GET", path, tokenAuth(s.ro), nil); again.header.Get("ETag") != etag {
			t.Errorf("ETag moved without a write: %q then %q", etag, again.header.Get("ETag"))
		}
		opaque := strings.TrimPrefix(etag, "W/")
		tests := []struct {
			name        string
			ifNoneMatch string
			want        int
		}{
			{"same tag", etag, http.StatusNotModified},
			{"weak form of the tag", "W/" + opaque, http.StatusNotModified},
			{"list containing the tag", `"aaa", ` + etag + `, "bbb"`, http.StatusNotModified},
			{"list without spaces", `"aaa",` + etag, http.StatusNotModified},
			{"star", "*", http.StatusNotModified},
			{"another tag", `"0123"`, http.StatusOK},
			{"unquoted tag", strings.Trim(opaque, `"`), http.StatusOK},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				for _, enc := range []string{"", "gzip"} {
					r := s.do(t, request{Method: "GET", Path: path, Auth: tokenAuth(s.ro),
						Header: map[string]string{"If-None-Match": tt.ifNoneMatch, "Accept-Encoding": enc}})
					r.wantStatus(t, tt.want)
					if tt.want == http.StatusNotModified {
						if len(r.body) != 0 {
							t.Errorf("304 has a body: %q", r.body)
						}
						if r.header.Get("ETag") != etag {
							t.Errorf("304 ETag %q, want %q", r.header.Get("ETag"), etag)
						}
					} else if len(r.body) == 0 {
						t.Errorf("200 without a body")
					}
				}
			})
		}

		t.Run("a write moves the ETag", func(t *testing.T) {
			s.sync(t, "en", "common", map[string]string{"greeting": "Hello", "more": "More"})
			r := s.do(t, request{Method: "GET", Path: path, Auth: tokenAuth(s.ro), Header: map[string]string{"If-None-Match": etag}})
			r.wantStatus(t, http.StatusOK)
			if r.header.Get("ETag") == etag || r.header.Get("ETag") == "" {
				t.Errorf("ETag after a write %q, want a new one (was %q)", r.header.Get("ETag"), etag)
			}
			if !jsonEqual(t, r.body, map[string]string{"greeting": "Hello", "more": "More"}) {
				t.Errorf("body after the write: %s", r.body)
			}
			s.do(t, request{Method: "GET", Path: path, Auth: tokenAuth(s.ro), Header: map[string]string{"If-None-Match": r.header.Get("ETag")}}).
				wantStatus(t, http.StatusNotModified)
		})

		t.Run("a write in another language moves the target ETag", func(t *testing.T) {
			nb := s.call(t, "GET", s.readPath("nb", "common"), tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
			s.overwrite(t, "nb", "common", map[string]string{"more": "Mer"})
			r := s.do(t, request{Method: "GET", Path: s.readPath("nb", "common"), Auth: tokenAuth(s.ro),
				Header: map[string]string{"If-None-Match": nb.header.Get("ETag")}})
			r.wantStatus(t, http.StatusOK)
			if !jsonEqual(t, r.body, map[string]string{"greeting": "Hei", "more": "Mer"}) {
				t.Errorf("nb after the overwrite: %s", r.body)
			}
		})
	})
}

// TestAPIReadGzip covers gzip when the client accepts it, and identity otherwise.
func TestAPIReadGzip(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		values := map[string]string{}
		for i := 0; i < 200; i++ {
			values["section.key"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+strings.Repeat("y", i/26)] = "A value that repeats itself, as translations do."
		}
		s.sync(t, "en", "big", values)
		path := s.readPath("en", "big")
		plain := s.call(t, "GET", path, tokenAuth(s.rw), nil).wantStatus(t, http.StatusOK)
		if ce := plain.header.Get("Content-Encoding"); ce != "" {
			t.Errorf("Content-Encoding %q without Accept-Encoding", ce)
		}
		if !jsonEqual(t, plain.body, values) {
			t.Fatalf("identity body is not the namespace")
		}
		tests := []struct {
			name           string
			acceptEncoding string
			gzipped        bool
		}{
			{"gzip", "gzip", true},
			{"gzip among others", "br, gzip, deflate", true},
			{"gzip with a q-value", "gzip;q=0.5, identity", true},
			{"gzip refused with q=0", "gzip;q=0", false},
			{"other encodings only", "br", false},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := s.do(t, request{Method: "GET", Path: path, Auth: tokenAuth(s.rw), Header: map[string]string{"Accept-Encoding": tt.acceptEncoding}})
				r.wantStatus(t, http.StatusOK)
				if !strings.Contains(r.header.Get("Vary"), "Accept-Encoding") {
					t.Errorf("Vary %q, want Accept-Encoding", r.header.Get("Vary"))
				}
				if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
					t.Errorf("Content-Type %q, want application/json", ct)
				}
				body := r.body
				if tt.gzipped {
					if ce := r.header.Get("Content-Encoding"); ce != "gzip" {
						t.Fatalf("Content-Encoding %q, want gzip", ce)
					}
					zr, err := gzip.NewReader(bytes.NewReader(r.body))
					if err != nil {
						t.Fatalf("body is not gzip: %v", err)
					}
					if body, err = io.ReadAll(zr); err != nil {
						t.Fatalf("decompressing: %v", err)
					}
					if len(r.body) >= len(body) {
						t.Errorf("gzip body (%d bytes) is not smaller than the JSON (%d bytes)", len(r.body), len(body))
					}
				} else if ce := r.header.Get("Content-Encoding"); ce != "" {
					t.Errorf("Content-Encoding %q, want none", ce)
				}
				if !bytes.Equal(body, plain.body) {
					t.Errorf("decoded body differs from the identity body")
				}
			})
		}
	})
}
