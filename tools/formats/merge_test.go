package formats

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
)

// propExport is lokal's export of a .properties file holding kv (key, value pairs).
func propExport(t *testing.T, kv ...string) []byte {
	t.Helper()
	f := &File{Languages: []string{"de"}}
	for i := 0; i+1 < len(kv); i += 2 {
		f.Entries = append(f.Entries, Entry{Key: kv[i], Values: map[string]Value{"de": {Text: kv[i+1]}}})
	}
	b, err := encodeProperties(f, Options{Language: "de"})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func utf16LE(s string) []byte {
	out := []byte{0xff, 0xfe}
	for _, c := range utf16.Encode([]rune(s)) {
		out = append(out, byte(c), byte(c>>8))
	}
	return out
}

func utf16BE(s string) []byte {
	out := []byte{0xfe, 0xff}
	for _, c := range utf16.Encode([]rune(s)) {
		out = append(out, byte(c>>8), byte(c))
	}
	return out
}

// TestMergeFileKeepsEncoding: a file in UTF-16 (either order), with a BOM, with CRLF or
// mixed line ends, or in ISO-8859-1 comes back in its own bytes when nothing changed and
// with only the changed line otherwise, in the same encoding.
func TestMergeFileKeepsEncoding(t *testing.T) {
	t.Parallel()
	o := Options{Language: "de"}
	stringsText := "/* Shop */\r\n\"a\" = \"Grüße\";\r\n\"b\" = \"alt\";\r\n"
	cases := []struct {
		name, format string
		local        []byte
		export       func() []byte
		want         []byte
	}{
		{"utf-16le strings", "strings", utf16LE(stringsText),
			func() []byte { return utf16LE("\"a\" = \"Grüße\";\n\"b\" = \"neu\";\n") },
			utf16LE(strings.Replace(stringsText, "alt", "neu", 1))},
		{"utf-16be strings", "strings", utf16BE(stringsText),
			func() []byte { return []byte("\"a\" = \"Grüße\";\n\"b\" = \"neu\";\n") },
			utf16BE(strings.Replace(stringsText, "alt", "neu", 1))},
		{"bom crlf properties", "properties", []byte("\ufeffa=1\r\nb=alt\r\n"),
			func() []byte { return propExport(t, "a", "1", "b", "neu") },
			[]byte("\ufeffa=1\r\nb=neu\r\n")},
		{"mixed line ends", "properties", []byte("a=1\r\nb=alt\nc=3\r\n"),
			func() []byte { return propExport(t, "a", "1", "b", "neu", "c", "3") },
			[]byte("a=1\r\nb=neu\r\nc=3\r\n")},
		{"latin-1 properties", "properties", []byte("a=Gr\xfc\xdfe\nb=alt\n"),
			func() []byte { return propExport(t, "a", "Grüße", "b", "naïve Ω") },
			[]byte("a=Gr\xfc\xdfe\nb=na\xefve \\u03A9\n")},
		{"latin-1 po", "po", []byte("msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=ISO-8859-1\\n\"\n\nmsgid \"Hi\"\nmsgstr \"Gr\xfc\xdf\"\n"),
			nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.export == nil {
				// Nothing to merge through (no Merge yet, or none needed): local decodes.
				text, lay, err := readText(tc.format, tc.local)
				if err != nil || !strings.Contains(text, "Grüß") || lay.name != "ISO-8859-1" {
					t.Fatalf("readText: %q %+v %v", text, lay, err)
				}
				back, err := lay.write(text, text)
				if err != nil || !bytes.Equal(back, tc.local) {
					t.Fatalf("write: %q %v, want %q", back, err, tc.local)
				}
				return
			}
			c, _ := Lookup(tc.format)
			f, err := c.Decode(tc.local, o)
			if err != nil {
				t.Fatal(err)
			}
			same, err := c.Encode(f, o)
			if err != nil {
				t.Fatal(err)
			}
			got, err := MergeFile(tc.format, tc.local, same, o)
			if err != nil || !bytes.Equal(got, tc.local) {
				t.Errorf("nothing changed: %q %v, want local %q", got, err, tc.local)
			}
			got, err = MergeFile(tc.format, tc.local, tc.export(), o)
			if err != nil || !bytes.Equal(got, tc.want) {
				t.Errorf("one changed: %q %v, want %q", got, err, tc.want)
			}
		})
	}
}

