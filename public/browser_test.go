package public_test

// The Embed script in real headless Chromium, driven with chromedp: pages served by
// httptest on 127.0.0.1 under host names (*.example.test) that Chromium maps to loopback,
// against the real lokal router. Without Chromium the tests skip, and fail under CI=true.

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/lokal-dev/lokal/tools"
)

// chromium returns the Chromium binary, or skips (fails under CI=true) when there is none.
func chromium(t testing.TB) string {
	t.Helper()
	for _, p := range []string{os.Getenv("LOKAL_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("Chromium not found: install the chromium package (.ci/run does) or set LOKAL_CHROMIUM")
	}
	t.Skip("Chromium not found: install chromium or set LOKAL_CHROMIUM to run the browser tests")
	return ""
}

var (
	browserOnce sync.Once
	browserCtx  context.Context
	browserErr  error
)

// browser is one headless Chromium for the test binary; each test opens its own tab.
func browser(t testing.TB) context.Context {
	t.Helper()
	bin := chromium(t)
	browserOnce.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin),
			chromedp.Flag("host-resolver-rules", "MAP *.example.test 127.0.0.1"),
			chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true))
		alloc, _ := chromedp.NewExecAllocator(context.Background(), opts...)
		browserCtx, _ = chromedp.NewContext(alloc)
		browserErr = chromedp.Do(browserCtx) // starts the browser
	})
	if browserErr != nil {
		t.Fatalf("starting Chromium: %v", browserErr)
	}
	return browserCtx
}

// tab is a browser tab recording uncaught exceptions and console output.
type tab struct {
	ctx      context.Context
	mu       sync.Mutex
	errors   []string // exceptions and console errors
	warnings []string
}

func newTab(t testing.TB) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser(t))
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancelTimeout)
	tb := &tab{ctx: ctx}
	if err := chromedp.Do(ctx); err != nil { // opens the tab
		t.Fatal(err)
	}
	err := chromedp.Listen(ctx, func(ev any) {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			tb.errors = append(tb.errors, "exception: "+msg)
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
			}
			msg := strings.Join(parts, " ")
			switch e.Type {
			case runtime.ConsoleAPICalledTypeError, runtime.ConsoleAPICalledTypeAssert:
				tb.errors = append(tb.errors, "console.error: "+msg)
			case runtime.ConsoleAPICalledTypeWarning:
				tb.warnings = append(tb.warnings, msg)
			}
		case *log.EventEntryAdded:
			// CSP violations and other errors the browser reports about the page; failed
			// loads (the network source) are the 503 test's subject, not an error.
			if e.Entry.Level == log.EntryLevelError && e.Entry.Source != log.EntrySourceNetwork && !strings.Contains(e.Entry.Text, "favicon") {
				tb.errors = append(tb.errors, "log: "+e.Entry.Text)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, enable := range []func() error{
		func() error { _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); return err },
		func() error { _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); return err },
	} {
		if err := enable(); err != nil {
			t.Fatal(err)
		}
	}
	return tb
}

func (tb *tab) run(t testing.TB, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		t.Fatalf("browser: %v (errors so far: %v)", err, tb.errs())
	}
}

func (tb *tab) errs() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.errors...)
}

func (tb *tab) warns() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.warnings...)
}

// noErrors fails the test when the page saw an exception or a console error.
func (tb *tab) noErrors(t testing.TB) {
	t.Helper()
	if e := tb.errs(); len(e) > 0 {
		t.Fatalf("the page saw errors: %v", e)
	}
}

// waitJS waits until expr is true in the page.
func (tb *tab) waitJS(t testing.TB, expr string) {
	t.Helper()
	tb.run(t, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(15*time.Second)))
}

