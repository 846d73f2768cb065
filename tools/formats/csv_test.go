package formats

import (
	"errors"
	"strings"
	"testing"
)

func csvVals(kv ...string) map[string]Value {
	m := map[string]Value{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = Value{Text: kv[i+1]}
	}
	return m
}

func TestCSVGoldenAllLanguages(t *testing.T) {
	t.Parallel()
	want := &File{
		SourceLanguage: "en",
		Languages:      []string{"en", "de", "pl"},
		Entries: []Entry{
			{Key: "home.title", Source: "Welcome", Values: csvVals("en", "Welcome", "de", "Willkommen", "pl", "Witamy")},
			{Key: "cart.summary", Source: "Apples, pears and plums", Values: csvVals("en", "Apples, pears and plums", "de", "Äpfel, Birnen und Pflaumen", "pl", "Jabłka, gruszki i śliwki")},
			{Key: "quote.example", Source: `She said "hi"`, Values: csvVals("en", `She said "hi"`, "de", "Sie sagte „hallo“", "pl", `Powiedziała "cześć"`)},
			{Key: "multi.line", Source: "First line\nSecond line", Values: csvVals("en", "First line\nSecond line", "de", "Erste Zeile\nZweite Zeile")},
			{Key: "inbox.count", Source: "{count, plural, one {# message} other {# messages}}", Values: csvVals(
				"en", "{count, plural, one {# message} other {# messages}}",
				"de", "{count, plural, one {# Nachricht} other {# Nachrichten}}",
				"pl", "{count, plural, one {# wiadomość} few {# wiadomości} many {# wiadomości} other {# wiadomości}}")},
			{Key: "lead.space", Source: " indented", Values: csvVals("en", " indented")},
			{Key: "only.source", Source: "Only in English", Values: csvVals("en", "Only in English")},
		},
	}
	o := Options{Language: AllLanguages, SourceLanguage: "en"}
	f := goldenRoundTrip(t, "csv", "csv/app.csv", o, want)
	entriesRoundTrip(t, "csv", f, o)
}

// TestCSVOneLanguage reads one language's column, with the source column as Source, and
// writes the key, source and target columns back.
func TestCSVOneLanguage(t *testing.T) {
	t.Parallel()
	o := Options{Language: "pl", SourceLanguage: "en"}
	f, err := Decode("csv", readCodecTestdata(t, "csv/app.csv"), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Languages) != 1 || f.Languages[0] != "pl" || f.SourceLanguage != "en" {
		t.Errorf("Languages %v, SourceLanguage %q", f.Languages, f.SourceLanguage)
	}
	e := f.Entries[4]
	if e.Key != "inbox.count" || e.Source != "{count, plural, one {# message} other {# messages}}" ||
		e.Values["pl"].Text != "{count, plural, one {# wiadomość} few {# wiadomości} many {# wiadomości} other {# wiadomości}}" || len(e.Values) != 1 {
		t.Errorf("entry %+v", e)
	}
	if v, ok := f.Entries[3].Values["pl"]; ok {
		t.Errorf("an empty cell should be untranslated, got %+v", v)
	}
	out, err := Encode("csv", f, o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "key,en,pl\nhome.title,Welcome,Witamy\n") {
		t.Errorf("got:\n%s", out)
	}
	entriesRoundTrip(t, "csv", f, o)
}

func TestCSVBOMAndCRLF(t *testing.T) {
	t.Parallel()
	want := &File{
		Languages: []string{"en", "ja"},
		Meta:      map[string]string{"bom": "true", "newline": "\r\n", "key_header": "KEYS"},
		Entries: []Entry{
			{Key: "KEY_HELLO", Values: csvVals("en", "Hello!", "ja", "こんにちは")},
			{Key: "KEY_BYE", Values: csvVals("en", "Bye,\nfor now")},
		},
	}
	goldenRoundTrip(t, "csv", "csv/bom_crlf.csv", Options{Language: AllLanguages}, want)
}

func TestCSVLanguageHeaderSpaces(t *testing.T) {
	t.Parallel()
	f, err := Decode("csv", []byte("id, en, de\na,1,2\n"), Options{Language: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if f.Entries[0].Values["de"].Text != "2" || f.Meta["key_header"] != "id" {
		t.Errorf("entries %+v meta %v", f.Entries, f.Meta)
	}
}

func TestCSVEncode(t *testing.T) {
	t.Parallel()
	f := &File{
		Languages: []string{"en", "de"},
		Entries: []Entry{
			{Key: "a,b", Values: csvVals("en", "x\r\ny", "de", `"q"`)},
			{Key: "tab", Values: csvVals("en", "\tlead", "de", "trail ")},
		},
	}
	out, err := Encode("csv", f, Options{Language: AllLanguages})
	if err != nil {
		t.Fatal(err)
	}
	want := "key,en,de\n\"a,b\",\"x\r\ny\",\"\"\"q\"\"\"\ntab,'\tlead,trail \n" // a leading tab is guarded
	if string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
	f.Entries[0].Values["en"] = Value{Text: "x\ny"} // the reader reads \r\n in a cell as \n
	entriesRoundTrip(t, "csv", f, Options{Language: AllLanguages})
}

func TestCSVBroken(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, data, lang string
		line             int
	}{
		{"row with too few cells", "key,en,de\na,1,2\nb,1\n", "all", 3},
		{"row with too many cells after a multi-line cell", "key,en\na,\"x\ny\"\nb,1,2\n", "all", 4},
		{"bare quote", "key,en\na,b\"c\n", "all", 2},
		{"unclosed quote", "key,en\na,\"b\nc,d\n", "all", 3},
		{"empty key", "key,en\n,x\n", "all", 2},
		{"duplicate key", "key,en\na,1\nb,2\na,3\n", "all", 4},
		{"empty language header", "key,en,\na,1,2\n", "all", 1},
		{"repeated language", "key,en,en\na,1,2\n", "all", 1},
		{"no column for the language", "key,en\na,1\n", "de", 1},
		{"empty file", "", "all", 1},
		{"invalid utf-8", "key,en\na,\xff\n", "all", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode("csv", []byte(tt.data), Options{Language: tt.lang})
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *FileError", err)
			}
			if fe.Line != tt.line {
				t.Errorf("line %d, want %d (%v)", fe.Line, tt.line, err)
			}
		})
	}
}

func FuzzDecodeCSV(f *testing.F) {
	f.Add(readCodecTestdata(f, "csv/app.csv"))
	f.Add(readCodecTestdata(f, "csv/bom_crlf.csv"))
	f.Add([]byte("id,fr\r\nk,\"a\r\nb\"\r\n"))
	f.Add([]byte("key,en,de\na,x,\"y\"\"\"\nb,,z\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzDecodedRoundTrip(t, "csv", data, Options{Language: AllLanguages, SourceLanguage: "en"}, false)
		fuzzDecodedRoundTrip(t, "csv", data, Options{Language: "de", SourceLanguage: "en"}, false)
	})
}

func BenchmarkCSV10k(b *testing.B) {
	benchCodec10k(b, "csv", Options{Language: AllLanguages}, []string{"en", "de", "pl"})
}
