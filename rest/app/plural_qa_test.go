package app_test

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/checkup"
	"github.com/lokal-dev/lokal/tools/model"
)

// item returns the review queue's row of key in lang.
func (e *env) item(t *testing.T, key, lang string) tools.ReviewItem {
	t.Helper()
	page, err := e.cat.ReviewQueue(e.sys(t), tools.ReviewIn{ProjectID: e.f.Project.ID, Language: lang, Text: key})
	if err != nil {
		t.Fatalf("finding %s: %v", key, err)
	}
	for _, it := range page.Rows {
		if it.Key == key {
			return it
		}
	}
	t.Fatalf("%s is not in the %s queue", key, lang)
	return tools.ReviewItem{}
}

func (e *env) enable(t *testing.T, langs ...string) {
	t.Helper()
	for _, l := range langs {
		if _, err := e.cat.EnableLanguage(e.sys(t), tools.EnableLanguageIn{ProjectArg: tools.ProjectArg{ProjectID: e.f.Project.ID}, Language: l}); err != nil {
			t.Fatalf("enabling %s: %v", l, err)
		}
	}
}

func kinds(fs []checkup.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Kind)
	}
	return out
}

// TestApprovalGatedByQA: the catalogue refuses to approve a value with QA findings unless
// the approval overrides them with a reason, which the row's history then shows; an empty
// value is never approved and is saved (deleted) only when cleared explicitly; batch
// approval leaves rows with findings and untranslated rows and names them.
func TestApprovalGatedByQA(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		ctx := e.sys(t)
		e.source(t, "common", "greet", "Hello {name}", "bye", "Goodbye", "thanks", "Thank you", "empty", "Nothing yet")
		e.draft(t, "common", "greet", "nb", "Hei")
		e.draft(t, "common", "bye", "nb", "Ha det")
		e.draft(t, "common", "thanks", "nb", "Takk")

		it := e.item(t, "greet", "nb")
		_, err := e.cat.SaveRow(ctx, tools.SaveRowIn{RowRef: e.ref("common", "greet", "nb"), Value: it.Value, Status: model.StatusApproved, Version: it.Version})
		var qa *tools.QAError
		if !errors.As(err, &qa) || model.ErrorCode(err) != model.CodeUnprocessable || !slices.Contains(kinds(qa.Findings), checkup.KindPlaceholder) {
			t.Fatalf("approving a value that lost {name}: %v", err)
		}
		if got := e.row(t, "common", "greet", "nb"); got.Status != model.StatusNeedsReview {
			t.Fatalf("the refused approval stored status %s", got.Status)
		}
		_, err = e.cat.SaveRow(ctx, tools.SaveRowIn{RowRef: e.ref("common", "greet", "nb"), Value: it.Value, Status: model.StatusApproved, Version: it.Version, Override: true, Reason: "  "})
		if model.ErrorCode(err) != model.CodeInvalid {
			t.Fatalf("an override without a reason: %v", err)
		}
		reason := "the greeting in the app bar has no room for the name"
		if _, err := e.cat.SaveRow(ctx, tools.SaveRowIn{RowRef: e.ref("common", "greet", "nb"), Value: it.Value, Status: model.StatusApproved, Version: it.Version, Override: true, Reason: reason}); err != nil {
			t.Fatalf("an override with a reason: %v", err)
		}
		if got := e.row(t, "common", "greet", "nb"); got.Status != model.StatusApproved || got.Value != "Hei" {
			t.Fatalf("after the override: %+v", got)
		}
		d, err := e.cat.RowDetails(ctx, e.ref("common", "greet", "nb"))
		if err != nil || len(d.Comments) != 1 || !strings.Contains(d.Comments[0].Body, reason) || !strings.Contains(d.Comments[0].Body, checkup.KindLabel(checkup.KindPlaceholder)) {
			t.Fatalf("the reason is not on the row: %+v %v", d.Comments, err)
		}

		// Empty values.
		bye := e.item(t, "bye", "nb")
		if _, err := e.cat.SaveRow(ctx, tools.SaveRowIn{RowRef: e.ref("common", "bye", "nb"), Value: "", Version: bye.Version}); model.ErrorCode(err) != model.CodeInvalid {
			t.Fatalf("saving an empty value without clear: %v", err)
		}
		if _, err := e.cat.SaveRow(ctx, tools.SaveRowIn{RowRef: e.ref("common", "bye", "nb"), Value: "", Status: model.StatusApproved, Clear: true, Version: bye.Version}); model.ErrorCode(err) != model.CodeInvalid {
			t.Fatalf("approving an empty value: %v", err)
		}
		if got := e.row(t, "common", "bye", "nb"); got.Value != "Ha det" {
			t.Fatalf("a refused empty save changed the row: %+v", got)
		}
		if _, err := e.cat.SaveRow(ctx, tools.SaveRowIn{RowRef: e.ref("common", "bye", "nb"), Value: "", Clear: true, Version: bye.Version}); err != nil {
			t.Fatalf("clearing explicitly: %v", err)
		}
		if got := e.row(t, "common", "bye", "nb"); got.Value != "" {
			t.Fatalf("after clearing: %+v", got)
		}

		// Batch: greet is approved already; thanks is clean; a broken draft and an empty row
		// are left and named.
		e.draft(t, "common", "greet", "nb", "Hei du")
		rows := []tools.RowVersion{}
		for _, k := range []string{"greet", "thanks", "empty", "bye"} {
			it := e.item(t, k, "nb")
			rows = append(rows, tools.RowVersion{Namespace: "common", Key: k, Version: it.Version})
		}
		out, err := e.cat.ApproveRows(ctx, tools.ApproveIn{ProjectID: e.f.Project.ID, Language: "nb", Rows: rows})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(out.Approved, []string{"thanks"}) || !slices.Equal(out.QA, []string{"greet"}) || !slices.Equal(out.Skipped, []string{"empty", "bye"}) {
			t.Fatalf("batch approval: %+v", out)
		}
		if got := e.row(t, "common", "greet", "nb"); got.Status != model.StatusNeedsReview {
			t.Fatalf("the batch approved a row with findings: %+v", got)
		}

		// The same through the editor's form: the refusal carries the findings, the batch says
		// what it skipped and why.
		b := e.browser(t)
		b.signIn(t, e.f.User.Email)
		p := "/app/p/" + e.f.Project.ID + "/review/nb"
		b.get(t, p)
		g := e.item(t, "greet", "nb")
		req := url.Values{"ns": {"common"}, "key": {"greet"}, "value": {g.Value}, "version": {g.Version}, "action": {"approve"}}
		b.post(t, p+"/save", req, true).want(t, http.StatusUnprocessableEntity, "QA finding")
		rows2 := url.Values{"sel": {"common\tgreet\t" + g.Version}}
		b.post(t, p+"/approve", rows2, true).want(t, http.StatusSeeOther)
		if got := e.row(t, "common", "greet", "nb"); got.Status != model.StatusNeedsReview {
			t.Fatalf("the form approved a row with findings: %+v", got)
		}
	})
}

// TestPluralForms: a plural row is edited as one field per CLDR category of the target
// language with example numbers, saved back as one ICU value, and checked by the same QA.
func TestPluralForms(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		ctx := e.sys(t)
		e.enable(t, "pl", "ar", "ja")
		e.source(t, "common", "files", "{count, plural, =0 {No files} one {# file} other {# files}}", "who", "{g, select, female {She} male {He} other {They}}")
		selectors := func(it tools.ReviewItem) []string {
			var out []string
			for _, f := range it.Forms.Fields {
				out = append(out, f.Selector)
			}
			return out
		}
		for lang, want := range map[string][]string{"pl": {"=0", "one", "few", "many", "other"}, "ar": {"=0", "zero", "one", "two", "few", "many", "other"},
			"ja": {"=0", "other"}, "nb": {"=0", "one", "other"}} {
			it := e.item(t, "files", lang)
			if it.Forms == nil || !slices.Equal(selectors(it), want) {
				t.Fatalf("%s fields: %+v", lang, it.Forms)
			}
		}
		pl := e.item(t, "files", "pl")
		if f := pl.Forms.Fields[2]; f.Selector != "few" || !strings.HasPrefix(f.Examples, "2, 3, 4, 22") {
			t.Errorf("pl few examples: %q", f.Examples)
		}
		if sel := selectors(e.item(t, "who", "pl")); !slices.Equal(sel, []string{"female", "male", "other"}) {
			t.Errorf("select fields: %v", sel)
		}

		// Typing only one and other: QA names the categories Polish needs.
		forms := &tools.FormsIn{Shape: pl.Forms.Shape, Texts: []string{"Brak plików", "# plik", "", "", "# pliku"}}
		out, err := e.cat.CheckValue(ctx, tools.CheckIn{RowRef: e.ref("common", "files", "pl"), Forms: forms})
		if err != nil || !slices.Contains(kinds(out.Findings), checkup.KindPluralForms) {
			t.Fatalf("pl without few and many: %+v %v", out, err)
		}
		// A brace typed into a field is text: quoted, never a syntax error.
		forms.Texts[2] = "# pliki {"
		out, _ = e.cat.CheckValue(ctx, tools.CheckIn{RowRef: e.ref("common", "files", "pl"), Forms: forms})
		if slices.Contains(kinds(out.Findings), checkup.KindSyntax) {
			t.Fatalf("a typed brace broke the syntax: %+v", out)
		}
		if v, _ := forms.Join(); !strings.Contains(v, "few {# pliki '{'}") {
			t.Fatalf("a typed brace joined as %q", v)
		}
		forms.Texts[2], forms.Texts[3] = "# pliki", "# plików"
		out, _ = e.cat.CheckValue(ctx, tools.CheckIn{RowRef: e.ref("common", "files", "pl"), Forms: forms})
		if len(out.Findings) != 0 {
			t.Fatalf("complete pl forms: %+v", out)
		}
		if _, err := e.cat.SaveRow(ctx, tools.SaveRowIn{RowRef: e.ref("common", "files", "pl"), Forms: forms, Status: model.StatusApproved, Version: pl.Version}); err != nil {
			t.Fatal(err)
		}
		want := "{count, plural, =0 {Brak plików} one {# plik} few {# pliki} many {# plików} other {# pliku}}"
		if got := e.row(t, "common", "files", "pl"); got.Value != want || got.Status != model.StatusApproved {
			t.Fatalf("saved %+v, want %q", got, want)
		}
		// A category the language lacks stays visible, marked, so it is removed on purpose.
		e.draft(t, "common", "files", "ja", "{count, plural, one {#個} other {#個のファイル}}")
		ja := e.item(t, "files", "ja")
		if sel := selectors(ja); !slices.Equal(sel, []string{"=0", "other", "one"}) || !ja.Forms.Fields[2].Foreign || !slices.Contains(kinds(ja.Findings), checkup.KindPluralForms) {
			t.Fatalf("ja with a one form: %+v %v", ja.Forms, ja.Findings)
		}
		if ar := e.item(t, "files", "ar"); ar.Dir != "rtl" || e.item(t, "files", "pl").Dir != "ltr" {
			t.Errorf("directions: ar %q", ar.Dir)
		}
	})
}