// TestMergeFileUnencodable: a character the file's charset cannot hold is an error naming
// it and the line, outside .properties.
func TestMergeFileUnencodable(t *testing.T) {
	t.Parallel()
	text := "a=1\nb=alt\n"
	_, lay, err := readText("po", []byte("msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=ISO-8859-1\\n\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = lay.write(strings.Replace(text, "alt", "€", 1), text)
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "€") || !strings.Contains(err.Error(), "ISO-8859-1") {
		t.Fatalf("err = %v, want one naming line 2, € and ISO-8859-1", err)
	}
}

// TestMergeFileRefusesABrokenLocalFile: a repository file that does not decode stops the
// merge with its line, rather than being replaced by the export.
func TestMergeFileRefusesABrokenLocalFile(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"properties", "json"} {
		local := map[string][]byte{"properties": []byte("a=1\nb=\\uZZZZ\n"), "json": []byte("{\n\"a\": \"1\",\n\"b\": }\n")}[format]
		_, err := MergeFile(format, local, []byte("a=1\n"), Options{Language: "de"})
		var fe *FileError
		if err == nil || !asFileError(err, &fe) || fe.Line != 2 && fe.Line != 3 {
			t.Errorf("%s: err = %v, want a FileError at its line", format, err)
		}
	}
}

func asFileError(err error, fe **FileError) bool {
	e, ok := err.(*FileError)
	*fe = e
	return ok
}

// TestMergeFileSourceOrder: a new key goes where the source file has it; keys the source
// lacks keep the export's order after the others.
func TestMergeFileSourceOrder(t *testing.T) {
	t.Parallel()
	local := []byte("a=1\nc=3\n")
	export := propExport(t, "z", "26", "a", "1", "c", "3", "b", "2")
	got, err := MergeFile("properties", local, export, Options{Language: "de", SourceOrder: []string{"a", "b", "c"}})
	if want := "a=1\nb=2\nc=3\nz=26\n"; err != nil || string(got) != want {
		t.Errorf("got %q %v, want %q", got, err, want)
	}
}

// TestMergeTemplate: a language's missing file follows the source file (order, comments,
// separators) with the export's values, without the keys the export lacks.
func TestMergeTemplate(t *testing.T) {
	t.Parallel()
	source := []byte("# Shop\n\n# Front\ngreeting : Hello\nfarewell : Bye\nunused : Not translated\n")
	export := propExport(t, "farewell", "Tschüss", "greeting", "Hallo")
	got, err := MergeTemplate("properties", source, export, Options{Language: "de", SourceOrder: []string{"greeting", "farewell", "unused"}})
	if want := "# Shop\n\n# Front\ngreeting : Hallo\nfarewell : Tschüss\n"; err != nil || string(got) != want {
		t.Errorf("got %q %v, want %q", got, err, want)
	}
	// A Rails file: the source file's order and comments, its root key the language's.
	rails := "# Rails\nen:\n  greeting: Hello\n  nav:\n    home: Home\n    away: Away\n"
	got, err = MergeTemplate("yaml", []byte(rails), []byte("de:\n  nav:\n    home: Start\n  greeting: Hallo\n"), Options{Language: "de", SourceOrder: []string{"greeting", "nav.home", "nav.away"}})
	if want := "# Rails\nde:\n  greeting: Hallo\n  nav:\n    home: Start\n"; err != nil || string(got) != want {
		t.Errorf("yaml: got %q %v, want %q", got, err, want)
	}
	// An export with no entry is written as it is, not as a template pruned of everything.
	if got, err := MergeTemplate("yaml", []byte(rails), []byte("de: {}\n"), Options{Language: "de"}); err != nil || string(got) != "de: {}\n" {
		t.Errorf("yaml without entries: got %q %v, want the export", got, err)
	}
	// A format naming its language inside gets the export.
	arb := []byte(`{"@@locale": "de", "a": "A"}`)
	if got, err := MergeTemplate("arb", []byte(`{"@@locale": "en", "a": "A"}`), arb, Options{Language: "de"}); err != nil || !bytes.Equal(got, arb) {
		t.Errorf("arb: got %q %v, want the export", got, err)
	}
}

