package message

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// seedValues are real values: the table above and every string of the
// AI eval cases (sources, expected values and scripted model answers).
func seedValues(tb testing.TB) []string {
	var out []string
	for _, c := range parseCases {
		out = append(out, c.value)
	}
	files, err := filepath.Glob("../../evals/testdata/*.txtar")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no eval cases: %v", err)
	}
	for _, name := range files {
		a, err := txtar.ParseFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		for _, f := range a.Files {
			if f.Name == "rules.json" {
				continue
			}
			var v any
			if json.Unmarshal(f.Data, &v) == nil {
				out = appendStrings(out, v)
			} else {
				out = append(out, string(f.Data))
			}
		}
	}
	return out
}

func appendStrings(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		return append(out, v)
	case []any:
		for _, e := range v {
			out = appendStrings(out, e)
		}
	case map[string]any:
		for _, e := range v {
			out = appendStrings(out, e)
		}
	}
	return out
}

func TestSeedsRoundTrip(t *testing.T) {
	t.Parallel()
	seeds := seedValues(t)
	if len(seeds) < 200 {
		t.Fatalf("only %d seed values", len(seeds))
	}
	for _, v := range seeds {
		for _, s := range []Syntax{All, DetectSyntax([]string{v}), ICU | HTML, I18next | React | HTML} {
			if got := Parse(v, s).String(); got != v {
				t.Errorf("Parse(%q, %s).String() = %q", v, s, got)
			}
		}
	}
}

func FuzzRoundTrip(f *testing.F) {
	for _, v := range seedValues(f) {
		f.Add(v, uint16(All))
		f.Add(v, uint16(DetectSyntax([]string{v})))
	}
	f.Fuzz(func(t *testing.T, v string, syn uint16) {
		s := Syntax(syn) & All
		if got := Parse(v, s).String(); got != v {
			t.Fatalf("Parse(%q, %s).String() = %q", v, s, got)
		}
	})
}

// FuzzNoPanic runs every helper on any value under any syntax and checks
// what must hold of every tree.
func FuzzNoPanic(f *testing.F) {
	for _, v := range seedValues(f) {
		f.Add(v, uint16(All))
	}
	f.Fuzz(func(t *testing.T, v string, syn uint16) {
		s := Syntax(syn) & All
		m := Parse(v, s)
		for _, p := range m.Problems {
			if p.Offset < 0 || p.Offset > len(v) {
				t.Fatalf("problem %v outside %q", p, v)
			}
		}
		if again := Parse(v, s); dump(again.Nodes) != dump(m.Nodes) || again.Signature() != m.Signature() {
			t.Fatalf("Parse(%q) not deterministic", v)
		}
		Walk(m, func(n Node, _ Path) bool {
			switch n := n.(type) {
			case *Arg:
				if n.Raw == "" || !strings.Contains(v, n.Raw) {
					t.Fatalf("arg %q not in %q", n.Raw, v)
				}
			case *Tag:
				if (n.Kind == Element) != (n.Close != "" && n.Start != "") || n.Kind != Element && len(n.Children) > 0 {
					t.Fatalf("tag %q of kind %s has start %q close %q", n.String(), n.Kind, n.Start, n.Close)
				}
			case *Text:
				if n.Value == "" {
					t.Fatalf("empty text node in %q", v)
				}
			}
			return true
		})
		total := 0
		for _, fc := range Forms(m) {
			total += len(fc.Args)
			_ = fc.Path.String()
			_ = fc.Markup
		}
		n := 0
		Walk(m, func(node Node, _ Path) bool {
			if _, ok := node.(*Arg); ok {
				n++
			}
			return true
		})
		if total != n {
			t.Fatalf("Forms hold %d args, Walk finds %d, in %q", total, n, v)
		}
		_ = PrintfOrder(m)
		_ = m.PlainText()
		_ = DetectSyntax([]string{v})
	})
}
