package public_test

// The public endpoints' tests run the real router (package rest with the public routes
// mounted, as `lokal serve` wires them) over a real database, SQLite and PostgreSQL, through
// httptest on 127.0.0.1.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/lokal-dev/lokal/public"
	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

// env is a server with the fixture (storagetest.Fixture): workspace ws whose public token
// resolves hosts, its api project proj, and the other workspace's project other.
type env struct {
	dialect string
	db      *storage.DB
	cat     *tools.Catalog
	url     string
	client  *http.Client
	f       storagetest.Fixture
}

type envOptions struct {
	cat     *tools.Options
	public  *public.Options
	trusted []string
}

func newEnv(t *testing.T, dialect string, o *envOptions) *env {
	t.Helper()
	if o == nil {
		o = &envOptions{}
	}
	db, f := storagetest.MustOpenFixture(t, dialect)
	cat := storagetest.Catalog(db, o.cat)
	popts := o.public
	if popts == nil {
		popts = &public.Options{}
	}
	popts.Logger = slog.New(slog.DiscardHandler)
	h := rest.New(cat, &rest.Options{Logger: slog.New(slog.DiscardHandler), Health: db.Ping,
		TrustedProxies: o.trusted, Public: public.Mount(cat, popts)})
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	t.Cleanup(client.CloseIdleConnections)
	return &env{dialect: dialect, db: db, cat: cat, url: hs.URL, client: client, f: f}
}

// forEachDialect runs fn on a fresh env of each dialect as parallel subtests.
func forEachDialect(t *testing.T, o func() *envOptions, fn func(t *testing.T, e *env)) {
	t.Helper()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		var opts *envOptions
		if o != nil {
			opts = o()
		}
		fn(t, newEnv(t, dialect, opts))
	})
}

func sys(t *testing.T) context.Context { return model.WithPrincipal(t.Context(), tools.System) }

type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r *resp) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
}

// call sends one request; body is sent as is when a string, as JSON otherwise, and not at
// all when nil.
func (e *env) call(t *testing.T, method, path string, body any, header map[string]string) *resp {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, e.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := e.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return &resp{status: res.StatusCode, header: res.Header, body: b}
}

func (e *env) want(t *testing.T, r *resp, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
}

// authorize lets the fixture workspace's sites resolve: hosts under example.test.
func (e *env) authorize(t *testing.T, in tools.SetWorkspaceIn) {
	t.Helper()
	if in.AuthorizedHosts == nil {
		in.AuthorizedHosts = &[]string{"example.test", "*.example.test"}
	}
	if _, err := e.cat.SetWorkspace(sys(t), e.f.Workspace.ID, in); err != nil {
		t.Fatalf("setting workspace: %v", err)
	}
}

// site resolves host to a new embed project (source en, de and fr on) and returns its id.
func (e *env) site(t *testing.T, host string) string {
	t.Helper()
	e.authorize(t, tools.SetWorkspaceIn{})
	r := e.call(t, "POST", "/api/embed/resolve", map[string]any{"token": e.f.Workspace.PublicToken, "host": host,
		"page_lang": "en", "languages": []string{"de-DE", "fr", "xx-nope"}}, nil)
	e.want(t, r, 200)
	var out struct {
		ProjectID string `json:"project_id"`
	}
	r.json(t, &out)
	return out.ProjectID
}

// set changes a project's settings as `lokal project set` does.
func (e *env) set(t *testing.T, projectID string, in tools.SetProjectIn) tools.ProjectView {
	t.Helper()
	v, err := e.cat.SetProject(sys(t), projectID, in)
	if err != nil {
		t.Fatalf("setting project: %v", err)
	}
	return v
}

// page reads a namespace as endpoint 1 would, through the catalogue.
func (e *env) page(t *testing.T, projectID, lang, ns string) map[string]string {
	t.Helper()
	f, err := e.cat.ReadNamespace(sys(t), tools.NamespaceRef{ProjectID: projectID, Language: lang, Namespace: ns})
	if model.IsNotFound(err) {
		return map[string]string{}
	}
	if err != nil {
		t.Fatalf("reading %s/%s: %v", lang, ns, err)
	}
	m := map[string]string{}
	if err := json.Unmarshal(f.Body, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// translate sets a row's value with a status through update_translation.
func (e *env) translate(t *testing.T, projectID, key, lang, value, status string) {
	t.Helper()
	_, err := e.cat.UpdateTranslation(sys(t), tools.UpdateTranslationIn{RowRef: tools.RowRef{
		KeyRef:   tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: projectID}, NamespaceKey: "page", TranslationKey: key},
		Language: lang}, Value: value, Status: status})
	if err != nil {
		t.Fatalf("translating %q: %v", key, err)
	}
}

func ptr[T any](v T) *T { return &v }
