package app_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestBrowserHeldBack: in Chromium, on both databases, a draft saved in the editor with a
// renamed placeholder shows its held-back notice, and endpoint 1 keeps serving the
// previous value; once fixed in the editor, endpoint 1 serves the fix. A value with an
// unclosed brace is refused at save with where, in words, and the typed text stays.
func TestBrowserHeldBack(t *testing.T) {
	t.Parallel()
	chromium(t)
	forEachDialect(t, func(t *testing.T, e *env) {
		e.source(t, "common", "cart", "{{count}} items", "greet", "Hello {name}")
		for k, v := range map[string]string{"cart": "{{count}} varer", "greet": "Hei {name}"} {
			if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("common", k, "nb"), Value: v, Status: model.StatusApproved}); err != nil {
				t.Fatal(err)
			}
		}
		ctx := newBrowser(t)
		do(t, ctx, "signing in",
			chromedp.Navigate(e.srv.URL+"/app/"), chromedp.WaitVisible(chromedp.CSS(`#email`)),
			chromedp.SendKeys(chromedp.CSS(`#email`), e.f.User.Email),
			chromedp.SendKeys(chromedp.CSS(`#password`), password),
			chromedp.Submit(chromedp.CSS(`#password`)),
			chromedp.WaitVisible(chromedp.CSS(`ul.cards`)))
		cart, greet := rowID(t, e, "cart"), rowID(t, e, "greet")
		retype := func(id, text string) {
			t.Helper()
			do(t, ctx, "typing into "+id, chromedp.Focus(chromedp.CSS(`#value-`+id)),
				chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(kb.Backspace),
				chromedp.SendKeys(chromedp.CSS(`#value-`+id), text), key("s", chromedp.ModifierCtrl))
		}
		do(t, ctx, "opening nb", chromedp.Navigate(e.srv.URL+"/app/p/"+e.f.Project.ID+"/review/nb"), chromedp.WaitVisible(chromedp.CSS(`#value-`+cart)))

		retype(cart, "{{cnt}} varer")
		waitFor(t, ctx, "the held notice shows", `(document.querySelector('#held-`+cart+`')?.textContent ?? '').includes('{{cnt}}')`)
		notice := eval[string](t, ctx, `document.querySelector('#held-`+cart+`').textContent`)
		for _, want := range []string{"Held back from readers", "which the source does not have", "Readers get the previous value", "{{count}} varer"} {
			if !strings.Contains(notice, want) {
				t.Errorf("the held notice lacks %q: %s", want, notice)
			}
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('#row-`+cart+` button[value="approve"]').length`); n != 0 {
			t.Errorf("the held row offers Approve")
		}
		if got := restFile(t, e)["cart"]; got != "{{count}} varer" {
			t.Errorf("endpoint 1 serves cart as %q while it is held back", got)
		}

		retype(cart, "{{count}} varer i kurven")
		waitFor(t, ctx, "the notice is gone", `!document.querySelector('#held-`+cart+`') && !!document.querySelector('#row-`+cart+` button[value="approve"]')`)
		if got := restFile(t, e)["cart"]; got != "{{count}} varer i kurven" {
			t.Errorf("endpoint 1 serves cart as %q after the fix", got)
		}

		retype(greet, "Hei {name")
		waitFor(t, ctx, "the refusal shows", `(document.querySelector('#row-`+greet+` .conflict')?.textContent ?? '').includes('is never closed')`)
		if v := eval[string](t, ctx, `document.querySelector('#value-`+greet+`').value`); v != "Hei {name" {
			t.Errorf("the typed text became %q", v)
		}
		if got := e.row(t, "common", "greet", "nb"); got.Value != "Hei {name}" {
			t.Errorf("greet after the refused save: %+v", got)
		}
		shot(t, ctx, screenshotDir(t), "held-"+e.dialect+".png")
	})
}
