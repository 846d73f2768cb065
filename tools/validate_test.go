package tools

import (
	"regexp"
	"strings"
	"testing"
)

// TestValidNamespace: the written-out namespace check accepts exactly what the pattern the
// spec states does, byte by byte and at the length bounds.
func TestValidNamespace(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.\-]{0,127}$`)
	cases := []string{"", "a", ".a", "-a", "_a", "a.b-c_d", "a b", "é", "a/b", "A9", strings.Repeat("a", 128), strings.Repeat("a", 129), "a\x00", "a\n", "ab.", "0"}
	for b := 0; b < 256; b++ {
		cases = append(cases, string([]byte{byte(b)}), "a"+string([]byte{byte(b)}))
	}
	for _, c := range cases {
		if validNamespace(c) != re.MatchString(c) {
			t.Errorf("%q: %v vs %v", c, validNamespace(c), re.MatchString(c))
		}
	}
}
