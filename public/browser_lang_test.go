package public_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/lokal-dev/lokal/tools"
)

// swapped is true once the script has applied a dictionary (its lokal:swap measure).
const swapped = `performance.getEntriesByName('lokal:swap').length > 0`

// TestBrowserLangOnlyWhenTranslated: <html lang> names the visitor's language only while
// the page's text is in it. A new namespace whose German dictionary is empty, and one
// that does not exist yet, leave lang as the site wrote it (or absent) while the text stays
// English; a page gets lang="de" once a German text shows (at load or added later), and
// lang goes back when the visitor picks the page's own language.
func TestBrowserLangOnlyWhenTranslated(t *testing.T) {
	t.Parallel()
	e := browserEnv(t)
	s := newSite(t, e, "lang.example.test", german)
	if _, err := e.cat.RegisterPageStrings(sys(t), tools.PageStringsIn{ProjectID: s.id, Namespace: "fresh", SourceStrings: []string{"Nothing translated yet"}}); err != nil {
		t.Fatal(err)
	}
	s.serve("/fresh", `<!doctype html><html lang="en"><head>`+s.tag(t, `data-lokal-lang="de" data-lokal-namespace="fresh"`)+`</head>
<body><h1 id="h">Nothing translated yet</h1></body></html>`, nil)
	s.serve("/missing", `<!doctype html><html><head>`+s.tag(t, `data-lokal-lang="de" data-lokal-namespace="campaign"`)+`</head>
<body><h1 id="h">Hello world</h1></body></html>`, nil)
	s.serve("/translated", `<!doctype html><html lang="en"><head>`+s.tag(t, `data-lokal-lang="de"`)+`</head>
<body><h1 id="h">Hello world</h1><p id="p">Not in the dictionary</p></body></html>`, nil)
	s.serve("/late", `<!doctype html><html lang="en"><head>`+s.tag(t, `data-lokal-lang="de"`)+`</head>
<body><p id="p">Not in the dictionary</p></body></html>`, nil)
	tb := newTab(t)
	lang := func() string {
		return evalJS[string](t, tb, `document.documentElement.hasAttribute('lang') ? document.documentElement.getAttribute('lang') : '(none)'`)
	}

	tb.run(t, chromedp.Navigate(s.url("/fresh")))
	tb.waitJS(t, swapped)
	if h, l := evalJS[string](t, tb, `document.getElementById('h').textContent`), lang(); h != "Nothing translated yet" || l != "en" {
		t.Errorf("an empty German dictionary: text %q, lang %q; want the English text under lang en", h, l)
	}

	tb.run(t, chromedp.Navigate(s.url("/missing")))
	tb.waitJS(t, swapped)
	if l := lang(); l != "(none)" {
		t.Errorf("a namespace that does not exist yet: lang %q, want none as the site wrote it", l)
	}

	// A page whose German text arrives after the first swap: lang follows it.
	tb.run(t, chromedp.Navigate(s.url("/late")))
	tb.waitJS(t, swapped)
	if l := lang(); l != "en" {
		t.Errorf("before any German text: lang %q, want en", l)
	}
	evalJS[bool](t, tb, `(() => { const h = document.createElement('h2'); h.textContent = 'Hello world'; document.body.append(h); return true; })()`)
	tb.waitJS(t, `document.documentElement.lang === 'de' && document.querySelector('h2').textContent === 'Hallo Welt'`)

	tb.run(t, chromedp.Navigate(s.url("/translated")))
	tb.waitJS(t, `document.getElementById('h').textContent === 'Hallo Welt'`)
	if l := lang(); l != "de" {
		t.Errorf("a page with German text: lang %q, want de", l)
	}
	// The visitor picks English, the page's own language: the authored text and lang.
	tb.waitJS(t, `!!document.querySelector('[data-lokal-ui] select')`)
	evalJS[bool](t, tb, `(() => { const s = document.querySelector('[data-lokal-ui] select'); s.value = 'en'; return s.dispatchEvent(new Event('change')); })()`)
	tb.waitJS(t, `document.getElementById('h').textContent === 'Hello world'`)
	if l := lang(); l != "en" {
		t.Errorf("back in English: lang %q, want en", l)
	}
	tb.noErrors(t)
}
