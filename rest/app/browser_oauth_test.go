package app_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A person connects an MCP client through the consent page in Chromium: signs in on the
// way, picks a project and read-only, approves, and lands on the client's redirect with a
// code; the Connect page lists the grant, and revoking it there ends its token.
func TestBrowserOAuthConsent(t *testing.T) {
	t.Parallel()
	chromium(t)
	e, c := newOAuthEnv(t, "sqlite")
	dir := screenshotDir(t)
	ctx := newBrowser(t)
	q := c.authorizeParams(e)
	cb, _ := url.Parse(c.redirect)

	// Signed out: the sign-in form first, then the same request's consent page.
	do(t, ctx, "opening the authorization request", chromedp.Navigate(e.srv.URL+authorizePath(q)), chromedp.WaitVisible(chromedp.CSS(`#email`)))
	do(t, ctx, "signing in",
		chromedp.SendKeys(chromedp.CSS(`#email`), e.f.User.Email),
		chromedp.SendKeys(chromedp.CSS(`#password`), password),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`#consent-h`)))
	if got := text(t, ctx, `#redirect-host`); got != cb.Host {
		t.Errorf("the page says it sends to %q, want %q", got, cb.Host)
	}
	if got := text(t, ctx, `#client-name`); got != clientName {
		t.Errorf("the page names the client %q", got)
	}
	if got := text(t, ctx, `#client-source`); !strings.Contains(got, "metadata document") || !strings.Contains(got, c.id) {
		t.Errorf("the page says the client is known by %q", got)
	}
	if p := eval[[]string](t, ctx, a11yProblems); len(p) > 0 {
		t.Errorf("consent page: %v", p)
	}
	if p := eval[[]string](t, ctx, contrastProblems); len(p) > 0 {
		t.Errorf("consent page contrast: %v", p)
	}
	if missed := tabWalk(t, ctx, 20); len(missed) > 0 {
		t.Errorf("Tab never reached on the consent page: %v", missed)
	}
	shot(t, ctx, dir, "consent.png")

	// The project and read-only, chosen by keyboard-reachable selects; Allow.
	do(t, ctx, "choosing and approving",
		chromedp.SetValue(chromedp.CSS(`#consent-project`), e.f.Project.ID),
		chromedp.SetValue(chromedp.CSS(`#consent-access`), "read"),
		chromedp.Focus(chromedp.CSS(`#approve`)),
		chromedp.KeyEvent(kb.Enter))
	waitFor(t, ctx, "the browser lands on the client's redirect", `location.href.startsWith(`+jsString(c.redirect)+`) && !!document.querySelector('#landed')`)
	got := c.callbacks()
	if len(got) != 1 {
		t.Fatalf("the client's redirect got %d requests", len(got))
	}
	back := got[0]
	if back.Get("code") == "" || back.Get("state") != q.Get("state") || back.Get("iss") != e.cat.BaseURL() || back.Get("error") != "" {
		t.Fatalf("the client got %v", back)
	}
	token := c.exchange(t, e, back.Get("code"), q.Get("resource"))
	if s := mcpStatus(t, e, "/api/mcp", token); s != http.StatusOK {
		t.Fatalf("the new grant's token at the MCP endpoint: %d", s)
	}

	// The Connect page lists it; revoking it there ends it.
	do(t, ctx, "opening Connect", chromedp.Navigate(e.srv.URL+"/app/p/"+e.f.Project.ID+"/connect#grants"), chromedp.WaitVisible(chromedp.CSS(`#grants tr.grant`)))
	row := text(t, ctx, `#grants tr.grant`)
	for _, want := range []string{clientName, cb.Host, "read-only", e.f.Project.Title} {
		if !strings.Contains(row, want) {
			t.Errorf("the grant's row %q lacks %q", row, want)
		}
	}
	if used := text(t, ctx, `#grants tr.grant td.last-used`); used == "never" { // the MCP call above used it
		t.Errorf("the grant's last use says %q", used)
	}
	if p := eval[[]string](t, ctx, a11yProblems); len(p) > 0 {
		t.Errorf("connect page with a grant: %v", p)
	}
	do(t, ctx, "revoking the grant",
		chromedp.Click(chromedp.CSS(`#grants tr.grant input[name=confirm]`)),
		chromedp.Click(chromedp.CSS(`#grants tr.grant button[type=submit]`)))
	waitFor(t, ctx, "the grant is gone", `!!document.querySelector('#flash') && !document.querySelector('#grants tr.grant')`)
	if s := mcpStatus(t, e, "/api/mcp", token); s != http.StatusUnauthorized {
		t.Errorf("the revoked grant's token at the MCP endpoint: %d, want 401", s)
	}
	shot(t, ctx, dir, "connect-grants.png")
}

// jsString quotes s for a script.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
