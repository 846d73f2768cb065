package formats

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestXLIFF2GoldenAngular(t *testing.T) {
	t.Parallel()
	f := goldenRoundTrip(t, "xliff2", "xliff2/angular.pl.xlf", Options{Language: "pl", SourceLanguage: "en"}, nil)
	if f.SourceLanguage != "en" || !reflect.DeepEqual(f.Languages, []string{"pl"}) || len(f.Entries) != 5 {
		t.Fatalf("file: %q %q, %d entries", f.SourceLanguage, f.Languages, len(f.Entries))
	}
	inbox := xliffEntry(t, f, "inboxTitle")
	if inbox.Comment != "Title of the inbox page\nMail inbox" || inbox.Values["pl"] != (Value{"Skrzynka odbiorcza", StateTranslated}) {
		t.Errorf("notes but location make the comment, final is translated: %#v", inbox)
	}
	count := xliffEntry(t, f, "unreadCount")
	p, ok := SinglePlural(count.Values["pl"].Text)
	if !ok || len(p.Forms) != 5 || count.Comment != "" {
		t.Errorf("ICU in the segment is one plural value: %#v", count)
	}
	greet := xliffEntry(t, f, "greeting")
	if want := `Cześć, <ph id="0" equiv="PH" disp="user.firstName"/>! Przeczytaj <pc id="1" equivStart="START_LINK" equivEnd="CLOSE_LINK" dispStart="&lt;a&gt;" dispEnd="&lt;/a&gt;">regulamin & zasady</pc>.`; greet.Values["pl"] != (Value{want, StateNeedsReview}) {
		t.Errorf("inline markup:\n got %q\nwant %q", greet.Values["pl"].Text, want)
	}
	two := xliffEntry(t, f, "twoSentences")
	if two.Source != "First sentence. Second <sentence>." || two.Values["pl"].Text != "Pierwsze zdanie. Drugie <zdanie>." || two.Meta["segments"] == "" {
		t.Errorf("segments are joined: %#v", two)
	}
	code := xliffEntry(t, f, "code")
	if !code.DoNotTranslate || code.Source != "a < b && c" || len(code.Values) != 0 {
		t.Errorf("translate=no, CDATA, no target: %#v", code)
	}
}

func TestXLIFF2GoldenFiles(t *testing.T) {
	t.Parallel()
	f := goldenRoundTrip(t, "xliff2", "xliff2/files.ar.xlf", Options{Language: "ar", SourceLanguage: "en"}, nil)
	var keys []string
	for _, e := range f.Entries {
		keys = append(keys, e.Key)
	}
	// A unit's key is its id; one another file already used is prefixed with its file's.
	if want := []string{"files", "open", "mail/open"}; !reflect.DeepEqual(keys, want) {
		t.Fatalf("keys %q, want %q", keys, want)
	}
	for i, want := range []string{"web", "web", "mail"} {
		if got := f.Entries[i].Meta["file"]; got != want {
			t.Errorf("%s: Meta file %q, want %q", f.Entries[i].Key, got, want)
		}
	}
	if got := f.Entries[2].Meta["id"]; got != "open" {
		t.Errorf("a prefixed key keeps its unit id in Meta: %q", got)
	}
	if v := f.Entries[1].Values["ar"]; v.State != StateStale {
		t.Errorf("subState lokal:stale: %#v", v)
	}
	if v, ok := f.Entries[2].Values["ar"]; !ok || v != (Value{}) {
		t.Errorf("an empty target is an empty value: %#v", f.Entries[2].Values)
	}
}

func TestXLIFF2ExportRoundTrip(t *testing.T) {
	t.Parallel()
	f := &File{SourceLanguage: "en", Languages: []string{"pl"}, Entries: []Entry{
		{Key: "files", Source: "{n, plural, one {# file} other {# files}}", Values: map[string]Value{"pl": {Text: "{n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}", State: StateTranslated}}, Comment: "Files & <folders>"},
		{Key: "hi", Source: `Hi <ph id="0" disp="{{ name }}"/>`, Values: map[string]Value{"pl": {Text: `Cześć <ph id="0" disp="{{ name }}"/>`, State: StateStale}}},
		{Key: "empty", Source: "Tom & Jerry\r\n", Values: map[string]Value{"pl": {}}},
		{Key: "brand", Source: "Acme", Values: map[string]Value{}, DoNotTranslate: true},
		{Key: "review", Source: "x", Values: map[string]Value{"pl": {Text: "y", State: StateNeedsReview}}},
	}}
	o := Options{Language: "pl", SourceLanguage: "en"}
	entriesRoundTrip(t, "xliff2", f, o)
	out, err := Encode("xliff2", f, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`srcLang="en" trgLang="pl"`, `<target/>`, `translate="no"`, `state="initial" subState="lokal:stale"`, `<note>Files &amp; &lt;folders&gt;</note>`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("export lacks %q:\n%s", want, out)
		}
	}
}

// A value edited in lokal no longer fits the segments: it is written as one.
func TestXLIFF2SegmentsEdited(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "xliff2", "angular.pl.xlf"))
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Language: "pl"}
	f, err := Decode("xliff2", data, o)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range f.Entries {
		if e.Key == "twoSentences" {
			f.Entries[i].Values["pl"] = Value{Text: "Całkiem nowe.", State: StateTranslated}
		}
	}
	out, err := Encode("xliff2", f, o)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode("xliff2", out, o)
	if err != nil {
		t.Fatal(err)
	}
	two := xliffEntry(t, back, "twoSentences")
	if two.Values["pl"].Text != "Całkiem nowe." || two.Source != "First sentence. Second <sentence>." {
		t.Errorf("edited value: %#v", two)
	}
}

func TestXLIFF2BrokenRefused(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		doc  string
		line int
	}{
		"mismatched tag": {"<xliff version=\"2.0\">\n<file id=\"f\">\n<unit id=\"u\">\n<segment><source>x</target></segment>\n</unit></file></xliff>", 4},
		"unclosed":       {"<xliff version=\"2.0\">\n<file id=\"f\">\n", 3},
		"no segment":     {"<xliff version=\"2.0\"><file id=\"f\">\n\n<unit id=\"u\"></unit></file></xliff>", 3},
		"no unit id":     {"<xliff version=\"2.0\"><file id=\"f\">\n<unit><segment><source/></segment></unit></file></xliff>", 2},
		"xliff 1.2":      {"<?xml version=\"1.0\"?>\n<xliff version=\"1.2\"/>", 2},
		"bad char ref":   {"<xliff version=\"2.0\">\n<file id=\"f\"><unit id=\"u\"><segment><source>&#0;</source></segment></unit></file></xliff>", 2},
	} {
		_, err := Decode("xliff2", []byte(c.doc), Options{Language: "de"})
		var fe *FileError
		if !errors.As(err, &fe) {
			t.Errorf("%s: %v is not a *FileError", name, err)
			continue
		}
		if fe.Line != c.line {
			t.Errorf("%s: line %d, want %d (%v)", name, fe.Line, c.line, err)
		}
	}
}

func FuzzDecodeXLIFF2(f *testing.F) {
	for _, p := range []string{"angular.pl.xlf", "files.ar.xlf"} {
		data, err := os.ReadFile(filepath.Join("testdata", "xliff2", p))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		xlFuzzRoundTrip(t, "xliff2", data, Options{Language: "pl", SourceLanguage: "en"})
	})
}
