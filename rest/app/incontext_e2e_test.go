package app_test

// Review in context (issue 36) end to end in Chromium, on SQLite and PostgreSQL: a member
// signed in to lokal turns edit mode on on a site of the workspace (#lokal-edit), Alt+clicks
// a text, and works the key in lokal's panel, a popup of lokal's origin; the page changes in
// place, other visitors see the value on their next dictionary read. A static page, a React
// page, a React page rendered by i18next with /incontext.js; third-party cookies blocked and
// a strict Content-Security-Policy; a hostile page; the AI prompt and the overflow flag.

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// The panel's parts, as the editor's row renders them inside it.
const (
	panelValue   = `#panel textarea[name="value"]`
	panelSave    = `#panel button[name="action"][value="save"]`
	panelApprove = `#panel button[name="action"][value="approve"]`
)

var siteDE = map[string]string{
	"Hello world":    "Hallo Welt",
	"Welcome home":   "Willkommen zu Hause",
	"Add one":        "Eins dazu",
	"Clicked":        "Geklickt",
	"times":          "Mal",
	"Send":           "Senden",
	"Read the terms": "Die Bedingungen lesen",
}

const staticBody = `<h1 id="h">Hello world</h1>
<p id="p">Welcome home</p>
<p><a id="terms" href="/terms">Read the terms</a></p>
<button id="send" type="button" style="width: 60px">Send</button>`

// panelShows waits until the panel shows key's row with value.
func panelShows(t testing.TB, panel context.Context, key, value string) {
	t.Helper()
	defer func() {
		if t.Failed() {
			t.Logf("the panel at %s says: %.1500s", icEval[string](t, panel, `location.href`), icEval[string](t, panel, `document.body.innerText`))
		}
	}()
	icWait(t, panel, "the panel shows "+key+" = "+value, fmt.Sprintf(
		`(() => { const r = document.querySelector('#panel .incontext-row'); const v = document.querySelector(%q);
		  return !!r && r.dataset.key === %q && !!v && v.value === %q; })()`, panelValue, key, value))
}

// typeValue replaces the panel's value with v by keyboard.
func typeValue(t testing.TB, panel context.Context, v string) {
	t.Helper()
	icDo(t, panel, "typing "+v, chromedp.Focus(chromedp.CSS(panelValue)),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(kb.Backspace),
		chromedp.SendKeys(chromedp.CSS(panelValue), v))
}

func ptrTo[T any](v T) *T { return &v }

