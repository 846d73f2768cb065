package formats

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/message"
)

func xliffEntry(t *testing.T, f *File, key string) Entry {
	t.Helper()
	for _, e := range f.Entries {
		if e.Key == key {
			return e
		}
	}
	t.Fatalf("no entry %q", key)
	return Entry{}
}

func TestXLIFFGoldenAngular(t *testing.T) {
	t.Parallel()
	f := goldenRoundTrip(t, "xliff", "xliff/angular.de.xlf", Options{Language: "de", SourceLanguage: "en"}, nil)
	if f.SourceLanguage != "en" || !reflect.DeepEqual(f.Languages, []string{"de"}) || len(f.Entries) != 8 {
		t.Fatalf("file: %q %q, %d entries", f.SourceLanguage, f.Languages, len(f.Entries))
	}
	title := xliffEntry(t, f, "cartTitle")
	if title.Comment != "Heading of the cart page\nShop cart" || title.Values["de"] != (Value{"Ihr Warenkorb", StateTranslated}) {
		t.Errorf("cartTitle: %#v", title)
	}
	greet := xliffEntry(t, f, "cartGreeting")
	if want := `Hallo <x id="INTERPOLATION" equiv-text="{{ user.name }}"/>, Sie haben <x id="INTERPOLATION_1" equiv-text="{{ count }}"/> Artikel`; greet.Values["de"].Text != want {
		t.Errorf("interpolations: got %q want %q", greet.Values["de"].Text, want)
	}
	items := xliffEntry(t, f, "cartItems")
	p, ok := SinglePlural(items.Values["de"].Text)
	if !ok || p.Arg != "VAR_PLURAL" || len(p.Forms) != 3 || items.Values["de"].State != StateNeedsReview {
		t.Errorf("the ICU target is not one plural value: %#v", items.Values["de"])
	}
	bold := xliffEntry(t, f, "boldTerms")
	if !strings.Contains(bold.Source, "terms & conditions") || !strings.HasSuffix(bold.Source, " <now>") || bold.Values["de"].State != StateNeedsReview {
		t.Errorf("escapes: %#v", bold)
	}
	if g := xliffEntry(t, f, "pairedLink"); g.Source != `See <g id="1" ctype="x-a">the <x id="2"/> docs & more</g>` {
		t.Errorf("paired <g>: %q", g.Source)
	}
	if b := xliffEntry(t, f, "brandName"); !b.DoNotTranslate {
		t.Errorf("translate=no: %#v", b)
	}
	cd := xliffEntry(t, f, "scriptSnippet")
	if cd.Source != "if (a < b && c > d) { go(); }" || cd.Meta["source.cdata"] != "true" || cd.Values["de"].State != StateTranslated {
		t.Errorf("CDATA: %#v", cd)
	}
	if u := xliffEntry(t, f, "untranslated"); len(u.Values) != 0 || u.Values == nil {
		t.Errorf("a unit without <target> has no value: %#v", u.Values)
	}
}

func TestXLIFFGoldenXcodePlurals(t *testing.T) {
	t.Parallel()
	f := goldenRoundTrip(t, "xliff", "xliff/xcode.ru.xliff", Options{Language: "ru", SourceLanguage: "en"}, nil)
	if len(f.Entries) != 7 {
		t.Fatalf("%d entries, want 7 (plural units become one entry per key)", len(f.Entries))
	}
	n := xliffEntry(t, f, "NOTES_COUNT")
	if want := "{notes, plural, =0 {Нет заметок} one {%d заметка} few {%d заметки} many {%d заметок} other {%d заметки}}"; n.Values["ru"].Text != want {
		t.Errorf("ru plural with Xcode's zero:\n got %q\nwant %q", n.Values["ru"].Text, want)
	}
	if want := "{notes, plural, =0 {No notes} one {%d note} few {%d notes} many {%d notes} other {%d notes}}"; n.Source != want {
		t.Errorf("source plural: %q", n.Source)
	}
	s := xliffEntry(t, f, "SHARED_WITH")
	if !strings.HasPrefix(s.Values["ru"].Text, "Доступно {people, plural, one {%lld человеку} ") || !strings.Contains(s.Values["ru"].Text, "} в {folders, plural, ") {
		t.Errorf("two variables: %q", s.Values["ru"].Text)
	}
	cam := xliffEntry(t, f, "NSCameraUsageDescription")
	if cam.Source != "Scan documents & receipts" || cam.Comment != "Privacy - Camera Usage Description" || len(cam.Values) != 0 {
		t.Errorf("untranslated unit: %#v", cam)
	}
	if cam.Meta["file"] != "Notes/en.lproj/InfoPlist.strings" || n.Meta["file"] != "Notes/en.lproj/Localizable.stringsdict" {
		t.Errorf("the file a unit belongs to: %q, %q", cam.Meta["file"], n.Meta["file"])
	}
	if h := f.Meta["file.2.header"]; !strings.Contains(h, `tool-id="com.apple.dt.xcode"`) {
		t.Errorf("header not kept: %q", h)
	}
}

