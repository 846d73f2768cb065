package app_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/rest/app"
	"github.com/lokal-dev/lokal/rest/reqbody"
	"github.com/lokal-dev/lokal/storage/storagetest"
)

// TestUploadSharesTheAPIBound: the editor's upload and confirmation hold room in the one
// bound on request bytes in flight that the API's imports hold: while the bound is full,
// both doors answer 503 with Retry-After and store nothing; once it frees, the upload is
// previewed. The short body time is how long a request waits for room, not a timing the
// test depends on: the room is held throughout.
func TestUploadSharesTheAPIBound(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, d string) {
		dsn, f := storagetest.FixtureDSN(t, d)
		db := storagetest.MustOpen(t, dsn, nil)
		cat := storagetest.Catalog(db, ownerOptions(t, nil))
		quiet := slog.New(slog.DiscardHandler)
		bodies := reqbody.NewBudget(1 << 20)
		wait := 50 * time.Millisecond
		h := app.Mount(rest.New(cat, &rest.Options{Logger: quiet, Health: db.Ping, Bodies: bodies, BodyTimeout: wait}),
			app.New(cat, &app.Options{Logger: quiet, ClientIP: app.ClientIPFrom(loopback), Bodies: bodies, BodyTimeout: wait}))
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		e := &env{dialect: d, dsn: dsn, db: db, cat: cat, srv: srv, f: f}
		if err := cat.SetPassword(e.sys(t), f.User.ID, password); err != nil {
			t.Fatal(err)
		}
		b := e.browser(t)
		b.signIn(t, f.User.Email)
		proj := "/app/p/" + f.Project.ID
		fields := map[string]string{"namespace": "onboarding", "language": "en", "format": "po", "status": "approved", "preserve": "true"}
		apiImport := func() *http.Response {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPut, srv.URL+"/api/import/"+f.Project.ID+"/latest/en/onboarding?format=po&dry_run=true",
				bytes.NewReader([]byte(sourcePO)))
			req.Header.Set("Authorization", "Token token="+f.RW)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			return res
		}

		release, err := bodies.Acquire(t.Context(), 1<<20, 1<<20, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		p := b.upload(t, proj+"/import", fields, "en.po", []byte(sourcePO), true).want(t, http.StatusServiceUnavailable, "busy")
		if p.header.Get("Retry-After") == "" {
			t.Error("the refused upload has no Retry-After")
		}
		if res := apiImport(); res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
			t.Errorf("the API's import answered %d (Retry-After %q) while the bound was full, want 503 with one", res.StatusCode, res.Header.Get("Retry-After"))
		}
		release()
		b.upload(t, proj+"/import", fields, "en.po", []byte(sourcePO), true).want(t, http.StatusOK, "What the import would do")
		if res := apiImport(); res.StatusCode != http.StatusOK {
			t.Errorf("the API's import answered %d once the bound was free", res.StatusCode)
		}
	})
}