// TestInContextStaticSite: a reviewer of German turns edit mode on on a static page,
// Alt+clicks the heading, edits and saves in the panel: the page changes in place at
// once (no reload), lokal stores the value by the reviewer, a fresh visitor reads it from
// the dictionary, the reviewer approves; a translator of French sees the German panel
// read-only, and Alt+click on a link opens the panel without following it.
func TestInContextStaticSite(t *testing.T) {
	t.Parallel()
	chromium(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newICEnv(t, dialect)
		s := e.embedSite(t, "shop.example.test", siteDE)
		reviewer := e.icMember(t, s.project, "reviewer@acme.test", model.RoleReviewer, "de")
		e.icMember(t, s.project, "translator@acme.test", model.RoleTranslator, "fr")
		// Auto-apply on: visitors get a saved value before it is approved (off, the
		// default, the dictionary serves approved values only: the Embed's rule).
		if _, err := e.cat.SetProject(icSys(), s.project, tools.SetProjectIn{AutoApply: ptrTo(true)}); err != nil {
			t.Fatal(err)
		}
		s.serve("/", `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop home</title>`+s.tag(t, "de")+`</head><body>`+staticBody+`</body></html>`, nil)
		s.serve("/terms", `<!doctype html><title>Terms</title><p id="terms-page">Terms</p>`, nil)

		ctx := icBrowser(t)
		e.signInAt(t, ctx, reviewer.Email)
		icDo(t, ctx, "opening the site in edit mode", chromedp.Navigate(s.url("/#lokal-edit")))
		icWait(t, ctx, "the Embed swapped the page", `document.getElementById('h').textContent === 'Hallo Welt'`)
		icWait(t, ctx, "the edit code loaded", editCodeLoaded)
		icEval[bool](t, ctx, `window.__sameDocument = true`)

		panel := openPanel(t, ctx, "#h")
		panelShows(t, panel, "Hello world", "Hallo Welt")
		if src := icEval[string](t, panel, `document.querySelector('#panel .incontext-row').textContent`); !strings.Contains(src, "Hello world") {
			t.Errorf("the panel does not show the source text: %.300q", src)
		}
		typeValue(t, panel, "Hallo, schöne Welt")
		icDo(t, panel, "saving", chromedp.Click(chromedp.CSS(panelSave)))
		icWait(t, ctx, "the page shows the saved value in place", `document.getElementById('h').textContent === 'Hallo, schöne Welt' && window.__sameDocument === true`)
		if r := e.icRow(t, s.project, "page", "Hello world", "de"); r.Value != "Hallo, schöne Welt" || r.UpdatedBy != reviewer.Email && !strings.Contains(r.UpdatedBy, reviewer.ID) {
			t.Errorf("stored row %+v, want the reviewer's value", r)
		}

		// Another visitor, a browser of its own, reads the value on its next dictionary read
		// and loads no edit code.
		visitor := icBrowser(t)
		icDo(t, visitor, "a visitor opens the page", chromedp.Navigate(s.url("/")))
		icWait(t, visitor, "the visitor sees the saved value", `document.getElementById('h').textContent === 'Hallo, schöne Welt'`)
		if icEval[bool](t, visitor, editCodeLoaded) {
			t.Error("a visitor's page loaded the edit code")
		}

		// The reviewer approves in the panel.
		icWait(t, panel, "the Approve button", fmt.Sprintf(`!!document.querySelector(%q)`, panelApprove))
		icDo(t, panel, "approving", chromedp.Click(chromedp.CSS(panelApprove)))
		icWait(t, panel, "the row shows approved", `!!document.querySelector('#panel .badge.approved')`)
		if r := e.icRow(t, s.project, "page", "Hello world", "de"); r.Status != model.StatusApproved || r.Value != "Hallo, schöne Welt" {
			t.Errorf("after Approve the row is %+v", r)
		}

		// Alt+click on a link opens its key in the panel and does not follow it.
		altClick(t, ctx, "#terms")
		panelShows(t, panel, "Read the terms", "Die Bedingungen lesen")
		if icEval[string](t, ctx, `location.pathname`) != "/" || !icEval[bool](t, ctx, `window.__sameDocument === true`) {
			t.Error("Alt+click on a link followed it")
		}

		// A translator of French opens the same page: the German panel is read-only, and a
		// save forged from its page is refused.
		tctx := icBrowser(t)
		e.signInAt(t, tctx, "translator@acme.test")
		icDo(t, tctx, "the translator opens the site in edit mode", chromedp.Navigate(s.url("/#lokal-edit")))
		icWait(t, tctx, "the page is in German", `document.getElementById('p').textContent === 'Willkommen zu Hause'`)
		icWait(t, tctx, "the edit code loaded", editCodeLoaded)
		tpanel := openPanel(t, tctx, "#p")
		panelShows(t, tpanel, "Welcome home", "Willkommen zu Hause")
		ro := icEval[map[string]bool](t, tpanel, fmt.Sprintf(`({ notice: !!document.querySelector('#read-only'), readonly: document.querySelector(%q).readOnly,
		  save: !!document.querySelector(%q), approve: !!document.querySelector(%q) })`, panelValue, panelSave, panelApprove))
		if !ro["notice"] || !ro["readonly"] || ro["save"] || ro["approve"] {
			t.Errorf("the translator of French sees the German panel as %v, want read-only without Save or Approve", ro)
		}
		if r := e.icRow(t, s.project, "page", "Welcome home", "de"); r.Value != "Willkommen zu Hause" {
			t.Errorf("the translator changed German: %+v", r)
		}
	})
}

