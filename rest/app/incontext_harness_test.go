package app_test

// The harness of the review-in-context tests (issue 36): lokal with its API, the editor
// (/app/) and the Embed's public routes mounted together as `lokal serve` wires them, on
// 127.0.0.1; the sites under test on httptest servers reached under host names that
// Chromium maps to 127.0.0.1 (*.example.test, authorized for the fixture's workspace, and
// evil.test, which is not), so that every site is an origin and a site other than lokal's.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/public"
	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/rest/app"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
	"github.com/lokal-dev/lokal/tools/secrets"
)

// icEnv is lokal at base (the catalogue's base URL, so that the panel's links and the
// Embed's origin are this server's) with an AI double, and the fixture workspace's sites
// under *.example.test authorized.
type icEnv struct {
	*env
	base string
	ai   *promptLog
}

// promptLog is an OpenAI-compatible double (aitest) behind a recorder of each request's
// raw body: where the catalogue puts a key's page context in the prompt is its choice, so
// the tests look for it in the whole request.
type promptLog struct {
	URL    string // the /v1 base to configure a provider with
	mu     sync.Mutex
	bodies []string
}

func (p *promptLog) all() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.bodies, "\n")
}

func (p *promptLog) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.bodies)
}

func newPromptLog(t testing.TB) *promptLog {
	t.Helper()
	llm := aitest.New(t, aitest.Echo(func(_, masked string) string { return "DE " + masked }))
	upstream := strings.TrimSuffix(llm.URL, "/v1")
	p := &promptLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		p.mu.Lock()
		p.bodies = append(p.bodies, string(body))
		p.mu.Unlock()
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, upstream+r.URL.Path, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		for k, v := range res.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(res.StatusCode)
		io.Copy(w, res.Body)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL + "/v1"
	return p
}

