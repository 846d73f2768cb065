package app_test

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/message"
)

// restCall sends body as JSON (a string as it is) to the REST API with the read/write key.
func (e *env) restCall(t *testing.T, method, path string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		r = bytes.NewReader(j)
	}
	req, _ := http.NewRequestWithContext(t.Context(), method, e.srv.URL+path, r)
	req.Header.Set("Authorization", "Token token="+e.f.RW)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, out
}

// served is what endpoint 1 serves for lang's common namespace.
func (e *env) served(t *testing.T, lang string) map[string]string {
	t.Helper()
	st, b := e.restCall(t, "GET", "/api/"+e.f.Project.ID+"/latest/"+lang+"/common", nil)
	out := map[string]string{}
	if st != http.StatusOK || json.Unmarshal(b, &out) != nil {
		t.Fatalf("endpoint 1 for %s: %d %s", lang, st, b)
	}
	return out
}

// TestBrowserPluralFamily: in Chromium, on both databases, an i18next project synced
// through endpoint 3 with files.count_one and files.count_other edits the family
// files.count as a field per CLDR category of the target language with its example
// numbers. In pl copy-source fills a form from the source's own form or its other, a '}'
// and a '#' typed into few are stored as text (the value keeps its family's structure)
// and endpoint 1 serves the form exactly as typed; an unedited save changes nothing. In ar
// the six fields are right to left with {{count}} isolated, endpoint 1 serves exactly the
// forms saved, and the row is missing (filter and progress) until all six are written. In
// ja one field; a form ja lacks (sent by an import, which warns and stores none; or set
// through update_translation) is shown marked as not a form of ja. Memory and AI
// suggestions fill each field with its own form.
func TestBrowserPluralFamily(t *testing.T) {
	t.Parallel()
	chromium(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		llm := aitest.New(t, aitest.Echo(func(_, masked string) string {
			return strings.NewReplacer("files", "AI-pliki", "file", "AI-plik").Replace(masked)
		}))
		e := newEnv(t, dialect, &tools.Options{AIDefault: tools.AIProvider{BaseURL: llm.URL}})
		aiModel := "helper"
		if _, err := e.cat.SetProjectAI(e.sys(t), e.f.Project.ID, &aiModel, nil); err != nil {
			t.Fatal(err)
		}
		e.enable(t, "pl", "ar", "ja")
		if st, b := e.restCall(t, "PUT", "/api/sync/"+e.f.Project.ID+"/latest/en/common", map[string]string{
			"title": "Hello {{name}}", "files.count_one": "{{count}} file", "files.count_other": "{{count}} files",
			"photos.count_one": "{{count}} file", "photos.count_other": "{{count}} files",
		}); st != http.StatusOK {
			t.Fatalf("sync: %d %s", st, b)
		}
		// The memory: photos.count, the same source, approved in pl.
		memory := "{count, plural, one {{{count}} plik (pamięć)} few {{{count}} pliki (pamięć)} many {{{count}} plików (pamięć)} other {{{count}} pliku (pamięć)}}"
		e.approve(t, "common", "photos.count", "pl", memory)

		ctx := newBrowser(t)
		base := e.srv.URL + "/app/p/" + e.f.Project.ID + "/review/"
		do(t, ctx, "signing in",
			chromedp.Navigate(e.srv.URL+"/app/"), chromedp.WaitVisible(chromedp.CSS(`#email`)),
			chromedp.SendKeys(chromedp.CSS(`#email`), e.f.User.Email),
			chromedp.SendKeys(chromedp.CSS(`#password`), password),
			chromedp.Submit(chromedp.CSS(`#password`)),
			chromedp.WaitVisible(chromedp.CSS(`ul.cards`)))
		id := rowID(t, e, "files.count")
		row := `#row-` + id
		field := func(n int) string { return `#form-` + id + `-` + strconv.Itoa(n) }
		value := func(n int) string { return eval[string](t, ctx, `document.querySelector('`+field(n)+`').value`) }
		setBox := func(n int, v string) chromedp.Action[chromedp.Void] {
			return chromedp.Evaluate[chromedp.Void](`void (document.querySelector('` + field(n) + `').value = ` + strconv.Quote(v) + `)`)
		}
		selectors := func() string {
			return eval[string](t, ctx, `[...document.querySelectorAll('`+row+` textarea[name="form_text"]')].map((x) => x.dataset.selector).join(',')`)
		}
		values := func() string {
			return eval[string](t, ctx, `[...document.querySelectorAll('`+row+` textarea[name="form_text"]')].map((x) => x.value).join('|')`)
		}
		save := func(what string) {
			t.Helper()
			do(t, ctx, what, chromedp.Focus(chromedp.CSS(field(0))), key("s", chromedp.ModifierCtrl))
			waitFor(t, ctx, what+": saved", `(document.getElementById('live')?.textContent ?? '').includes('Saved') && !document.querySelector('`+row+`').classList.contains('dirty')`)
		}
		open := func(lang string) {
			t.Helper()
			do(t, ctx, "opening "+lang, chromedp.Navigate(base+lang+"?q=files.count"), chromedp.WaitVisible(chromedp.CSS(row+` fieldset.forms`)))
		}
		syn := message.I18next

		// Polish: one, few, many, other with their numbers.
		open("pl")
		if s := selectors(); s != "one,few,many,other" {
			t.Fatalf("pl fields: %s", s)
		}
		if l := eval[string](t, ctx, `document.querySelector('label[for="form-`+id+`-1"]').textContent`); !strings.Contains(l, "few") || !strings.Contains(l, "2, 3, 4, 22") {
			t.Errorf("the few label says %q", l)
		}
		if p := eval[[]string](t, ctx, a11yProblems); len(p) > 0 {
			t.Errorf("pl review page: %v", p)
		}
		// The memory's Use puts each form of the remembered translation into its field.
		do(t, ctx, "using the memory", chromedp.Click(chromedp.CSS(row+` details.more summary`)), chromedp.WaitVisible(chromedp.CSS(row+` .memory button.use`)),
			press(row+` .memory button.use`))
		waitFor(t, ctx, "the memory fills the fields", `document.querySelector('`+field(3)+`').value !== ''`)
		if v := values(); v != "{{count}} plik (pamięć)|{{count}} pliki (pamięć)|{{count}} plików (pamięć)|{{count}} pliku (pamięć)" {
			t.Errorf("memory filled %q", v)
		}
		// The AI's suggestion, the family in pl's four forms, fills each field.
		do(t, ctx, "asking the AI", chromedp.Click(chromedp.CSS(row+` button.ai-suggest`)))
		waitFor(t, ctx, "the AI's suggestion shows", `!!document.querySelector('`+row+` .ai-out button.use')`)
		do(t, ctx, "using the AI's suggestion", press(row+` .ai-out button.use`))
		waitFor(t, ctx, "the AI's suggestion fills the fields", `document.querySelector('`+field(0)+`').value.includes('AI-')`)
		if v := values(); v != "{{count}} AI-plik|{{count}} AI-pliki|{{count}} AI-pliki|{{count}} AI-pliki" {
			t.Errorf("the AI filled %q", v)
		}
		// Copy-source per form: one from the source's one, few (which English lacks) from
		// its other.
		do(t, ctx, "copying the source's one", setBox(0, ""), chromedp.Click(chromedp.CSS(row+` button.copy-form[data-field="form-`+id+`-0"]`)))
		do(t, ctx, "copying the source's other into few", setBox(1, ""), chromedp.Click(chromedp.CSS(row+` button.copy-form[data-field="form-`+id+`-1"]`)))
		if a, b := value(0), value(1); a != "{{count}} file" || b != "{{count}} files" {
			t.Fatalf("copy-source filled one %q and few %q", a, b)
		}
		typed := "{{count}} pliki} #"
		do(t, ctx, "typing pl",
			setBox(0, ""), chromedp.SendKeys(chromedp.CSS(field(0)), "{{count}} plik"),
			setBox(1, ""), chromedp.SendKeys(chromedp.CSS(field(1)), typed),
			setBox(2, ""), chromedp.SendKeys(chromedp.CSS(field(2)), "{{count}} plików"),
			setBox(3, ""), chromedp.SendKeys(chromedp.CSS(field(3)), "{{count}} pliku"))
		waitFor(t, ctx, "pl QA is clean", `document.querySelectorAll('#qa-`+id+` li').length === 0`)
		save("saving pl")
		got := e.row(t, "common", "files.count", "pl").Value
		p, ok := message.SinglePlural(got)
		if !ok || p.Arg != "count" || p.Ordinal || len(message.Parse(got, syn).Problems) > 0 {
			t.Fatalf("pl saved %q: not one plural on count", got)
		}
		var sels []string
		for _, f := range p.Forms {
			sels = append(sels, f.Selector)
		}
		if !slices.Equal(sels, []string{"one", "few", "many", "other"}) || message.FamilyIncomplete("pl", got) {
			t.Fatalf("pl saved %q: forms %v", got, sels)
		}
		if few, _ := p.Form("few"); message.ICUToNative(few, "{{count}}") != typed {
			t.Errorf("pl few stored as %q", few)
		}
		wantPl := map[string]string{"files.count_one": "{{count}} plik", "files.count_few": typed, "files.count_many": "{{count}} plików", "files.count_other": "{{count}} pliku"}
		servedPl := e.served(t, "pl")
		maps.DeleteFunc(servedPl, func(k, _ string) bool { return strings.HasPrefix(k, "photos.") })
		if !maps.Equal(servedPl, wantPl) {
			t.Errorf("endpoint 1 serves pl %q, want %q", servedPl, wantPl)
		}
		// Reloaded, the field shows what was typed; saved unedited, nothing changes.
		open("pl")
		if v := value(1); v != typed {
			t.Errorf("the few field shows %q after a reload", v)
		}
		before := len(e.history(t, "files.count", "pl"))
		do(t, ctx, "saving pl unedited", chromedp.Focus(chromedp.CSS(field(1))), key("s", chromedp.ModifierCtrl))
		waitFor(t, ctx, "the save is answered", `(document.getElementById('live')?.textContent ?? '').includes('Saved')`)
		if now := e.row(t, "common", "files.count", "pl").Value; now != got || len(e.history(t, "files.count", "pl")) != before {
			t.Errorf("an unedited save changed the value: %q, was %q", now, got)
		}

		// Arabic: six fields, right to left, {{count}} isolated; missing until all six.
		missingRow := func() bool {
			t.Helper()
			do(t, ctx, "the missing filter", chromedp.Navigate(base+"ar?filter=missing"), chromedp.WaitVisible(chromedp.CSS(`#rows`)))
			return eval[bool](t, ctx, `!!document.querySelector('`+row+`')`)
		}
		progressMissing := func() string {
			t.Helper()
			do(t, ctx, "the progress page", chromedp.Navigate(e.srv.URL+"/app/p/"+e.f.Project.ID+"/progress"), chromedp.WaitVisible(chromedp.CSS(`tr[data-lang="ar"]`)))
			return eval[string](t, ctx, `document.querySelector('tr[data-lang="ar"] .part-missing .count').textContent`)
		}
		if !missingRow() {
			t.Fatal("untranslated, files.count is not under ar's missing filter")
		}
		open("ar")
		if d := eval[string](t, ctx, `[...document.querySelectorAll('`+row+` textarea[name="form_text"]')].map((x) => x.dataset.selector + ':' + x.lang + ':' + x.dir + ':' + getComputedStyle(x).direction).join(',')`); d != "zero:ar:rtl:rtl,one:ar:rtl:rtl,two:ar:rtl:rtl,few:ar:rtl:rtl,many:ar:rtl:rtl,other:ar:rtl:rtl" {
			t.Fatalf("ar fields: %s", d)
		}
		if l := eval[string](t, ctx, `document.querySelector('label[for="form-`+id+`-3"]').textContent`); !strings.Contains(l, "3, 4, 5") {
			t.Errorf("the ar few label says %q", l)
		}
		// Copy-source gives the source's text with {{count}} isolated; saved, the isolates are
		// gone.
		do(t, ctx, "copying the source into two", chromedp.Click(chromedp.CSS(row+` button.copy-form[data-field="form-`+id+`-2"]`)))
		if v := value(2); v != "\u2066{{count}}\u2069 files" {
			t.Errorf("ar copy-source: %q", v)
		}
		// Saved with four of its six forms (other among them: without it the family would be
		// held back from readers), endpoint 1 serves exactly those four.
		do(t, ctx, "typing ar zero, one, other", chromedp.SendKeys(chromedp.CSS(field(0)), "لا ملفات"), chromedp.SendKeys(chromedp.CSS(field(1)), "ملف واحد"),
			chromedp.SendKeys(chromedp.CSS(field(5)), "{{count}} ملف"))
		save("saving four ar forms")
		wantAr := map[string]string{"files.count_zero": "لا ملفات", "files.count_one": "ملف واحد", "files.count_two": "{{count}} files", "files.count_other": "{{count}} ملف"}
		if s := e.served(t, "ar"); !maps.Equal(s, wantAr) {
			t.Errorf("endpoint 1 serves ar %q, want %q", s, wantAr)
		}
		if !missingRow() {
			t.Error("with four of six forms, files.count is not under ar's missing filter")
		}
		if n := progressMissing(); n != "3" {
			t.Errorf("ar's progress counts %s missing, want 3 (title, photos.count, files.count)", n)
		}
		open("ar")
		if v := value(2); v != "\u2066{{count}}\u2069 files" {
			t.Errorf("ar two after a reload: %q", v)
		}
		shot(t, ctx, screenshotDir(t), "family-ar-"+dialect+".png")
		if v := value(5); v != "\u2066{{count}}\u2069 ملف" {
			t.Errorf("ar other after a reload: %q", v)
		}
		do(t, ctx, "typing ar few, many",
			chromedp.SendKeys(chromedp.CSS(field(3)), "{{count}} ملفات"),
			chromedp.SendKeys(chromedp.CSS(field(4)), "{{count}} ملفًا}"))
		save("saving all six ar forms")
		wantAr["files.count_few"], wantAr["files.count_many"] = "{{count}} ملفات", "{{count}} ملفًا}"
		if s := e.served(t, "ar"); !maps.Equal(s, wantAr) {
			t.Errorf("endpoint 1 serves ar %q, want %q", s, wantAr)
		}
		if missingRow() {
			t.Error("with all six forms, files.count is still under ar's missing filter")
		}
		if n := progressMissing(); n != "2" {
			// photos.count and title are missing in ar; files.count no longer.
			t.Errorf("ar's progress counts %s missing after all six, want 2 (title, photos.count)", n)
		}

		// Japanese: other only.
		open("ja")
		if s := selectors(); s != "other" {
			t.Fatalf("ja fields: %s", s)
		}
		st, b := e.restCall(t, "PUT", "/api/import/"+e.f.Project.ID+"/latest/ja/common?format=i18next",
			`{"files":{"count_one":"1 個のファイル","count_other":"{{count}} 個のファイル"}}`)
		var imp struct {
			Warnings []struct{ Key, Message string } `json:"warnings"`
		}
		if st != http.StatusOK || json.Unmarshal(b, &imp) != nil || len(imp.Warnings) != 1 || imp.Warnings[0].Key != "files.count_one" {
			t.Fatalf("the ja import: %d %s", st, b)
		}
		open("ja")
		if s, v := selectors(), values(); s != "other" || v != "{{count}} 個のファイル" {
			t.Errorf("after the import ja shows %s: %q", s, v)
		}
		// A value with a form ja lacks, set through update_translation, shows it marked.
		if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("common", "files.count", "ja"),
			Value: "{count, plural, one {1 個のファイル} other {{{count}} 個のファイル}}"}); err != nil {
			t.Fatal(err)
		}
		open("ja")
		if s := selectors(); s != "other,one" {
			t.Fatalf("ja fields with a one form: %s", s)
		}
		if l := eval[string](t, ctx, `document.querySelector('label[for="form-`+id+`-1"]').className + ' ' + document.querySelector('label[for="form-`+id+`-1"]').textContent`); !strings.Contains(l, "foreign") || !regexp.MustCompile(`not a form of ja`).MatchString(l) {
			t.Errorf("ja's one field is not marked: %q", l)
		}
		if s := e.served(t, "ja"); !maps.Equal(s, map[string]string{"files.count_other": "{{count}} 個のファイル"}) {
			t.Errorf("endpoint 1 serves ja %q", s)
		}
	})
}

