package public_test

// Edit mode (review in context) on the page side, in headless Chromium. lokal is reached
// through a front (httptest on its own loopback origin) that passes every request to the
// real router and answers the panel's address with a test double: a page that speaks the
// panel's messages (ready, saved, measure), logs every message it gets to the front, and
// posts what the test queues.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// front is lokal's origin as the site sees it, with the panel double.
type front struct {
	srv    *httptest.Server
	mu     sync.Mutex
	paths  []string         // every request's path and query
	logs   []map[string]any // what the double and the frame reported
	queue  []string         // messages for the double to post to its opener
	nohook []byte           // embed.js without the edit hook, for comparison
	logged chan struct{}    // a report came in: waitLog looks again
}

const doubleJS = `(function () {
  var site = new URLSearchParams(location.search).get('origin');
  function log(o) { return fetch('/double/log', { method: 'POST', body: JSON.stringify(o) }); }
  log({ kind: 'loaded', path: location.pathname + location.search, opener: !!window.opener });
  window.addEventListener('message', function (e) {
    log({ kind: 'message', origin: e.origin, fromOpener: e.source === window.opener, data: e.data });
  });
  window.opener.postMessage({ lokal: 1, type: 'ready' }, site);
  (function poll() {
    fetch('/double/next').then(function (r) { return r.json(); }).then(function (m) {
      if (m) window.opener.postMessage(m, site);
      setTimeout(poll, 50);
    }, function () { setTimeout(poll, 200); });
  })();
})();`

func newFront(t *testing.T, e *env) *front {
	t.Helper()
	target, _ := url.Parse(e.url)
	proxy := httputil.NewSingleHostReverseProxy(target)
	f := &front{logged: make(chan struct{}, 1)}
	src, err := os.ReadFile("embed/embed.js")
	if err != nil {
		t.Fatal(err)
	}
	f.nohook = stripHook(t, src)
	panel := regexp.MustCompile(`^/app/p/[^/]+/incontext/[^/]+$`)
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.paths = append(f.paths, r.URL.RequestURI())
		f.mu.Unlock()
		switch {
		case panel.MatchString(r.URL.Path):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><html><head><title>panel double</title></head><body><script src="/double/panel.js"></script></body></html>`)
		case r.URL.Path == "/double/panel.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, doubleJS)
		case r.URL.Path == "/double/frame.html":
			// A page on lokal's origin that is not the panel: its message must be ignored.
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><script src="/double/frame.js"></script>`)
		case r.URL.Path == "/double/frame.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `parent.postMessage({ lokal: 1, type: 'saved', ns: 'page', key: 'Show more', text: 'Show more', lang: 'de', value: 'FORGED by a frame', status: 'approved' }, '*');`)
		case r.URL.Path == "/double/log":
			b, _ := io.ReadAll(r.Body)
			var m map[string]any
			if json.Unmarshal(b, &m) == nil {
				f.mu.Lock()
				f.logs = append(f.logs, m)
				f.mu.Unlock()
				select {
				case f.logged <- struct{}{}:
				default:
				}
			}
		case r.URL.Path == "/double/next":
			w.Header().Set("Content-Type", "application/json")
			f.mu.Lock()
			next := "null"
			if len(f.queue) > 0 {
				next, f.queue = f.queue[0], f.queue[1:]
			}
			f.mu.Unlock()
			fmt.Fprint(w, next)
		case r.URL.Path == "/embed.nohook.js":
			w.Header().Set("Content-Type", "text/javascript")
			w.Write(f.nohook)
		default:
			proxy.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// stripHook is embed.js as it was before edit mode: without the hook's section and its call.
func stripHook(t *testing.T, src []byte) []byte {
	t.Helper()
	s := string(src)
	a, b := strings.Index(s, "  // --- edit mode"), strings.Index(s, "  // --- start")
	call := regexp.MustCompile(`\n\s*if \(location\.hash === '#lokal-edit'[^\n]*`)
	if a < 0 || b < a || !call.MatchString(s) {
		t.Fatal("embed.js: the edit hook is not where the test looks for it")
	}
	return []byte(call.ReplaceAllString(s[:a]+s[b:], ""))
}

// post queues a message for the double to post to the page.
func (f *front) post(t *testing.T, m map[string]any) {
	t.Helper()
	b, _ := json.Marshal(m)
	f.mu.Lock()
	f.queue = append(f.queue, string(b))
	f.mu.Unlock()
}

// waitLog waits for the double's report that match accepts and returns it.
func (f *front) waitLog(t *testing.T, what string, match func(m map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		f.mu.Lock()
		for _, m := range f.logs {
			if match(m) {
				f.mu.Unlock()
				return m
			}
		}
		logs := fmt.Sprint(f.logs)
		f.mu.Unlock()
		select {
		case <-f.logged: // a new report: look again
		case <-deadline:
			t.Fatalf("the panel double never reported %s; it reported %s", what, logs)
		}
	}
}

// message waits for a message of type typ that reached the double from its opener.
func (f *front) message(t *testing.T, typ string, match func(d map[string]any) bool) (origin string, d map[string]any) {
	t.Helper()
	m := f.waitLog(t, "a "+typ+" message", func(m map[string]any) bool {
		d, _ := m["data"].(map[string]any)
		return m["kind"] == "message" && d != nil && d["type"] == typ && (match == nil || match(d))
	})
	if m["fromOpener"] != true {
		t.Errorf("the %s message did not come from the opener", typ)
	}
	d = m["data"].(map[string]any)
	if d["lokal"] != float64(1) {
		t.Errorf("the %s message lacks lokal: 1: %v", typ, d)
	}
	return m["origin"].(string), d
}

func (f *front) requested(path string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, p := range f.paths {
		if strings.HasPrefix(p, path) {
			return true
		}
	}
	return false
}

// origin is the site's origin (scheme, host, port) as the page sees it.
func (s *site) origin() string { return strings.TrimSuffix(s.url("/"), "/") }

// frontTag is the Embed's tag pointed at the front.
func (s *site) frontTag(t *testing.T, f *front, extra string) string {
	return strings.Replace(s.tag(t, extra), s.e.url, f.srv.URL, 1)
}

// center is the middle of the first element sel matches, in CSS px of the viewport.
func center(t *testing.T, tb *tab, sel string) (x, y float64) {
	t.Helper()
	p := evalJS[[]float64](t, tb, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel))
	return p[0], p[1]
}