func TestXLIFFGoldenCatalogPlurals(t *testing.T) {
	t.Parallel()
	f := goldenRoundTrip(t, "xliff", "xliff/catalog.pl.xliff", Options{Language: "pl", SourceLanguage: "en"}, nil)
	want := []string{"%lld items", "Found %#@results@", "Tap here|==|device.iphone"}
	var got []string
	for _, e := range f.Entries {
		got = append(got, e.Key)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("keys %q, want %q", got, want)
	}
	if v := f.Entries[0].Values["pl"]; v.Text != "{count, plural, one {%lld produkt} few {%lld produkty} many {%lld produktów} other {%lld produktu}}" || v.State != StateTranslated {
		t.Errorf("bare plural: %#v", v)
	}
	if v := f.Entries[1].Values["pl"]; v.Text != "Znaleziono {results, plural, =0 {nic} one {%lld wynik} few {%lld wyniki} many {%lld wyników} other {%lld wyniku}}" || v.State != StateNeedsReview {
		t.Errorf("substitution: %#v", v)
	}
}

func TestXLIFFGoldenGroups(t *testing.T) {
	t.Parallel()
	f := goldenRoundTrip(t, "xliff", "xliff/groups.ja.xlf", Options{Language: "ja", SourceLanguage: "en"}, nil)
	files := xliffEntry(t, f, "settings.account.files")
	if files.Values["ja"] != (Value{"{count, plural, other {# 個のファイル}}", StateNeedsReview}) || files.Comment != "Shown under the avatar & name" {
		t.Errorf("grouped unit: %#v", files)
	}
	foot := xliffEntry(t, f, "footer")
	if !foot.DoNotTranslate || foot.Source != "© Acme <2026>" || foot.Values["ja"] != (Value{}) {
		t.Errorf("footer: %#v", foot)
	}
	if _, ok := foot.Values["ja"]; !ok {
		t.Error("an empty <target/> is an empty value")
	}
}

// lokal's own export: no Meta, plurals in ar, untranslated keys with an empty value.
func TestXLIFFExportRoundTrip(t *testing.T) {
	t.Parallel()
	f := &File{SourceLanguage: "en", Languages: []string{"ar"}, Entries: []Entry{
		{Key: "files", Source: "{n, plural, one {# file} other {# files}}", Values: map[string]Value{"ar": {Text: "{n, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}", State: StateTranslated}}, Comment: "Files & <folders>"},
		{Key: "hello", Source: `Hi <x id="PH" equiv-text="name"/>!`, Values: map[string]Value{"ar": {Text: `مرحبا <x id="PH" equiv-text="name"/>!`, State: StateNeedsReview}}},
		{Key: "a.b c", Source: "Tom & \"Jerry\" <b>\r\nx", Values: map[string]Value{"ar": {Text: "", State: StateNone}}},
		{Key: "brand", Source: "Acme", Values: map[string]Value{}, DoNotTranslate: true},
		{Key: "review", Source: "x", Values: map[string]Value{"ar": {Text: "y", State: StateNeedsReview}}},
	}}
	o := Options{Language: "ar", SourceLanguage: "en"}
	entriesRoundTrip(t, "xliff", f, o)
	out, err := Encode("xliff", f, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`target-language="ar"`, `<target/>`, `translate="no"`, `state="needs-review-translation"`, `Tom &amp; "Jerry" &lt;b&gt;&#xD;`, `<note>Files &amp; &lt;folders&gt;</note>`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("export lacks %q:\n%s", want, out)
		}
	}
}

