package rest_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/formats"
)

// railsEN is a Rails locale in lokal's own spelling, keys sorted, with the values Psych
// reads as other types than strings and an empty string: exported, it comes back byte for
// byte.
const railsEN = `en:
  date:
    abbr_month_names:
      - ~
      - Jan
      - Feb
      - Mar
      - Apr
      - May
      - Jun
      - Jul
      - Aug
      - Sep
      - Oct
      - Nov
      - Dec
    order:
      - :year
      - :month
      - :day
  number:
    format:
      delimiter: ","
      none:
      precision: 3
      significant: false
      strip_insignificant_zeros: true
      text: "false"
      unit: ""
`

// TestAPIImportYAMLTypes: a Rails file's nulls, symbols, numbers, booleans and empty
// strings keep their YAML types through import, storage and export; a typed value is
// flagged not to translate, and a target file's empty value is warned about.
func TestAPIImportYAMLTypes(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		out := s.importFile(t, "en", "rails", "format=yaml", railsEN)
		if out.Summary.Created != 23 {
			t.Errorf("created %d keys, want 23: %v", out.Summary.Created, out.Created)
		}
		var warned []string
		for _, w := range out.Warnings {
			warned = append(warned, w.Key)
		}
		for _, k := range []string{"date.abbr_month_names.0", "date.order.2", "number.format.none", "number.format.precision", "number.format.significant"} {
			if row, ok := s.translation(t, "rails", k, "en"); !ok || !row.DoNotTranslate {
				t.Errorf("%s is not flagged not to translate: %+v (present %v)", k, row, ok)
			}
		}
		for _, k := range []string{"number.format.text", "number.format.unit", "date.abbr_month_names.1"} {
			if slices.Contains(warned, k) {
				t.Errorf("a warning for the text %s: %v", k, out.Warnings)
			}
		}
		got := s.call(t, "GET", s.readPath("en", "rails")+"?format=yaml", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
		if string(got.body) != railsEN {
			t.Errorf("export differs from the file:\n--- got\n%s\n--- want\n%s", got.body, railsEN)
		}

		// A translation keeps its types too; its empty string is said, not dropped silently.
		nb := strings.NewReplacer("en:", "nb:", "- :year\n      - :month\n      - :day", "- :day\n      - :month\n      - :year",
			"precision: 3", "precision: 2", `unit: ""`, `unit: ''`).Replace(railsEN)
		out = s.importFile(t, "nb", "rails", "format=yaml", nb)
		unitWarned := false
		for _, w := range out.Warnings {
			unitWarned = unitWarned || (w.Key == "number.format.unit" && strings.Contains(w.Message, "empty"))
		}
		if !unitWarned {
			t.Errorf("no warning for the empty value: %v", out.Warnings)
		}
		got = s.call(t, "GET", s.readPath("nb", "rails")+"?format=yaml", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
		want := strings.Replace(nb, "      unit: ''\n", "", 1)
		if string(got.body) != want {
			t.Errorf("nb export:\n--- got\n%s\n--- want\n%s", got.body, want)
		}
	})
}

// TestAPIExportKeepsEmptySource: a source text that is the empty string is exported as
// one in every monolingual format (an app reading the file fails on a missing key).
func TestAPIExportKeepsEmptySource(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		for _, name := range formats.Names() {
			c, _ := formats.Lookup(name)
			if c.Bilingual || c.Multilingual {
				continue
			}
			f := &formats.File{Languages: []string{"en"}, Entries: []formats.Entry{
				{Key: "empty", Values: map[string]formats.Value{"en": {Text: ""}}},
				{Key: "full", Values: map[string]formats.Value{"en": {Text: "Full"}}}}}
			body, err := c.Encode(f, formats.Options{Language: "en", SourceLanguage: "en"})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			s.importFile(t, "en", "empty-"+name, "format="+name, string(body))
			got := s.call(t, "GET", s.readPath("en", "empty-"+name)+"?format="+name, tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
			back, err := c.Decode(got.body, formats.Options{Language: "en", SourceLanguage: "en"})
			if err != nil {
				t.Fatalf("%s: %v\n%s", name, err, got.body)
			}
			keys := map[string]string{}
			for _, e := range back.Entries {
				keys[e.Key] = e.Values["en"].Text
			}
			if v, ok := keys["empty"]; !ok || v != "" || keys["full"] != "Full" {
				t.Errorf("%s: export lost the empty value: %q\n%s", name, keys, got.body)
			}
		}
	})
}