func altClick(t *testing.T, tb *tab, sel string) {
	t.Helper()
	x, y := center(t, tb, sel)
	tb.run(t, chromedp.MouseClickXY(x, y, chromedp.ButtonModifiers(chromedp.ModifierAlt)))
}

const editBar = `!!document.querySelector('[data-lokal-ui] button') && document.querySelector('[data-lokal-ui] button').textContent === 'Exit edit mode'`

const editPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Edit page</title>%s</head><body>
<h1 id="h">Hello world</h1>
<p id="p">Welcome home</p>
<div style="width:60px"><button id="send">Send</button></div>
<p>Read on: <a id="more" href="/elsewhere">Show more</a></p>
<p id="new">Something new here</p>
<code id="code">Hello world</code>
</body></html>`

// TestBrowserEditModeOffAddsNothing: without #lokal-edit, sessionStorage or the chord, the
// page with the hook sends the same requests and ends with the same DOM as the Embed
// without the hook, and never asks for the edit code.
func TestBrowserEditModeOffAddsNothing(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	f := newFront(t, e)
	s := newSite(t, e, "off.example.test", german)
	withHook := s.frontTag(t, f, `data-lokal-lang="de"`)
	without := strings.Replace(withHook, "/embed.js", "/embed.nohook.js", 1)
	s.serve("/with", fmt.Sprintf(editPage, withHook), nil)
	s.serve("/without", fmt.Sprintf(editPage, without), nil)
	type seen struct {
		Body, Head string
		Requests   []string
		Elements   int
	}
	load := func(path string) seen {
		tb := newTab(t)
		tb.run(t, chromedp.Navigate(s.url(path)))
		tb.waitJS(t, `document.getElementById('h').textContent === 'Hallo Welt' && performance.getEntriesByType('resource').some(r => r.name.includes('/install_ping'))`)
		tb.noErrors(t)
		return evalJS[seen](t, tb, `(() => ({ Body: document.body.innerHTML, Head: document.head.innerHTML,
			Elements: document.getElementsByTagName('*').length,
			Requests: performance.getEntriesByType('resource').filter(r => !r.name.endsWith('/favicon.ico')).map(r => new URL(r.name).pathname.replace(/embed\.nohook/, 'embed')).sort() }))()`)
	}
	with, base := load("/with"), load("/without")
	if with.Body != base.Body || with.Elements != base.Elements {
		t.Errorf("the hook changed the page:\n%s\nwithout it:\n%s", with.Body, base.Body)
	}
	if strings.Replace(with.Head, "/embed.js", "/embed.nohook.js", 1) != base.Head {
		t.Errorf("the hook changed the head:\n%s\nwithout it:\n%s", with.Head, base.Head)
	}
	if !slices.Equal(with.Requests, base.Requests) {
		t.Errorf("requests with the hook %v, without %v", with.Requests, base.Requests)
	}
	if f.requested("/embed-edit.js") || slices.Contains(with.Requests, "/embed-edit.js") {
		t.Error("the edit code was loaded with edit mode off")
	}
	if !slices.Contains(with.Requests, "/embed.js") || !slices.Contains(with.Requests, "/api/"+s.id+"/dictionary/de/page") {
		t.Errorf("the comparison saw no Embed at work: %v", with.Requests)
	}
}

// TestBrowserEditModeAltClickAndSave: #lokal-edit turns edit mode on (and the chord off
// and on again); hover outlines a swapped text; Alt+click on a link opens the panel (the
// double) without following the link, with the contract's open message and the page's
// marked texts (seen); forged saves from the page itself and from another lokal window are
// ignored; the double's save changes the page in place; measure answers whether a value
// fits; the exit button turns edit mode off.
func TestBrowserEditModeAltClickAndSave(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	f := newFront(t, e)
	s := newSite(t, e, "edit.example.test", german)
	s.serve("/", fmt.Sprintf(editPage, s.frontTag(t, f, `data-lokal-lang="de"`)), nil)
	tb := newTab(t)
	tb.run(t, chromedp.Navigate(s.url("/#lokal-edit")))
	tb.waitJS(t, `document.getElementById('h').textContent === 'Hallo Welt' && `+editBar)
	if !evalJS[bool](t, tb, `sessionStorage.getItem('lokal:edit') === '1'`) {
		t.Error("edit mode is not remembered for the tab")
	}

	// The chord turns it off (the bar goes) and on again.
	chord := chromedp.KeyEvent("L", chromedp.KeyModifiers(chromedp.ModifierAlt, chromedp.ModifierShift))
	tb.run(t, chord)
	tb.waitJS(t, `!document.querySelector('[data-lokal-ui] button') && sessionStorage.getItem('lokal:edit') === null`)
	tb.run(t, chord)
	tb.waitJS(t, editBar)

	// Hover outlines a swapped text, and not text lokal skips.
	x, y := center(t, tb, "#h")
	tb.run(t, chromedp.MouseEvent("mouseMoved", x, y))
	tb.waitJS(t, `document.getElementById('h').hasAttribute('data-lokal-mark') && getComputedStyle(document.getElementById('h')).outlineStyle === 'dashed'`)
	x, y = center(t, tb, "#code")
	tb.run(t, chromedp.MouseEvent("mouseMoved", x, y))
	tb.waitJS(t, `!document.getElementById('h').hasAttribute('data-lokal-mark') && !document.getElementById('code').hasAttribute('data-lokal-mark')`)

	// Alt+click on the link: the panel opens, the link is not followed.
	altClick(t, tb, "#more")
	loaded := f.waitLog(t, "its loading", func(m map[string]any) bool { return m["kind"] == "loaded" })
	wantPath := "/app/p/" + s.id + "/incontext/de?ns=page&origin=" + url.QueryEscape(s.origin())
	if loaded["path"] != wantPath || loaded["opener"] != true {
		t.Errorf("the panel opened at %v (opener %v), want %s", loaded["path"], loaded["opener"], wantPath)
	}
	origin, open := f.message(t, "open", nil)
	if origin != s.origin() {
		t.Errorf("open came from %s, want %s", origin, s.origin())
	}
	ctx, _ := open["context"].(map[string]any)
	if open["ns"] != "page" || open["key"] != nil || open["text"] != "Show more" || open["lang"] != "de" || ctx == nil {
		t.Fatalf("open = %v", open)
	}
	if ctx["url"] != s.url("/") || ctx["title"] != "Edit page" || ctx["role"] != "link" || ctx["position"] != float64(5) ||
		!strings.HasSuffix(ctx["before"].(string), "Read on:") || !strings.HasPrefix(ctx["after"].(string), "Something new here") {
		t.Errorf("open context = %v", ctx)
	}
	if w, b := ctx["width"].(float64), ctx["box"].(float64); w <= 0 || b < w {
		t.Errorf("open context width %v, box %v", w, b)
	}
	if p := evalJS[string](t, tb, `location.pathname`); p != "/" {
		t.Fatalf("Alt+click followed the link to %s", p)
	}
	// seen lists the marked texts in order: swapped ones and the untranslated one, not code.
	_, seenMsg := f.message(t, "seen", nil)
	var texts []string
	for _, it := range seenMsg["items"].([]any) {
		texts = append(texts, it.(map[string]any)["text"].(string))
	}
	if want := []string{"Hello world", "Welcome home", "Send", "Read on:", "Show more", "Something new here"}; !slices.Equal(texts, want) {
		t.Errorf("seen texts %q, want %q", texts, want)
	}
	// The button's role.
	altClick(t, tb, "#send")
	_, open = f.message(t, "open", func(d map[string]any) bool { return d["text"] == "Send" })
	if c := open["context"].(map[string]any); c["role"] != "button" {
		t.Errorf("the button's role: %v", c["role"])
	}

	// Forged saves: one the page posts to itself, one from a lokal frame that is not the
	// panel. Both arrive (the page's own listener counts them after the edit code's) and
	// change nothing.
	evalJS[bool](t, tb, `(() => { window.forged = 0; addEventListener('message', e => { if (e.data && /^FORGED/.test(e.data.value)) window.forged++; });
		postMessage({ lokal: 1, type: 'saved', ns: 'page', key: 'Show more', text: 'Show more', lang: 'de', value: 'FORGED by the page', status: 'approved' }, '*');
		const fr = document.createElement('iframe'); fr.src = `+fmt.Sprintf("%q", f.srv.URL+"/double/frame.html")+`; document.body.append(fr); return true; })()`)
	tb.waitJS(t, `window.forged === 2`)
	if got := evalJS[string](t, tb, `document.getElementById('more').textContent`); got != "Mehr zeigen" {
		t.Fatalf("a forged message changed the page: %q", got)
	}

	// The panel's save changes the page in place.
	f.post(t, map[string]any{"lokal": 1, "type": "saved", "ns": "page", "key": "Show more", "text": "Show more", "lang": "de", "value": "Noch mehr", "status": "approved"})
	tb.waitJS(t, `document.getElementById('more').textContent === 'Noch mehr'`)
	// A save for another language leaves the page as it is.
	f.post(t, map[string]any{"lokal": 1, "type": "saved", "ns": "page", "key": "Hello world", "text": "Hello world", "lang": "fr", "value": "Bonjour", "status": "approved"})

	// measure: the button's box is 60px wide.
	f.post(t, map[string]any{"lokal": 1, "type": "measure", "id": "long", "text": "Send", "value": "Senden und weiterleiten an alle"})
	f.post(t, map[string]any{"lokal": 1, "type": "measure", "id": "short", "text": "Send", "value": "Ok"})
	_, long := f.message(t, "measured", func(d map[string]any) bool { return d["id"] == "long" })
	_, short := f.message(t, "measured", func(d map[string]any) bool { return d["id"] == "short" })
	if long["fits"] != false || long["width"].(float64) <= long["box"].(float64) || short["fits"] != true || short["width"].(float64) <= 0 {
		t.Errorf("measured: long %v, short %v", long, short)
	}
	if h := evalJS[string](t, tb, `document.getElementById('h').textContent`); h != "Hallo Welt" {
		t.Errorf("a save for French changed the German page: %q", h)
	}

	// The exit button turns edit mode off for the tab.
	tb.run(t, chromedp.Click(chromedp.CSS(`[data-lokal-ui] button`)))
	tb.waitJS(t, `!document.querySelector('[data-lokal-ui] button') && sessionStorage.getItem('lokal:edit') === null && !document.querySelector('[data-lokal-mark]')`)
	tb.noErrors(t)
}

// TestBrowserEditModeKeyboard: Alt+Shift+K reaches the first marked text with a visible
// ring and a spoken line, Tab and Shift+Tab move, Enter opens the panel on that text,
// Escape leaves.
func TestBrowserEditModeKeyboard(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	f := newFront(t, e)
	s := newSite(t, e, "keys.example.test", german)
	s.serve("/", fmt.Sprintf(editPage, s.frontTag(t, f, `data-lokal-lang="de"`)), nil)
	tb := newTab(t)
	tb.run(t, chromedp.Navigate(s.url("/#lokal-edit")))
	tb.waitJS(t, `document.getElementById('h').textContent === 'Hallo Welt' && `+editBar)
	tb.run(t, chromedp.KeyEvent("K", chromedp.KeyModifiers(chromedp.ModifierAlt, chromedp.ModifierShift)))
	tb.waitJS(t, `document.getElementById('h').getAttribute('data-lokal-mark') === 'focus' && getComputedStyle(document.getElementById('h')).outlineStyle === 'solid' &&
		document.querySelector('[data-lokal-ui] [aria-live]').textContent.startsWith('Text 1 of 6')`)
	tb.run(t, chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab))
	tb.run(t, chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
	tb.waitJS(t, `document.getElementById('send').getAttribute('data-lokal-mark') === 'focus' && !document.getElementById('h').hasAttribute('data-lokal-mark')`)
	tb.run(t, chromedp.KeyEvent(kb.Enter))
	_, open := f.message(t, "open", nil)
	if open["text"] != "Send" || open["context"].(map[string]any)["role"] != "button" {
		t.Errorf("Enter opened %v", open)
	}
	tb.run(t, chromedp.KeyEvent(kb.Escape))
	tb.waitJS(t, `!document.querySelector('[data-lokal-mark]') && document.querySelector('[data-lokal-ui] [aria-live]').textContent === ''`)
	tb.noErrors(t)
}

// TestBrowserEditModeStrictCSP: under script-src and connect-src lokal only and no styles
// at all, edit mode loads, outlines and opens the panel with no CSP violation.
func TestBrowserEditModeStrictCSP(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	f := newFront(t, e)
	s := newSite(t, e, "cspedit.example.test", german)
	csp := fmt.Sprintf("default-src 'none'; script-src %s; connect-src %s; style-src 'none'; img-src 'none'", f.srv.URL, f.srv.URL)
	s.serve("/", strings.Replace(fmt.Sprintf(editPage, s.frontTag(t, f, `data-lokal-lang="de"`)), ` style="width:60px"`, "", 1),
		map[string]string{"Content-Security-Policy": csp})
	tb := newTab(t)
	tb.run(t, chromedp.Navigate(s.url("/#lokal-edit")))
	tb.waitJS(t, `document.getElementById('h').textContent === 'Hallo Welt' && `+editBar)
	x, y := center(t, tb, "#p")
	tb.run(t, chromedp.MouseEvent("mouseMoved", x, y))
	tb.waitJS(t, `getComputedStyle(document.getElementById('p')).outlineStyle === 'dashed'`)
	altClick(t, tb, "#p")
	_, open := f.message(t, "open", nil)
	if open["text"] != "Welcome home" {
		t.Errorf("open = %v", open)
	}
	f.post(t, map[string]any{"lokal": 1, "type": "saved", "ns": "page", "key": "Welcome home", "text": "Welcome home", "lang": "de", "value": "Willkommen daheim", "status": "translated"})
	tb.waitJS(t, `document.getElementById('p').textContent === 'Willkommen daheim'`)
	tb.noErrors(t) // a CSP violation is logged as an error
}

// TestBrowserEditModeReact: on a React page the chord turns edit mode on, a save changes
// the heading in place, and React keeps working: a re-render that mounts the heading anew
// shows the saved value.
func TestBrowserEditModeReact(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	f := newFront(t, e)
	s := newSite(t, e, "reactedit.example.test", german)
	s.serveFile(t, "/react.js", "testdata/react/react.production.min.js", "text/javascript")
	s.serveFile(t, "/react-dom.js", "testdata/react/react-dom.production.min.js", "text/javascript")
	s.serve("/app.js", `(function () {
  var h = React.createElement;
  function App() {
    var c = React.useState(0), n = c[0], setN = c[1];
    return h('div', null,
      h('p', { id: 'count' }, 'Clicked ', n, ' times'),
      n % 2 === 0 ? h('h2', { id: 'even' }, 'Welcome home') : h('h3', { id: 'odd' }, 'Hello world'),
      h('button', { id: 'add', onClick: function () { setN(n + 1); } }, 'Add one'));
  }
  window.addEventListener('error', function (e) { (window.pageErrors = window.pageErrors || []).push(String(e.message)); });
  ReactDOM.createRoot(document.getElementById('root')).render(h(App));
})();`, nil)
	s.serve("/", `<!doctype html><html lang="en"><head>`+s.frontTag(t, f, `data-lokal-lang="de"`)+`