// evalJS evaluates expr in the page and decodes its value.
func evalJS[T any](t testing.TB, tb *tab, expr string) T {
	t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// site is a project for host with source strings and German translations (approved),
// and the pages it serves. The page server answers under http://<host>:<port>/.
type site struct {
	e      *env
	id     string
	host   string
	pages  *httptest.Server
	mu     sync.Mutex
	byPath map[string]page
}

type page struct {
	body   string
	header map[string]string
	ctype  string
}

func newSite(t *testing.T, e *env, host string, de map[string]string) *site {
	t.Helper()
	s := &site{e: e, host: host, id: e.site(t, host), byPath: map[string]page{}}
	var src []string
	for k := range de {
		src = append(src, k)
	}
	if len(src) > 0 {
		if _, err := e.cat.RegisterPageStrings(sys(t), tools.PageStringsIn{ProjectID: s.id, Namespace: "page", SourceStrings: src}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.cat.Overwrite(sys(t), tools.OverwriteIn{NamespaceRef: tools.NamespaceRef{ProjectID: s.id, Language: "de", Namespace: "page"},
			Translations: de}); err != nil {
			t.Fatal(err)
		}
	}
	s.pages = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		p, ok := s.byPath[r.URL.Path]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, v := range p.header {
			w.Header().Set(k, v)
		}
		ct := p.ctype
		if ct == "" {
			ct = "text/html; charset=utf-8"
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, p.body)
	}))
	t.Cleanup(s.pages.Close)
	return s
}

func (s *site) serve(path, body string, header map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byPath[path] = page{body: body, header: header}
}

func (s *site) serveFile(t *testing.T, path, file, ctype string) {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byPath[path] = page{body: string(b), ctype: ctype}
}

// url is the page's address under the site's host name.
func (s *site) url(path string) string {
	port := s.pages.URL[strings.LastIndex(s.pages.URL, ":"):]
	return "http://" + s.host + port + path
}

// tag is the script tag get_embed_snippet gives, for the env's server.
func (s *site) tag(t *testing.T, extra string) string {
	t.Helper()
	snip, err := s.e.cat.GetEmbedSnippet(sys(t), tools.EmbedSnippetIn{ProjectArg: tools.ProjectArg{ProjectID: s.id}})
	if err != nil {
		t.Fatal(err)
	}
	// The catalogue's base URL is not the test server's: point the tag at it.
	tag := strings.Replace(snip.Snippet, snip.ScriptURL, s.e.url+"/embed.js", 1)
	if extra != "" {
		tag = strings.Replace(tag, " defer>", " "+extra+" defer>", 1)
	}
	return tag
}

var german = map[string]string{
	"Hello world":  "Hallo Welt",
	"Welcome home": "Willkommen zu Hause",
	"Your name":    "Ihr Name",
	"Send":         "Senden",
	"A cat":        "Eine Katze",
	"Greeting":     "Gruß",
	"Add one":      "Eins dazu",
	"Clicked":      "Geklickt",
	"times":        "Mal",
	"Ready":        "Bereit",
	"Done":         "Fertig",
	"Show more":    "Mehr zeigen",
	"Late content": "Später Inhalt",
	"Menu label":   "Menü",
}

func browserEnv(t *testing.T) *env {
	t.Helper()
	chromium(t)
	return newEnv(t, "sqlite", &envOptions{public: nil})
}

