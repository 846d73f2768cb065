package formats

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// jsonFastSeeds are inputs where the two readers could part: escapes, invalid UTF-8,
// numbers, literals, nesting, keys given twice, trailing data.
var jsonFastSeeds = []string{
	`{}`, `[]`, ` {"a" : "b" } `, "{\n  \"a\" : [1, -2.5e+3, 0, true, false, null, {}]\n}",
	`{"a":"\u00e9\n\"\\\/\ud83d\ude00"}`, `{"a":"\ud800"}`, "{\"a\":\"\xff\xfe\"}", "{\"\xed\xa0\x80\":1}",
	`{"a":"x","b":{"c":"d"},"a":"y"}`, `{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k1":0}`,
	`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":1e}`, `{"a":.5}`, `{"a":tru}`, `{"a":1,}`, `[1,]`, `{"a" 1}`,
	`{"a":"b"} x`, `{"a":"b"}{}`, ``, `   `, `"s"`, `12`, "{\"a\":\"tab\there\"}", `{"a":"\x"}`, `{"a":"\u12"}`,
	strings.Repeat("[", 63) + strings.Repeat("]", 63), strings.Repeat("[", 64) + strings.Repeat("]", 64),
	strings.Repeat(`{"a":`, 70) + "1" + strings.Repeat("}", 70), `{"a":"b"`, `{"a":`, `["a"`, "\"\xe2\x80\xa8\"",
}

// checkJSONFast asserts that the fast reader takes data exactly when the token reader does,
// and makes the same tree with the same offsets.
func checkJSONFast(t *testing.T, data []byte) {
	t.Helper()
	fast, ok := parseJSONFast(data)
	slow, err := parseJSONTokens(data)
	if ok != (err == nil) {
		t.Fatalf("%.80q: fast reader ok=%v, token reader error %v", data, ok, err)
	}
	if ok {
		if d := diffJSONNode(fast, slow, "$"); d != "" {
			t.Fatalf("%.80q: %s", data, d)
		}
	}
}

func diffJSONNode(a, b *jsonNode, at string) string {
	if a.Kind != b.Kind || a.Str != b.Str || a.Offset != b.Offset || len(a.Keys) != len(b.Keys) || len(a.Vals) != len(b.Vals) {
		return at + ": fast " + jsonNodeSummary(a) + ", tokens " + jsonNodeSummary(b)
	}
	for i := range a.Vals {
		sub := fmt.Sprintf("%s[%d]", at, i)
		if a.Kind == jsonObject {
			if a.Keys[i] != b.Keys[i] {
				return at + ": key " + a.Keys[i] + " against " + b.Keys[i]
			}
			sub = at + "." + a.Keys[i]
		}
		if d := diffJSONNode(a.Vals[i], b.Vals[i], sub); d != "" {
			return d
		}
	}
	return ""
}

func jsonNodeSummary(n *jsonNode) string {
	return fmt.Sprintf("%s %q at %d with %d members", n.Kind, n.Str, n.Offset, len(n.Vals))
}

// TestParseJSONFast compares the two readers on the seeds and every JSON file of testdata.
func TestParseJSONFast(t *testing.T) {
	t.Parallel()
	for _, s := range jsonFastSeeds {
		checkJSONFast(t, []byte(s))
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
			checkJSONFast(t, data)
			n++
		}
	}
	if n == 0 {
		t.Fatal("no JSON file found under testdata")
	}
}

func FuzzParseJSONFast(f *testing.F) {
	for _, s := range jsonFastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkJSONFast(t, data) })
}
