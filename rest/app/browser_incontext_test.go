package app_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// sitePage is a test double of a site in edit mode (the Embed's edit code speaks the same
// messages): a button opens the panel in a popup; on `ready` it sends `seen` and `open` for
// its text; it answers `measure` as if 10 px a character in a 100 px box; on `saved` it
// changes its text in place. It keeps every message it accepted, and every one it got.
const sitePage = `<!doctype html><html><head><title>Shop</title></head><body>
<nav><button id="greet">Hello</button> <a href="/about" id="about">About us</a></nav>
<button id="open-panel">Edit</button>
<script>
const lokal = %q, panelURL = %q;
window.got = []; window.all = [];
let panel = null;
const ctx = (el, position) => ({ url: location.origin + location.pathname, title: document.title, role: el.tagName === 'A' ? 'link' : 'button',
  before: '', after: '', width: el.textContent.length * 10, box: 100, position });
window.addEventListener('message', (e) => {
  window.all.push({ origin: e.origin, data: e.data });
  if (e.origin !== lokal || e.source !== panel || e.data?.lokal !== 1) return;
  const m = e.data;
  window.got.push({ origin: e.origin, data: m });
  if (m.type === 'ready') {
    panel.postMessage({ lokal: 1, type: 'seen', ns: 'common', items: [
      { key: null, text: 'Hello', context: ctx(document.getElementById('greet'), 0) },
      { key: null, text: 'About us', context: ctx(document.getElementById('about'), 1) }] }, lokal);
    panel.postMessage({ lokal: 1, type: 'open', ns: 'common', key: null, text: 'Hello', lang: 'nb', context: ctx(document.getElementById('greet'), 0) }, lokal);
  } else if (m.type === 'measure') {
    const width = m.value.length * 10;
    panel.postMessage({ lokal: 1, type: 'measured', id: m.id, width, box: 100, fits: width <= 100 }, lokal);
  } else if (m.type === 'saved') {
    document.getElementById('greet').textContent = m.value;
  }
});
document.getElementById('open-panel').addEventListener('click', () => { panel = window.open(panelURL, 'lokal-incontext', 'popup,width=520,height=800'); });
</script></body></html>`

// hostilePage opens the panel for the authorized site's origin, as if it were that site,
// and posts forged messages to it; it keeps whatever reaches it and what reading the
// panel's document gives.
const hostilePage = `<!doctype html><html><head><title>Hostile</title></head><body>
<button id="open-panel">Win a prize</button>
<script>
const lokal = %q, panelURL = %q;
window.all = []; window.peek = '';
let panel = null;
window.addEventListener('message', (e) => window.all.push({ origin: e.origin, data: e.data }));
document.getElementById('open-panel').addEventListener('click', () => { panel = window.open(panelURL, 'lokal-incontext', 'popup'); });
window.forge = () => {
  const c = { url: %q, title: 'Shop', role: 'button', before: '', after: '', width: 10, box: 100, position: 0 };
  for (const target of [lokal, '*']) {
    panel.postMessage({ lokal: 1, type: 'open', ns: 'common', key: 'greeting', text: 'Hello', lang: 'nb', context: c }, target);
    panel.postMessage({ lokal: 1, type: 'seen', ns: 'common', items: [{ key: 'greeting', text: 'Hello', context: c }] }, target);
    panel.postMessage({ lokal: 1, type: 'measured', id: 1, width: 999, box: 1, fits: false }, target);
  }
  try { window.peek = panel.document.cookie + panel.document.querySelector('meta[name=csrf-token]').content; } catch (err) { window.peek = 'blocked: ' + err.name; }
  return true;
};
</script></body></html>`

// serveHTML serves one page on a loopback server of its own, another origin than lokal's.
func serveHTML(t *testing.T, html func(origin string) string) (origin string) {
	t.Helper()
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	// The site is named localhost: another site than lokal's 127.0.0.1, as a real site is,
	// so the session cookie reaches the popup only as SameSite=Lax allows.
	origin = "http://localhost:" + u.Port()
	body = html(origin)
	return origin
}

