package app_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// authorize sets the workspace's authorized Embed hosts.
func (e *env) authorize(t *testing.T, hosts ...string) {
	t.Helper()
	if _, err := e.cat.SetWorkspace(e.sys(t), e.f.Workspace.ID, tools.SetWorkspaceIn{AuthorizedHosts: &hosts}); err != nil {
		t.Fatal(err)
	}
}

func (e *env) panelPath(lang, origin string) string {
	return "/app/p/" + e.f.Project.ID + "/incontext/" + lang + "?ns=common&origin=" + url.QueryEscape(origin)
}

// TestInContextOrigin: the panel talks to an origin of the workspace's authorized hosts
// only. Another host, or anything that is not exactly scheme://host[:port], gets a page
// that says why and carries neither the origin nor the script, so nothing listens.
func TestInContextOrigin(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.authorize(t, "shop.example", "*.acme.example", "localhost:8000")
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		for _, origin := range []string{"https://shop.example", "http://shop.example:8080", "https://www.acme.example", "http://localhost:8000"} {
			b.get(t, e.panelPath("nb", origin)).want(t, http.StatusOK, `data-origin="`+origin+`"`, `src="/app/static/incontext.js"`, "Alt+click a text on the page")
		}
		for _, origin := range []string{"https://evil.example", "https://acme.example", "http://localhost:8001", "https://shop.example.evil.example"} {
			p := b.get(t, e.panelPath("nb", origin)).want(t, http.StatusForbidden, "is not one of this workspace")
			if strings.Contains(p.body, "data-origin") || strings.Contains(p.body, "incontext.js") {
				t.Errorf("%s: the refused page carries a listening script: %s", origin, p.body)
			}
		}
		for _, origin := range []string{"", "shop.example", "https://shop.example/", "https://shop.example/page", "HTTPS://shop.example", "https://Shop.example",
			"https://shop.example:443", "https://user@shop.example", "javascript:alert(1)", "ftp://shop.example", "https://shop.example?x", "*", "null"} {
			p := b.get(t, e.panelPath("nb", origin)).want(t, http.StatusForbidden, "origin must be exactly scheme://host[:port]")
			if strings.Contains(p.body, "data-origin") || strings.Contains(p.body, "incontext.js") {
				t.Errorf("%q: the refused page carries a listening script", origin)
			}
		}
		// The CSP is every page's: the panel is never framed and runs no inline script.
		p := b.get(t, e.panelPath("nb", "https://shop.example"))
		if csp := p.header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe-inline") {
			t.Errorf("CSP %q", csp)
		}
		if strings.Contains(p.body, "<script>") {
			t.Error("the panel has an inline script")
		}
		// Another workspace's user does not learn the project exists.
		o := e.browser(t)
		o.signIn(t, e.f.OtherUser.Email)
		o.get(t, e.panelPath("nb", "https://shop.example")).want(t, http.StatusNotFound)
	})
}

// TestInContextSignIn: a popup opened signed out goes through sign-in and comes back to
// the panel, origin and all.
func TestInContextSignIn(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.authorize(t, "shop.example")
		b := e.browser(t)
		panel := e.panelPath("nb", "https://shop.example")
		p := b.get(t, panel).want(t, http.StatusSeeOther)
		loc := p.header.Get("Location")
		if loc != "/app/signin?next="+url.QueryEscape(panel) {
			t.Fatalf("redirected to %q", loc)
		}
		form := b.get(t, loc).want(t, http.StatusOK, `name="next" value="`+strings.ReplaceAll(panel, "&", "&amp;")+`"`)
		m := signinField.FindStringSubmatch(form.body)
		p = b.post(t, "/app/signin", url.Values{"csrf": {m[1]}, "email": {e.f.User.Email}, "password": {password}, "next": {panel}}, false).want(t, http.StatusSeeOther)
		if got := p.header.Get("Location"); got != panel {
			t.Fatalf("after sign-in: %q, want %q", got, panel)
		}
		b.get(t, panel).want(t, http.StatusOK, `data-origin="https://shop.example"`)
	})
}

