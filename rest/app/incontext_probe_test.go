package app_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
)

// thirdPartyCookies is what a frame of another site (127.0.0.1, over TLS so that a
// SameSite=None; Secure cookie is allowed) can keep on a page of a *.example.test site:
// it sets a cookie and reads it back, and asks for storage access. A browser that allows
// third-party cookies answers "cookie:probe=1 access:true".
func thirdPartyCookies(t *testing.T, e *icEnv) string {
	t.Helper()
	probe := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><script>document.cookie = 'probe=1; SameSite=None; Secure; Path=/';
document.hasStorageAccess().then((a) => parent.postMessage('cookie:' + document.cookie + ' access:' + a, '*'));</script>`))
	}))
	t.Cleanup(probe.Close)
	s := e.newSite(t, "probe.example.test")
	s.serve("/", `<!doctype html><p id="got"></p><script>addEventListener('message', (m) => { document.getElementById('got').textContent = String(m.data); });</script><iframe src="`+probe.URL+`/"></iframe>`, nil)
	ctx := icBrowser(t)
	icDo(t, ctx, "loading the probe", chromedp.Navigate(s.url("/")))
	icWait(t, ctx, "the probe answers", `document.getElementById('got').textContent.startsWith('cookie:')`)
	return icEval[string](t, ctx, `document.getElementById('got').textContent`)
}