// TestInContextReactPage: on a React page with the Embed, a save changes the button in
// place at once, and React's next render keeps the saved value (the Embed's dictionary
// entry changed, not only the node).
func TestInContextReactPage(t *testing.T) {
	t.Parallel()
	chromium(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newICEnv(t, dialect)
		s := e.embedSite(t, "react.example.test", siteDE)
		reviewer := e.icMember(t, s.project, "reviewer@acme.test", model.RoleReviewer, "de")
		s.serveFile(t, "/react.js", "../../public/testdata/react/react.production.min.js", "text/javascript")
		s.serveFile(t, "/react-dom.js", "../../public/testdata/react/react-dom.production.min.js", "text/javascript")
		s.serveJS("/app.js", reactApp)
		s.serve("/", `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Counter</title>`+s.tag(t, "de")+`
<script src="/react.js"></script><script src="/react-dom.js"></script><script src="/app.js" defer></script></head><body><div id="root"></div></body></html>`, nil)

		ctx := icBrowser(t)
		e.signInAt(t, ctx, reviewer.Email)
		icDo(t, ctx, "opening the React page in edit mode", chromedp.Navigate(s.url("/#lokal-edit")))
		icWait(t, ctx, "React rendered and the Embed swapped", `document.getElementById('add') && document.getElementById('add').textContent === 'Eins dazu'`)
		icWait(t, ctx, "the edit code loaded", editCodeLoaded)
		panel := openPanel(t, ctx, "#add")
		panelShows(t, panel, "Add one", "Eins dazu")
		if got := icEval[string](t, ctx, `document.getElementById('count').textContent`); got != "Geklickt 0 Mal" {
			t.Errorf("Alt+click went through to React's onClick: count %q", got)
		}
		typeValue(t, panel, "Noch eins")
		icDo(t, panel, "saving", chromedp.Click(chromedp.CSS(panelSave)))
		icWait(t, ctx, "the button shows the saved value", `document.getElementById('add').textContent === 'Noch eins'`)
		for i := 1; i <= 3; i++ {
			icDo(t, ctx, "clicking the button", chromedp.Click(chromedp.ID("add")))
			icWait(t, ctx, "React rendered again and kept the value", fmt.Sprintf(
				`document.getElementById('count').textContent === 'Geklickt %d Mal' && document.getElementById('add').textContent === 'Noch eins'`, i))
		}
		if errs := icEval[[]string](t, ctx, `window.pageErrors || []`); len(errs) > 0 {
			t.Errorf("React errors: %v", errs)
		}
	})
}

const reactApp = `(function () {
  var h = React.createElement;
  function App() {
    var c = React.useState(0), n = c[0], setN = c[1];
    return h('div', null,
      h('h1', { id: 'h' }, 'Hello world'),
      h('p', { id: 'count' }, 'Clicked ', n, ' times'),
      h('button', { id: 'add', onClick: function () { setN(n + 1); } }, 'Add one'));
  }
  window.addEventListener('error', function (e) { (window.pageErrors = window.pageErrors || []).push(String(e.message)); });
  ReactDOM.createRoot(document.getElementById('root')).render(h(App));
})();`

// clientsModule is a file of the npm packages clients/ pins (`cd clients && npm ci`, which
// .ci/run does), or "" when they are not installed.
func clientsModule(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "clients", "node_modules", rel)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: .ci/run installs clients/node_modules with npm ci", p)
		}
		t.Skipf("%s is missing: cd clients && npm ci", p)
	}
	return p
}

// TestInContextI18next: a React page rendered by i18next (the real package's UMD build)
// with i18next-http-backend loading lokal's namespace (endpoint 1, read-only key) and
// lokal's /incontext.js as a post-processor: Alt+click on a text opens the panel for the
// key that rendered it (two keys with the same English text: the one clicked), and a
// save changes the page in place; the texts carry no visible or copied mark.
func TestInContextI18next(t *testing.T) {
	t.Parallel()
	chromium(t)
	i18n := clientsModule(t, "i18next/dist/umd/i18next.min.js")
	backend := clientsModule(t, "i18next-http-backend/i18nextHttpBackend.min.js")
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newICEnv(t, dialect)
		s, reviewer := i18nextSite(t, e, i18n, backend)
		ctx := icBrowser(t)
		e.signInAt(t, ctx, reviewer.Email)
		icDo(t, ctx, "opening the app in edit mode", chromedp.Navigate(s.url("/#lokal-edit")))
		icWait(t, ctx, "i18next rendered lokal's values", `document.getElementById('home')?.textContent === 'Hjem' && document.getElementById('menu-open')?.textContent === 'Åpne'`)
		icWait(t, ctx, "the edit code loaded", editCodeLoaded)
		// No mark in what is shown or copied.
		if html := icEval[string](t, ctx, `document.getElementById('cart').outerHTML`); html != `<h2 id="cart">Handlekurven din</h2>` {
			t.Errorf("the text rendered by i18next is marked: %s", html)
		}
		panel := openPanel(t, ctx, "#cart")
		panelShows(t, panel, "cart.title", "Handlekurven din")
		altClick(t, ctx, "#home")
		panelShows(t, panel, "nav.home", "Hjem")
		typeValue(t, panel, "Forsiden")
		icDo(t, panel, "saving", chromedp.Click(chromedp.CSS(panelSave)))
		icWait(t, ctx, "the page shows the saved value in place", `document.getElementById('home').textContent === 'Forsiden'`)
		if r := e.row(t, "common", "nav.home", "nb"); r.Value != "Forsiden" {
			t.Errorf("stored %+v", r)
		}
	})
}