func TestBrowserStaticPage(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	s := newSite(t, e, "static.example.test", german)
	s.serve("/", `<!doctype html><html lang="en"><head><meta charset="utf-8">`+s.tag(t, `data-lokal-lang="de"`)+`</head><body>
<h1 id="h">Hello world</h1>
<p id="p" title="Greeting">
   Welcome home  </p>
<input id="name" placeholder="Your name"><input id="send" type="submit" value="Send"><button id="b" value="Send">Send</button>
<img id="img" alt="A cat" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<span id="aria" aria-label="Menu label">x</span>
<code id="code">Hello world</code><pre id="pre">Hello world</pre><textarea id="ta">Hello world</textarea>
<div translate="no"><span id="no">Hello world</span></div><span id="nt" class="notranslate">Hello world</span>
<div id="ce" contenteditable="true">Hello world</div>
<script id="s">var x = "Hello world";</script>
</body></html>`, nil)
	tb := newTab(t)
	tb.run(t, chromedp.Navigate(s.url("/")))
	tb.waitJS(t, `document.getElementById('h').textContent === 'Hallo Welt'`)
	got := evalJS[map[string]string](t, tb, `(() => { const $ = id => document.getElementById(id); return {
		p: $('p').firstChild.nodeValue, title: $('p').title, ph: $('name').placeholder, send: $('send').value,
		button: $('b').textContent, bval: $('b').getAttribute('value'), alt: $('img').alt, aria: $('aria').getAttribute('aria-label'),
		code: $('code').textContent, pre: $('pre').textContent, ta: $('ta').value, no: $('no').textContent, nt: $('nt').textContent,
		ce: $('ce').textContent, s: $('s').textContent, lang: document.documentElement.lang }; })()`)
	want := map[string]string{"p": "\n   Willkommen zu Hause  ", "title": "Gruß", "ph": "Ihr Name", "send": "Senden", "button": "Senden",
		"bval": "Send", "alt": "Eine Katze", "aria": "Menü", "code": "Hello world", "pre": "Hello world", "ta": "Hello world",
		"no": "Hello world", "nt": "Hello world", "ce": "Hello world", "s": `var x = "Hello world";`, "lang": "de"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	tb.noErrors(t)
	// The ping arrived.
	v, err := e.cat.ShowProject(sys(t), s.id)
	if err != nil || !v.Embed.ScriptLive {
		t.Errorf("no install ping: %+v %v", v.Embed, err)
	}
}

func TestBrowserDynamicContentAndHarvest(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	s := newSite(t, e, "dynamic.example.test", german)
	s.serve("/", `<!doctype html><html lang="en"><head>`+s.tag(t, `data-lokal-lang="de"`)+`<script src="/app.js" defer></script></head>
<body><p id="status">Ready</p><div id="list"></div><button id="more">Show more</button></body></html>`, nil)
	s.serve("/app.js", `document.getElementById('more').addEventListener('click', function () {
  var d = document.createElement('div'); d.id = 'late'; d.textContent = 'Late content';
  document.getElementById('list').appendChild(d);
  document.getElementById('status').firstChild.nodeValue = 'Done';
});`, nil)
	tb := newTab(t)
	tb.run(t, chromedp.Navigate(s.url("/")))
	tb.waitJS(t, `document.getElementById('status').textContent === 'Bereit'`)
	tb.run(t, chromedp.Click(chromedp.ID("more")))
	tb.waitJS(t, `document.getElementById('late') && document.getElementById('late').textContent === 'Später Inhalt' && document.getElementById('status').textContent === 'Fertig'`)
	tb.noErrors(t)

	// A page in the source language harvests what the dictionary lacks (here: on a page
	// shown in English, every string), once per session.
	s.serve("/en", `<!doctype html><html lang="en"><head>`+s.tag(t, `data-lokal-lang="en"`)+`</head>
<body><p>Fresh text from the page</p><p>42</p><p>Hello world</p></body></html>`, nil)
	tb.run(t, chromedp.Navigate(s.url("/en")))
	deadline := time.Now().Add(15 * time.Second)
	for {
		if _, ok := e.page(t, s.id, "en", "page")["Fresh text from the page"]; ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page's text was not harvested: %v", keys(e.page(t, s.id, "en", "page")))
		}
		time.Sleep(100 * time.Millisecond) // waiting on the browser's debounced send, not timing a result
	}
	if _, ok := e.page(t, s.id, "en", "page")["42"]; ok {
		t.Error("a bare number was harvested")
	}
	tb.noErrors(t)
}