// TestPOTargetHeader: a PO template's header takes the export's Language and Plural-Forms.
func TestPOTargetHeader(t *testing.T) {
	t.Parallel()
	tmpl := "msgid \"\"\nmsgstr \"\"\n\"Project-Id-Version: app\\n\"\n\"Language: en\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\nmsgid \"Hi\"\nmsgstr \"Hallo\"\n"
	export := "msgid \"\"\nmsgstr \"\"\n\"Language: pl\\n\"\n\"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : 1);\\n\"\n\nmsgid \"Hi\"\nmsgstr \"Cześć\"\n"
	got := string(poTargetHeader([]byte(tmpl), []byte(export)))
	want := strings.Replace(tmpl, "\"Language: en\\n\"\n", "\"Language: pl\\n\"\n", 1)
	want = strings.Replace(want, "charset=UTF-8\\n\"\n", "charset=UTF-8\\n\"\n\"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : 1);\\n\"\n", 1)
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// BenchmarkMergeFileProperties: MergeFile of a 10,000-entry .properties file in which one
// value changed.
func BenchmarkMergeFileProperties(b *testing.B) {
	var local, export strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&local, "# entry %d\r\nsection.key_%d = Value number %d\r\n", i, i, i)
		v := fmt.Sprintf("Value number %d", i)
		if i == 5000 {
			v = "Changed"
		}
		fmt.Fprintf(&export, "section.key_%d=%s\n", i, v)
	}
	l, e := []byte(local.String()), []byte(export.String())
	o := Options{Language: "de"}
	b.SetBytes(int64(len(l)))
	for b.Loop() {
		out, err := MergeFile("properties", l, e, o)
		if err != nil || len(out) == len(l) {
			b.Fatalf("%v, %d bytes", err, len(out))
		}
	}
}

// mergeCase is one Merge test: local, the export theirs (encoded by the codec), and the
// file expected.
type mergeCase struct {
	name   string
	local  string
	theirs []Entry
	want   string
}

// checkMerges runs cases through MergeFile and asserts the result byte for byte, and that
// it decodes to theirs' values.
func checkMerges(t *testing.T, format string, o Options, cases []mergeCase) {
	t.Helper()
	c, _ := Lookup(format)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := &File{Languages: []string{o.Language}, SourceLanguage: o.SourceLanguage, Entries: tc.theirs}
			if o.Language == AllLanguages {
				f.Languages = []string{"en", "de"}
			}
			export, err := c.Encode(f, o)
			if err != nil {
				t.Fatal(err)
			}
			o.Prune = true // entries the export lacks go, as with pull --prune
			got, err := MergeFile(format, []byte(tc.local), export, o)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				removed, added := mergeLineDiff(tc.want, string(got))
				t.Fatalf("got\n%s\nwant\n%s\nunexpected lines %q, missing %q", got, tc.want, added, removed)
			}
			back, err := c.Decode(got, o)
			if err != nil {
				t.Fatal(err)
			}
			if len(back.Entries) != len(tc.theirs) {
				t.Fatalf("%d entries read back, want %d", len(back.Entries), len(tc.theirs))
			}
			for _, e := range tc.theirs {
				for _, b := range back.Entries {
					if b.Key == e.Key {
						for l := range e.Values {
							if !SameValue(b, e, l) {
								t.Errorf("%s reads back %+v, want %+v", e.Key, b.Values, e.Values)
							}
						}
					}
				}
			}
		})
	}
}

