package tools_test

import (
	"testing"

	"github.com/lokal-dev/lokal/tools"
)

// TestWordDiff: the parts give back both texts, and only the changed words are marked.
func TestWordDiff(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ old, new, marked string }{
		{"Save your changes now", "Save all your changes", "Save [+all ]your [-changes now][+changes]"},
		{"", "New text", "[+New text]"},
		{"Same", "Same", "Same"},
	} {
		ps := tools.WordDiff(c.old, c.new)
		if tools.DiffText(ps, "-") != c.old || tools.DiffText(ps, "+") != c.new {
			t.Errorf("%q -> %q: parts %+v do not give back the texts", c.old, c.new, ps)
		}
		got := ""
		for _, p := range ps {
			switch p.Op {
			case "=":
				got += p.Text
			default:
				got += "[" + p.Op + p.Text + "]"
			}
		}
		if got != c.marked {
			t.Errorf("%q -> %q: %s, want %s", c.old, c.new, got, c.marked)
		}
	}
}
