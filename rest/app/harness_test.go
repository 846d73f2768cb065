package app_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/rest/app"
	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
	"github.com/lokal-dev/lokal/tools/secrets"
)

func TestMain(m *testing.M) {
	code := storagetest.Run(m)
	stopBrowser()
	stopICBrowsers()
	os.Exit(code)
}

// env is the API and the application over a fresh fixture database of one dialect: the
// fixture's user (workspace ws, project proj with nb and sv) and the other workspace's user.
type env struct {
	dialect string
	dsn     string
	db      *storage.DB
	cat     *tools.Catalog
	srv     *httptest.Server
	f       storagetest.Fixture
	opts    *tools.Options
}

// loopback is the network the tests' doubles (webhook receivers, deploy hooks) listen on:
// the outbound guard refuses it unless allowed, as an operator would with
// --allow-private-nets.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}

// ownerOptions completes opts with what webhooks and redeploy need: a secret box to seal
// their secrets and a guard that lets them call the tests' doubles on 127.0.0.1.
func ownerOptions(t *testing.T, opts *tools.Options) *tools.Options {
	t.Helper()
	o := tools.Options{}
	if opts != nil {
		o = *opts
	}
	if o.Secrets == nil {
		box, err := secrets.New(make([]byte, secrets.KeySize))
		if err != nil {
			t.Fatal(err)
		}
		o.Secrets = box
	}
	if o.Outbound == nil {
		o.Outbound = outbound.NewGuard(loopback)
	}
	return &o
}

const password = "correct horse battery"

func newEnv(t *testing.T, dialect string, opts *tools.Options) *env {
	t.Helper()
	return newEnvOn(t, dialect, opts, httptest.NewUnstartedServer(nil))
}

// newEnvOn is newEnv on srv, a server not started yet: its address is known before the
// catalogue is made, for options that name it (the OAuth issuer's base URL).
func newEnvOn(t *testing.T, dialect string, opts *tools.Options, srv *httptest.Server) *env {
	t.Helper()
	dsn, f := storagetest.FixtureDSN(t, dialect)
	db := storagetest.MustOpen(t, dsn, nil)
	opts = ownerOptions(t, opts)
	cat := storagetest.Catalog(db, opts)
	quiet := slog.New(slog.DiscardHandler)
	h := app.Mount(rest.New(cat, &rest.Options{Logger: quiet, Health: db.Ping}), app.New(cat, &app.Options{Logger: quiet, ClientIP: app.ClientIPFrom(loopback)}))
	srv.Config.Handler = h
	srv.Start()
	t.Cleanup(srv.Close)
	e := &env{dialect: dialect, dsn: dsn, db: db, cat: cat, srv: srv, f: f, opts: opts}
	for _, u := range []string{f.User.ID, f.OtherUser.ID} {
		if err := cat.SetPassword(e.sys(t), u, password); err != nil {
			t.Fatalf("setting a password: %v", err)
		}
	}
	return e
}

func (e *env) sys(t *testing.T) context.Context {
	return model.WithPrincipal(t.Context(), tools.System)
}

// forEachDialect runs fn on a fresh env of each dialect as parallel subtests.
func forEachDialect(t *testing.T, fn func(t *testing.T, e *env)) {
	t.Helper()
	storagetest.ForEachDialect(t, func(t *testing.T, d string) {
		fn(t, newEnv(t, d, nil))
	})
}

// browser is a cookie-keeping client that does not follow redirects.
type browser struct {
	e    *env
	c    *http.Client
	csrf string
	from string // the client address it claims through X-Forwarded-For, which the env trusts from loopback
}

func (e *env) browser(t *testing.T) *browser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	t.Cleanup(c.CloseIdleConnections)
	return &browser{e: e, c: c}
}

