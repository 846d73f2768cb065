package formats

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCSVFormulaGuard: a cell a spreadsheet would evaluate (=, +, -, @, tab, CR first) is
// written after a single quote, a text's own leading quote before one of those or before
// another quote gets one more, any other cell is written as it is; lokal's decode gives
// every text back, and RawCells writes and reads the cells unguarded.
func TestCSVFormulaGuard(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, cell string }{
		{`=HYPERLINK("http://evil.test","click")`, `"'=HYPERLINK(""http://evil.test"",""click"")"`},
		{"+1", "'+1"}, {"-5", "'-5"}, {"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"}, {"\rx", "\"'\rx\""},
		{"'=1", "''=1"}, {"''", "'''"}, {"'", "'"}, {"'tis", "'tis"}, {"a=b", "a=b"}, {"", ""}, {" =1", "\" =1\""},
	} {
		f := &File{Languages: []string{"en"}, Entries: []Entry{{Key: "k", Values: map[string]Value{"en": {Text: tc.text}}}}}
		if tc.text == "" {
			f.Entries[0].Values = map[string]Value{}
		}
		out, err := Encode("csv", f, Options{Language: AllLanguages})
		if err != nil {
			t.Fatal(err)
		}
		if want := "key,en\nk," + tc.cell + "\n"; string(out) != want {
			t.Errorf("%q written %q, want %q", tc.text, out, want)
		}
		back, err := Decode("csv", out, Options{Language: AllLanguages})
		if err != nil {
			t.Fatal(err)
		}
		if got := back.Entries[0].Values["en"].Text; got != tc.text {
			t.Errorf("%q read back as %q", tc.text, got)
		}
	}
	// The key column is guarded too.
	f := &File{Languages: []string{"en"}, Entries: []Entry{{Key: "=cmd|' /C calc'!A0", Values: map[string]Value{"en": {Text: "@x"}}}}}
	out, err := Encode("csv", f, Options{Language: AllLanguages})
	if err != nil {
		t.Fatal(err)
	}
	if want := "key,en\n'=cmd|' /C calc'!A0,'@x\n"; string(out) != want {
		t.Errorf("guarded key: %q, want %q", out, want)
	}
	// Raw cells: written and read as they are.
	raw, err := Encode("csv", f, Options{Language: AllLanguages, RawCells: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "key,en\n=cmd|' /C calc'!A0,@x\n"; string(raw) != want {
		t.Errorf("raw: %q, want %q", raw, want)
	}
	back, err := Decode("csv", []byte("key,en\n'=a,''=b\n"), Options{Language: AllLanguages, RawCells: true})
	if err != nil {
		t.Fatal(err)
	}
	if e := back.Entries[0]; e.Key != "'=a" || e.Values["en"].Text != "''=b" {
		t.Errorf("a raw read unguarded %+v", e)
	}
}

// FuzzCSVRoundTrip: for every text, lokal's decode of its encode gives the text back, in
// a key and in a value, and no guarded cell starts with a formula character.
func FuzzCSVRoundTrip(f *testing.F) {
	for _, s := range []string{"=1+1", "-5", "'", "''", "'=x", "'-5", "\t", "\r", "@", "+", "'''@", "x", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { csvRoundTrip(t, s) })
}

// TestCSVRoundTripRandom runs the fuzz property over random texts built of the characters
// that matter: quotes, formula characters, digits, separators and line breaks.
func TestCSVRoundTripRandom(t *testing.T) {
	t.Parallel()
	alphabet := []string{"'", "=", "+", "-", "@", "\t", "\r", "\n", "5", "a", " ", ",", `"`, "é", "''"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		csvRoundTrip(t, b.String())
	}
}

func csvRoundTrip(t *testing.T, s string) {
	t.Helper()
	// What the CSV reader cannot keep whatever the guard: text that is not UTF-8, and a
	// CR before a line break (read as the line break).
	s = strings.ToValidUTF8(s, "\uFFFD")
	for strings.Contains(s, "\r\n") {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	if s == "" {
		return
	}
	f := &File{Languages: []string{"en"}, Entries: []Entry{{Key: s, Values: map[string]Value{"en": {Text: s}}}}}
	out, err := Encode("csv", f, Options{Language: AllLanguages})
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	cells, err := Decode("csv", out, Options{Language: AllLanguages, RawCells: true}) // as a spreadsheet sees them
	if err != nil {
		t.Fatalf("%q: reading %q: %v", s, out, err)
	}
	if c := cells.Entries[0]; csvFormulaStart(c.Key[0]) || csvFormulaStart(c.Values["en"].Text[0]) {
		t.Fatalf("%q: a cell starts with a formula character: %q", s, out)
	}
	back, err := Decode("csv", out, Options{Language: AllLanguages})
	if err != nil {
		t.Fatalf("%q: reading %q: %v", s, out, err)
	}
	if len(back.Entries) != 1 || back.Entries[0].Key != s || back.Entries[0].Values["en"].Text != s {
		t.Fatalf("%q: read back as %+v from %q", s, back.Entries, out)
	}
}