// i18nextSite is a React page rendered by i18next from lokal's common namespace (the
// fixture project, nb), with /incontext.js; cart.open and menu.open both say "Open".
func i18nextSite(t *testing.T, e *icEnv, i18n, backend string) (*icSite, model.User) {
	t.Helper()
	e.source(t, "common", "nav.home", "Home", "cart.title", "Your cart", "cart.open", "Open", "menu.open", "Open")
	for k, v := range map[string]string{"nav.home": "Hjem", "cart.title": "Handlekurven din", "cart.open": "Åpne", "menu.open": "Åpne"} {
		e.draft(t, "common", k, "nb", v)
	}
	reviewer := e.member(t, "reviewer@acme.test", model.RoleReviewer, "nb")
	s := e.newSite(t, "app.example.test")
	s.serveFile(t, "/react.js", "../../public/testdata/react/react.production.min.js", "text/javascript")
	s.serveFile(t, "/react-dom.js", "../../public/testdata/react/react-dom.production.min.js", "text/javascript")
	s.serveFile(t, "/i18next.js", i18n, "text/javascript")
	s.serveFile(t, "/backend.js", backend, "text/javascript")
	s.serveJS("/app.js", fmt.Sprintf(`(function () {
  var h = React.createElement;
  function App() {
    var st = React.useState(0); var n = st[0], set = st[1];
    React.useEffect(function () { var f = function () { set(function (x) { return x + 1; }); }; i18next.on('languageChanged', f); return function () { i18next.off('languageChanged', f); }; }, []);
    return h('div', { 'data-render': n },
      h('h1', { id: 'home' }, i18next.t('nav.home')),
      h('h2', { id: 'cart' }, i18next.t('cart.title')),
      h('button', { id: 'cart-open' }, i18next.t('cart.open')),
      h('button', { id: 'menu-open' }, i18next.t('menu.open')));
  }
  i18next.use(i18nextHttpBackend).use(lokalInContext({ base: %q, projectId: %q, namespaceDefault: 'common' })).init({
    lng: 'nb', fallbackLng: 'en', ns: ['common'], defaultNS: 'common', postProcess: ['lokalInContext'],
    backend: { loadPath: %q, customHeaders: { Authorization: 'Token token=' + %q } }
  }).then(function () { ReactDOM.createRoot(document.getElementById('root')).render(h(App)); });
})();`, e.base, e.f.Project.ID, e.base+"/api/"+e.f.Project.ID+"/latest/{{lng}}/{{ns}}", e.f.RO))
	s.serve("/", `<!doctype html><html lang="nb"><head><meta charset="utf-8"><title>App</title>
<script src="/react.js"></script><script src="/react-dom.js"></script><script src="/i18next.js"></script><script src="/backend.js"></script>
<script src="`+e.base+`/incontext.js"></script><script src="/app.js" defer></script></head><body><div id="root"></div></body></html>`, nil)

	return s, reviewer
}