func de(kv ...string) []Entry {
	var out []Entry
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, Entry{Key: kv[i], Values: map[string]Value{"de": {Text: kv[i+1]}}})
	}
	return out
}

// TestMergeSourceLanguagePO: a gettext file of the source language whose msgstrs are all
// empty (as Django writes en.po) keeps them empty: lokal's source text is the msgid, and
// the export's msgstr (the same text) is not the file's.
func TestMergeSourceLanguagePO(t *testing.T) {
	t.Parallel()
	local := "msgid \"\"\nmsgstr \"\"\n\"Language: en\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n" +
		"#: app.py:1\nmsgid \"Humanize\"\nmsgstr \"\"\n\n#, python-format\nmsgid \"%(n)s file\"\nmsgid_plural \"%(n)s files\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n"
	o := Options{Language: "en", SourceLanguage: "en"}
	f, err := Decode("po", []byte(local), o)
	if err != nil {
		t.Fatal(err)
	}
	// The export, as lokal writes the source language: msgstr is the source text; one key
	// more, which gets an empty msgstr like the others.
	rows := []Row{{Key: "Humanize", Source: "Humanize", Value: "Humanize"}, {Key: "New", Source: "New", Value: "New"}}
	for _, e := range f.Entries[1:] {
		rows = append(rows, Row{Key: e.Key, Source: e.Source, Value: e.Source})
	}
	exported, err := Render("po", "en", rows)
	if err != nil {
		t.Fatal(err)
	}
	got, err := MergeFile("po", []byte(local), exported, o)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Replace(string(got), "msgid \"New\"\nmsgstr \"\"\n\n", "", 1) != local {
		t.Errorf("merged source-language PO:\n%s\nwant the file as it was, and the new key with an empty msgstr", got)
	}
}

// TestMergeLeavesUntranslatedOut: a key the translation file lacks is added by a pull when
// it has a translation; one the export lists with an empty target (a bilingual export of
// an untranslated key) is left out, so a push then pull changes nothing.
func TestMergeLeavesUntranslatedOut(t *testing.T) {
	t.Parallel()
	local := "msgid \"\"\nmsgstr \"\"\n\"Language: de\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\nmsgid \"Hello\"\nmsgstr \"Hallo\"\n"
	o := Options{Language: "de", SourceLanguage: "en"}
	exported, err := Render("po", "de", []Row{{Key: "Hello", Source: "Hello", Value: "Hallo"}, {Key: "Open", Source: "Open"}, {Key: "Save", Source: "Save", Value: "Sichern"}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := MergeFile("po", []byte(local), exported, o)
	if err != nil {
		t.Fatal(err)
	}
	if want := local + "\nmsgid \"Save\"\nmsgstr \"Sichern\"\n"; string(got) != want {
		t.Errorf("merged:\n%s\nwant\n%s", got, want)
	}
}

// TestXMLDeclaredEncoding: the charset of an XML file is the one its declaration names,
// read by encoding/xml; UTF-8 and no declaration are no charset to convert from.
func TestXMLDeclaredEncoding(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`<?xml version="1.0" encoding="ISO-8859-1"?><resources/>`: "ISO-8859-1",
		`<?xml version='1.0' encoding='windows-1252' ?><xliff/>`:  "windows-1252",
		`<?xml version="1.0" encoding="UTF-8"?><resources/>`:      "",
		`<resources/>`: "",
	} {
		if got := xmlDeclaredEncoding([]byte(in)); got != want {
			t.Errorf("xmlDeclaredEncoding(%q) = %q, want %q", in, got, want)
		}
	}
}