func TestBrowserReactPage(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	s := newSite(t, e, "react.example.test", german)
	s.serveFile(t, "/react.js", "testdata/react/react.production.min.js", "text/javascript")
	s.serveFile(t, "/react-dom.js", "testdata/react/react-dom.production.min.js", "text/javascript")
	s.serve("/app.js", `(function () {
  var h = React.createElement;
  function App() {
    var c = React.useState(0), n = c[0], setN = c[1];
    var items = [];
    for (var i = 0; i < n % 3; i++) items.push(h('li', { key: 'k' + i }, 'Hello world'));
    return h('div', null,
      h('p', { id: 'count' }, 'Clicked ', n, ' times'),
      h('p', { id: 'state' }, n > 2 ? 'Done' : 'Ready'),
      n % 2 === 0 ? h('h2', { id: 'even', title: 'Greeting' }, 'Welcome home') : h('h3', { id: 'odd' }, 'Hello world'),
      h('ul', { id: 'items' }, items),
      h('input', { id: 'in', placeholder: 'Your name' }),
      h('button', { id: 'add', onClick: function () { setN(n + 1); } }, 'Add one'));
  }
  window.addEventListener('error', function (e) { (window.pageErrors = window.pageErrors || []).push(String(e.message)); });
  ReactDOM.createRoot(document.getElementById('root')).render(h(App));
})();`, nil)
	s.serve("/", `<!doctype html><html lang="en"><head>`+s.tag(t, `data-lokal-lang="de"`)+`
<script src="/react.js"></script><script src="/react-dom.js"></script><script src="/app.js" defer></script></head>
<body><div id="root"></div></body></html>`, nil)
	tb := newTab(t)
	tb.run(t, chromedp.Navigate(s.url("/")))
	tb.waitJS(t, `document.getElementById('add') && document.getElementById('add').textContent === 'Eins dazu' && document.getElementById('even').textContent === 'Willkommen zu Hause'`)
	for i := 1; i <= 5; i++ {
		tb.run(t, chromedp.Click(chromedp.ID("add")))
		want := fmt.Sprintf("Geklickt %d Mal", i)
		tb.waitJS(t, fmt.Sprintf(`document.getElementById('count').textContent === %q`, want))
	}
	// After five clicks: state Done, odd heading, two list items, all swapped; React still owns
	// the DOM and keeps working.
	tb.waitJS(t, `document.getElementById('state').textContent === 'Fertig' && document.getElementById('odd').textContent === 'Hallo Welt' &&
		document.querySelectorAll('#items li').length === 2 && [...document.querySelectorAll('#items li')].every(li => li.textContent === 'Hallo Welt')`)
	tb.run(t, chromedp.Click(chromedp.ID("add")))
	tb.waitJS(t, `document.getElementById('count').textContent === 'Geklickt 6 Mal' && document.getElementById('even').title === 'Gruß' && document.querySelectorAll('#items li').length === 0`)
	pageErrors := evalJS[[]string](t, tb, `window.pageErrors || []`)
	if len(pageErrors) > 0 {
		t.Fatalf("React errors: %v", pageErrors)
	}
	tb.noErrors(t)
}

func TestBrowserSwitcherByKeyboard(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	s := newSite(t, e, "switch.example.test", german)
	s.serve("/", `<!doctype html><html lang="en"><head>`+s.tag(t, "")+`</head><body><h1 id="h">Hello world</h1></body></html>`, nil)
	tb := newTab(t)
	// The visitor's browser prefers German (a regional tag: de-DE falls back to de).
	tb.run(t, emulateLanguage("de-DE,de"), chromedp.Navigate(s.url("/")))
	tb.waitJS(t, `document.getElementById('h').textContent === 'Hallo Welt' && document.querySelector('[data-lokal-ui] select')`)
	name := evalJS[string](t, tb, `document.querySelector('[data-lokal-ui] select').getAttribute('aria-label')`)
	if name == "" {
		t.Fatal("the switcher has no accessible name")
	}
	// Tab reaches the switcher; the arrow key picks the language above (English, the source).
	tb.run(t, chromedp.KeyEvent(kb.Tab))
	tb.waitJS(t, `document.activeElement === document.querySelector('[data-lokal-ui] select')`)
	tb.run(t, chromedp.KeyEvent(kb.ArrowUp))
	tb.waitJS(t, `document.getElementById('h').textContent === 'Hello world' && document.documentElement.lang === 'en'`)
	// The choice is remembered across loads.
	tb.run(t, chromedp.Reload())
	tb.waitJS(t, `document.querySelector('[data-lokal-ui] select') && document.querySelector('[data-lokal-ui] select').value === 'en'`)
	h := evalJS[string](t, tb, `document.getElementById('h').textContent`)
	if h != "Hello world" {
		t.Fatalf("after reload the page shows %q, want the remembered English", h)
	}
	tb.run(t, chromedp.Focus(chromedp.CSS(`[data-lokal-ui] select`)), chromedp.KeyEvent(kb.ArrowDown))
	tb.waitJS(t, `document.getElementById('h').textContent === 'Hallo Welt'`)
	tb.noErrors(t)
}

