package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// clearCookies signs the browser out of every session, so that the next role signs in.
var clearCookies = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	_, err := cdp.Call(ctx, t, network.ClearBrowserCookies, cdp.Empty{})
	return err
})

// forged posts a form from inside the page with the page's own CSRF token, as a user
// who rebuilt a hidden form would, and answers the status.
func forged(t *testing.T, ctx context.Context, path string, fields map[string]string) int {
	t.Helper()
	var b strings.Builder
	for k, v := range fields {
		fmt.Fprintf(&b, "f.set(%q, %q);", k, v)
	}
	st, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(async () => { const f = new URLSearchParams(); `+b.String()+`
	  f.set('csrf', document.querySelector('meta[name=csrf-token]').content);
	  const r = await fetch(`+fmt.Sprintf("%q", path)+`, { method: 'POST', body: f, redirect: 'manual' }); return r.status; })()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("posting %s: %v", path, err)
	}
	return st
}

// TestBrowserRoles: each role in Chromium sees on the project, review, members and
// Connect pages what it may do, and the server refuses (403) what it may not when the
// form is forged from the page. The owner and the manager manage; the translator of nb
// edits nb without approving and reads sv; the reviewer of nb also approves it.
func TestBrowserRoles(t *testing.T) {
	t.Parallel()
	chromium(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, nil)
		e.source(t, "common", "greeting", "Hello", "farewell", "Goodbye")
		e.draft(t, "common", "greeting", "nb", "Hei")
		e.draft(t, "common", "greeting", "sv", "Hej")
		e.member(t, "manager@acme.test", model.RoleManager)
		tr := e.member(t, "translator@acme.test", model.RoleTranslator, "nb")
		e.member(t, "reviewer@acme.test", model.RoleReviewer, "nb")
		keys, err := e.cat.ListKeys(e.sys(t), e.f.Project.ID)
		if err != nil || len(keys) == 0 {
			t.Fatalf("keys: %v %v", keys, err)
		}
		ctx := newBrowser(t)
		base, p := e.srv.URL, e.srv.URL+"/app/p/"+e.f.Project.ID
		count := func(sel string) int {
			return eval[int](t, ctx, `document.querySelectorAll(`+fmt.Sprintf("%q", sel)+`).length`)
		}
		for _, c := range []struct {
			who, email, role string
			manage, owner    bool
			approve          bool     // approves in nb
			importLangs      string   // the import form's languages
			refused          []string // form posts the server refuses with 403
		}{
			{"owner", e.f.User.Email, "owner", true, true, true, "en,nb,sv,all", nil},
			{"manager", "manager@acme.test", "manager", true, false, true, "en,nb,sv,all", []string{"/members/owner"}},
			{"translator", tr.Email, "translator", false, false, false, "nb", []string{"/review/nb/approve", "/review/sv/save", "/members/remove", "/connect/keys/revoke", "/connect/webhooks"}},
			{"reviewer", "reviewer@acme.test", "reviewer", false, false, true, "nb", []string{"/review/sv/approve", "/members/set", "/connect/keys"}},
		} {
			t.Run(c.who, func(t *testing.T) {
				do(t, ctx, "signing in as "+c.who,
					clearCookies,
					chromedp.Navigate(base+"/app/"), chromedp.WaitVisible(chromedp.CSS(`#email`)),
					chromedp.SendKeys(chromedp.CSS(`#email`), c.email),
					chromedp.SendKeys(chromedp.CSS(`#password`), password),
					chromedp.Submit(chromedp.CSS(`#password`)),
					chromedp.WaitVisible(chromedp.CSS(`ul.cards`)))

				// The project page: the role, the members link and the import's languages.
				do(t, ctx, "opening the project", chromedp.Navigate(p+"/"), chromedp.WaitVisible(chromedp.CSS(`h1`)))
				if s := text(t, ctx, `main`); !strings.Contains(s, "your role: "+c.role) {
					t.Errorf("the project page does not say the role %s", c.role)
				}
				if got := count(`a[href$="/members"]`) > 0; got != c.manage {
					t.Errorf("members link shown %v, want %v", got, c.manage)
				}
				if got := eval[string](t, ctx, `[...document.querySelectorAll('#import-lang option')].map((o) => o.value).join(',')`); got != c.importLangs {
					t.Errorf("import languages %q, want %q", got, c.importLangs)
				}
				if got := count(`#import-status option[value=approved]`) > 0; got != c.approve {
					t.Errorf("import as approved offered %v, want %v", got, c.approve)
				}

				// The nb queue: everyone edits nb; only those who approve see Approve.
				do(t, ctx, "opening nb", chromedp.Navigate(p+"/review/nb"), chromedp.WaitVisible(chromedp.CSS(`#rows article.row`)))
				if n := count(`#rows button[value=approve]`); (n > 0) != c.approve {
					t.Errorf("nb: %d Approve buttons, want them %v", n, c.approve)
				}
				if got := count(`#batch button:not([formaction])`) > 0; got != c.approve {
					t.Errorf("nb: Approve selected shown %v, want %v", got, c.approve)
				}
				if n := count(`#rows textarea[readonly]`); n != 0 {
					t.Errorf("nb: %d read-only boxes, want none", n)
				}
				if !c.approve {
					// Ctrl+Enter says the role does not approve, in place, and approves nothing.
					do(t, ctx, "pressing Ctrl+Enter", chromedp.Focus(chromedp.CSS(`#rows textarea[name=value]`)), key(kb.Enter, chromedp.ModifierCtrl))
					waitFor(t, ctx, "the row says the role does not approve", `!!document.querySelector('#rows .conflict:not([hidden])')?.textContent.includes('does not approve')`)
					if st := e.row(t, "common", "greeting", "nb").Status; st == model.StatusApproved {
						t.Errorf("Ctrl+Enter of a translator approved the row")
					}
				}

				// The sv queue: read only for the nb translator and reviewer.
				do(t, ctx, "opening sv", chromedp.Navigate(p+"/review/sv"), chromedp.WaitVisible(chromedp.CSS(`#rows article.row`)))
				if got := count(`#rows button[value=save]`) > 0; got != c.manage {
					t.Errorf("sv: Save shown %v, want %v", got, c.manage)
				}
				if got := count(`#rows textarea[readonly]`) > 0; got == c.manage {
					t.Errorf("sv: read-only boxes %v, want %v", got, !c.manage)
				}

				// The members page: managers change roles, owners also the workspace's.
				do(t, ctx, "opening members", chromedp.Navigate(p+"/members"), chromedp.WaitVisible(chromedp.CSS(`h1`)))
				if got := count(`form.member-set`) > 0; got != c.manage {
					t.Errorf("members: role forms shown %v, want %v", got, c.manage)
				}
				if got := count(`#users form.user-role`) > 0; got != c.owner {
					t.Errorf("members: workspace role forms shown %v, want %v", got, c.owner)
				}
				if !c.manage && !strings.Contains(text(t, ctx, `h1`), "Not allowed") {
					t.Errorf("members page for a %s: %q", c.who, text(t, ctx, `h1`))
				}

				// Connect: keys and webhooks are the managers'.
				do(t, ctx, "opening connect", chromedp.Navigate(p+"/connect"), chromedp.WaitVisible(chromedp.CSS(`h1`)))
				if got := count(`#keys`) > 0; got != c.manage {
					t.Errorf("connect: keys shown %v, want %v", got, c.manage)
				}
				if got := count(`#webhooks`) > 0; got != c.manage {
					t.Errorf("connect: webhooks shown %v, want %v", got, c.manage)
				}

				// Forged forms, from the page with its CSRF token: refused by the server.
				fields := map[string]string{"user": tr.ID, "role": "owner", "confirm": "1", "id": keys[0].ID, "ns": "common", "key": "greeting",
					"value": "Forged", "version": "new", "url": "http://127.0.0.1:9/hook", "sel": "common\tgreeting\tx"}
				// The same forging with a form the role may send is taken: the refusals are
				// the role's, not the token's.
				if st := forged(t, ctx, "/app/p/"+e.f.Project.ID+"/review/nb/comment", map[string]string{"ns": "common", "key": "greeting", "body": "Sjekk " + c.who}); st != 0 && st/100 != 2 {
					// 0: fetch's opaque answer to the redirect back to the row.
					t.Errorf("a comment on nb posted from the page: %d, want it taken", st)
				}
				for _, path := range c.refused {
					if st := forged(t, ctx, "/app/p/"+e.f.Project.ID+path, fields); st != 403 {
						t.Errorf("a forged %s: %d, want 403", path, st)
					}
				}
			})
		}
		if got := e.row(t, "common", "greeting", "sv").Value; got != "Hej" {
			t.Errorf("sv after the forged posts: %q", got)
		}
		if ks, _ := e.cat.ListKeys(e.sys(t), e.f.Project.ID); len(ks) != len(keys) || ks[0].RevokedAt != nil {
			t.Errorf("the project's key after the forged posts: %+v", ks)
		}
	})
}
