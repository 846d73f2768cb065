package formats

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestXMLCleanASCIIShortcut: xmlClean's pass over ASCII bytes gives what replacing
// invalid UTF-8 and the runes XML forbids does, on random bytes.
func TestXMLCleanASCIIShortcut(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(34, 3))
	pieces := []string{"a", " ", "\t", "\n", "\r", "\x00", "\x1f", "\x7f", "\x80", "\xff", "é", "\uFFFE", "\U0001F600", "&<>"}
	for range 20000 {
		var b strings.Builder
		for n := r.IntN(8); n >= 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		want := strings.Map(func(r rune) rune {
			if !xmlValidRune(r) {
				return '\uFFFD'
			}
			return r
		}, strings.ToValidUTF8(s, "\uFFFD"))
		if got := xmlClean(s); got != want {
			t.Fatalf("xmlClean(%q) = %q, want %q", s, got, want)
		}
	}
}