type page struct {
	status int
	header http.Header
	body   string
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func (b *browser) do(t *testing.T, req *http.Request) page {
	t.Helper()
	if b.from != "" {
		req.Header.Set("X-Forwarded-For", b.from)
	}
	res, err := b.c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	p := page{status: res.StatusCode, header: res.Header, body: string(body)}
	if m := csrfField.FindStringSubmatch(p.body); m != nil && strings.Contains(p.body, `name="csrf-token"`) {
		b.csrf = m[1]
	}
	return p
}

func (b *browser) get(t *testing.T, path string) page {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, b.e.srv.URL+path, nil)
	return b.do(t, req)
}

// post sends a form; withCSRF adds the session's token.
func (b *browser) post(t *testing.T, path string, form url.Values, withCSRF bool) page {
	t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if withCSRF {
		form.Set("csrf", b.csrf)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, b.e.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.do(t, req)
}

// json sends a JSON body with the CSRF header.
func (b *browser) json(t *testing.T, path, body string, withCSRF bool) page {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, b.e.srv.URL+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if withCSRF {
		req.Header.Set("X-CSRF-Token", b.csrf)
	}
	return b.do(t, req)
}

// signIn signs in as email and loads the project list, which holds the CSRF token.
func (b *browser) signIn(t *testing.T, email string) {
	t.Helper()
	p := b.trySignIn(t, email, password)
	if p.status != http.StatusSeeOther {
		t.Fatalf("signing in as %s: %d %s", email, p.status, p.body)
	}
	if p := b.get(t, "/app/"); p.status != http.StatusOK {
		t.Fatalf("GET /app/ after signing in: %d", p.status)
	}
}

var signinField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func (b *browser) trySignIn(t *testing.T, email, pw string) page {
	t.Helper()
	form := b.get(t, "/app/signin")
	m := signinField.FindStringSubmatch(form.body)
	if m == nil {
		t.Fatalf("the sign-in form has no CSRF field: %s", form.body)
	}
	return b.post(t, "/app/signin", url.Values{"csrf": {m[1]}, "email": {email}, "password": {pw}}, false)
}

func (p page) want(t *testing.T, status int, contains ...string) page {
	t.Helper()
	if p.status != status {
		t.Fatalf("status %d, want %d; body: %.600s", p.status, status, p.body)
	}
	for _, s := range contains {
		if !strings.Contains(p.body, s) {
			t.Fatalf("body lacks %q: %.1500s", s, p.body[max(0, strings.Index(p.body, "<main")):])
		}
	}
	return p
}

// draft stores an AI draft of key in lang, as the automatic translation would.
func (e *env) draft(t *testing.T, ns, key, lang, value string) {
	t.Helper()
	ctx := model.WithPrincipal(t.Context(), model.Principal{Kind: model.KindSystem, Agent: "ai:test-model"})
	if _, err := e.cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: e.ref(ns, key, lang), Value: value}); err != nil {
		t.Fatalf("storing a draft of %s: %v", key, err)
	}
}

func (e *env) ref(ns, key, lang string) tools.RowRef {
	return tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID}, NamespaceKey: ns, TranslationKey: key}, Language: lang}
}

// source adds keys with their source texts to namespace ns.
func (e *env) source(t *testing.T, ns string, kv ...string) {
	t.Helper()
	for i := 0; i+1 < len(kv); i += 2 {
		in := tools.AddKeyIn{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID}, NamespaceKey: ns, TranslationKey: kv[i]}, SourceValue: kv[i+1]}
		if _, err := e.cat.AddKey(e.sys(t), in); err != nil {
			t.Fatalf("adding %s: %v", kv[i], err)
		}
	}
}

func (e *env) row(t *testing.T, ns, key, lang string) tools.TranslationView {
	t.Helper()
	out, err := e.cat.GetTranslation(e.sys(t), e.ref(ns, key, lang).KeyRef)
	if err != nil {
		t.Fatalf("reading %s: %v", key, err)
	}
	for _, v := range out.Translations {
		if v.Language == lang {
			return v
		}
	}
	return tools.TranslationView{}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
