package app_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// heldProject stores, in namespace ui: cart approved then held back with a renamed
// placeholder (readers get the previous value), fresh held back with nothing before it
// (readers get the source text), and plain and files served as they are.
func heldProject(t *testing.T, e *env) {
	t.Helper()
	e.source(t, "ui", "cart", "{{count}} items", "fresh", "{{count}} new", "plain", "Hello",
		"files", "{count, plural, one {# file} other {# files}}", "greet", "Hello {name}, welcome")
	for k, v := range map[string]string{"cart": "{{count}} varer", "plain": "Hei", "files": "{count, plural, one {# fil} other {# filer}}", "greet": "Hei {name}, velkommen"} {
		if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("ui", k, "nb"), Value: v, Status: model.StatusApproved}); err != nil {
			t.Fatal(err)
		}
	}
	for k, v := range map[string]string{"cart": "{{cnt}} varer", "fresh": "{{cnt}} nye"} {
		if _, err := e.cat.UpdateTranslation(e.sys(t), tools.UpdateTranslationIn{RowRef: e.ref("ui", k, "nb"), Value: v}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEditorHeldBack: the project and namespace pages count the held-back rows and link
// to the editor's Held back filter, which lists just them; each held row, in the list and
// on its own page, says why in words and what readers get, and offers no Approve; a batch
// approval names the held rows it left.
func TestEditorHeldBack(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		heldProject(t, e)
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID
		filter := p + "/review/nb?filter=held"

		proj := b.get(t, p+"/").want(t, http.StatusOK, `id="held-summary"`, "2 held back", html.EscapeString(filter))
		if !strings.Contains(proj.body, "readers get the previous value, or the source text") {
			t.Errorf("the project page does not say what readers get: %.2000s", proj.body[strings.Index(proj.body, "held-summary"):])
		}
		b.get(t, p+"/progress?lang=nb").want(t, http.StatusOK, html.EscapeString(filter+"&ns=ui"), "2 held back")

		list := b.get(t, filter).want(t, http.StatusOK).body
		v := versions(list)
		if len(v) != 2 || v["cart"] == "" || v["fresh"] == "" {
			t.Fatalf("the held filter shows %v, want cart and fresh", v)
		}
		for _, want := range []string{
			html.EscapeString("the translation uses {{cnt}}, which the source does not have"),
			"Readers get the previous value: <q lang=\"nb\" dir=\"ltr\">" + html.EscapeString("{{count}} varer") + "</q>",
			"Readers get the source text: the key is left out.",
			`<span class="badge held">held back</span>`,
		} {
			if !strings.Contains(list, want) {
				t.Errorf("the held filter's page lacks %q", want)
			}
		}
		if strings.Contains(list, `value="approve"`) {
			t.Errorf("the held rows offer Approve")
		}
		if !strings.Contains(list, "a held-back value is never approved") {
			t.Errorf("the held rows do not say why there is no Approve")
		}
		all := b.get(t, p+"/review/nb").want(t, http.StatusOK).body
		if strings.Count(all, `value="approve"`) != 3 { // plain, files, greet
			t.Errorf("the unfiltered list has %d Approve buttons, want 3 (plain, files, greet)", strings.Count(all, `value="approve"`))
		}
		b.get(t, p+"/review/nb/row?ns=ui&key=cart").want(t, http.StatusOK, `class="held-notice"`,
			html.EscapeString("{{cnt}}"), "Readers get the previous value")

		// The filter pages as the others do: one row a page.
		b.get(t, filter+"&ns=ui").want(t, http.StatusOK)

		// A batch approval leaves the held rows and names them.
		sel := []string{"ui\tcart\t" + v["cart"], "ui\tfresh\t" + v["fresh"]}
		res := b.post(t, p+"/review/nb/approve", url.Values{"sel": sel}, true).want(t, http.StatusSeeOther)
		loc, _ := url.Parse(res.header.Get("Location"))
		if done := loc.Query().Get("done"); !strings.Contains(done, "Approved 0 rows") || !strings.Contains(done, "2 held back from readers") {
			t.Errorf("the batch approval of held rows says %q", done)
		}
		if got := e.row(t, "ui", "cart", "nb"); got.Status != model.StatusNeedsReview {
			t.Errorf("cart after the batch approval: %+v", got)
		}
	})
}

// fragmentPost posts a form as the editor's script does (X-Lokal-Fragment).
func fragmentPost(t *testing.T, b *browser, path string, form url.Values) page {
	t.Helper()
	form.Set("csrf", b.csrf)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, b.e.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Lokal-Fragment", "1")
	req.Header.Set("X-CSRF-Token", b.csrf)
	return b.do(t, req)
}