// TestInContextI18nextSameText: two keys render the same text ("Open" → "Åpne", the
// issue's "which of three Open keys"): Alt+click on each opens the key that rendered the
// text clicked, and the page's key list has both.
func TestInContextI18nextSameText(t *testing.T) {
	t.Parallel()
	chromium(t)
	i18n := clientsModule(t, "i18next/dist/umd/i18next.min.js")
	backend := clientsModule(t, "i18next-http-backend/i18nextHttpBackend.min.js")
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newICEnv(t, dialect)
		s, reviewer := i18nextSite(t, e, i18n, backend)
		ctx := icBrowser(t)
		e.signInAt(t, ctx, reviewer.Email)
		icDo(t, ctx, "opening the app in edit mode", chromedp.Navigate(s.url("/#lokal-edit")))
		icWait(t, ctx, "i18next rendered lokal's values", `document.getElementById('menu-open')?.textContent === 'Åpne' && document.getElementById('cart-open')?.textContent === 'Åpne'`)
		icWait(t, ctx, "the edit code loaded", editCodeLoaded)
		panel := openPanel(t, ctx, "#menu-open")
		panelShows(t, panel, "menu.open", "Åpne")
		altClick(t, ctx, "#cart-open")
		panelShows(t, panel, "cart.open", "Åpne")
		icWait(t, panel, "the page's keys list both", `(() => { const t = document.getElementById('page-key-list').textContent; return t.includes('cart.open') && t.includes('menu.open'); })()`)
	})
}

// TestInContextThirdPartyCookiesBlockedAndStrictCSP: in a Chromium that blocks
// third-party cookies (a frame of another site keeps none: checked first), on a site whose
// Content-Security-Policy allows scripts from itself and lokal only (no 'unsafe-inline',
// no inline style), the whole flow works: the panel is a top-level window of lokal's
// origin with its first-party session. The page logs no CSP violation.
func TestInContextThirdPartyCookiesBlockedAndStrictCSP(t *testing.T) {
	t.Parallel()
	chromium(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newICEnv(t, dialect)
		if got := thirdPartyCookies(t, e); got != "cookie: access:false" {
			t.Fatalf("third-party cookies are not blocked in the test's Chromium: the probe frame says %q", got)
		}
		s := e.embedSite(t, "csp.example.test", siteDE)
		reviewer := e.icMember(t, s.project, "reviewer@acme.test", model.RoleReviewer, "de")
		csp := fmt.Sprintf("default-src 'self'; script-src 'self' %s; connect-src 'self' %s; style-src 'self'; img-src 'self'", e.base, e.base)
		s.serve("/", `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Strict</title>`+s.tag(t, "de")+
			`<script src="/csp-log.js"></script></head><body>`+strings.Replace(staticBody, ` style="width: 60px"`, "", 1)+`</body></html>`,
			map[string]string{"Content-Security-Policy": csp})
		s.serveJS("/csp-log.js", `window.cspViolations = []; document.addEventListener('securitypolicyviolation', function (e) { window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI); });`)

		ctx := icBrowser(t)
		e.signInAt(t, ctx, reviewer.Email)
		icDo(t, ctx, "opening the strict site in edit mode", chromedp.Navigate(s.url("/#lokal-edit")))
		icWait(t, ctx, "the Embed swapped the page", `document.getElementById('h').textContent === 'Hallo Welt'`)
		icWait(t, ctx, "the edit code loaded", editCodeLoaded)
		panel := openPanel(t, ctx, "#p")
		panelShows(t, panel, "Welcome home", "Willkommen zu Hause")
		typeValue(t, panel, "Willkommen daheim")
		icDo(t, panel, "saving", chromedp.Click(chromedp.CSS(panelSave)))
		icWait(t, ctx, "the page shows the saved value", `document.getElementById('p').textContent === 'Willkommen daheim'`)
		if r := e.icRow(t, s.project, "page", "Welcome home", "de"); r.Value != "Willkommen daheim" {
			t.Errorf("stored %+v", r)
		}
		if v := icEval[[]string](t, ctx, `window.cspViolations`); len(v) > 0 {
			t.Errorf("the strict site's policy was violated: %v", v)
		}
	})
}