func TestBrowserStrictCSP(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	s := newSite(t, e, "csp.example.test", german)
	csp := fmt.Sprintf("default-src 'none'; script-src %s; connect-src %s; style-src 'none'; img-src 'none'", e.url, e.url)
	s.serve("/", `<!doctype html><html lang="en"><head>`+s.tag(t, `data-lokal-lang="de"`)+`</head><body><h1 id="h">Hello world</h1></body></html>`,
		map[string]string{"Content-Security-Policy": csp})
	tb := newTab(t)
	tb.run(t, chromedp.Navigate(s.url("/")))
	tb.waitJS(t, `document.getElementById('h').textContent === 'Hallo Welt' && !!document.querySelector('[data-lokal-ui] select')`)
	tb.noErrors(t) // a CSP violation is logged as an error
}

func TestBrowserServiceUnavailable(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	s := newSite(t, e, "down.example.test", german)
	// A lokal that serves its script but answers 503 on every API call.
	real := http.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		resp, err := http.Get(e.url + r.URL.Path)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.Header().Set("Access-Control-Allow-Origin", "*")
		b := make([]byte, 1<<20)
		n, _ := resp.Body.Read(b)
		for n < int(resp.ContentLength) {
			m, err := resp.Body.Read(b[n:])
			n += m
			if err != nil {
				break
			}
		}
		w.Write(b[:n])
	}))
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/embed.js" {
			real.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Retry-After", "60")
		http.Error(w, `{"error":"unavailable"}`, http.StatusServiceUnavailable)
	}))
	t.Cleanup(down.Close)
	tag := strings.Replace(s.tag(t, `data-lokal-lang="de"`), e.url, down.URL, 1)
	s.serve("/", `<!doctype html><html lang="en"><head>`+tag+`<script src="/app.js" defer></script></head>
<body><h1 id="h">Hello world</h1><p id="after"></p></body></html>`, nil)
	s.serve("/app.js", `document.getElementById('after').textContent = 'page script ran';`, nil)
	tb := newTab(t)
	tb.run(t, chromedp.Navigate(s.url("/")))
	tb.waitJS(t, `document.getElementById('after').textContent === 'page script ran'`)
	// Wait for the script's one warning: it has given up.
	deadline := time.Now().Add(10 * time.Second)
	for len(tb.warns()) == 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	h := evalJS[string](t, tb, `document.getElementById('h').textContent`)
	lang := evalJS[string](t, tb, `document.documentElement.lang`)
	if h != "Hello world" || lang != "en" {
		t.Fatalf("the page changed: %q, lang %q", h, lang)
	}
	if w := tb.warns(); len(w) != 1 || !strings.Contains(w[0], "lokal") {
		t.Fatalf("warnings %v, want one from lokal", w)
	}
	// Exceptions: none; console errors: Chromium itself reports failed fetches under the
	// network source, which the tab ignores.
	tb.noErrors(t)
}

// emulateLanguage makes navigator.languages (and Accept-Language) say langs.
func emulateLanguage(langs string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
		ua, err := chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.userAgent`))
		if err != nil {
			return chromedp.Void{}, err
		}
		_, err = chromedp.Call(ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: langs})
		return chromedp.Void{}, err
	}
}
