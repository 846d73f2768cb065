package formats

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestStringsGolden(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ path, lang string }{
		{"strings/ru.strings", "ru"}, {"strings/compact.strings", "en"},
		{"strings/utf16le.strings", "ru"}, {"strings/utf16be.strings", "ru"},
	} {
		t.Run(c.path, func(t *testing.T) {
			t.Parallel()
			f := goldenRoundTrip(t, "strings", c.path, Options{Language: c.lang}, nil)
			entriesRoundTrip(t, "strings", f, Options{Language: c.lang})
		})
	}
}

func TestStringsValues(t *testing.T) {
	t.Parallel()
	want := &File{Languages: []string{"ru"}, Entries: []Entry{
		{Key: "title", Values: map[string]Value{"ru": {Text: "Мои файлы"}}, Comment: "Title of the screen that lists files"},
		{Key: "quote", Values: map[string]Value{"ru": {Text: `Нажмите "Сохранить"`}}},
		{Key: "lines", Values: map[string]Value{"ru": {Text: "Первая\nВторая\tс табуляцией\r"}}, Comment: "Two lines,\n   one comment"},
		{Key: "backslash", Values: map[string]Value{"ru": {Text: `C:\Users\ivan`}}, Comment: "A line comment\non two lines", Meta: map[string]string{"comment": "//"}},
		{Key: "control", Values: map[string]Value{"ru": {Text: "звонок\a"}}},
		{Key: "emoji", Values: map[string]Value{"ru": {Text: "Готово 👍"}}},
	}}
	goldenRoundTrip(t, "strings", "strings/ru.strings", Options{Language: "ru"}, want)
	// The same file in UTF-16 decodes to the same entries and keeps its encoding.
	for _, enc := range []string{"utf-16le", "utf-16be"} {
		w := *want
		w.Meta = map[string]string{"encoding": enc}
		goldenRoundTrip(t, "strings", "strings/"+strings.ReplaceAll(enc, "-", "")+".strings", Options{Language: "ru"}, &w)
	}
	c := goldenRoundTrip(t, "strings", "strings/compact.strings", Options{Language: "en"}, nil)
	if want := map[string]string{"header": "// Header of a generated file\n// Author: lokal tests", "layout": "compact"}; !reflect.DeepEqual(c.Meta, want) {
		t.Errorf("compact meta %q", c.Meta)
	}
}

// TestStringsOldSyntax reads what the old plist syntax allows beyond "key" = "value";.
func TestStringsOldSyntax(t *testing.T) {
	t.Parallel()
	in := "\xef\xbb\xbfunquoted = value.1;\n\"alone\";\n\"esc\" = \"\\U00e9\\u00E9\\UD83D\\UDC4D\\101 \\' \\q\";\n\"k\" /* between */ = // here\n \"v\" ;\n\"dup\" = \"1\";\n\"dup\" = \"2\";\n/* trailing */\n"
	f, err := Decode("strings", []byte(in), Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	want := &File{Languages: []string{"en"}, Meta: map[string]string{"encoding": "utf-8-bom", "header": "", "layout": "compact", "trailer": "/* trailing */"}, Entries: []Entry{
		{Key: "unquoted", Values: map[string]Value{"en": {Text: "value.1"}}},
		{Key: "alone", Values: map[string]Value{"en": {Text: "alone"}}},
		{Key: "esc", Values: map[string]Value{"en": {Text: "éé👍A ' q"}}},
		{Key: "k", Values: map[string]Value{"en": {Text: "v"}}},
		{Key: "dup", Values: map[string]Value{"en": {Text: "2"}}},
	}}
	if !reflect.DeepEqual(f, want) {
		t.Errorf("got  %#v\nwant %#v", f, want)
	}
	entriesRoundTrip(t, "strings", f, Options{Language: "en"})
}

// TestStringsRenderLayout: a File without Meta (Render's) is written in Render's layout,
// with the source text as the comment when there is no comment.
func TestStringsRenderLayout(t *testing.T) {
	t.Parallel()
	f := &File{Languages: []string{"nb"}, Entries: []Entry{
		{Key: "a", Source: "A", Values: map[string]Value{"nb": {Text: "Å"}}},
		{Key: "b", Source: "B", Comment: "note", Values: map[string]Value{"nb": {Text: "Be"}}},
		{Key: "c", Values: map[string]Value{"de": {Text: "untranslated in nb"}}},
	}}
	out, err := Encode("strings", f, Options{Language: "nb"})
	if err != nil {
		t.Fatal(err)
	}
	want := "/* Language: nb */\n\n/* A */\n\"a\" = \"Å\";\n\n/* note */\n\"b\" = \"Be\";\n"
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestStringsEntriesRoundTrip(t *testing.T) {
	t.Parallel()
	for _, meta := range []map[string]string{nil, {"encoding": "utf-16le", "layout": "compact", "header": ""}, {"encoding": "utf-16be", "trailer": "// end"}} {
		f := &File{Languages: []string{"nb"}, Meta: meta}
		for _, s := range tricky {
			if strings.ContainsAny(s, "\xff\xfe") {
				continue
			}
			f.Entries = append(f.Entries, Entry{Key: "k " + s, Values: map[string]Value{"nb": {Text: s}}})
		}
		f.Entries[0].Comment = "line one\nline two"
		f.Entries[1].Comment, f.Entries[1].Meta = "slashes", map[string]string{"comment": "//"}
		entriesRoundTrip(t, "strings", f, Options{Language: "nb"})
	}
}

func TestStringsBrokenFiles(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, in string
		line     int
	}{
		{"unterminated string", "\"a\" = \"b\";\n\"c\" = \"d;\n\n", 2},
		{"missing semicolon", "\"a\" = \"b\"\n\"c\" = \"d\";\n", 2},
		{"unterminated comment", "\"a\" = \"b\";\n\n/* no end\n", 3},
		{"stray character", "\"a\" = \"b\";\n= \"c\";\n", 2},
		{"missing value", "\"a\" = ;\n", 1},
		{"invalid utf-8", "\"a\" = \"b\";\n\"c\" = \"\xff\xff\xfe\";\n", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode("strings", []byte(c.in), Options{Language: "en"})
			var fe *FileError
			if !errors.As(err, &fe) || fe.Line != c.line {
				t.Errorf("err = %v, want a FileError on line %d", err, c.line)
			}
		})
	}
}

func FuzzDecodeStrings(f *testing.F) {
	f.Add([]byte("/* Language: nb */\n\n/* c */\n\"a\" = \"b\\n\\\"\";\n"))
	f.Add([]byte("// h\n\na = b;\n\"c\";\n/* t */"))
	f.Add([]byte("\xff\xfe\"\x00a\x00\"\x00=\x00\"\x00b\x00\"\x00;\x00"))
	f.Add([]byte("\"\\UD83D\\UDC4D\\101\" = \"\\U12\";"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRoundTrip(t, "strings", data, Options{Language: "nb"})
	})
}
