package jsoncheck_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/jsoncheck"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in string
		want     string // "" for accepted; else the whole error text
	}{
		{"object", `{"a":"b","c":{"d":["e",1,null,true]}}`, ""},
		{"surrogate pair", `{"a":"\ud83d\ude00"}`, ""},
		{"escaped NUL", `{"a":"\u0000"}`, ""},
		{"same key in two objects", `{"a":{"x":1},"b":{"x":2}}`, ""},
		{"keys differing in case", `{"a":1,"A":2}`, ""},
		{"malformed", `{"a":`, ""},
		{"trailing garbage", `{"a":1} x`, ""},
		{"not JSON", `hello`, ""},
		{"empty", ``, ""},
		{"duplicate key", `{"a":1,"a":2}`, `duplicate key "a"`},
		{"duplicate nested key", `{"translations":{"x":"1","y":"2","x":"3"}}`, `duplicate key "x" in /translations`},
		{"duplicate in array", `[{"k":1},{"k":1,"k":2}]`, `duplicate key "k" in /1`},
		{"duplicate spelled with an escape", `{"a":1,"\u0061":2}`, `duplicate key "a"`},
		{"lone high surrogate", `{"a":"\ud800"}`, `a lone UTF-16 surrogate escape (\ud800 to \udfff without its pair) in /a`},
		{"lone low surrogate", `{"a":"x\udc00y"}`, `a lone UTF-16 surrogate escape (\ud800 to \udfff without its pair) in /a`},
		{"reversed pair", `["\ude00\ud83d"]`, `a lone UTF-16 surrogate escape (\ud800 to \udfff without its pair) in /0`},
		{"surrogate in a key", `{"\ud800":1}`, `a lone UTF-16 surrogate escape (\ud800 to \udfff without its pair)`},
		{"invalid UTF-8", "{\"a\":\"x\xffy\"}", `invalid UTF-8 in /a`},
		{"encoded surrogate bytes", "[\"\xed\xa0\x80\"]", `invalid UTF-8 in /0`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := jsoncheck.Check([]byte(c.in))
			got := ""
			if err != nil {
				got = err.Error()
				var je *jsoncheck.Error
				if !errors.As(err, &je) {
					t.Errorf("error %T, want *jsoncheck.Error", err)
				}
			}
			if got != c.want {
				t.Errorf("Check(%q) = %q, want %q", c.in, got, c.want)
			}
			// What Check refuses, encoding/json takes silently: the reason for the package.
			if c.want != "" {
				var v any
				if json.Unmarshal([]byte(c.in), &v) != nil {
					t.Errorf("encoding/json refuses %q too; the case tests nothing of Check", c.in)
				}
			}
		})
	}
}

// BenchmarkCheck is the cost Check adds to a large sync body.
func BenchmarkCheck(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"translations":{`)
	for i := range 20000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`"section.key` + strings.Repeat("x", i%7) + `_` + itoa(i) + `":"A translated value with <b>markup</b> and %{name}, number ` + itoa(i) + `"`)
	}
	sb.WriteString(`}}`)
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if err := jsoncheck.Check(data); err != nil {
			b.Fatal(err)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestCheckOutside(t *testing.T) {
	t.Parallel()
	const at = "/params/arguments"
	cases := []struct{ name, in, want string }{
		{"strict", `{"params":{"arguments":{"a":"b"}}}`, ""},
		{"only the arguments", `{"params":{"arguments":{"a":"\ud800","a":1}}}`, ""},
		{"duplicate arguments", `{"params":{"arguments":{},"arguments":{}}}`, `duplicate key "arguments" in /params`},
		{"envelope after the arguments", `{"params":{"arguments":{"a":"\ud800"}},"method":"a","method":"b"}`, `duplicate key "method"`},
		{"envelope before the arguments", `{"id":"\udc00","params":{"arguments":{"a":"\ud800"}}}`,
			`a lone UTF-16 surrogate escape (\ud800 to \udfff without its pair) in /id`},
		{"arguments elsewhere", `{"other":{"arguments":{"a":1,"a":2}}}`, `duplicate key "a" in /other/arguments`},
		{"malformed", `{"params":{"arguments":{"a":"\ud800"}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ""
			if err := jsoncheck.CheckOutside([]byte(c.in), at); err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Errorf("CheckOutside(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}
