package tools

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/message"
)

// mayHaveSyntax is the filter ProjectSyntax has the database apply.
func mayHaveSyntax(v string) bool {
	for _, n := range syntaxNeedles {
		if strings.Contains(v, n) {
			return true
		}
	}
	return false
}

// TestSyntaxCharsFilterIsExact: ProjectSyntax detects over the values that contain one of
// syntaxNeedles; a value without one must change no DetectSyntax answer, or the filter
// would change what is detected.
func TestSyntaxCharsFilterIsExact(t *testing.T) {
	t.Parallel()
	const alphabet = "ab Z09'#|>])(!*_~`:=/\\\"\n.,;?-+@^ñ日"
	letters := []rune(alphabet)
	for _, r := range "{}%<&$[" {
		if strings.ContainsRune(alphabet, r) {
			t.Fatalf("alphabet holds syntax character %q", r)
		}
	}
	bases := [][]string{
		nil,
		{"Hello {name}"},
		{"Use { and } to group", "{{count}} items"},
		{"{0:C} and {name}"},
		{"<Widget>x</Widget>"},
		{"{n, plural, one {# item} other {# items}}"},
	}
	tried := 0
	rng := rand.New(rand.NewPCG(17, 17))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteRune(letters[rng.IntN(len(letters))])
		}
		v := b.String()
		if mayHaveSyntax(v) {
			continue
		}
		tried++
		for _, base := range bases {
			want := message.DetectSyntax(base)
			if got := message.DetectSyntax(append(append([]string{}, base...), v)); got != want {
				t.Fatalf("adding %q to %q: %v, want %v", v, base, got, want)
			}
		}
	}
	if tried < 10000 {
		t.Errorf("only %d of 20000 values without a syntax character were tried", tried)
	}
}
