package app_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
)

// thirdPartyCookies answers whether a page of site (a *.example.test site) can embed a
// frame from another site (127.0.0.1) that keeps a cookie: the probe frame sets one
// (SameSite=None; Secure, allowed on loopback) and reads it back.
func thirdPartyCookies(t *testing.T, e *icEnv, blocked bool) string {
	t.Helper()
	probe := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><script>document.cookie = 'probe=1; SameSite=None; Secure; Path=/'; document.hasStorageAccess().then((a) => parent.postMessage('cookie:' + document.cookie + ' access:' + a, '*'));</script>`))
	}))
	t.Cleanup(probe.Close)
	s := e.newSite(t, "probe.example.test")
	s.serve("/", `<!doctype html><p id="got"></p><script>addEventListener('message', (m) => { document.getElementById('got').textContent = String(m.data); });</script><iframe src="`+probe.URL+`/"></iframe>`, nil)
	ctx := icBrowser(t, blocked)
	icDo(t, ctx, "loading the probe", chromedp.Navigate(s.url("/")))
	icWait(t, ctx, "the probe answers", `document.getElementById('got').textContent.startsWith('cookie:')`)
	return icEval[string](t, ctx, `document.getElementById('got').textContent`)
}

func TestZZProbe(t *testing.T) {
	e := newICEnv(t, "sqlite")
	t.Logf("normal: %q", thirdPartyCookies(t, e, false))
	t.Logf("blocked: %q", thirdPartyCookies(t, e, true))
}

func TestZZProbe2(t *testing.T) {
	probe := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><p id="got"></p><script>document.cookie = 'probe=1; SameSite=None; Secure; Path=/'; document.getElementById('got').textContent = 'cookie:' + document.cookie + ' ' + window.isSecureContext;</script>`))
	}))
	t.Cleanup(probe.Close)
	ctx := icBrowser(t, false)
	icDo(t, ctx, "loading the probe", chromedp.Navigate(probe.URL+"/"))
	t.Logf("top: %q", icEval[string](t, ctx, `document.getElementById('got').textContent`))
}
