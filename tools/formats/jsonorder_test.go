package formats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// benchXCStringsData is a catalog of 10,000 keys in three languages, a third of them
// plurals: the largest JSON file lokal reads (about 9 MB).
func benchXCStringsData(b *testing.B) []byte {
	f := &File{SourceLanguage: "en"}
	for i := range 10000 {
		e := Entry{Key: fmt.Sprintf("Key number %d of the app", i), Values: map[string]Value{}}
		for _, lang := range []string{"en", "de", "ru"} {
			text := fmt.Sprintf("Text %d in %s with \"quotes\" and é", i, lang)
			if i%3 == 0 {
				text = fmt.Sprintf("{count, plural, one {# file %d} few {# файла} many {# файлов} other {# files %s}}", i, lang)
			}
			e.Values[lang] = Value{Text: text, State: StateTranslated}
		}
		f.Entries = append(f.Entries, e)
	}
	data, err := Encode("xcstrings", f, Options{Language: AllLanguages})
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkParseJSON10k is the JSON reader alone on a 10,000-key String Catalog.
func BenchmarkParseJSON10k(b *testing.B) {
	data := benchXCStringsData(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := parseJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}

// jsonReaderSeeds are inputs where a reader could go wrong: escapes, invalid UTF-8,
// numbers, literals, nesting, keys given twice, trailing data.
var jsonReaderSeeds = []string{
	`{}`, `[]`, ` {"a" : "b" } `, "{\n  \"a\" : [1, -2.5e+3, 0, true, false, null, {}]\n}",
	`{"a":"\u00e9\n\"\\\/\ud83d\ude00"}`, `{"a":"\ud800"}`, "{\"a\":\"\xff\xfe\"}", "{\"\xed\xa0\x80\":1}",
	`{"a":"x","b":{"c":"d"},"a":"y"}`, `{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k1":0}`,
	`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":.5}`, `{"a":tru}`, `{"a":1,}`, `[1,]`, `{"a" 1}`,
	`{"a":"b"} x`, `{"a":"b"}{}`, ``, `   `, `"s"`, `12`, "{\"a\":\"tab\there\"}", `{"a":"\x"}`, `{"a":"\u12"}`,
	strings.Repeat("[", 63) + strings.Repeat("]", 63), strings.Repeat("[", 64) + strings.Repeat("]", 64),
	strings.Repeat(`{"a":`, 70) + "1" + strings.Repeat("}", 70), `{"a":"b"`, `{"a":`, `["a"`, "\"\xe2\x80\xa8\"",
	`{"a\u0062":"x","ab":"y"}`, "\xef\xbb\xbf{\"a\" : \"b\"}",
}

// checkJSONReader asserts that parseJSON reads what encoding/json reads (but a key given
// twice and nesting past maxJSONDepth, which it refuses), and that every span it records
// holds the value or key it belongs to.
func checkJSONReader(t *testing.T, data []byte) {
	t.Helper()
	n, err := parseJSON(data)
	var want any
	stdErr := unmarshalNumbers(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &want)
	if err == nil && stdErr != nil {
		t.Fatalf("%.80q: read, but encoding/json refuses it: %v", data, stdErr)
	}
	if err != nil {
		var fe *FileError
		if !errors.As(err, &fe) || fe.Line < 1 {
			t.Fatalf("%.80q: error %v, want a FileError with a line", data, err)
		}
		if stdErr == nil && !strings.Contains(err.Error(), "given twice") && !strings.Contains(err.Error(), "nested more than") {
			t.Fatalf("%.80q: %v, but encoding/json reads it", data, err)
		}
		return
	}
	body := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var walk func(n *jsonNode, want any, at string)
	walk = func(n *jsonNode, want any, at string) {
		var got any
		if unmarshalNumbers(body[n.Start:n.End], &got) != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%.80q: %s: span %d:%d holds %q", data, at, n.Start, n.End, body[n.Start:n.End])
		}
		switch n.Kind {
		case jsonString:
			if n.Str != want {
				t.Fatalf("%.80q: %s: %q, encoding/json reads %q", data, at, n.Str, want)
			}
		case jsonObject:
			m := want.(map[string]any)
			if len(m) != len(n.Keys) {
				t.Fatalf("%.80q: %s: %d members, want %d", data, at, len(n.Keys), len(m))
			}
			for i, k := range n.Keys {
				var key string
				dec := json.NewDecoder(bytes.NewReader(body[n.Vals[i].KeyStart:]))
				if tok, err := dec.Token(); err != nil || tok != k {
					t.Fatalf("%.80q: %s: key %q starts at %d with %q", data, at, k, n.Vals[i].KeyStart, key)
				}
				walk(n.Vals[i], m[k], at+"/"+k)
			}
		case jsonArray:
			for i, v := range n.Vals {
				walk(v, want.([]any)[i], fmt.Sprintf("%s/%d", at, i))
			}
		}
	}
	walk(n, want, "")
}

// TestParseJSON compares the reader with encoding/json on the seeds and every JSON file
// of testdata.
func TestParseJSON(t *testing.T) {
	t.Parallel()
	for _, s := range jsonReaderSeeds {
		checkJSONReader(t, []byte(s))
	}
	files, _ := filepath.Glob("testdata/*/*")
	n := 0
	for _, name := range files {
		switch filepath.Ext(name) {
		case ".json", ".arb", ".xcstrings":
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			checkJSONReader(t, data)
			n++
		}
	}
	if n == 0 {
		t.Fatal("no JSON file found under testdata")
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range jsonReaderSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkJSONReader(t, data) })
}

// unmarshalNumbers is json.Unmarshal keeping numbers as written (a reader of lokal's files
// never reads a number as a float).
func unmarshalNumbers(data []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the value")
	}
	return nil
}