// An Xcode plural exported from lokal: =0 becomes Xcode's zero, a missing category is
// left out, never invented.
func TestXLIFFExportXcodePlural(t *testing.T) {
	t.Parallel()
	f := &File{SourceLanguage: "en", Languages: []string{"ru"}, Entries: []Entry{{
		Key:    "DAYS",
		Source: "{d, plural, =0 {today} one {%d day} other {%d days}}",
		Values: map[string]Value{"ru": {Text: "{d, plural, =0 {сегодня} one {%d день} few {%d дня} other {%d дней}}"}},
		Meta:   map[string]string{"xcode": "stringsdict"},
	}}}
	out, err := Encode("xliff", f, Options{Language: "ru"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		`<trans-unit id="/DAYS:dict/NSStringLocalizedFormatKey:dict/:string">`,
		"<source>%#@d@</source>",
		`<trans-unit id="/DAYS:dict/d:dict/zero:dict/:string">` + "\n        <source>today</source>\n        <target>сегодня</target>",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("export lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "many") {
		t.Errorf("a category the value lacks was written:\n%s", s)
	}
	back, err := Decode("xliff", out, Options{Language: "ru"})
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Entries[0].Values["ru"].Text; got != f.Entries[0].Values["ru"].Text {
		t.Errorf("read back %q", got)
	}
}

func TestXLIFFStates(t *testing.T) {
	t.Parallel()
	for state, want := range map[string]State{
		"translated": StateTranslated, "final": StateTranslated, "signed-off": StateTranslated,
		"needs-review-translation": StateNeedsReview, "new": StateNeedsReview, "needs-translation": StateNeedsReview,
		"needs-l10n": StateNeedsReview, "needs-review-l10n": StateNeedsReview, "x-custom": StateNone,
	} {
		doc := `<xliff version="1.2"><file source-language="en" target-language="fr"><body><trans-unit id="k"><source>a</source><target state="` + state + `">b</target></trans-unit></body></file></xliff>`
		f, err := Decode("xliff", []byte(doc), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Entries[0].Values["fr"].State; got != want {
			t.Errorf("state %q: got %q want %q", state, got, want)
		}
		// A state lokal changed is written in its canonical spelling; one it kept stays.
		f.Entries[0].Values["fr"] = Value{Text: "b", State: StateStale}
		out, _ := Encode("xliff", f, Options{})
		wantAttr := `state="needs-review-translation"`
		if !strings.Contains(string(out), wantAttr) {
			t.Errorf("state %q changed to stale: %s", state, out)
		}
	}
}

// A comment changed in lokal replaces the unit's notes and keeps its other elements.
func TestXLIFFCommentChanged(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "xliff", "angular.de.xlf"))
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Language: "de"}
	f, err := Decode("xliff", data, o)
	if err != nil {
		t.Fatal(err)
	}
	f.Entries[0].Comment = "New note"
	out, err := Encode("xliff", f, o)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if strings.Contains(s, "Shop cart") || !strings.Contains(s, "<note>New note</note>") || !strings.Contains(s, "cart.component.html</context>") {
		t.Errorf("notes not replaced:\n%s", s[:900])
	}
	back, err := Decode("xliff", out, o)
	if err != nil {
		t.Fatal(err)
	}
	if back.Entries[0].Comment != "New note" {
		t.Errorf("comment read back %q", back.Entries[0].Comment)
	}
}

