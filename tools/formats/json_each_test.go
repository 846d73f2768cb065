package formats

import (
	"reflect"
	"testing"
)

// treeJSON is the json decode of the jsonNode tree (parseJSON, flattenJSON), which the
// stream of eachJSON must match entry for entry and error for error.
func treeJSON(data []byte, lang string) ([]Entry, error) {
	root, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	leaves, _, err := flattenJSON(data, root, false)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, l := range leaves {
		out = append(out, Entry{Key: l.key, Values: map[string]Value{lang: {Text: l.node.Str}}})
	}
	return out, nil
}

var jsonEachCases = []string{
	`{"a":"x","b":{"c":"y","d":{"e":"z"}}}`,
	"\xef\xbb\xbf{\"a\": \"\\u00e9\\n\", \"b\": \"\xff\"}",
	`{}`, ``, `  `, `[]`, `"x"`, `{"a":"x"} {}`, `{"a":"x"`, `{"a":1}`, `{"a":[ "x"]}`,
	`{"a":"x","a":"y"}`, `{"a.b":"x","a":{"b":"y"}}`, `{"a":{"b":"y"},"a.b":"x"}`,
	`{"a":null,"b":{"c":true}}`, `{"a":1,"b":`, `{"a":{"b":{"c":"d"}}, "e": false}`,
}

// TestEachJSONIsTheTree: the streamed json decode gives what the tree gave.
func TestEachJSONIsTheTree(t *testing.T) {
	t.Parallel()
	for _, in := range jsonEachCases {
		checkEachJSON(t, []byte(in))
	}
}

func FuzzEachJSON(f *testing.F) {
	for _, in := range jsonEachCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkEachJSON(t, data) })
}

func checkEachJSON(t *testing.T, data []byte) {
	want, wantErr := treeJSON(data, "de")
	got, gotErr := Decode("json", data, Options{Language: "de"})
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
		t.Fatalf("%q: error %v, want %v", data, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got.Entries, want) {
		t.Fatalf("%q: entries %v, want %v", data, got.Entries, want)
	}
}
