package formats

import (
	"bytes"
	"cmp"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// TestXcodeSimpleCompare: on identifiers the hand-written order is the collator's (ties
// by bytes), as xcodeOrder would sort them with it.
func TestXcodeSimpleCompare(t *testing.T) {
	t.Parallel()
	c := collate.New(language.Und, collate.Numeric)
	var buf collate.Buffer
	r := rand.New(rand.NewPCG(34, 33))
	pieces := []string{"a", "b", "z", "ab", "_", "-", ".", "0", "1", "2", "9", "10", "19", "100", "007", "01", "00", "000", "0010", "label", "section_", "element_"}
	gen := func() string {
		var b strings.Builder
		for n := r.IntN(6); n >= 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	tested := 0
	for range 200000 {
		a, b := gen(), gen()
		if !xcodeSimple(a) || !xcodeSimple(b) {
			continue
		}
		tested++
		want := bytes.Compare(c.KeyFromString(&buf, a), c.KeyFromString(&buf, b))
		if want == 0 {
			want = strings.Compare(a, b)
		}
		if got := xcodeSimpleCompare(a, b); cmp.Compare(got, 0) != want {
			t.Fatalf("%q vs %q: %d, the collator %d", a, b, got, want)
		}
		sk, ok := xcodeSimpleKeys([]string{a, b})
		if !ok {
			t.Fatalf("%q, %q: no sort keys", a, b)
		}
		got := bytes.Compare(sk[0], sk[1])
		if got == 0 {
			got = strings.Compare(a, b)
		}
		if got != want {
			t.Fatalf("%q vs %q: sort keys %d, the collator %d", a, b, got, want)
		}
	}
	if tested < 5000 {
		t.Fatalf("only %d pairs were simple", tested)
	}
}
