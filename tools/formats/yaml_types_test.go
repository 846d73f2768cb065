package formats

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestYAMLGoldenRailsTypes reads a Rails locale's non-string values (a sequence with a
// leading null, symbols, an integer, a float, booleans, a date, an empty string, a null)
// as lokal's typed spelling, not to be translated, and writes the file back byte for byte.
func TestYAMLGoldenRailsTypes(t *testing.T) {
	t.Parallel()
	de := func(s string) map[string]Value { return map[string]Value{"de": {Text: s}} }
	typed := func(k, s string) Entry { return Entry{Key: k, Values: de(s), DoNotTranslate: true} }
	text := func(k, s string) Entry { return Entry{Key: k, Values: de(s)} }
	want := &File{
		Languages: []string{"de"},
		Entries: []Entry{
			typed("date.abbr_month_names.0", "!!null ~"),
			text("date.abbr_month_names.1", "Jan."), text("date.abbr_month_names.2", "Feb."),
			text("date.abbr_month_names.3", "März"), text("date.abbr_month_names.4", "Apr."),
			text("date.abbr_month_names.5", "Mai"), text("date.abbr_month_names.6", "Juni"),
			text("date.abbr_month_names.7", "Juli"), text("date.abbr_month_names.8", "Aug."),
			text("date.abbr_month_names.9", "Sep."), text("date.abbr_month_names.10", "Okt."),
			text("date.abbr_month_names.11", "Nov."), text("date.abbr_month_names.12", "Dez."),
			typed("date.order.0", "!!symbol :day"), typed("date.order.1", "!!symbol :month"),
			typed("date.order.2", "!!symbol :year"),
			text("number.format.delimiter", "."),
			typed("number.format.precision", "!!int 2"),
			typed("number.format.ratio", "!!float 0.5"),
			typed("number.format.significant", "!!bool false"),
			typed("number.format.strip_insignificant_zeros", "!!bool yes"),
			text("number.format.unit", ""),
			typed("number.format.nothing", "!!null"),
			text("number.format.quoted_false", "false"),
			text("number.format.quoted_symbol", ":day"),
			text("number.format.quoted_int", "2"),
			typed("released", "!!timestamp 2024-01-31"),
		},
	}
	f := goldenRoundTrip(t, "yaml", "yaml/types.yml", Options{Language: "de"}, want)
	entriesRoundTrip(t, "yaml", f, Options{Language: "de"})
	if len(f.Warnings) != 0 {
		t.Errorf("warnings %v, want none", f.Warnings)
	}
}

// TestYAMLTypesSurviveReencoding: a file in another spelling (a flow sequence, ~ and
// nothing for null, :symbols, yes, ”) comes back with every value of the same YAML type
// Psych reads, through lokal's own export (Render, keys sorted).
func TestYAMLTypesSurviveReencoding(t *testing.T) {
	t.Parallel()
	in := "en:\n" +
		"  date:\n" +
		"    abbr_day_names: [~, Mon, Tue, Wed, Thu, Fri, Sat, Sun, Mon2, Tue2, Wed2, Thu2]\n" +
		"    order:\n    - :year\n    - :month\n    - :day\n" +
		"  number:\n" +
		"    precision: 3\n" +
		"    strip: false\n" +
		"    on: On\n" +
		"    unit: ''\n" +
		"    none:\n" +
		"    text: 'false'\n"
	f, err := Decode("yaml", []byte(in), Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Render("yaml", "en", rowsOf(f, "en"))
	if err != nil {
		t.Fatal(err)
	}
	want, got := psychTypes(t, []byte(in)), psychTypes(t, out)
	if len(got) != len(want) {
		t.Errorf("got %d values, want %d:\n%s", len(got), len(want), out)
	}
	for path, w := range want {
		if got[path] != w {
			t.Errorf("%s = %s, want %s\n%s", path, got[path], w, out)
		}
	}
}

// psychTypes maps each scalar's path (with [i] for a sequence item) to the type Psych
// reads it as and its value.
func psychTypes(t *testing.T, data []byte) map[string]string {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var walk func(path string, n *yaml.Node)
	walk = func(path string, n *yaml.Node) {
		switch n.Kind {
		case yaml.DocumentNode:
			walk(path, n.Content[0])
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(path+"/"+n.Content[i].Value, n.Content[i+1])
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(path+"["+string(rune('a'+i))+"]", c)
			}
		case yaml.ScalarNode:
			typ := "!!str"
			if n.Style == 0 {
				typ = cmpOr(yamlPlainType(n.Value), "!!str")
			}
			out[path] = typ + " " + n.Value
		}
	}
	walk("", &doc)
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestYAMLTypedExport: only a value in lokal's typed spelling whose scalar reads as its
// tag is written unquoted; a translator's "false", ":day" or "3" stays a string, and so
// does a typed spelling that does not read as its type.
func TestYAMLTypedExport(t *testing.T) {
	t.Parallel()
	tests := []struct{ value, want string }{
		{"!!bool false", "k: false"},
		{"!!symbol :day", "k: :day"},
		{"!!int 3", "k: 3"},
		{"!!null ~", "k: ~"},
		{"!!null", "k:"},
		{"false", `k: "false"`},
		{":day", `k: ":day"`},
		{"3", `k: "3"`},
		{"", `k: ""`},
		{"!!bool falsch", `k: "!!bool falsch"`},
		{"!!int 3 Stellen", `k: "!!int 3 Stellen"`},
		{"!!str x", `k: "!!str x"`},
	}
	for _, tt := range tests {
		out, err := Render("yaml", "de", []Row{{Key: "k", Value: tt.value}})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(strings.TrimPrefix(string(out), "de:\n")); got != tt.want {
			t.Errorf("%q written %q, want %q", tt.value, got, tt.want)
		}
	}
}

// TestYAMLTypesWarn: what the codec cannot keep as the file has it is said, not dropped.
func TestYAMLTypesWarn(t *testing.T) {
	t.Parallel()
	in := "en:\n  sym: !ruby/symbol day\n  looks: \"!!bool false\"\n  tagged: !!int 3\n  str: !!str 3\n"
	f, err := Decode("yaml", []byte(in), Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range f.Entries {
		got[e.Key] = e.Values["en"].Text
	}
	if got["tagged"] != "!!int 3" || got["str"] != "3" || got["sym"] != "day" {
		t.Errorf("values %v", got)
	}
	warned := map[string]bool{}
	for _, w := range f.Warnings {
		warned[w.Key] = true
	}
	if !warned["sym"] || !warned["looks"] || len(f.Warnings) != 2 {
		t.Errorf("warnings %v, want sym and looks", f.Warnings)
	}
}
