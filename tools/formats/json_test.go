package formats

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestJSONGolden(t *testing.T) {
	t.Parallel()
	v := func(s string) map[string]Value { return map[string]Value{"ar": {Text: s}} }
	want := &File{Languages: []string{"ar"}, Entries: []Entry{
		{Key: "inbox.title", Values: v("صندوق الوارد")},
		{Key: "inbox.count", Values: v("{count, plural, zero {لا رسائل} one {رسالة واحدة} two {رسالتان} few {# رسائل} many {# رسالة} other {# رسالة}}")},
		{Key: "greeting", Values: v("مرحبًا {name}!")},
		{Key: "markup", Values: v(`<strong>Bold</strong> & <a href="/x">link</a>`)},
		{Key: "escapes", Values: v("tab\there\nnew line, quote \" and backslash \\ and \u2028")},
		{Key: "empty", Values: v("")},
		{Key: "Sign in. Now", Values: v("سجّل الدخول")},
	}}
	f := goldenRoundTrip(t, "json", "json/ar.json", Options{Language: "ar"}, want)
	entriesRoundTrip(t, "json", f, Options{Language: "ar"})
}

func TestJSONNestedIsFlattened(t *testing.T) {
	t.Parallel()
	data := readTestdata(t, "json/nested.json")
	f, err := Decode("json", data, Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range f.Entries {
		keys = append(keys, e.Key+"="+e.Values["en"].Text)
	}
	want := []string{"app.title=Files", "app.menu.open=Open", "app.menu.close=Close", "app.version=1.0",
		"files={count, plural, one {# file} other {# files}}"}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("keys = %q, want %q", keys, want)
	}
	out, err := Encode("json", f, Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"app.menu.open": "Open",`) {
		t.Errorf("a nested file is written flat, in its order; got\n%s", out)
	}
	entriesRoundTrip(t, "json", f, Options{Language: "en"})
}

// The codec's writer escapes exactly as encoding/json does with HTML escaping off, so that
// Render's json output is byte for byte what it was.
func TestJSONEscapesAsEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", "<b>&</b>", "\x00\x01\x1f\x7f", "\b\f\n\r\t", `"\/`, "\u2028\u2029\u2027",
		"bad \xff utf8 \xc3", "emoji 👋 and ü", "\ufeffbom"} {
		var w jsonWriter
		w.str(s)
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got, want := w.b.String(), strings.TrimSuffix(b.String(), "\n"); got != want {
			t.Errorf("str(%q) = %s, encoding/json writes %s", s, got, want)
		}
	}
}

func TestJSONEncodeLeavesOutUntranslated(t *testing.T) {
	t.Parallel()
	f := &File{Entries: []Entry{
		{Key: "b", Values: map[string]Value{"de": {Text: "B"}}},
		{Key: "a", Values: map[string]Value{"fr": {Text: "A"}}},
		{Key: "c", Values: map[string]Value{"de": {Text: ""}}},
	}}
	out, err := Encode("json", f, Options{Language: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"b\": \"B\",\n  \"c\": \"\"\n}\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
	f.Entries = append(f.Entries, Entry{Key: "b", Values: map[string]Value{"de": {Text: "again"}}})
	if _, err := Encode("json", f, Options{Language: "de"}); err == nil {
		t.Error("a key given twice was written")
	}
}

// brokenJSONCases are files every JSON codec refuses, with the line named.
var brokenJSONCases = []struct {
	name, data string
	line       int
}{
	{"syntax", "{\n  \"a\": \"x\",\n  \"b\" \"y\"\n}\n", 3},
	{"missing comma", "{\n  \"a\": \"x\"\n  \"b\": \"y\"\n}\n", 3},
	{"truncated", "{\n  \"a\": \"x\",\n", 3},
	{"unterminated string", "{\n  \"a\": \"x\n}", 2},
	{"duplicate key", "{\n  \"a\": \"x\",\n  \"a\": \"y\"\n}\n", 3},
	{"data after", "{\n  \"a\": \"x\"\n}\n{}", 4},
	{"empty", "", 1},
	{"not an object", "[\n  \"a\"\n]\n", 1},
	{"number value", "{\n  \"a\": \"x\",\n  \"n\": 5\n}\n", 3},
}

func checkRefusals(t *testing.T, format string, extra ...struct {
	name, data string
	line       int
}) {
	t.Helper()
	for _, c := range append(brokenJSONCases, extra...) {
		if format == "xcstrings" && (c.name == "number value") {
			continue // not a translation value there
		}
		_, err := Decode(format, []byte(c.data), Options{Language: "en"})
		var fe *FileError
		if !errors.As(err, &fe) {
			t.Errorf("%s: %s: err = %v, want a *FileError", format, c.name, err)
			continue
		}
		if fe.Line != c.line {
			t.Errorf("%s: %s: line %d (%v), want line %d", format, c.name, fe.Line, fe, c.line)
		}
	}
}

func TestJSONRefusesBrokenFiles(t *testing.T) {
	t.Parallel()
	checkRefusals(t, "json",
		struct {
			name, data string
			line       int
		}{"array value", "{\n  \"a\": [\"x\"]\n}", 2},
		struct {
			name, data string
			line       int
		}{"flat and nested", "{\n  \"a.b\": \"x\",\n  \"a\": {\n    \"b\": \"y\"\n  }\n}", 4},
	)
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add(readTestdata(f, "json/ar.json"))
	f.Add(readTestdata(f, "json/nested.json"))
	f.Add([]byte(`{"a":{"b":{"c":"d"}},"a.b.e":"f","\u0000":"\ud800"}`))
	for _, c := range brokenJSONCases {
		f.Add([]byte(c.data))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRoundTrip(t, "json", data, Options{Language: "en"})
	})
}

func readTestdata(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Render (get_translations) writes every JSON format through its codec, and each reads
// back what it wrote.
func TestJSONRenderFamily(t *testing.T) {
	t.Parallel()
	rows := []Row{
		{Key: "b.title", Source: "Files", Value: "Pliki"},
		{Key: "a", Source: "{count, plural, one {# file} other {# files}}", Value: "{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}"},
		{Key: "c", Source: "Old", Value: "Stary", Stale: true},
	}
	for _, format := range []string{"json", "i18next", "arb", "xcstrings"} {
		out, err := Render(format, "pl", rows)
		if err != nil {
			t.Errorf("%s: %v", format, err)
			continue
		}
		f, err := Decode(format, out, Options{Language: "pl"})
		if err != nil {
			t.Errorf("%s: %v\n%s", format, err, out)
			continue
		}
		got := map[string]string{}
		for _, e := range f.Entries {
			got[e.Key] = e.Values["pl"].Text
		}
		// '#' comes back as the format's own number placeholder.
		pound := map[string]string{"i18next": "{{count}}", "xcstrings": "%lld"}[format]
		for _, r := range rows {
			want := r.Value
			if pound != "" {
				want = strings.ReplaceAll(want, "#", pound)
			}
			if got[r.Key] != want {
				t.Errorf("%s: %s = %q, want %q\n%s", format, r.Key, got[r.Key], want, out)
			}
		}
	}
}
