package app_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserInvitation: in Chromium, the owner invites a translator of nb from the members
// page; the link, shown once, opened in a signed-out browser, sets the invitee's password
// and signs them in; they see the project as a translator (no Approve on nb) and the link
// does not work a second time.
func TestBrowserInvitation(t *testing.T) {
	t.Parallel()
	chromium(t)
	e := newEnv(t, "sqlite", nil)
	e.source(t, "common", "greeting", "Hello")
	e.draft(t, "common", "greeting", "nb", "Hei")
	id := e.f.Project.ID
	ctx := newBrowser(t)
	do(t, ctx, "signing in as the owner",
		chromedp.Navigate(e.srv.URL+"/app/"), chromedp.WaitVisible(chromedp.CSS(`#email`)),
		chromedp.SendKeys(chromedp.CSS(`#email`), e.f.User.Email),
		chromedp.SendKeys(chromedp.CSS(`#password`), password),
		chromedp.Submit(chromedp.CSS(`#password`)))
	waitFor(t, ctx, "signed in", `location.pathname === '/app/' && !document.querySelector('#password')`)
	do(t, ctx, "inviting a translator of nb",
		chromedp.Navigate(e.srv.URL+"/app/p/"+id+"/members"), chromedp.WaitVisible(chromedp.CSS(`#invite-email`)),
		chromedp.SendKeys(chromedp.CSS(`#invite-email`), "ines@acme.test"),
		chromedp.SetValue(chromedp.CSS(`#invite-role`), "translator"),
		chromedp.Click(chromedp.CSS(`form[action$="/members/invite"] input[name=languages][value=nb]`)),
		chromedp.Submit(chromedp.CSS(`#invite-email`)))
	waitFor(t, ctx, "the invitation link", `!!document.querySelector('#invite-link')`)
	link := strings.TrimSpace(text(t, ctx, `#invite-link`))
	if !strings.Contains(link, "/app/invite/inv_") {
		t.Fatalf("invitation link %q", link)
	}
	path := link[strings.Index(link, "/app/invite/"):]

	do(t, ctx, "opening the link signed out", clearCookies,
		chromedp.Navigate(e.srv.URL+path), chromedp.WaitVisible(chromedp.CSS(`#password2`)))
	if !strings.Contains(text(t, ctx, `main`), "ines@acme.test") {
		t.Errorf("the invitation page does not name the invitee")
	}
	do(t, ctx, "setting a password",
		chromedp.SendKeys(chromedp.CSS(`#password`), "a long pass phrase"),
		chromedp.SendKeys(chromedp.CSS(`#password2`), "a long pass phrase"),
		chromedp.Submit(chromedp.CSS(`#password2`)))
	waitFor(t, ctx, "signed in on the projects page", `location.pathname === '/app/' && document.body.textContent.includes('`+e.f.Project.Title+`')`)
	do(t, ctx, "opening the project", chromedp.Navigate(e.srv.URL+"/app/p/"+id+"/"), chromedp.WaitVisible(chromedp.CSS(`main`)))
	if got := text(t, ctx, `main`); !strings.Contains(got, "your role: translator") {
		t.Errorf("the project page for the invitee: %.300s", got)
	}
	do(t, ctx, "opening nb", chromedp.Navigate(e.srv.URL+"/app/p/"+id+"/review/nb"), chromedp.WaitVisible(chromedp.CSS(`textarea`)))
	if n := eval[int](t, ctx, `[...document.querySelectorAll('button')].filter((b) => /^Approve/.test(b.textContent.trim())).length`); n != 0 {
		t.Errorf("a translator sees %d Approve buttons", n)
	}

	do(t, ctx, "opening the link again", clearCookies, chromedp.Navigate(e.srv.URL+path), chromedp.WaitVisible(chromedp.CSS(`main`)))
	if eval[bool](t, ctx, `!!document.querySelector('#password2')`) {
		t.Errorf("the link still offers to set a password after it was used")
	}
}