func newICEnv(t testing.TB, dialect string) *icEnv {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	ai := newPromptLog(t)
	box, err := secrets.New(make([]byte, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	opts := &tools.Options{BaseURL: base, AIDefault: tools.AIProvider{BaseURL: ai.URL, Model: "test-model"},
		Secrets: box, Outbound: outbound.NewGuard(loopback)}
	dsn, f := storagetest.FixtureDSN(t, dialect)
	db := storagetest.MustOpen(t, dsn, nil)
	cat := storagetest.Catalog(db, opts)
	quiet := slog.New(slog.DiscardHandler)
	h := app.Mount(rest.New(cat, &rest.Options{Logger: quiet, Health: db.Ping, Public: public.Mount(cat, &public.Options{Logger: quiet})}),
		app.New(cat, &app.Options{Logger: quiet, ClientIP: app.ClientIPFrom(loopback)}))
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	e := &icEnv{env: &env{dialect: dialect, dsn: dsn, db: db, cat: cat, srv: srv, f: f, opts: opts}, base: base, ai: ai}
	sys := model.WithPrincipal(context.Background(), tools.System)
	for _, u := range []string{f.User.ID, f.OtherUser.ID} {
		if err := cat.SetPassword(sys, u, password); err != nil {
			t.Fatalf("setting a password: %v", err)
		}
	}
	hosts := []string{"*.example.test"}
	if _, err := cat.SetWorkspace(sys, f.Workspace.ID, tools.SetWorkspaceIn{AuthorizedHosts: &hosts}); err != nil {
		t.Fatalf("authorizing the sites: %v", err)
	}
	return e
}

func icSys() context.Context { return model.WithPrincipal(context.Background(), tools.System) }

// icMember adds a user with a password and a role (and languages) on project.
func (e *icEnv) icMember(t testing.TB, project, email, role string, langs ...string) model.User {
	t.Helper()
	u, err := e.cat.CreateUser(icSys(), tools.CreateUserIn{WorkspaceID: e.f.Workspace.ID, Email: email})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.cat.SetPassword(icSys(), u.ID, password); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cat.SetMember(icSys(), tools.SetMemberIn{ProjectID: project, User: u.ID, Role: role, Languages: langs}); err != nil {
		t.Fatal(err)
	}
	return u
}

// icSite is a site: an httptest server whose pages the test sets, reached at
// http://<host>:<port>/, and, for an Embed site, the project the Embed resolved its host to.
type icSite struct {
	e       *icEnv
	host    string
	project string
	srv     *httptest.Server
	mu      sync.Mutex
	pages   map[string]icPage
}

type icPage struct {
	body, ctype string
	header      map[string]string
}

func (e *icEnv) newSite(t testing.TB, host string) *icSite {
	t.Helper()
	s := &icSite{e: e, host: host, pages: map[string]icPage{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		p, ok := s.pages[r.URL.Path]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, v := range p.header {
			w.Header().Set(k, v)
		}
		if p.ctype == "" {
			p.ctype = "text/html; charset=utf-8"
		}
		w.Header().Set("Content-Type", p.ctype)
		w.Header().Set("Cache-Control", "no-store")
		io.WriteString(w, p.body)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// embedSite is a site whose host the Embed resolves to a new project (source en, de and
// fr on) with the page's source texts and their German translations in namespace page.
func (e *icEnv) embedSite(t testing.TB, host string, de map[string]string) *icSite {
	t.Helper()
	s := e.newSite(t, host)
	res, err := http.Post(e.base+"/api/embed/resolve", "application/json", strings.NewReader(fmt.Sprintf(
		`{"token": %q, "host": %q, "page_lang": "en", "languages": ["de", "fr"]}`, e.f.Workspace.PublicToken, host)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		ProjectID string `json:"project_id"`
	}
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || jsonUnmarshal(b, &out) != nil || out.ProjectID == "" {
		t.Fatalf("resolving %s: %d %s", host, res.StatusCode, b)
	}
	s.project = out.ProjectID
	var src []string
	for k := range de {
		src = append(src, k)
	}
	if _, err := e.cat.RegisterPageStrings(icSys(), tools.PageStringsIn{ProjectID: s.project, Namespace: "page", SourceStrings: src}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.cat.Overwrite(icSys(), tools.OverwriteIn{NamespaceRef: tools.NamespaceRef{ProjectID: s.project, Language: "de", Namespace: "page"}, Translations: de}); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *icSite) serve(path, body string, header map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path] = icPage{body: body, header: header}
}

func (s *icSite) serveJS(path, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path] = icPage{body: body, ctype: "text/javascript"}
}

func (s *icSite) serveFile(t testing.TB, path, file, ctype string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path] = icPage{body: string(b), ctype: ctype}
}

// url is the page's address under the site's host name.
func (s *icSite) url(path string) string {
	return "http://" + s.host + s.srv.URL[strings.LastIndex(s.srv.URL, ":"):] + path
}

func (s *icSite) origin() string { return strings.TrimSuffix(s.url("/"), "/") }

// tag is the Embed's script tag (get_embed_snippet's), showing the page in lang.
func (s *icSite) tag(t testing.TB, lang string) string {
	t.Helper()
	snip, err := s.e.cat.GetEmbedSnippet(icSys(), tools.EmbedSnippetIn{ProjectArg: tools.ProjectArg{ProjectID: s.project}})
	if err != nil {
		t.Fatal(err)
	}
	tag := strings.Replace(snip.Snippet, snip.ScriptURL, s.e.base+"/embed.js", 1)
	if lang != "" {
		tag = strings.Replace(tag, " defer>", ` data-lokal-lang="`+lang+`" defer>`, 1)
	}
	return tag
}

// row reads key's row in lang on project.
func (e *icEnv) icRow(t testing.TB, project, ns, key, lang string) tools.TranslationView {
	t.Helper()
	out, err := e.cat.GetTranslation(icSys(), tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: project}, NamespaceKey: ns, TranslationKey: key})
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

// --- the browser ----------------------------------------------------------------------

// The tests' Chromium, started by the first test and stopped by TestMain: the host names
// mapped to loopback, the popup blocker on (the panel opens on the Alt+click's user
// gesture or not at all), and third-party cookies blocked
// (--test-third-party-cookie-phaseout, the switch Chromium uses to test the phase-out;
// TestInContextThirdPartyCookiesBlockedAndStrictCSP checks that it holds): the panel must
// not need them.
var (
	icOnce sync.Once
	icCtx  context.Context
	icStop context.CancelFunc
	icErr  error
)

const icHostRules = "MAP *.example.test 127.0.0.1, MAP evil.test 127.0.0.1"

// icBrowser is a tab in a browser context of its own (its own cookies and storage, as a
// browser of its own), closed when the test ends.
func icBrowser(t testing.TB) context.Context {
	t.Helper()
	var bin string
	if tt, ok := t.(*testing.T); ok {
		bin = chromium(tt)
	} else {
		bin = benchChromium(t)
	}
	icOnce.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU, chromedp.IgnoreCertErrors,
			chromedp.WindowSize(1280, 900), chromedp.Flag("lang", "en-US"),
			chromedp.Flag("host-resolver-rules", icHostRules),
			chromedp.Flag("disable-popup-blocking", false),
			chromedp.Flag("test-third-party-cookie-phaseout", true))
		actx, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, stopFirst := chromedp.NewContext(actx)
		icCtx, icStop = ctx, func() { stopFirst(); stopAlloc() }
		icErr = chromedp.Do(ctx)
	})
	if icErr != nil {
		t.Fatalf("starting Chromium: %v", icErr)
	}
	ctx, cancel := chromedp.NewContext(icCtx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	ctx, cancel2 := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(cancel2)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return ctx
}

func stopICBrowsers() {
	if icStop != nil {
		icStop()
	}
}

// benchChromium is chromium for a benchmark.
func benchChromium(t testing.TB) string {
	t.Helper()
	for _, p := range []string{os.Getenv("LOKAL_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	t.Skip("no Chromium: apt-get install chromium, or set LOKAL_CHROMIUM")
	return ""
}

func icDo(t testing.TB, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func icEval[T any](t testing.TB, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %.120s: %v", expr, err)
	}
	return v
}

// icWait polls expr until it is true, for at most 30 seconds (a busy 2-core machine), and
// starts again on a page a navigation replaced.
func icWait(t testing.TB, ctx context.Context, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil {
			return
		}
		msg := err.Error()
		navigated := strings.Contains(msg, "navigated or closed") || strings.Contains(msg, "context was destroyed") || strings.Contains(msg, "Cannot find context")
		if !navigated || time.Now().After(deadline) {
			t.Fatalf("waiting until %s (%s): %v", what, expr, err)
		}
	}
}

// signInAt signs the tab's browser context in to lokal as email through the form.
func (e *icEnv) signInAt(t testing.TB, ctx context.Context, email string) {
	t.Helper()
	icDo(t, ctx, "opening the sign-in form", chromedp.Navigate(e.base+"/app/"), chromedp.WaitVisible(chromedp.CSS(`#email`)))
	icDo(t, ctx, "signing in as "+email,
		chromedp.SendKeys(chromedp.CSS(`#email`), email),
		chromedp.SendKeys(chromedp.CSS(`#password`), password),
		chromedp.Submit(chromedp.CSS(`#password`)))
	icWait(t, ctx, "signed in", `location.pathname.startsWith('/app') && !document.querySelector('#password')`)
}

// editCodeLoaded says whether the page fetched lokal's edit code.
const editCodeLoaded = `performance.getEntriesByType('resource').some((r) => r.name.includes('/embed-edit.js'))`

// textPoint is the viewport point in the middle of the first text the element sel shows
// (a block's middle may be empty space beside its text), scrolled into view.
func textPoint(t testing.TB, ctx context.Context, sel string) (float64, float64) {
	t.Helper()
	p := icEval[[]float64](t, ctx, fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.scrollIntoView({block: 'center'});
	  const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT); let n, r = el.getBoundingClientRect();
	  while ((n = w.nextNode())) { if (n.nodeValue.trim()) { const g = document.createRange(); g.selectNodeContents(n); const b = g.getBoundingClientRect(); if (b.width > 0) { r = b; break; } } }
	  return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel))
	return p[0], p[1]
}