// TestInContextHostilePage: a page of a site the workspace did not authorize (evil.test),
// visited by a signed-in reviewer, opens lokal's panel itself (for its own origin, then
// claiming an authorized one) and posts forged open, seen, saved and measure messages to
// it, and tries to read a token: it gets no message carrying one, cannot read the panel
// or lokal's cookies, and nothing is written or recorded.
func TestInContextHostilePage(t *testing.T) {
	t.Parallel()
	chromium(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newICEnv(t, dialect)
		s := e.embedSite(t, "shop.example.test", siteDE)
		reviewer := e.icMember(t, s.project, "reviewer@acme.test", model.RoleReviewer, "de")
		before := e.icRow(t, s.project, "page", "Hello world", "de")
		evil := e.newSite(t, "evil.test")
		evil.serve("/", `<!doctype html><html><head><title>Evil</title><script src="/evil.js"></script></head><body>
<button id="go-own" type="button">Open for my origin</button> <button id="go-claim" type="button">Open claiming the shop</button></body></html>`, nil)
		evil.serveJS("/evil.js", fmt.Sprintf(`(function () {
  var lokal = %q, project = %q, shop = %q;
  window.got = []; window.reads = [];
  addEventListener('message', function (e) { try { window.got.push(e.origin + ' ' + JSON.stringify(e.data)); } catch (x) { window.got.push(e.origin + ' ?'); } });
  function open(claim) {
    var w = window.open(lokal + '/app/p/' + project + '/incontext/de?ns=page&origin=' + encodeURIComponent(claim), 'lokal-incontext', 'popup,width=520,height=800');
    window.panel = w;
    var ctx = { url: shop + '/', title: 'Forged', role: 'button', before: '', after: '', width: 10, box: 500, position: 0 };
    var forged = [
      { lokal: 1, type: 'ready' },
      { lokal: 1, type: 'open', ns: 'page', key: null, text: 'Hello world', lang: 'de', context: ctx },
      { lokal: 1, type: 'open', ns: 'page', key: 'Hello world', text: 'Hello world', lang: 'de', context: ctx },
      { lokal: 1, type: 'seen', ns: 'page', items: [{ key: null, text: 'Hello world', context: ctx }, { key: null, text: 'Welcome home', context: ctx }] },
      { lokal: 1, type: 'saved', ns: 'page', key: 'Hello world', text: 'Hello world', lang: 'de', value: 'PWNED', status: 'approved' },
      { lokal: 1, type: 'measured', id: 1, width: 1, box: 2, fits: true },
      { lokal: 1, type: 'save', ns: 'page', key: 'Hello world', lang: 'de', value: 'PWNED' },
      { lokal: 1, type: 'approve', ns: 'page', key: 'Hello world', lang: 'de', value: 'PWNED' }
    ];
    var n = 0, timer = setInterval(function () {
      if (n++ > 40) { clearInterval(timer); window.done = (window.done || 0) + 1; return; }
      forged.forEach(function (m) { try { w.postMessage(m, '*'); } catch (x) { window.reads.push('post: ' + x.name); } });
      // The window is the opener's own about:blank until lokal's page replaces it; after
      // that, every read throws.
      try {
        var href = w.location.href;
        if (href !== 'about:blank') window.reads.push('href: ' + href + ' cookie: ' + w.document.cookie + ' html: ' + w.document.documentElement.outerHTML);
      } catch (x) { /* cross-origin: expected */ }
    }, 100);
  }
  document.addEventListener('DOMContentLoaded', function () {
    document.getElementById('go-own').addEventListener('click', function () { open(location.origin); });
    document.getElementById('go-claim').addEventListener('click', function () { open(shop); });
  });
  window.steal = function () {
    return Promise.all([
      fetch(lokal + '/app/p/' + project + '/incontext/de/row?ns=page&key=Hello%%20world', { credentials: 'include' }).then(function (r) { return r.text(); }, function (x) { return 'refused: ' + x.name; }),
      fetch(lokal + '/app/', { credentials: 'include' }).then(function (r) { return r.text(); }, function (x) { return 'refused: ' + x.name; })
    ]).then(function (a) { return a.concat([document.cookie]); });
  };
})();`, e.base, s.project, s.origin()))

		ctx := icBrowser(t)
		e.signInAt(t, ctx, reviewer.Email)
		icDo(t, ctx, "visiting the hostile page", chromedp.Navigate(evil.url("/")))
		icWait(t, ctx, "the hostile page is up", `!!document.getElementById('go-own')`)
		icDo(t, ctx, "the page opens the panel for its own origin", chromedp.Click(chromedp.ID("go-own")))
		icWait(t, ctx, "the forgeries were posted", `window.done === 1`)
		icDo(t, ctx, "the page opens the panel claiming the shop's origin", chromedp.Click(chromedp.ID("go-claim")))
		icWait(t, ctx, "the forgeries were posted", `window.done === 2`)
		stolen := icEval[[]string](t, ctx, `window.steal()`)

		// What the page's scripts could read.
		got := icEval[[]string](t, ctx, `window.got`)
		reads := icEval[[]string](t, ctx, `window.reads`)
		cookies := e.lokalCookies(t, ctx)
		if len(cookies) == 0 {
			t.Fatal("the reviewer has no lokal cookie: the test would prove nothing")
		}
		for _, what := range append(append(append([]string{}, got...), reads...), stolen...) {
			for _, c := range cookies {
				if strings.Contains(what, c) {
					t.Errorf("the hostile page read a lokal cookie value: %.200q", what)
				}
			}
			if strings.Contains(what, "csrf") && strings.Contains(what, "content=") || strings.Contains(what, e.f.RW) || strings.Contains(what, "Hallo Welt") {
				t.Errorf("the hostile page read what it should not: %.200q", what)
			}
		}
		for _, m := range got {
			if strings.Contains(m, e.base) {
				t.Errorf("the panel spoke to the hostile page: %.200q", m)
			}
		}
		if len(reads) > 0 {
			t.Errorf("the hostile page read the panel window: %q", reads)
		}
		if !strings.HasPrefix(stolen[0], "refused") || !strings.HasPrefix(stolen[1], "refused") {
			t.Errorf("the hostile page read lokal's pages with the reviewer's cookies: %.120q / %.120q", stolen[0], stolen[1])
		}

		// Nothing written, nothing recorded.
		after := e.icRow(t, s.project, "page", "Hello world", "de")
		if after.Value != before.Value || after.Status != before.Status || after.UpdatedAt != before.UpdatedAt {
			t.Errorf("the row changed: %+v, was %+v", after, before)
		}
		e.noContext(t, s, "Hello world")
	})
}