<script src="/react.js"></script><script src="/react-dom.js"></script><script src="/app.js" defer></script></head>
<body><div id="root"></div></body></html>`, nil)
	tb := newTab(t)
	tb.run(t, chromedp.Navigate(s.url("/")))
	tb.waitJS(t, `document.getElementById('even') && document.getElementById('even').textContent === 'Willkommen zu Hause'`)
	tb.run(t, chromedp.KeyEvent("L", chromedp.KeyModifiers(chromedp.ModifierAlt, chromedp.ModifierShift)))
	tb.waitJS(t, editBar)
	// Alt+click on the button opens the panel and does not click it.
	altClick(t, tb, "#add")
	_, open := f.message(t, "open", nil)
	if open["text"] != "Add one" || open["context"].(map[string]any)["role"] != "button" {
		t.Errorf("open = %v", open)
	}
	if c := evalJS[string](t, tb, `document.getElementById('count').textContent`); c != "Geklickt 0 Mal" {
		t.Errorf("Alt+click ran the page's handler: %q", c)
	}
	f.post(t, map[string]any{"lokal": 1, "type": "saved", "ns": "page", "key": "Welcome home", "text": "Welcome home", "lang": "de", "value": "Willkommen daheim", "status": "approved"})
	tb.waitJS(t, `document.getElementById('even').textContent === 'Willkommen daheim'`)
	tb.run(t, chromedp.Click(chromedp.ID("add")))
	tb.waitJS(t, `document.getElementById('count').textContent === 'Geklickt 1 Mal' && document.getElementById('odd') && document.getElementById('odd').textContent === 'Hallo Welt'`)
	tb.run(t, chromedp.Click(chromedp.ID("add")))
	tb.waitJS(t, `document.getElementById('count').textContent === 'Geklickt 2 Mal' && document.getElementById('even') && document.getElementById('even').textContent === 'Willkommen daheim'`)
	if pe := evalJS[[]string](t, tb, `window.pageErrors || []`); len(pe) > 0 {
		t.Fatalf("React errors: %v", pe)
	}
	tb.noErrors(t)
}

// i18nextUMD is the real i18next package (clients/, `npm ci`); without it the test skips,
// and fails under CI=true.
func i18nextUMD(t *testing.T) string {
	t.Helper()
	p := "../clients/node_modules/i18next/dist/umd/i18next.min.js"
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("i18next not found: run `cd clients && npm ci`")
		}
		t.Skip("i18next not found: run `cd clients && npm ci` to run this test")
	}
	return p
}

// TestBrowserInContextI18next: a React page rendering through the real i18next with
// /incontext.js. Outside edit mode nothing more loads; in edit mode the text is the same,
// the panel double gets open with the key and its namespace, and a save shows in place and
// survives a re-render (i18next's resources hold it).
func TestBrowserInContextI18next(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	f := newFront(t, e)
	s := newSite(t, e, "i18n.example.test", nil)
	s.serveFile(t, "/i18next.js", i18nextUMD(t), "text/javascript")
	s.serveFile(t, "/react.js", "testdata/react/react.production.min.js", "text/javascript")
	s.serveFile(t, "/react-dom.js", "testdata/react/react-dom.production.min.js", "text/javascript")
	s.serve("/app.js", fmt.Sprintf(`(function () {
  var h = React.createElement;
  i18next.use(lokalInContext({ base: %q, projectId: %q, namespaceDefault: 'common' })).init({
    lng: 'de', fallbackLng: 'en', ns: ['common', 'shop'], defaultNS: 'common', postProcess: ['lokalInContext'],
    resources: { de: { common: { title: 'Willkommen im Laden', count: '{{n}} Klicks' }, shop: { buy: 'Kaufen' } } }
  });
  function App() {
    var c = React.useState(0), n = c[0], setN = c[1], r = React.useState(0), setR = r[1];
    React.useEffect(function () {
      var f = function () { setR(function (x) { return x + 1; }); };
      i18next.on('languageChanged', f);
      return function () { i18next.off('languageChanged', f); };
    }, []);
    return h('div', null,
      h('h1', { id: 'title' }, i18next.t('title')),
      h('p', { id: 'count' }, i18next.t('count', { n: n })),
      h('button', { id: 'buy', onClick: function () { setN(n + 1); } }, i18next.t('shop:buy')));
  }
  ReactDOM.createRoot(document.getElementById('root')).render(h(App));
})();`, f.srv.URL, s.id), nil)
	s.serve("/", `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Laden</title>
