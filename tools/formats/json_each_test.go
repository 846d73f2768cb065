package formats

import (
	"reflect"
	"strings"
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
	`{"a":null,"b":{"c":true}}`, `{"a":{"x":"1","y":{},"x":"2"}}`, `{"a":{"b":"1"},"a":{"c":"2"}}`, `{"a\u0062":"1","ab":"2"}`,
	`{"a.b":{"c":"1"},"a":{"b":"2"}}`, `{"a":{"k0":"","k1":"","k2":"","k3":"","k4":"","k5":"","k6":"","k7":"","k8":"","k9":"","k10":"","k11":"","k12":"","k13":"","k14":"","k15":"","k16":"","k17":"","k3":""}}`, `{"a":1,"b":`, `{"a":{"b":{"c":"d"}}, "e": false}`,
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
	// A name given twice inside a value that is itself broken (a name that is an object,
	// cut short) is the tree's first error, where the stream, which leaves that check to
	// itself, finds the breakage first: either refuses the file.
	twice := wantErr != nil && strings.Contains(wantErr.Error(), "given twice in one object")
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && !twice && wantErr.Error() != gotErr.Error() {
		t.Fatalf("%q: error %v, want %v", data, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got.Entries, want) {
		t.Fatalf("%q: entries %v, want %v", data, got.Entries, want)
	}
}