func TestXLIFFTargetLanguageFromOptions(t *testing.T) {
	t.Parallel()
	doc := `<?xml version="1.0"?>
<xliff version="1.2"><file source-language="en" original="x"><body>
<trans-unit id="k"><source>Date</source><target>Дата</target></trans-unit>
</body></file></xliff>`
	f, err := Decode("xliff", []byte(doc), Options{Language: "ru"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f.Languages, []string{"ru"}) || f.Entries[0].Values["ru"].Text != "Дата" {
		t.Errorf("%#v", f)
	}
	entriesRoundTrip(t, "xliff", f, Options{Language: "ru"})
}

func TestXLIFFBrokenRefused(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		doc  string
		line int
	}{
		"mismatched tag":  {"<xliff version=\"1.2\">\n<file>\n<body>\n<trans-unit id=\"a\"><source>x</target>\n</trans-unit></body></file></xliff>", 4},
		"unclosed":        {"<xliff version=\"1.2\">\n<file>\n<body>\n", 4},
		"bad entity":      {"<xliff version=\"1.2\">\n<file><body>\n\n<trans-unit id=\"a\"><source>a &nbsp; b</source></trans-unit></body></file></xliff>", 4},
		"no id":           {"<xliff version=\"1.2\"><file><body>\n<trans-unit><source>x</source></trans-unit></body></file></xliff>", 2},
		"not xliff":       {"<?xml version=\"1.0\"?>\n<resources/>", 2},
		"xliff 2":         {"<xliff version=\"2.0\"/>", 1},
		"two roots":       {"<xliff version=\"1.2\"/>\n<xliff/>", 2},
		"text after root": {"<xliff version=\"1.2\"/>\n\nhello", 3},
		"invalid utf-8":   {"<xliff version=\"1.2\">\n\xff</xliff>", 2},
		"empty":           {"", 1},
	} {
		_, err := Decode("xliff", []byte(c.doc), Options{Language: "de"})
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

func FuzzDecodeXLIFF(f *testing.F) {
	for _, p := range []string{"angular.de.xlf", "xcode.ru.xliff", "catalog.pl.xliff", "groups.ja.xlf"} {
		data, err := os.ReadFile(filepath.Join("testdata", "xliff", p))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`<xliff version="1.2"><file><body><trans-unit id="a"><source>x<g id="1">y</g></source><target>z<!-- c --></target></trans-unit></body></file></xliff>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		xlFuzzRoundTrip(t, "xliff", data, Options{Language: "ru", SourceLanguage: "en"})
	})
}

// xlFuzzRoundTrip: whatever data is, decoding does not panic, and a file it reads
// re-encodes to one that reads back the same.
func xlFuzzRoundTrip(t *testing.T, format string, data []byte, o Options) {
	f, err := Decode(format, data, o)
	if err != nil {
		return
	}
	out, err := Encode(format, f, o)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	back, err := Decode(format, out, o)
	if err != nil {
		t.Fatalf("Decode of our own encoding: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back, f) {
		t.Fatalf("decode(encode(f)) != f:\n got %#v\nwant %#v\nfile:\n%s", back, f, out)
	}
}

// BenchmarkXLIFF10k decodes and encodes an Angular-style file of 10,000 units with
// interpolations, notes and context groups.
func BenchmarkXLIFF10k(b *testing.B) {
	var s strings.Builder
	s.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">` + "\n" + `  <file source-language="en" target-language="de" datatype="plaintext" original="ng2.template">` + "\n    <body>")
	for i := 0; i < 10000; i++ {
		n := strconv.Itoa(i)
		s.WriteString("\n      <trans-unit id=\"key" + n + "\" datatype=\"html\">\n        <source>Hello <x id=\"INTERPOLATION\" equiv-text=\"{{ name }}\"/> &amp; welcome " + n + "</source>\n        <target state=\"translated\">Hallo <x id=\"INTERPOLATION\" equiv-text=\"{{ name }}\"/> &amp; willkommen " + n + "</target>\n        <context-group purpose=\"location\">\n          <context context-type=\"sourcefile\">src/app.html</context>\n        </context-group>\n        <note from=\"description\">Note " + n + "</note>\n      </trans-unit>")
	}
	s.WriteString("\n    </body>\n  </file>\n</xliff>\n")
	data := []byte(s.String())
	o := Options{Language: "de"}
	b.ReportAllocs()
	for b.Loop() {
		f, err := Decode("xliff", data, o)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Encode("xliff", f, o); err != nil {
			b.Fatal(err)
		}
	}
}

// The inline elements a value keeps are tags to lokal's message model, so its checks
// compare them between source and target.
func TestXLIFFInlineMarkupIsTags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ format, path, key string }{
		{"xliff", "xliff/angular.de.xlf", "cartGreeting"},
		{"xliff", "xliff/angular.de.xlf", "pairedLink"},
		{"xliff2", "xliff2/angular.pl.xlf", "greeting"},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", c.path))
		if err != nil {
			t.Fatal(err)
		}
		f, err := Decode(c.format, data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		e := xliffEntry(t, f, c.key)
		for _, text := range []string{e.Source, e.Values[f.Languages[0]].Text} {
			tags := 0
			for _, n := range message.Parse(text, message.ICU|message.HTML).Nodes {
				if _, ok := n.(*message.Tag); ok {
					tags++
				}
			}
			if tags == 0 {
				t.Errorf("%s %s: no tag in %q", c.path, c.key, text)
			}
		}
	}
}

// Xcode plural units whose key is also a unit's id stay units: no key is lost.
func TestXLIFFXcodeKeyCollision(t *testing.T) {
	t.Parallel()
	doc := `<xliff version="1.2"><file source-language="en" target-language="ru" original="a"><body>
<trans-unit id="N"><source>plain</source></trans-unit>
<trans-unit id="/N:dict/NSStringLocalizedFormatKey:dict/:string"><source>%#@n@</source></trans-unit>
<trans-unit id="/N:dict/n:dict/one:dict/:string"><source>%d note</source></trans-unit>
<trans-unit id="/N:dict/n:dict/other:dict/:string"><source>%d notes</source></trans-unit>
</body></file></xliff>`
	f, err := Decode("xliff", []byte(doc), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 4 || f.Entries[0].Key != "N" || f.Entries[0].Source != "plain" {
		t.Errorf("%#v", f.Entries)
	}
	entriesRoundTrip(t, "xliff", f, Options{})
}

// The import's language keys the values, unless it is the file's source language (an
// import of the source text): then the file's target language does.
func TestXLIFFImportLanguage(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "xliff", "angular.de.xlf"))
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{"de": "de", "fr": "fr", "en": "de", "": "de", AllLanguages: "de"} {
		o := Options{Language: lang, SourceLanguage: "en"}
		f, err := Decode("xliff", data, o)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(f.Languages, []string{want}) || f.Entries[0].Values[want].Text != "Ihr Warenkorb" {
			t.Errorf("import as %q: languages %q, values %#v", lang, f.Languages, f.Entries[0].Values)
		}
		out, err := Encode("xliff", f, o)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), `target-language="`+want+`"`) {
			t.Errorf("import as %q: encoded without target-language=%q", lang, want)
		}
		entriesRoundTrip(t, "xliff", f, o)
	}
}

