package tools_test

import (
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/checkup"
)

// TestCheckupQACategories: the stored checkup report carries message.Check's structural
// categories form by form: plural categories of the target language, an argument moved
// between forms, an unclosed '{'; an entity and its character are equal.
func TestCheckupQACategories(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		x := newCheckupFixture(t, dialect)
		if _, err := x.cat.EnableLanguage(x.ctx, tools.EnableLanguageIn{ProjectArg: tools.ProjectArg{ProjectID: x.proj}, Language: "pl"}); err != nil {
			t.Fatal(err)
		}
		x.sync(t, "en", "qa", map[string]string{
			"files":    "{n, plural, one {# file} other {# files}}",
			"complete": "{n, plural, one {# file} other {# files}}",
			"owner":    "{n, plural, one {{name} has a file} other {# files}}",
			"hello":    "Hello {name}",
			"tom":      "Tom &amp; Jerry are here",
		}, false)
		x.sync(t, "pl", "qa", map[string]string{
			"files":    "{n, plural, one {# plik} other {# pliki}}",
			"complete": "{n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}",
			"owner":    "{n, plural, one {# plik} few {{name} ma # pliki} many {# plików} other {# pliku}}",
			"hello":    "Cześć {name}",
			"tom":      "Tom & Jerry są tutaj",
		}, false)
		// A value with a syntax error no door stores any more, as a row stored before the
		// rule (value_syntax.go) still holds it.
		if _, err := storagetest.SQL(t, x.dsn).Exec(`UPDATE translations SET value = 'Cześć {name' WHERE language = 'pl' AND value = 'Cześć {name}'`); err != nil {
			t.Fatal(err)
		}
		r := x.run(t)
		_, all := x.allFindings(t, r.ID)
		got := map[string][]checkup.Finding{}
		for _, f := range all {
			if f.Language == "pl" && f.Kind != checkup.KindMissing {
				got[f.Key+" "+f.Kind] = append(got[f.Key+" "+f.Kind], f)
			}
		}
		want := map[string]int{
			"files " + checkup.KindPluralForms:    1,
			"owner " + checkup.KindPlaceholder:    2, // lacking in one, extra in few
			"hello " + checkup.KindSyntax:         1,
			"complete " + checkup.KindPluralForms: 0,
			"tom " + checkup.KindMarkup:           0,
		}
		for k, n := range want {
			if len(got[k]) != n {
				t.Errorf("%s: %d findings, want %d: %+v", k, len(got[k]), n, got[k])
			}
		}
		if len(got) != 4 {
			t.Errorf("findings beyond the expected ones: %+v", got)
		}
		if fs := got["owner "+checkup.KindPlaceholder]; len(fs) == 2 && !(strings.Contains(fs[0].Message+fs[1].Message, "`one` form") && strings.Contains(fs[0].Message+fs[1].Message, "`few` form")) {
			t.Errorf("the messages do not name the forms: %+v", fs)
		}
		if r.Summary.ByKind[checkup.KindPluralForms] != 1 || r.Summary.ByKind[checkup.KindSyntax] != 1 {
			t.Errorf("summary %+v", r.Summary.ByKind)
		}
		x.sameAsReference(t, r.ID)
	})
}
