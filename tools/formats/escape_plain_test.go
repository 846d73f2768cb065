package formats

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestEscapePlainShortcuts: the shortcuts that return a text unescaped give what the
// rune-by-rune escapes write, for random awkward texts.
func TestEscapePlainShortcuts(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(34, 4))
	pieces := []string{"a", "Hello", " ", "  ", "=", ":", "#", "!", "\\", "\"", "'", "\t", "\n", "\r", "\f", "\x00", "\x1f", "\x7f",
		"\x80", "\u0085", "\u00a0", "ñ", "日本", "\U0001F44D", "\uFFFD", "\xff", "\xe2\x82", "{count}", "%1$s", "<b>"}
	plain := 0
	for range 50000 {
		var b strings.Builder
		for n := r.IntN(4); n >= 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		for _, key := range []bool{false, true} {
			for _, ascii := range []bool{false, true} {
				if got, want := escapeProperty(s, key, ascii), escapePropertyRunes(s, key, ascii); got != want {
					t.Fatalf("properties %q (key %v, ascii %v): %q, want %q", s, key, ascii, got, want)
				}
			}
		}
		if got, want := stringsEscape(s), stringsEscapeRunes(s); got != want {
			t.Fatalf("strings %q: %q, want %q", s, got, want)
		}
		if stringsPlain(s) {
			plain++
		}
	}
	if plain < 1000 {
		t.Fatalf("only %d plain texts", plain)
	}
}
