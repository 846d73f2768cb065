package app_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestBrowserEmbeddedForms: in Chromium, on each database, a plural inside a sentence and
// a select nested in a plural are edited in pl, ar and ja as a field per text of the
// sentence and per form; copy-source fills one form with the source's form; a '}' and a
// '#' typed into fields are saved as text with the value's structure kept; a stored value
// saved unedited stays byte-identical; Arabic fields are right to left with the syntax
// isolated.
func TestBrowserEmbeddedForms(t *testing.T) {
	t.Parallel()
	chromium(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, nil)
		e.enable(t, "pl", "ar", "ja")
		e.source(t, "common", embeddedSources...)
		ctx := newBrowser(t)
		base := e.srv.URL + "/app/p/" + e.f.Project.ID + "/review/"
		do(t, ctx, "signing in",
			chromedp.Navigate(e.srv.URL+"/app/"), chromedp.WaitVisible(chromedp.CSS(`#email`)),
			chromedp.SendKeys(chromedp.CSS(`#email`), e.f.User.Email),
			chromedp.SendKeys(chromedp.CSS(`#password`), password),
			chromedp.Submit(chromedp.CSS(`#password`)),
			chromedp.WaitVisible(chromedp.CSS(`ul.cards`)))
		syn := message.ICU | message.I18next | message.HTML
		setBox := func(sel, v string) chromedp.Action[chromedp.Void] {
			return chromedp.Evaluate[chromedp.Void](`void (document.querySelector('` + sel + `').value = ` + strconv.Quote(v) + `)`)
		}
		keys := func(row string) string {
			return eval[string](t, ctx, `[...document.querySelectorAll('`+row+` textarea[name="form_text"]')].map((x) => x.dataset.key).join(',')`)
		}

		// Polish: the sentence once, its text before and after the plural, a field per form.
		del := rowID(t, e, "deleted")
		row := `#row-` + del
		field := func(id, n string) string { return `#form-` + id + `-` + n }
		do(t, ctx, "opening pl", chromedp.Navigate(base+"pl?q=deleted"), chromedp.WaitVisible(chromedp.CSS(row+` fieldset.forms`)))
		if k := keys(row); k != "@0,count:one@0,count:few@0,count:many@0,count:other@0,@1" {
			t.Fatalf("pl fields: %s", k)
		}
		if l := eval[string](t, ctx, `document.querySelector('label[for="form-`+del+`-2"]').textContent`); !strings.Contains(l, "few") || !strings.Contains(l, "2, 3, 4") {
			t.Errorf("the few label: %q", l)
		}
		if p := eval[[]string](t, ctx, a11yProblems); len(p) > 0 {
			t.Errorf("pl review page: %v", p)
		}
		do(t, ctx, "copying the source's text after the plural", chromedp.Click(chromedp.CSS(row+` button.copy-form[data-field="form-`+del+`-5"]`)))
		if v := eval[string](t, ctx, `document.querySelector('`+field(del, "5")+`').value`); v != " from <strong>{{folder}}</strong>" {
			t.Fatalf("copy-source filled %q", v)
		}
		do(t, ctx, "copying the source's other into many", chromedp.Click(chromedp.CSS(row+` button.copy-form[data-field="form-`+del+`-3"]`)))
		if v := eval[string](t, ctx, `document.querySelector('`+field(del, "3")+`').value`); v != "# files" {
			t.Fatalf("copy-source into many filled %q", v)
		}
		do(t, ctx, "typing pl",
			chromedp.SendKeys(chromedp.CSS(field(del, "0")), "Usunięto #"),
			chromedp.SendKeys(chromedp.CSS(field(del, "1")), "# plik"),
			chromedp.SendKeys(chromedp.CSS(field(del, "2")), "# pliki}"),
			setBox(field(del, "3"), ""),
			chromedp.SendKeys(chromedp.CSS(field(del, "3")), "# plików"),
			chromedp.SendKeys(chromedp.CSS(field(del, "4")), "# pliku"),
			setBox(field(del, "5"), ""),
			chromedp.SendKeys(chromedp.CSS(field(del, "5")), " z <strong>{{folder}}</strong>"))
		waitFor(t, ctx, "pl QA is clean", `document.querySelectorAll('#qa-`+del+` li').length === 0`)
		do(t, ctx, "saving", key("s", chromedp.ModifierCtrl))
		waitFor(t, ctx, "the row is saved", `!document.querySelector('`+row+`').classList.contains('dirty')`)
		want := "Usunięto #{count, plural, one {# plik} few {# pliki'}'} many {# plików} other {# pliku}} z <strong>{{folder}}</strong>"
		got := e.row(t, "common", "deleted", "pl").Value
		if got != want {
			t.Fatalf("pl saved %q, want %q", got, want)
		}
		if p, ok := message.Split(got, syn); !ok || len(p) != 3 || len(p[1].Block.Forms) != 4 || len(message.Parse(got, syn).Problems) > 0 {
			t.Fatalf("the saved value lost its structure: %q", got)
		}

		// Unedited, a stored value with its own spacing and quotes saves byte-identical.
		odd := "Usunięto {count, plural,\n  one {# plik}\n  few {# pliki ''x''}\n  many {# plików '{'}\n  other {# pliku}\n } z <strong>{{folder}}</strong>"
		e.draft(t, "common", "deleted", "pl", odd)
		before := len(e.history(t, "deleted", "pl"))
		do(t, ctx, "reloading pl", chromedp.Navigate(base+"pl?q=deleted"), chromedp.WaitVisible(chromedp.CSS(field(del, "2"))),
			chromedp.Focus(chromedp.CSS(field(del, "2"))), key("s", chromedp.ModifierCtrl))
		waitFor(t, ctx, "the save is answered", `(document.getElementById('live')?.textContent ?? '').includes('Saved')`)
		if got := e.row(t, "common", "deleted", "pl").Value; got != odd || len(e.history(t, "deleted", "pl")) != before {
			t.Fatalf("an unedited save changed the value: %q", got)
		}

		// A select nested in the plural: a group per plural form, a field per choice.
		inv := rowID(t, e, "invited")
		irow := `#row-` + inv
		do(t, ctx, "opening pl invited", chromedp.Navigate(base+"pl?q=invited"), chromedp.WaitVisible(chromedp.CSS(irow+` fieldset.forms`)))
		if k := keys(irow); k != "count:one/g:female@0,count:one/g:other@0,count:few/g:female@0,count:few/g:other@0,count:many/g:female@0,count:many/g:other@0,count:other/g:female@0,count:other/g:other@0" {
			t.Fatalf("pl nested fields: %s", k)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('`+irow+` fieldset.form-group fieldset.block').length`); n != 4 {
			t.Errorf("nested select groups: %d", n)
		}
		texts := []string{"Zaprosiła # gościa", "Zaprosili # gościa", "Zaprosiła # gości", "Zaprosili # gości", "Zaprosiła # gości", "Zaprosili # gości", "Zaprosiła # gościa", "Zaprosili # gościa {x}"}
		for i, s := range texts {
			do(t, ctx, "typing nested", chromedp.SendKeys(chromedp.CSS(field(inv, string(rune('0'+i)))), s))
		}
		do(t, ctx, "saving nested", key("s", chromedp.ModifierCtrl))
		waitFor(t, ctx, "the nested row is saved", `!document.querySelector('`+irow+`').classList.contains('dirty')`)
		wantInv := "{count, plural, one {{g, select, female {Zaprosiła # gościa} other {Zaprosili # gościa}}} few {{g, select, female {Zaprosiła # gości} other {Zaprosili # gości}}} many {{g, select, female {Zaprosiła # gości} other {Zaprosili # gości}}} other {{g, select, female {Zaprosiła # gościa} other {Zaprosili # gościa {x}}}}}"
		if got := e.row(t, "common", "invited", "pl").Value; got != wantInv {
			t.Fatalf("pl nested saved %q, want %q", got, wantInv)
		}

		// Japanese: one category, the sentence in its own order.
		do(t, ctx, "opening ja", chromedp.Navigate(base+"ja?q=deleted"), chromedp.WaitVisible(chromedp.CSS(row+` fieldset.forms`)))
		if k := keys(row); k != "@0,count:other@0,@1" {
			t.Fatalf("ja fields: %s", k)
		}
		// The memory's Use fills each field with its own text of an approved translation of
		// the same sentence.
		jaWant := "削除: {count, plural, other {#個のファイル}}（<strong>{{folder}}</strong>から）"
		e.source(t, "common", "removed", embeddedSources[1])
		if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("common", "removed", "ja"), Value: jaWant, Status: model.StatusApproved}); err != nil {
			t.Fatal(err)
		}
		do(t, ctx, "opening ja's panel", chromedp.Navigate(base+"ja?q=deleted"), chromedp.WaitVisible(chromedp.CSS(row+` fieldset.forms`)),
			chromedp.Click(chromedp.CSS(row+` details.more summary`)), chromedp.WaitVisible(chromedp.CSS(row+` .memory button.use`)),
			chromedp.Click(chromedp.CSS(row+` .memory button.use`)))
		if v := eval[string](t, ctx, `[...document.querySelectorAll('`+row+` textarea[name="form_text"]')].map((x) => x.value).join('|')`); v != "削除: |#個のファイル|（<strong>{{folder}}</strong>から）" {
			t.Fatalf("memory filled %q", v)
		}
		do(t, ctx, "saving ja", chromedp.Focus(chromedp.CSS(field(del, "1"))), key("s", chromedp.ModifierCtrl))
		waitFor(t, ctx, "the ja row is saved", `!document.querySelector('`+row+`').classList.contains('dirty')`)
		if got := e.row(t, "common", "deleted", "ja").Value; got != jaWant {
			t.Fatalf("ja saved %q", got)
		}
		do(t, ctx, "opening ja invited", chromedp.Navigate(base+"ja?q=invited"), chromedp.WaitVisible(chromedp.CSS(irow+` fieldset.forms`)))
		if k := keys(irow); k != "count:other/g:female@0,count:other/g:other@0" {
			t.Fatalf("ja nested fields: %s", k)
		}

		// Arabic: right to left, the syntax in left-to-right isolates; unedited it saves
		// byte-identical.
		arv := "تم حذف {count, plural, zero {لا ملفات} one {ملف واحد} two {ملفين} few {# ملفات} many {# ملفًا} other {# ملف}} من <strong>{{folder}}</strong>"
		e.draft(t, "common", "deleted", "ar", arv)
		do(t, ctx, "opening ar", chromedp.Navigate(base+"ar?q=deleted"), chromedp.WaitVisible(chromedp.CSS(row+` fieldset.forms`)))
		if d := eval[string](t, ctx, `[...document.querySelectorAll('`+row+` textarea[name="form_text"]')].map((x) => x.lang + ':' + x.dir + ':' + getComputedStyle(x).direction).join(',')`); d != strings.TrimSuffix(strings.Repeat("ar:rtl:rtl,", 8), ",") {
			t.Fatalf("ar fields: %s", d)
		}
		if v := eval[string](t, ctx, `document.querySelector('`+field(del, "7")+`').value`); v != " من \u2066<strong>\u2069\u2066{{folder}}\u2069\u2066</strong>\u2069" {
			t.Fatalf("ar sentence field: %q", v)
		}
		if v := eval[string](t, ctx, `document.querySelector('`+field(del, "4")+`').value`); v != "\u2066#\u2069 ملفات" {
			t.Fatalf("ar few field: %q", v)
		}
		shot(t, ctx, screenshotDir(t), "forms-embedded-ar.png")
		do(t, ctx, "copying the source's one", chromedp.Click(chromedp.CSS(row+` button.copy-form[data-field="form-`+del+`-2"]`)))
		if v := eval[string](t, ctx, `document.querySelector('`+field(del, "2")+`').value`); v != "\u2066#\u2069 file" {
			t.Fatalf("ar copy-source: %q", v)
		}
		do(t, ctx, "putting one back", setBox(field(del, "2"), "ملف واحد"),
			chromedp.SendKeys(chromedp.CSS(field(del, "2")), "}"), key("s", chromedp.ModifierCtrl))
		waitFor(t, ctx, "the ar row is saved", `!document.querySelector('`+row+`').classList.contains('dirty')`)
		if got := e.row(t, "common", "deleted", "ar").Value; got != strings.Replace(arv, "{ملف واحد}", "{ملف واحد'}'}", 1) {
			t.Fatalf("ar saved %q", got)
		}
	})
}