// TestFamilyTextOutsideHeld: on both databases, a plural family's translation with text
// outside its plural block (an AI answer with a label in front) is held back with why:
// endpoint 1 keeps serving the family's previous forms instead of the raw value.
func TestFamilyTextOutsideHeld(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.enable(t, "pl")
		if st, b := e.restCall(t, "PUT", "/api/sync/"+e.f.Project.ID+"/latest/en/common", map[string]string{
			"title": "Hello {{name}}", "files.count_one": "{{count}} file", "files.count_other": "{{count}} files"}); st != http.StatusOK {
			t.Fatalf("sync: %d %s", st, b)
		}
		good := "{count, plural, one {{{count}} plik} few {{{count}} pliki} many {{{count}} plików} other {{{count}} pliku}}"
		e.approve(t, "common", "files.count", "pl", good)
		e.draft(t, "common", "files.count", "pl", "Tłumaczenie: "+good)
		if it := e.item(t, "files.count", "pl"); !strings.Contains(it.Held, `"Tłumaczenie:" outside its plural forms`) || it.ReadersGet != "the previous value" {
			t.Errorf("the row is held as %q, readers get %q", it.Held, it.ReadersGet)
		}
		want := map[string]string{"files.count_one": "{{count}} plik", "files.count_few": "{{count}} pliki", "files.count_many": "{{count}} plików", "files.count_other": "{{count}} pliku"}
		if s := e.served(t, "pl"); !maps.Equal(s, want) {
			t.Errorf("endpoint 1 serves pl %q, want the previous forms", s)
		}
	})
}