// lokalCookies are the values of the cookies the browser keeps for lokal's origin.
func (e *icEnv) lokalCookies(t testing.TB, ctx context.Context) []string {
	t.Helper()
	out, err := chromedp.Call(ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{e.base + "/app/"}})
	if err != nil {
		t.Fatal(err)
	}
	var vals []string
	for _, c := range out.Cookies {
		if len(c.Value) >= 8 {
			vals = append(vals, c.Value)
		}
	}
	return vals
}

// noContext fails when lokal recorded a page context for key or any key on the site's page.
func (e *icEnv) noContext(t testing.TB, s *icSite, key string) {
	t.Helper()
	cs, err := e.cat.KeyContexts(icSys(), s.project, "page", key)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) > 0 {
		t.Errorf("a context was recorded for %s: %+v", key, cs)
	}
	keys, err := e.cat.PageKeys(icSys(), s.project, s.origin()+"/")
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) > 0 {
		t.Errorf("keys were recorded for the page: %+v", keys)
	}
}

// framedPanel: lokal refuses to be framed, so no site can overlay the panel.
func TestInContextPanelNotFramed(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newICEnv(t, dialect)
		s := e.embedSite(t, "shop.example.test", siteDE)
		b := e.browser(t)
		b.e = e.env
		b.signIn(t, e.f.User.Email)
		p := b.get(t, "/app/p/"+s.project+"/incontext/de?ns=page&origin="+strings.ReplaceAll(s.origin(), ":", "%3A"))
		p.want(t, http.StatusOK)
		xfo, csp := p.header.Get("X-Frame-Options"), p.header.Get("Content-Security-Policy")
		if !strings.EqualFold(xfo, "DENY") && !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("the panel may be framed: X-Frame-Options %q, CSP %q", xfo, csp)
		}
		// A host not authorized: the page says why and carries no origin for its script.
		p = b.get(t, "/app/p/"+s.project+"/incontext/de?ns=page&origin=http%3A%2F%2Fevil.test%3A80")
		if p.status != http.StatusForbidden || !strings.Contains(p.body, `id="origin-error"`) || strings.Contains(p.body, `data-origin=`) {
			t.Errorf("an unauthorized origin: %d %.300s", p.status, p.body)
		}
	})
}

