package message

import (
	"strings"
	"testing"
)

// BenchmarkParse shows the cost of a typical value and that adversarial
// input (every construct opened and never closed) stays linear: the 64KiB
// case should cost about four times the 16KiB one.
func BenchmarkParse(b *testing.B) {
	typical := `{g, select, female {{n, plural, one {<b>{name}</b> has # cat} other {{name} has # cats}}} other {They have <a href="/x" title="Cats">{n} cats</a>}}`
	junk := `{a, plural, other {<b title="x [y](z %1$s {{q ${r &amp; '{ <0> <p x=1 %{s} [t](u(v) {w, number, ::x} }`
	for _, c := range []struct {
		name string
		v    string
	}{
		{"typical", typical},
		{"adversarial-16KiB", strings.Repeat(junk, 16<<10/len(junk))},
		{"adversarial-64KiB", strings.Repeat(junk, 64<<10/len(junk))},
		{"brackets-64KiB", strings.Repeat("[<{'", 16<<10)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.v)))
			for b.Loop() {
				Parse(c.v, All)
			}
		})
	}
}