func TestXLIFFImportLanguageCanonical(t *testing.T) {
	t.Parallel()
	doc := "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n  <file original=\"x\" source-language=\"en\" target-language=\"de\" datatype=\"plaintext\">\n    <body>\n      <trans-unit id=\"k\">\n        <source>a</source>\n        <target>b</target>\n      </trans-unit>\n    </body>\n  </file>\n</xliff>\n"
	doc = strings.Replace(doc, `original="x"`, `original="lokal"`, 1)
	f, err := Decode("xliff", []byte(doc), Options{Language: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	if f.Meta != nil {
		t.Errorf("meta %q", f.Meta)
	}
	entriesRoundTrip(t, "xliff", f, Options{Language: "fr"})
}

// A UTF-8 byte order mark (Windows tools write one) is read and written back.
func TestXLIFFByteOrderMark(t *testing.T) {
	t.Parallel()
	doc := "\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff version=\"1.2\" xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n  <file original=\"lokal\" source-language=\"en\" target-language=\"de\" datatype=\"plaintext\">\n    <body>\n      <trans-unit id=\"k\">\n        <source>a</source>\n        <target>b</target>\n      </trans-unit>\n    </body>\n  </file>\n</xliff>\n"
	for _, format := range []string{"xliff", "xliff2"} {
		d := doc
		if format == "xliff2" {
			d = "\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\" srcLang=\"en\" trgLang=\"de\">\n  <file id=\"f1\">\n    <unit id=\"k\">\n      <segment>\n        <source>a</source>\n        <target>b</target>\n      </segment>\n    </unit>\n  </file>\n</xliff>\n"
		}
		f, err := Decode(format, []byte(d), Options{Language: "de"})
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		out, err := Encode(format, f, Options{Language: "de"})
		if err != nil || string(out) != d {
			t.Errorf("%s: %v\n%q", format, err, out)
		}
	}
}

// FuzzXLIFFValue: any value lokal holds (markup typed by a translator included) is written
// so that it reads back the same, in both versions.
func FuzzXLIFFValue(f *testing.F) {
	for _, s := range []string{`Hi <x id="a"/>`, `<x 1="a"/>`, `<g id="1">open`, `a <ph>code</ph> <!-- c --> ]]> &amp; <pc id="1">b</pc>`, "{n, plural, one {#} other {# <x/>}}", "tab\there\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if strings.IndexFunc(v, func(r rune) bool { return !xmlValidRune(r) || r == utf8.RuneError }) >= 0 || !utf8.ValidString(v) {
			return
		}
		file := &File{SourceLanguage: "en", Languages: []string{"de"}, Entries: []Entry{
			{Key: "k", Source: v, Values: map[string]Value{"de": {Text: v}}, Comment: v},
		}}
		if v == "" {
			file.Entries[0].Comment = "c"
		}
		entriesRoundTrip(t, "xliff", file, Options{Language: "de"})
		entriesRoundTrip(t, "xliff2", file, Options{Language: "de"})
	})
}
