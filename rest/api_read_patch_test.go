package rest_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

// TestAPIReadPatchedETag: a namespace large enough to be compressed off the request path,
// read on two instances, after writes to one key of it and to another namespace. Each answer
// carries the ETag of its bytes, gzip or not; a 304 holds exactly while the bytes do; the
// second instance serves the first's bytes and ETag once it has polled.
func TestAPIReadPatchedETag(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: a large namespace patched and read on two servers (the cache's concurrency is raced in storage) runs in the plain run; the race run keeps the tests that run at once")
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		open := func() *storage.DB { return storagetest.MustOpen(t, dsn, &storage.Options{PollInterval: time.Hour}) }
		// Not about the write budget: an hour keeps a loaded -race run from tripping it.
		a := serve(t, dialect, open(), &tools.Options{WriteTimeout: time.Hour})
		a.useFixture(f)
		dbB := open()
		b := a.peer(t, dbB)

		big := map[string]string{}
		for i := 0; i < 3000; i++ {
			big[fmt.Sprintf("key_%04d", i)] = fmt.Sprintf("A value of key %d, long enough to pass 64 KB in all.", i)
		}
		a.sync(t, "en", "big", map[string]any{"translations": big})
		a.sync(t, "en", "small", map[string]string{"s": "S"})
		path := a.readPath("en", "big")
		get := func(s *server, etag, enc string) *response {
			return s.do(t, request{Method: "GET", Path: path, Auth: tokenAuth(s.ro), Header: map[string]string{"If-None-Match": etag, "Accept-Encoding": enc}})
		}
		// plain returns the body an answer stands for, gunzipped when it came compressed.
		plain := func(r *response) []byte {
			if r.header.Get("Content-Encoding") != "gzip" {
				return r.body
			}
			zr, err := gzip.NewReader(bytes.NewReader(r.body))
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			return body
		}
		first := get(a, "", "gzip").wantStatus(t, http.StatusOK)
		etag := first.header.Get("ETag")
		get(b, "", "").wantStatus(t, http.StatusOK)

		a.overwrite(t, "en", "big", map[string]string{"key_1500": "changed"})
		if err := dbB.Poll(context.Background()); err != nil {
			t.Fatal(err)
		}
		var newTag string
		var newBody []byte
		for _, s := range []*server{a, b} {
			for _, enc := range []string{"gzip", ""} {
				r := get(s, etag, enc).wantStatus(t, http.StatusOK)
				body := plain(r)
				if !bytes.Contains(body, []byte(`"key_1500":"changed"`)) {
					t.Fatalf("after the write: %.200s", body)
				}
				if newTag == "" {
					newTag, newBody = r.header.Get("ETag"), body
				}
				if r.header.Get("ETag") != newTag || !bytes.Equal(body, newBody) {
					t.Errorf("answers differ: %s %.80s, want %s %.80s", r.header.Get("ETag"), body, newTag, newBody)
				}
			}
		}
		if newTag == etag {
			t.Fatalf("ETag %s did not move with the bytes", etag)
		}

		a.sync(t, "en", "small", map[string]string{"s": "S", "t": "T"})
		if err := dbB.Poll(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, s := range []*server{a, b} {
			for _, enc := range []string{"gzip", ""} {
				get(s, newTag, enc).wantStatus(t, http.StatusNotModified)
			}
		}
	})
}