// TestEditorSaveRefusedOrHeld: a save that adds a syntax error is refused with where, in
// words, beside the field, with the typed text kept (the plain form) or as the message the
// script shows in the row (inline), and nothing is stored; a save that is held back is
// stored as a draft and says so: in the flash (plain form) and in the row it answers with
// (inline).
func TestEditorSaveRefusedOrHeld(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		heldProject(t, e)
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		q := "/app/p/" + e.f.Project.ID + "/review/nb"
		broken := "Hei {name, velkommen"
		v := versions(b.get(t, q).want(t, http.StatusOK).body)
		words := `the { before "name, velkommen" is never closed`

		for _, back := range []string{q, q + "/row?ns=ui&key=greet"} {
			r := b.post(t, q+"/save", url.Values{"ns": {"ui"}, "key": {"greet"}, "value": {broken}, "version": {v["greet"]}, "back": {back}}, true).
				want(t, http.StatusUnprocessableEntity, `class="error form-error"`, html.EscapeString(words))
			// The typed text is kept in its field.
			if !strings.Contains(r.body, ">"+html.EscapeString(broken)+"</textarea>") {
				t.Errorf("the refused save from %s does not keep the typed text", back)
			}
		}
		r := fragmentPost(t, b, q+"/save", url.Values{"ns": {"ui"}, "key": {"greet"}, "value": {broken}, "version": {v["greet"]}})
		r.want(t, http.StatusUnprocessableEntity)
		var body struct{ Error, Message string }
		if err := jsonUnmarshal([]byte(r.body), &body); err != nil || body.Error != model.CodeInvalidTranslation || !strings.Contains(body.Message, words) {
			t.Errorf("the inline refused save answers %s", r.body)
		}
		if got := e.row(t, "ui", "greet", "nb"); got.Value != "Hei {name}, velkommen" {
			t.Errorf("greet after the refused saves: %+v", got)
		}

		// Held: the plain form's flash says so.
		res := b.post(t, q+"/save", url.Values{"ns": {"ui"}, "key": {"plain"}, "value": {"Hei {{name}}"}, "version": {v["plain"]}, "back": {q}}, true).
			want(t, http.StatusSeeOther)
		loc, _ := url.Parse(res.header.Get("Location"))
		if done := loc.Query().Get("done"); !strings.Contains(done, "held back from readers") || !strings.Contains(done, "{{name}}") ||
			!strings.Contains(done, `readers get the previous value: "Hei"`) {
			t.Errorf("the flash after a held save says %q", done)
		}
		// Held inline: the row answered carries the notice.
		v = versions(b.get(t, q).want(t, http.StatusOK).body)
		r = fragmentPost(t, b, q+"/save", url.Values{"ns": {"ui"}, "key": {"cart"}, "value": {"{{cnt}} varer i kurven"}, "version": {v["cart"]}})
		r.want(t, http.StatusOK, `class="held-notice"`, html.EscapeString("{{cnt}}"), "Readers get the previous value")
		if got := e.row(t, "ui", "cart", "nb"); got.Value != "{{cnt}} varer i kurven" || got.Status != model.StatusNeedsReview {
			t.Errorf("cart after the held save: %+v", got)
		}
	})
}

// TestEditorImportHeldAndRefused: the editor's import preview lists the values that would
// be refused (and offers no Confirm while any remain) and those that would be held back;
// the result of a confirmed import lists the held ones.
func TestEditorImportHeldAndRefused(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		heldProject(t, e)
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		proj := "/app/p/" + e.f.Project.ID
		fields := map[string]string{"namespace": "ui", "language": "nb", "format": "json", "status": "needs_review", "preserve": "true"}
		refused := b.upload(t, proj+"/import", fields, "nb.json", []byte(`{"greet":"Hei {name, velkommen","plain":"Hei {{who}}"}`), true).want(t, http.StatusOK,
			"Would be refused: 1", html.EscapeString(`the { before "name, velkommen" is never closed`),
			"Would be held back from readers: 1", html.EscapeString("{{who}}"), "readers get the previous value")
		if strings.Contains(refused.body, `id="confirm-form"`) {
			t.Errorf("the preview of a file with a refused value offers Confirm")
		}
		p := b.upload(t, proj+"/import", fields, "nb.json", []byte(`{"plain":"Hei {{who}}"}`), true).want(t, http.StatusOK, `id="confirm-form"`)
		b.post(t, proj+"/import/confirm", confirmForm(t, p), true).want(t, http.StatusOK, "Stored:", "Held back from readers: 1", html.EscapeString("{{who}}"))
		if got := e.row(t, "ui", "plain", "nb"); got.Value != "Hei {{who}}" {
			t.Errorf("plain after the import: %+v", got)
		}
	})
}