// TestInContextReadOnly: a translator of sv opens the nb panel: the row is shown without
// a way to change it, the switch offers sv, and a save forged from the panel is refused by
// the catalogue. A translator of nb gets Save but not Approve; a reviewer of nb gets both.
func TestInContextReadOnly(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.authorize(t, "shop.example")
		e.source(t, "common", "greeting", "Hello")
		e.draft(t, "common", "greeting", "nb", "Hei")
		row := "/app/p/" + e.f.Project.ID + "/incontext/nb/row?ns=common&key=greeting"

		sv := e.memberBrowser(t, "sv@acme.test", model.RoleTranslator, "sv")
		p := sv.get(t, e.panelPath("nb", "https://shop.example")).want(t, http.StatusOK, `<option value="sv">`, `<option value="nb" selected>`)
		if strings.Contains(p.body, `id="read-only" hidden`) {
			t.Error("the read-only notice is hidden from a translator of another language")
		}
		p = sv.get(t, row).want(t, http.StatusOK, `data-value="Hei"`, `data-status="needs_review"`, "readonly")
		if strings.Contains(p.body, `value="save"`) || strings.Contains(p.body, `value="approve"`) {
			t.Errorf("a translator of sv is offered Save or Approve in nb: %s", p.body)
		}
		sv.post(t, "/app/p/"+e.f.Project.ID+"/review/nb/save", url.Values{"ns": {"common"}, "key": {"greeting"}, "value": {"Hallo"}}, true).want(t, http.StatusForbidden)
		if got := e.row(t, "common", "greeting", "nb"); got.Value != "Hei" {
			t.Errorf("the refused save wrote %q", got.Value)
		}

		nb := e.memberBrowser(t, "nb@acme.test", model.RoleTranslator, "nb")
		nb.get(t, e.panelPath("nb", "https://shop.example")).want(t, http.StatusOK, `id="read-only" hidden`)
		p = nb.get(t, row).want(t, http.StatusOK, `value="save"`)
		if strings.Contains(p.body, `value="approve"`) || strings.Contains(p.body, "readonly") {
			t.Error("a translator of nb is offered Approve, or a read-only box")
		}
		rv := e.memberBrowser(t, "rv@acme.test", model.RoleReviewer, "nb")
		rv.get(t, row).want(t, http.StatusOK, `value="save"`, `value="approve"`)
	})
}

// TestInContextOpenSeen: the panel's JSON endpoints find a key by name or source text and
// record where it was seen; an origin not authorized, or a page off the panel's origin,
// records nothing; a text no key has is a clear 404.
func TestInContextOpenSeen(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.authorize(t, "shop.example")
		e.source(t, "common", "greeting", "Hello", "about", "About us")
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		b.get(t, e.panelPath("nb", "https://shop.example")).want(t, http.StatusOK)
		base := "/app/p/" + e.f.Project.ID + "/incontext/nb"
		ctxOf := func(url string, pos int) string {
			return `{"url":"` + url + `","title":"Shop","role":"button","before":"","after":"","width":40,"box":100,"position":` + itoa(pos) + `}`
		}
		contexts := func(key string) int {
			cs, err := e.cat.KeyContexts(e.sys(t), e.f.Project.ID, "common", key)
			if err != nil {
				t.Fatal(err)
			}
			return len(cs)
		}

		// Refused: an origin not authorized, a malformed one, no CSRF token.
		b.json(t, base+"/open", `{"origin":"https://evil.example","ns":"common","key":null,"text":"Hello","context":`+ctxOf("https://evil.example/", 0)+`}`, true).want(t, http.StatusForbidden, `"error":"forbidden"`)
		b.json(t, base+"/seen", `{"origin":"https://shop.example/x","ns":"common","items":[{"key":null,"text":"Hello","context":`+ctxOf("https://shop.example/", 0)+`}]}`, true).want(t, http.StatusBadRequest, `"error":"invalid"`)
		b.json(t, base+"/open", `{"origin":"https://shop.example","ns":"common","key":null,"text":"Hello","context":`+ctxOf("https://shop.example/", 0)+`}`, false).want(t, http.StatusForbidden)
		// A page of another site is not kept, though the key opens.
		b.json(t, base+"/open", `{"origin":"https://shop.example","ns":"common","key":null,"text":"Hello","context":`+ctxOf("https://other.example/", 0)+`}`, true).want(t, http.StatusOK, `"key":"greeting"`, `"recorded":false`)
		b.json(t, base+"/seen", `{"origin":"https://shop.example","ns":"common","items":[{"key":null,"text":"Hello","context":`+ctxOf("https://other.example/", 0)+`}]}`, true).want(t, http.StatusBadRequest)
		if n := contexts("greeting"); n != 0 {
			t.Fatalf("refused calls recorded %d contexts", n)
		}

		// By text, by key; a text no key has.
		b.json(t, base+"/open", `{"origin":"https://shop.example","ns":"common","key":null,"text":"Hello","context":`+ctxOf("https://shop.example/cart?x=1", 0)+`}`, true).want(t, http.StatusOK, `"key":"greeting"`, `"recorded":true`)
		b.json(t, base+"/open", `{"origin":"https://shop.example","ns":"common","key":"about","text":"","context":`+ctxOf("https://shop.example/cart", 1)+`}`, true).want(t, http.StatusOK, `"key":"about"`, `"recorded":true`)
		b.json(t, base+"/open", `{"origin":"https://shop.example","ns":"common","key":null,"text":"Goodbye","context":`+ctxOf("https://shop.example/cart", 2)+`}`, true).want(t, http.StatusNotFound, "no key of namespace common has this text")
		if contexts("greeting") != 1 || contexts("about") != 1 {
			t.Error("the opened keys' contexts were not recorded")
		}
		// Seen: the page's keys in order.
		p := b.json(t, base+"/seen", `{"origin":"https://shop.example","ns":"common","items":[{"key":null,"text":"About us","context":`+ctxOf("https://shop.example/home", 0)+`},{"key":null,"text":"Hello","context":`+ctxOf("https://shop.example/home", 1)+`}]}`, true).want(t, http.StatusOK)
		if !strings.Contains(p.body, `"keys":[{"namespace":"common","key":"about","source":"About us","position":0},{"namespace":"common","key":"greeting","source":"Hello","position":1}]`) {
			t.Errorf("seen answered %s", p.body)
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }
