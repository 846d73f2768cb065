package app_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// embeddedSources are the rows the embedded-forms tests use: a plural inside a sentence
// with markup and an i18next placeholder, and a select nested in a plural.
var embeddedSources = []string{
	"deleted", "Deleted {count, plural, one {# file} other {# files}} from <strong>{{folder}}</strong>",
	"invited", "{count, plural, one {{g, select, female {She invited # guest} other {They invited # guest}}} other {{g, select, female {She invited # guests} other {They invited # guests}}}}",
}

func formKeys(it tools.ReviewItem) []string {
	var out []string
	for _, f := range it.Forms.Fields {
		out = append(out, f.Key)
	}
	return out
}

// TestFormsEmbedded: a plural inside a sentence and a select nested in a plural get a
// field per text of the sentence and per form of each block, for the target language's
// categories; a stored value loaded into the fields and joined unedited is byte-identical
// (ar with its placeholders isolated included); a brace typed in a form is text.
func TestFormsEmbedded(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, e *env) {
		e.enable(t, "pl", "ar", "ja")
		e.source(t, "common", embeddedSources...)
		if got := formKeys(e.item(t, "deleted", "pl")); !slices.Equal(got, []string{"@0", "count:one@0", "count:few@0", "count:many@0", "count:other@0", "@1"}) {
			t.Fatalf("pl deleted fields: %v", got)
		}
		if got := formKeys(e.item(t, "invited", "ja")); !slices.Equal(got, []string{"count:other/g:female@0", "count:other/g:other@0"}) {
			t.Fatalf("ja invited fields: %v", got)
		}
		pl := e.item(t, "invited", "pl")
		if got := formKeys(pl); len(got) != 8 || got[2] != "count:few/g:female@0" || pl.Forms.Fields[2].Source != "She invited # guests" {
			t.Fatalf("pl invited fields: %v %+v", got, pl.Forms.Fields)
		}
		// The sentence's text is a field with the source's text to copy.
		if f := e.item(t, "deleted", "pl").Forms.Fields[5]; f.Source != " from <strong>{{folder}}</strong>" || !strings.Contains(f.Label, "after {count}") {
			t.Errorf("the sentence's last text: %+v", f)
		}

		stored := map[string]map[string]string{
			"pl": {"deleted": "Usunięto {count, plural,\n  one {# plik}\n  few {# pliki ''x''}\n  many {# plików '{'}\n  other {# pliku}\n } z <strong>{{folder}}</strong>",
				"invited": "{count, plural, one {{g, select, female {Zaprosiła # gościa} other {Zaprosili # gościa}}} few {{g, select, female {Zaprosiła # gości} other {Zaprosili # gości}}} many {{g, select, female {Zaprosiła # gości} other {Zaprosili # gości}}} other {{g, select, female {Zaprosiła # gościa} other {Zaprosili # gościa}}}}"},
			"ar": {"deleted": "تم حذف {count, plural, zero {لا ملفات} one {ملف واحد} two {ملفين} few {# ملفات} many {# ملفًا} other {# ملف}} من <strong>{{folder}}</strong>"},
			"ja": {"deleted": "<strong>{{folder}}</strong>から{count, plural, other {#個のファイル}}を削除しました",
				"invited": "{count, plural, other {{g, select, female {彼女は#人を招待しました} other {#人を招待しました}}}}"},
		}
		for lang, rows := range stored {
			for key, v := range rows {
				e.draft(t, "common", key, lang, v)
				it := e.item(t, key, lang)
				if it.Forms == nil {
					t.Fatalf("%s %s: no fields for %q", lang, key, v)
				}
				texts := make([]string, len(it.Forms.Fields))
				for i, f := range it.Forms.Fields {
					texts[i] = f.Text
				}
				got, err := (&tools.FormsIn{Shape: it.Forms.Shape, Texts: texts}).Join()
				if err != nil || got != v {
					t.Errorf("%s %s round trip:\n got %q (%v)\nwant %q", lang, key, got, err, v)
				}
			}
		}
		// Arabic fields isolate the syntax from the text; saving takes the isolates out.
		ar := e.item(t, "deleted", "ar")
		if f := ar.Forms.Fields[len(ar.Forms.Fields)-1]; f.Text != " من \u2066<strong>\u2069\u2066{{folder}}\u2069\u2066</strong>\u2069" {
			t.Errorf("ar sentence text: %q", f.Text)
		}
		if f := ar.Forms.Fields[4]; f.Selector != "few" || f.Text != "\u2066#\u2069 ملفات" {
			t.Errorf("ar few: %+v", f)
		}

		// A '}' typed in a form and a '#' typed outside a plural are text; the value keeps its
		// structure.
		it := e.item(t, "deleted", "pl")
		texts := make([]string, len(it.Forms.Fields))
		for i, f := range it.Forms.Fields {
			texts[i] = f.Text
		}
		texts[0], texts[2] = "Usunięto #", "# pliki}"
		v, err := (&tools.FormsIn{Shape: it.Forms.Shape, Texts: texts}).Join()
		if err != nil {
			t.Fatal(err)
		}
		pieces, ok := message.Split(v, message.ICU|message.I18next|message.HTML)
		if !ok || len(pieces) != 3 || pieces[0].Text != "Usunięto #" || len(pieces[1].Block.Forms) != 4 || pieces[1].Block.Form("few").Pieces[0].Text != "# pliki'}'" {
			t.Fatalf("typed text changed the structure: %q", v)
		}
		if _, err := (&tools.FormsIn{Shape: "{", Texts: texts}).Join(); err == nil {
			t.Error("a broken shape was joined")
		}
	})
}

func (e *env) history(t *testing.T, key, lang string) []model.HistoryEntry {
	t.Helper()
	d, err := e.cat.RowDetails(e.sys(t), e.ref("common", key, lang))
	if err != nil {
		t.Fatalf("history of %s: %v", key, err)
	}
	return d.History
}
