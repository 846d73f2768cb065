package public_test

// A brand-new site's first visits in headless Chromium: a workspace with nothing in it, a
// loopback host authorized as a developer would for local testing, the tag on a page.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

const bakeryPage = `<!doctype html><html lang="en"><head><meta charset="utf-8">%s</head><body>
<h1 id="h">Welcome to our bakery</h1>
<p id="p">Fresh bread every morning</p>
<input id="mail" placeholder="Your email address"><button id="order">Order now</button>
<p translate="no" id="brand">Brandname Bakery Ltd</p><code>npm install bakery</code>
</body></html>`

// TestBrowserFirstVisitOfANewSite: the first visit harvests the page's text into a project
// made for the host (nothing was there before, not even the page namespace) with no
// warning; once translations are written through the API, the next visit shows them and
// the switcher.
func TestBrowserFirstVisitOfANewSite(t *testing.T) {
	t.Parallel()
	chromium(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, nil)
		ws, err := e.cat.CreateWorkspace(sys(t), tools.CreateWorkspaceIn{Name: "Bakery"})
		if err != nil {
			t.Fatal(err)
		}
		var body atomic.Value
		pages := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			fmt.Fprint(w, body.Load().(string))
		}))
		t.Cleanup(pages.Close)
		host := strings.TrimPrefix(pages.URL, "http://") // 127.0.0.1:<port>
		// What `lokal workspace set --authorized-hosts 127.0.0.1:<port>` does.
		if _, err := e.cat.SetWorkspace(sys(t), ws.ID, tools.SetWorkspaceIn{AuthorizedHosts: &[]string{host}}); err != nil {
			t.Fatal(err)
		}
		tag := fmt.Sprintf(`<script src="%s/embed.js" data-lokal-token="%s" defer></script>`, e.url, ws.PublicToken)
		body.Store(fmt.Sprintf(bakeryPage, tag))

		tb := newTab(t)
		tb.run(t, emulateLanguage("nb,en"), chromedp.Navigate(pages.URL+"/"))
		// The first visit: the project is made, the page's text harvested.
		var id string
		want := []string{"Welcome to our bakery", "Fresh bread every morning", "Your email address", "Order now"}
		deadline := time.Now().Add(20 * time.Second)
		for {
			if ps, err := e.cat.WorkspaceProjects(sys(t), ws.ID); err == nil && len(ps) == 1 {
				id = ps[0].ID
				if len(e.page(t, id, "en", "page")) >= len(want) {
					break
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("nothing harvested on the first visit (project %q); warnings %v", id, tb.warns())
			}
			time.Sleep(100 * time.Millisecond) // waiting on the browser's debounced send, not timing a result
		}
		got := e.page(t, id, "en", "page")
		for _, s := range want {
			if got[s] != s {
				t.Errorf("%q was not harvested: %v", s, keys(got))
			}
		}
		for _, s := range []string{"Brandname Bakery Ltd", "npm install bakery"} {
			if _, ok := got[s]; ok {
				t.Errorf("%q was harvested from under translate=no or code", s)
			}
		}
		v, err := e.cat.ShowProject(sys(t), id)
		if err != nil || v.IntegrationType != "embed" || v.Settings.Hosts[0] != host || v.SourceLanguage != "en" ||
			strings.Join(v.EnabledLanguages, ",") != "en,nb" {
			t.Fatalf("the project made for %s: %+v %+v, %v", host, v.Project, v.Settings, err)
		}
		if len(v.NewestPageStrings) != len(want) || len(v.NamespaceCounts) != 1 || v.NamespaceCounts[0].Keys != len(want) {
			t.Errorf("project show: newest %v, counts %v", v.NewestPageStrings, v.NamespaceCounts)
		}
		if h := evalJS[string](t, tb, `document.getElementById('h').textContent`); h != "Welcome to our bakery" {
			t.Errorf("the first visit changed the page: %q", h)
		}
		if w := tb.warns(); len(w) != 0 {
			t.Errorf("the first visit warned: %v", w)
		}
		tb.noErrors(t)

		// Translations arrive through the API (endpoint 4 with a read/write key).
		k, err := e.cat.CreateAPIKey(sys(t), tools.CreateAPIKeyIn{ProjectID: id})
		if err != nil {
			t.Fatal(err)
		}
		r := e.call(t, "PUT", "/api/overwrite/"+id+"/latest/nb/page", map[string]string{
			"Welcome to our bakery": "Velkommen til bakeriet", "Fresh bread every morning": "Ferskt brød hver morgen",
			"Your email address": "Din e-postadresse", "Order now": "Bestill nå"},
			map[string]string{"Authorization": "Token token=" + k.Key})
		e.want(t, r, 200)

		// The next visit swaps them in and shows the switcher.
		tb.run(t, chromedp.Reload())
		tb.waitJS(t, `document.getElementById('h').textContent === 'Velkommen til bakeriet' && !!document.querySelector('[data-lokal-ui] select')`)
		swapped := evalJS[map[string]string](t, tb, `(() => { const $ = id => document.getElementById(id); return {
			p: $('p').textContent, mail: $('mail').placeholder, order: $('order').textContent, brand: $('brand').textContent,
			lang: document.documentElement.lang, choice: document.querySelector('[data-lokal-ui] select').value }; })()`)
		for k, want := range map[string]string{"p": "Ferskt brød hver morgen", "mail": "Din e-postadresse", "order": "Bestill nå",
			"brand": "Brandname Bakery Ltd", "lang": "nb", "choice": "nb"} {
			if swapped[k] != want {
				t.Errorf("next visit: %s = %q, want %q", k, swapped[k], want)
			}
		}
		if w := tb.warns(); len(w) != 0 {
			t.Errorf("the next visit warned: %v", w)
		}
		tb.noErrors(t)
	})
}

// TestBrowserMissingNamespaceReadsEmpty: a tag naming a namespace that does not exist
// gets 404 for its dictionary; the script reads that as an empty dictionary, leaves the
// page as it is and goes on harvesting, with no warning.
func TestBrowserMissingNamespaceReadsEmpty(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	s := newSite(t, e, "nsless.example.test", german)
	s.serve("/", `<!doctype html><html lang="en"><head>`+s.tag(t, `data-lokal-lang="de" data-lokal-namespace="marketing"`)+`</head>
<body><h1 id="h">Hello world</h1><p>Text of a campaign page</p></body></html>`, nil)
	tb := newTab(t)
	tb.run(t, chromedp.Navigate(s.url("/")))
	deadline := time.Now().Add(15 * time.Second)
	for {
		if _, ok := e.page(t, s.id, "en", "page")["Text of a campaign page"]; ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing harvested after the namespace's 404; warnings %v", tb.warns())
		}
		time.Sleep(100 * time.Millisecond) // waiting on the browser's debounced send, not timing a result
	}
	if h := evalJS[string](t, tb, `document.getElementById('h').textContent`); h != "Hello world" {
		t.Errorf("the page changed: %q (the marketing dictionary does not exist)", h)
	}
	if w := tb.warns(); len(w) != 0 {
		t.Errorf("warnings %v", w)
	}
	tb.noErrors(t)
}