// popup clicks sel in ctx and answers the tab of the window it opens.
func popup(t *testing.T, ctx context.Context, sel, lokal string) context.Context {
	t.Helper()
	// This test's lokal only: the dialects run in parallel in one browser, and another
	// subtest's panel is a new target too.
	ch := chromedp.WaitNewTarget(ctx, func(i *target.Info) bool {
		return strings.HasPrefix(i.URL, lokal+"/") && strings.Contains(i.URL, "/incontext/")
	})
	do(t, ctx, "opening the panel", chromedp.Click(chromedp.CSS(sel)))
	select {
	case id := <-ch:
		pctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(id))
		t.Cleanup(cancel)
		return pctx
	case <-time.After(30 * time.Second):
		t.Fatal("no panel window opened")
	}
	return nil
}

// TestBrowserInContext: a site page on another origin opens the panel with window.open;
// the panel says ready to it, records the page's texts, opens the key of the text the page
// names, flags a draft that would overflow from the page's measure, saves, and posts saved
// with the new value to the site's origin, which changes its text in place. A hostile page
// on a third origin that opens the panel as if it were the site and posts forged messages
// gets nothing back, reads nothing, and has nothing recorded or written.
func TestBrowserInContext(t *testing.T) {
	t.Parallel()
	chromium(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, nil)
		e.source(t, "common", "greeting", "Hello", "about", "About us")
		e.draft(t, "common", "greeting", "nb", "Hei")
		lokal := e.srv.URL
		var panelURL string
		site := serveHTML(t, func(origin string) string {
			panelURL = lokal + e.panelPath("nb", origin)
			return fmt.Sprintf(sitePage, lokal, panelURL)
		})
		e.authorize(t, strings.TrimPrefix(site, "http://"))
		ctx := newBrowser(t)
		do(t, ctx, "signing in", chromedp.Navigate(lokal+"/app/signin"),
			chromedp.SendKeys(chromedp.CSS(`#email`), e.f.User.Email), chromedp.SendKeys(chromedp.CSS(`#password`), password),
			chromedp.Submit(chromedp.CSS(`#password`)), chromedp.WaitVisible(chromedp.CSS(`ul.cards`)))
		do(t, ctx, "opening the site", chromedp.Navigate(site+"/shop"), chromedp.WaitVisible(chromedp.CSS(`#open-panel`)))
		pctx := popup(t, ctx, `#open-panel`, lokal)

		waitFor(t, ctx, "the panel says ready", `window.got.some((m) => m.data.type === 'ready')`)
		waitFor(t, pctx, "the panel shows the row of the text", `document.querySelector('#panel .incontext-row')?.dataset.key === 'greeting'`)
		if v := eval[string](t, pctx, `document.querySelector('#panel textarea[name=value]').value`); v != "Hei" {
			t.Errorf("the panel's box holds %q", v)
		}
		waitFor(t, pctx, "the page's keys in order", `document.querySelectorAll('#page-key-list li').length === 2`)
		if keys := eval[string](t, pctx, `document.querySelector('#page-key-list').textContent`); !strings.Contains(keys, "Hello (common · greeting)") ||
			strings.Index(keys, "greeting") > strings.Index(keys, "about") {
			t.Errorf("keys on this page: %q", keys)
		}
		cs, err := e.cat.KeyContexts(e.sys(t), e.f.Project.ID, "common", "greeting")
		if err != nil || len(cs) != 1 || cs[0].URL != site+"/shop" || cs[0].Role != "button" || cs[0].Title != "Shop" {
			t.Errorf("the recorded context of greeting: %+v %v", cs, err)
		}

		// A long draft would overflow the button; a short one fits.
		box := `#panel textarea[name=value]`
		clear := []chromedp.Action[chromedp.Void]{chromedp.Focus(chromedp.CSS(box)), key("a", chromedp.ModifierCtrl), key(kb.Backspace)}
		do(t, pctx, "typing a long draft", append(clear, chromedp.SendKeys(chromedp.CSS(box), "Hei og velkommen til butikken"))...)
		waitFor(t, pctx, "the overflow is flagged", `!document.querySelector('#overflow').hidden`)
		if o := text(t, pctx, `#overflow`); !strings.Contains(o, "would overflow its box") {
			t.Errorf("the overflow note says %q", o)
		}
		do(t, pctx, "typing a short one", append(clear, chromedp.SendKeys(chromedp.CSS(box), "Hallo"))...)
		waitFor(t, pctx, "the overflow note goes", `document.querySelector('#overflow').hidden`)

		// Approve: the site is told, at its origin, and changes in place.
		do(t, pctx, "approving", chromedp.Click(chromedp.CSS(`#panel button[value=approve]`)))
		waitFor(t, ctx, "the site gets saved", `window.got.some((m) => m.data.type === 'saved')`)
		saved := eval[map[string]any](t, ctx, `window.got.find((m) => m.data.type === 'saved').data`)
		want := map[string]any{"lokal": float64(1), "type": "saved", "ns": "common", "key": "greeting", "text": "Hello", "lang": "nb", "value": "Hallo", "status": "approved"}
		for k, v := range want {
			if saved[k] != v {
				t.Errorf("saved.%s = %v, want %v (%v)", k, saved[k], v, saved)
			}
		}
		if got := text(t, ctx, `#greet`); got != "Hallo" {
			t.Errorf("the site's text after the save: %q", got)
		}
		if got := e.row(t, "common", "greeting", "nb"); got.Value != "Hallo" || got.Status != model.StatusApproved {
			t.Errorf("stored: %+v", got)
		}
		// Every message the site got came from lokal's origin; none carries a credential.
		for _, m := range eval[[]map[string]any](t, ctx, `window.all`) {
			if m["origin"] != lokal {
				t.Errorf("the site got a message from %v", m["origin"])
			}
			if s := fmt.Sprint(m["data"]); strings.Contains(s, "csrf") || strings.Contains(s, "lokal_session") || strings.Contains(s, "token") {
				t.Errorf("a message carries a credential: %s", s)
			}
		}
		do(t, pctx, "walking to the next key", chromedp.Click(chromedp.CSS(`#next-key`)))
		waitFor(t, pctx, "the next key of the page shows", `document.querySelector('#panel .incontext-row')?.dataset.key === 'about'`)

		// The hostile page, on a third origin, opens the panel as if it were the site.
		hostile := serveHTML(t, func(string) string {
			return fmt.Sprintf(hostilePage, lokal, lokal+e.panelPath("nb", site), site+"/shop")
		})
		hostile = strings.Replace(hostile, "localhost", "127.0.0.1", 1)
		hctx, cancel := chromedp.NewContext(ctx) // a tab of its own in the same browser, signed in
		defer cancel()
		do(t, hctx, "opening the hostile page", chromedp.Navigate(hostile+"/"), chromedp.WaitVisible(chromedp.CSS(`#open-panel`)))
		hpctx := popup(t, hctx, `#open-panel`, lokal)
		waitFor(t, hpctx, "the panel loads for the hostile opener", `document.readyState === 'complete' && document.querySelector('#ic-status')?.textContent === 'Alt+click a text on the page'`)
		eval[bool](t, hpctx, `window.__msgs = 0; window.addEventListener('message', () => window.__msgs++); true`)
		eval[bool](t, hctx, `window.forge()`)
		// Three sent to lokal's origin and three to "*": all reach the panel's window.
		waitFor(t, hpctx, "the forged messages arrive", `window.__msgs === 6`)
		if n := eval[int](t, hpctx, `performance.getEntriesByType('resource').filter((r) => /\/(open|seen|row)/.test(r.name)).length`); n != 0 {
			t.Errorf("the forged messages made the panel call lokal %d times", n)
		}
		if s := text(t, hpctx, `#ic-status`); s != "Alt+click a text on the page" || !eval[bool](t, hpctx, `document.querySelector('#overflow').hidden && !document.querySelector('#panel .incontext-row')`) {
			t.Errorf("the panel acted on forged messages: status %q", s)
		}
		if got := eval[[]map[string]any](t, hctx, `window.all`); len(got) != 0 {
			t.Errorf("the hostile page got messages: %v", got)
		}
		if peek := eval[string](t, hctx, `window.peek`); !strings.HasPrefix(peek, "blocked") {
			t.Errorf("the hostile page read the panel: %q", peek)
		}
		if after, _ := e.cat.KeyContexts(e.sys(t), e.f.Project.ID, "common", "greeting"); len(after) != 1 || !after[0].SeenAt.Equal(cs[0].SeenAt) {
			t.Errorf("contexts after the forged messages: %+v", after)
		}
		if got := e.row(t, "common", "greeting", "nb"); got.Value != "Hallo" {
			t.Errorf("stored after the forged messages: %+v", got)
		}
	})
}
