package formats

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestWhatEachFormatKeeps measures, for every codec, which parts of lokal's entries survive
// a file written in Polish and read back, and holds the result to the table below, which
// doc.go and the README repeat: a codec that starts to lose something, or to keep something
// the table says it loses, fails here and the table is updated with it.
func TestWhatEachFormatKeeps(t *testing.T) {
	t.Parallel()
	o := Options{Language: "pl", SourceLanguage: "en"}
	in := keepsFile()
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := Encode(name, in, o)
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			out, err := Decode(name, data, o)
			if err != nil {
				t.Fatalf("Decode of our own file: %v\n%s", err, data)
			}
			got := measureKeeps(in, out, o.Language)
			if want := formatKeeps[name]; !slices.Equal(got, want) {
				t.Errorf("%s keeps %v, the table says %v\n%s", name, got, want, data)
			}
		})
	}
}

// keepsFeatures are what TestWhatEachFormatKeeps measures, in the table's column order.
var keepsFeatures = []string{"values", "plurals", "comments", "source", "stale", "needs_review", "do_not_translate"}

// formatKeeps is what each format keeps of keepsFeatures (values: text with a line break,
// quotes, an ampersand and markup, under dotted keys; plurals: a Polish plural with its four
// categories, '#' read back as the format's own number placeholder where it has one).
// PO's fuzzy and XLIFF 1.2's needs-review-translation are one "not final" mark for both
// needs_review and stale: a stale value reads back as needs_review there.
// Untranslated keys are the exporter's choice, not the codec's: left out of monolingual
// files, written with an empty target in bilingual ones.
var formatKeeps = map[string][]string{
	"json":        {"values", "plurals"},
	"i18next":     {"values", "plurals"},
	"po":          {"values", "comments", "source", "needs_review"}, // Polish has 3 gettext forms: no slot for CLDR's "other" (fractions)
	"xliff":       {"values", "plurals", "comments", "source", "needs_review", "do_not_translate"},
	"xliff2":      {"values", "plurals", "comments", "source", "stale", "needs_review", "do_not_translate"},
	"android":     {"values", "plurals", "comments", "do_not_translate"},
	"strings":     {"values", "plurals", "comments"}, // the ICU value as text
	"stringsdict": {"values", "plurals", "comments"},
	"xcstrings":   {"values", "plurals", "comments", "source", "stale", "needs_review", "do_not_translate"},
	"arb":         {"values", "plurals", "comments"},
	"yaml":        {"values", "plurals", "comments"},
	"properties":  {"values", "plurals", "comments"},
	"csv":         {"values", "plurals", "source"},
}

func keepsFile() *File {
	v := func(text string, s State) map[string]Value { return map[string]Value{"pl": {Text: text, State: s}} }
	return &File{
		SourceLanguage: "en",
		Languages:      []string{"pl"},
		Entries: []Entry{
			{Key: "home.greeting", Source: "Hello", Values: v("Cześć", StateTranslated), Comment: "Shown on the home page"},
			{Key: "home.files", Source: "{count, plural, one {# file} other {# files}}",
				Values: v("{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}", StateTranslated)},
			{Key: "home.body", Source: "Line 1\nLine \"2\" & <b>3</b>", Values: v("Linia 1\nLinia \"2\" & <b>3</b>", StateTranslated)},
			{Key: "brand", Source: "lokal", Values: v("lokal", StateTranslated), DoNotTranslate: true},
			{Key: "menu.old", Source: "Old", Values: v("Stary", StateStale)},
			{Key: "menu.draft", Source: "Draft", Values: v("Szkic", StateNeedsReview)},
			{Key: "menu.empty", Source: "Empty", Values: v("", StateNone)},
		},
	}
}

// measureKeeps compares what came back with what went in, feature by feature.
func measureKeeps(in, out *File, lang string) []string {
	got := map[string]*Entry{}
	for i := range out.Entries {
		got[out.Entries[i].Key] = &out.Entries[i]
	}
	value := func(key string) (Value, bool) {
		e := got[key]
		if e == nil {
			return Value{}, false
		}
		v, ok := e.Values[lang]
		return v, ok
	}
	want := func(key string) Value { return keepsEntry(in, key).Values[lang] }
	has := map[string]bool{}
	v1, ok1 := value("home.greeting")
	v3, ok3 := value("home.body")
	has["values"] = ok1 && ok3 && v1.Text == want("home.greeting").Text && v3.Text == want("home.body").Text
	vp, _ := value("home.files")
	has["plurals"] = samePlural(want("home.files").Text, vp.Text)
	has["comments"] = got["home.greeting"] != nil && strings.TrimSpace(got["home.greeting"].Comment) == "Shown on the home page"
	has["source"] = got["home.body"] != nil && got["home.body"].Source == keepsEntry(in, "home.body").Source
	vs, _ := value("menu.old")
	has["stale"] = vs.State == StateStale
	vr, _ := value("menu.draft")
	has["needs_review"] = vr.State == StateNeedsReview
	has["do_not_translate"] = got["brand"] != nil && got["brand"].DoNotTranslate
	var out2 []string
	for _, f := range keepsFeatures {
		if has[f] {
			out2 = append(out2, f)
		}
	}
	return out2
}

// samePlural: got has want's selectors in order, and each form's text is want's with '#'
// written as some placeholder of the format ("%d", "{{count}}", "%{count}").
func samePlural(want, got string) bool {
	w, ok1 := SinglePlural(want)
	g, ok2 := SinglePlural(got)
	if !ok1 || !ok2 || len(w.Forms) != len(g.Forms) {
		return false
	}
	for i, f := range w.Forms {
		gf := g.Forms[i]
		if gf.Selector != f.Selector {
			return false
		}
		before, after, found := strings.Cut(f.Text, "#")
		if !found {
			if gf.Text != f.Text {
				return false
			}
			continue
		}
		if gf.Text != f.Text && (!strings.HasPrefix(gf.Text, before) || !strings.HasSuffix(gf.Text, after) ||
			len(gf.Text) <= len(before)+len(after)) {
			return false
		}
	}
	return true
}

func keepsEntry(f *File, key string) *Entry {
	for i := range f.Entries {
		if f.Entries[i].Key == key {
			return &f.Entries[i]
		}
	}
	panic(fmt.Sprintf("no entry %q", key))
}