<script src="`+f.srv.URL+`/incontext.js"></script><script src="/i18next.js"></script>
<script src="/react.js"></script><script src="/react-dom.js"></script><script src="/app.js" defer></script></head>
<body><div id="root"></div></body></html>`, nil)

	// Off: the same text, no edit code.
	off := newTab(t)
	off.run(t, chromedp.Navigate(s.url("/")))
	off.waitJS(t, `document.getElementById('title') && document.getElementById('title').textContent === 'Willkommen im Laden'`)
	offBody := evalJS[string](t, off, `document.body.innerHTML`)
	if f.requested("/embed-edit.js") || evalJS[bool](t, off, `performance.getEntriesByType('resource').some(r => r.name.includes('embed-edit'))`) {
		t.Fatal("the edit code was loaded with edit mode off")
	}
	off.noErrors(t)

	tb := newTab(t)
	tb.run(t, chromedp.Navigate(s.url("/#lokal-edit")))
	tb.waitJS(t, `document.getElementById('title') && document.getElementById('title').textContent === 'Willkommen im Laden' && `+editBar)
	// The text and its copy are as i18next rendered them: no mark of any kind.
	if body := evalJS[string](t, tb, `(() => { const b = document.body.cloneNode(true); b.querySelectorAll('[data-lokal-ui]').forEach(n => n.remove()); return b.innerHTML; })()`); body != offBody {
		t.Errorf("edit mode changed the rendered page:\n%s\nwant\n%s", body, offBody)
	}
	altClick(t, tb, "#buy")
	loaded := f.waitLog(t, "its loading", func(m map[string]any) bool { return m["kind"] == "loaded" })
	if want := "/app/p/" + s.id + "/incontext/de?ns=shop&origin=" + url.QueryEscape(s.origin()); loaded["path"] != want {
		t.Errorf("the panel opened at %v, want %s", loaded["path"], want)
	}
	_, open := f.message(t, "open", nil)
	if open["key"] != "buy" || open["ns"] != "shop" || open["text"] != "Kaufen" || open["lang"] != "de" || open["context"].(map[string]any)["role"] != "button" {
		t.Errorf("open = %v", open)
	}
	altClick(t, tb, "#title")
	_, open = f.message(t, "open", func(d map[string]any) bool { return d["key"] == "title" })
	if open["ns"] != "common" || open["text"] != "Willkommen im Laden" {
		t.Errorf("open = %v", open)
	}
	if c := evalJS[string](t, tb, `document.getElementById('count').textContent`); c != "0 Klicks" {
		t.Errorf("Alt+click ran the page's handler: %q", c)
	}
	f.post(t, map[string]any{"lokal": 1, "type": "saved", "ns": "common", "key": "title", "text": "Welcome to the shop", "lang": "de", "value": "Herzlich willkommen", "status": "approved"})
	tb.waitJS(t, `document.getElementById('title').textContent === 'Herzlich willkommen'`)
	tb.run(t, chromedp.Click(chromedp.ID("buy")))
	tb.waitJS(t, `document.getElementById('count').textContent === '1 Klicks' && document.getElementById('title').textContent === 'Herzlich willkommen'`)
	tb.noErrors(t)
}
