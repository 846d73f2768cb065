package app_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestBrowserPluralAndSafety: in Chromium, a plural row in Polish and Arabic is one field per
// category with example numbers and saves as one ICU value; Arabic is right to left;
// Ctrl+Enter in a comment posts it and never approves; an approval over QA findings takes
// a reason that the row then shows; an empty box is not saved without asking; the batch
// approval skips rows with findings and untranslated rows and says so.
func TestBrowserPluralAndSafety(t *testing.T) {
	t.Parallel()
	chromium(t)
	e := newEnv(t, "sqlite", nil)
	e.enable(t, "pl", "ar")
	e.source(t, "common",
		"files", "{count, plural, one {# file} other {# files}}",
		"greet", "Hello {name}",
		"help", "Ask {name} for help",
		"bye", "Goodbye",
		"thanks", "Thank you",
		"empty", "Nothing yet")
	e.draft(t, "common", "greet", "nb", "Hei")
	e.draft(t, "common", "help", "nb", "Spør om hjelp")
	e.draft(t, "common", "bye", "nb", "Ha det")
	e.draft(t, "common", "thanks", "nb", "Takk")
	ctx := newBrowser(t)
	base := e.srv.URL + "/app/p/" + e.f.Project.ID + "/review/"
	do(t, ctx, "signing in",
		chromedp.Navigate(e.srv.URL+"/app/"), chromedp.WaitVisible(chromedp.CSS(`#email`)),
		chromedp.SendKeys(chromedp.CSS(`#email`), e.f.User.Email),
		chromedp.SendKeys(chromedp.CSS(`#password`), password),
		chromedp.Submit(chromedp.CSS(`#password`)),
		chromedp.WaitVisible(chromedp.CSS(`ul.cards`)))

	// Polish: one, few, many, other, each with its numbers.
	files := rowID(t, e, "files")
	row := `#row-` + files
	do(t, ctx, "opening pl", chromedp.Navigate(base+"pl?q=files"), chromedp.WaitVisible(chromedp.CSS(row+` fieldset.forms`)))
	if sel := eval[string](t, ctx, `[...document.querySelectorAll('`+row+` fieldset.forms textarea')].map((x) => x.dataset.selector).join(',')`); sel != "one,few,many,other" {
		t.Fatalf("pl fields: %s", sel)
	}
	if l := eval[string](t, ctx, `document.querySelector('label[for="form-`+files+`-1"]').textContent`); !strings.Contains(l, "few") || !strings.Contains(l, "2, 3, 4, 22") {
		t.Errorf("the few label says %q", l)
	}
	if p := eval[[]string](t, ctx, a11yProblems); len(p) > 0 {
		t.Errorf("pl review page: %v", p)
	}
	field := func(i string) string { return `#form-` + files + `-` + i }
	do(t, ctx, "typing one and other", chromedp.SendKeys(chromedp.CSS(field("0")), "# plik"), chromedp.SendKeys(chromedp.CSS(field("3")), "# pliku"))
	waitFor(t, ctx, "QA names the missing categories", `[...document.querySelectorAll('#qa-`+files+` li')].some((li) => li.dataset.kind === 'plural_categories' && li.textContent.includes('few'))`)
	// A brace typed into a field is text: QA goes on to the next missing form, never a
	// syntax error.
	before := eval[string](t, ctx, `document.querySelector('#qa-`+files+`').textContent`)
	do(t, ctx, "typing a brace", chromedp.SendKeys(chromedp.CSS(field("1")), "# pliki {"))
	waitFor(t, ctx, "QA is checked again", `document.querySelector('#qa-`+files+`').textContent !== `+strconv.Quote(before))
	if n := eval[int](t, ctx, `document.querySelectorAll('#qa-`+files+` li[data-kind="icu_syntax"]').length`); n != 0 {
		t.Errorf("a typed brace is a syntax error")
	}
	do(t, ctx, "fixing it", chromedp.KeyEvent(kb.Backspace), chromedp.KeyEvent(kb.Backspace), chromedp.SendKeys(chromedp.CSS(field("2")), "# plików"))
	waitFor(t, ctx, "QA is clean", `document.querySelectorAll('#qa-`+files+` li').length === 0`)
	do(t, ctx, "approving from a field", key("\r", chromedp.ModifierCtrl))
	waitFor(t, ctx, "the row shows approved", `!!document.querySelector('`+row+` .badge.approved')`)
	want := "{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}"
	if got := e.row(t, "common", "files", "pl"); got.Value != want || got.Status != model.StatusApproved {
		t.Fatalf("pl saved %+v, want %q", got, want)
	}

	// Arabic: six fields, right to left.
	do(t, ctx, "opening ar", chromedp.Navigate(base+"ar?q=files"), chromedp.WaitVisible(chromedp.CSS(row+` fieldset.forms`)))
	if sel := eval[string](t, ctx, `[...document.querySelectorAll('`+row+` fieldset.forms textarea')].map((x) => x.dataset.selector + ':' + x.lang + ':' + x.dir + ':' + getComputedStyle(x).direction).join(',')`); sel != "zero:ar:rtl:rtl,one:ar:rtl:rtl,two:ar:rtl:rtl,few:ar:rtl:rtl,many:ar:rtl:rtl,other:ar:rtl:rtl" {
		t.Fatalf("ar fields: %s", sel)
	}
	if l := eval[string](t, ctx, `document.querySelector('label[for="form-`+files+`-3"]').textContent`); !strings.Contains(l, "3, 4, 5") {
		t.Errorf("the ar few label says %q", l)
	}
	if d := eval[string](t, ctx, `document.querySelector('`+row+` .source .text').dir`); d != "ltr" {
		t.Errorf("the English source is %q", d)
	}
	arabic := []string{"لا ملفات", "ملف واحد", "ملفان", "# ملفات", "# ملفًا", "# ملف"}
	for i, s := range arabic {
		do(t, ctx, "typing ar", chromedp.SendKeys(chromedp.CSS(field(string(rune('0'+i)))), s))
	}
	waitFor(t, ctx, "ar QA is clean", `document.querySelectorAll('#qa-`+files+` li').length === 0`)
	shot(t, ctx, screenshotDir(t), "plural-ar.png")
	do(t, ctx, "saving by keyboard", key("s", chromedp.ModifierCtrl))
	waitFor(t, ctx, "the row is saved", `!document.querySelector('`+row+`').classList.contains('dirty')`)
	wantAr := "{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}"
	if got := e.row(t, "common", "files", "ar"); got.Value != wantAr || got.Status != model.StatusNeedsReview {
		t.Fatalf("ar saved %+v, want %q", got, wantAr)
	}

	// Ctrl+Enter in a comment box posts the comment; the row stays as it was.
	greet := rowID(t, e, "greet")
	grow := `#row-` + greet
	do(t, ctx, "opening nb", chromedp.Navigate(base+"nb"), chromedp.WaitVisible(chromedp.CSS(grow)),
		chromedp.Click(chromedp.CSS(grow+` details.more summary`)), chromedp.WaitVisible(chromedp.CSS(`#comment-`+greet)),
		chromedp.SendKeys(chromedp.CSS(`#comment-`+greet), "Is the name left out on purpose?"),
		key("\r", chromedp.ModifierCtrl))
	waitFor(t, ctx, "the comment shows", `document.querySelector('`+grow+` ul.comments').textContent.includes('on purpose?')`)
	if got := e.row(t, "common", "greet", "nb"); got.Status != model.StatusNeedsReview {
		t.Fatalf("Ctrl+Enter in the comment box changed the row: %+v", got)
	}
	// Ctrl+S outside a translation box saves nothing either.
	do(t, ctx, "Ctrl+S in the comment box", chromedp.Focus(chromedp.CSS(`#comment-`+greet)), chromedp.SendKeys(chromedp.CSS(`#comment-`+greet), "x"), key("s", chromedp.ModifierCtrl))

	// Approving the broken draft asks for a reason; with one it is approved and the reason
	// is on the row.
	do(t, ctx, "approving a draft with a finding", chromedp.Focus(chromedp.CSS(`#value-`+greet)), key("\r", chromedp.ModifierCtrl))
	waitFor(t, ctx, "the override asks for a reason", `!!document.querySelector('#reason-`+greet+`')`)
	shot(t, ctx, screenshotDir(t), "override.png")
	if got := e.row(t, "common", "greet", "nb"); got.Status != model.StatusNeedsReview {
		t.Fatalf("approved without an override: %+v", got)
	}
	do(t, ctx, "giving a reason", chromedp.SendKeys(chromedp.CSS(`#reason-`+greet), "The name is shown beside it"),
		chromedp.Click(chromedp.CSS(grow+` button.override`)))
	waitFor(t, ctx, "the row shows approved", `!!document.querySelector('`+grow+` .badge.approved')`)
	do(t, ctx, "opening the history", chromedp.Click(chromedp.CSS(grow+` details.more summary`)), chromedp.WaitVisible(chromedp.CSS(grow+` ol.history`)))
	waitFor(t, ctx, "the reason shows", `document.querySelector('`+grow+` .detail-body').textContent.includes('The name is shown beside it')`)
	if got := e.row(t, "common", "greet", "nb"); got.Status != model.StatusApproved {
		t.Fatalf("after the override: %+v", got)
	}

	// An emptied box is not saved without asking.
	bye := rowID(t, e, "bye")
	do(t, ctx, "emptying a box and saving", chromedp.Focus(chromedp.CSS(`#value-`+bye)),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(kb.Backspace), key("s", chromedp.ModifierCtrl))
	waitFor(t, ctx, "the editor asks", `document.querySelector('#row-`+bye+` .conflict').textContent.includes('deletes the translation')`)
	if got := e.row(t, "common", "bye", "nb"); got.Value != "Ha det" {
		t.Fatalf("an empty box was saved without asking: %+v", got)
	}
	do(t, ctx, "keeping it", chromedp.Click(chromedp.CSS(`#row-`+bye+` .conflict button:last-child`)), chromedp.SendKeys(chromedp.CSS(`#value-`+bye), "Ha det"))

	// The batch approval skips the broken draft and the untranslated rows and says so, and
	// counts greet, approved above, apart.
	do(t, ctx, "reloading", chromedp.Navigate(base+"nb"), chromedp.WaitVisible(chromedp.CSS(`#select-all`)),
		chromedp.Click(chromedp.CSS(`#select-all`)), chromedp.Click(chromedp.CSS(`#batch button[type=submit]`)))
	waitFor(t, ctx, "the batch says what it did", `(document.querySelector('#flash')?.textContent ?? '').includes('Approved')`)
	flash := eval[string](t, ctx, `document.querySelector('#flash').textContent`)
	for _, s := range []string{"Approved 2 rows; 1 was approved already", "skipped 1 with QA findings", "help", "skipped 2 untranslated", "empty"} {
		if !strings.Contains(flash, s) {
			t.Errorf("the batch message lacks %q: %s", s, flash)
		}
	}
	if got := e.row(t, "common", "help", "nb"); got.Status != model.StatusNeedsReview {
		t.Errorf("the batch approved a draft with findings: %+v", got)
	}
}