// altClick Alt+clicks the text of the element sel, as a person does.
func altClick(t testing.TB, ctx context.Context, sel string) {
	t.Helper()
	x, y := textPoint(t, ctx, sel)
	icDo(t, ctx, "Alt+click on "+sel, chromedp.MouseClickXY(x, y, chromedp.ButtonModifiers(chromedp.ModifierAlt)))
}

// openPanel Alt+clicks sel and attaches to the panel window it opens, once lokal's page
// is loaded in it: the popup starts as the opener's about:blank and moves to lokal's
// process when it navigates, which may end a session attached before.
func openPanel(t testing.TB, ctx context.Context, sel string) context.Context {
	t.Helper()
	opener := chromedp.FromContext(ctx).Target.TargetID
	altClick(t, ctx, sel)
	deadline := time.Now().Add(30 * time.Second)
	again := time.Now().Add(5 * time.Second)
	opened := false // a window the page opened, loaded or not
	for time.Now().Before(deadline) {
		if !opened && time.Now().After(again) {
			// On a loaded machine a click can land before the page's edit code listens;
			// a second Alt+click on the same text opens the same panel, never another.
			// Not once a window is opening: a slow panel is no lost click, and a click
			// then could reach the page's own handlers.
			altClick(t, ctx, sel)
			again = time.Now().Add(5 * time.Second)
		}
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range infos {
			if i.OpenerID == opener && i.Type == "page" {
				opened = true
			}
			if i.OpenerID != opener || i.Type != "page" || !strings.Contains(i.URL, "/incontext/") {
				continue
			}
			pctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(i.TargetID), chromedp.WithDetachOnCancel())
			ok, err := chromedp.Run(pctx, chromedp.Evaluate[bool](`document.readyState === 'complete' && !!document.getElementById('incontext')`))
			if err == nil && ok {
				t.Cleanup(cancel)
				return pctx
			}
			cancel()
		}
		time.Sleep(100 * time.Millisecond) // polling the browser's targets, not timing a result
	}
	t.Fatalf("Alt+click on %s opened no panel window with lokal's page", sel)
	return nil
}