// TestInContextAIAndOverflow: Alt+click on a narrow button records where its key is
// shown (the page, its title, the role, the box); the AI double then sees that context in
// the prompt for that key when the reviewer asks the panel for a suggestion. A draft too
// long for the button is flagged in the panel while typing (the page measures it) and, once
// saved, on the editor's row before approval.
func TestInContextAIAndOverflow(t *testing.T) {
	t.Parallel()
	chromium(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newICEnv(t, dialect)
		s := e.embedSite(t, "shop.example.test", siteDE)
		reviewer := e.icMember(t, s.project, "reviewer@acme.test", model.RoleReviewer, "de")
		s.serve("/", `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop home</title>`+s.tag(t, "de")+`</head><body>`+staticBody+`</body></html>`, nil)

		ctx := icBrowser(t)
		e.signInAt(t, ctx, reviewer.Email)
		icDo(t, ctx, "opening the site in edit mode", chromedp.Navigate(s.url("/#lokal-edit")))
		icWait(t, ctx, "the Embed swapped the page", `document.getElementById('send').textContent === 'Senden'`)
		icWait(t, ctx, "the edit code loaded", editCodeLoaded)
		panel := openPanel(t, ctx, "#send")
		panelShows(t, panel, "Send", "Senden")

		// The context lokal keeps for the key.
		cs, err := e.cat.KeyContexts(icSys(), s.project, "page", "Send")
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) != 1 || cs[0].URL != s.url("/") || cs[0].Title != "Shop home" || cs[0].Role != "button" || cs[0].Box <= 0 || cs[0].Box > 60 || cs[0].Width <= 0 {
			t.Fatalf("the recorded context of Send: %+v", cs)
		}

		// The AI double sees it in the prompt for that key.
		icWait(t, panel, "the AI button", `!!document.querySelector('#panel button.ai-suggest')`)
		icEval[bool](t, panel, `(() => { const b = document.querySelector('#panel button.ai-suggest'); b.closest('details')?.setAttribute('open', ''); b.click(); return true; })()`)
		icWait(t, panel, "the suggestion arrives", `!!document.querySelector('#panel .ai-out .use') && document.querySelector('#panel .ai-out .use').dataset.value.startsWith('DE ')`)
		prompt := e.ai.all()
		for _, want := range []string{"a button label", "Shop home", s.url("/")} {
			if !strings.Contains(prompt, want) {
				t.Errorf("the prompt lacks %q: %.2000s", want, prompt)
			}
		}

		// Too long for the button: flagged while typing, and on the editor's row once saved.
		long := "Jetzt sofort verbindlich und endgültig absenden"
		typeValue(t, panel, long)
		icWait(t, panel, "the panel flags the overflow", `!document.getElementById('overflow').hidden && /overflow/.test(document.getElementById('overflow').textContent)`)
		typeValue(t, panel, "Los")
		icWait(t, panel, "a value that fits is not flagged", `document.getElementById('overflow').hidden`)
		typeValue(t, panel, long)
		icWait(t, panel, "flagged again", `!document.getElementById('overflow').hidden`)
		icDo(t, panel, "saving", chromedp.Click(chromedp.CSS(panelSave)))
		icWait(t, ctx, "the page shows the long value", fmt.Sprintf(`document.getElementById('send').textContent === %q`, long))
		icDo(t, ctx, "opening the editor's review of German", chromedp.Navigate(e.base+"/app/p/"+s.project+"/review/de"))
		icWait(t, ctx, "the row of Send", `[...document.querySelectorAll('#rows article.row')].some((r) => r.dataset.key === 'Send')`)
		flag := icEval[string](t, ctx, `(() => { const r = [...document.querySelectorAll('#rows article.row')].find((r) => r.dataset.key === 'Send'); const w = r.querySelector('.overflow-warning'); return w ? w.textContent : ''; })()`)
		if !strings.Contains(flag, "May not fit") || !strings.Contains(flag, s.url("/")) {
			t.Errorf("the editor's row of Send does not flag the overflow: %q", flag)
		}
		other := icEval[string](t, ctx, `(() => { const r = [...document.querySelectorAll('#rows article.row')].find((r) => r.dataset.key === 'Hello world'); return r && r.querySelector('.overflow-warning') ? 'flagged' : ''; })()`)
		if other != "" {
			t.Error("a key never seen on a page is flagged")
		}
	})
}
