package plural

import (
	"slices"
	"testing"
)

func TestSamplesPerCategory(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lang string
		cat  Category
		want []string
	}{
		{"pl", One, []string{"1"}},
		{"pl", Few, []string{"2", "3", "4", "22", "23", "24"}},
		{"pl", Many, []string{"0", "5", "6", "7", "8", "9"}},
		{"pl", Other, []string{"0.0", "0.5", "1.0"}},
		{"ar", Zero, []string{"0", "0.0"}},
		{"ar", Two, []string{"2"}},
		{"ja", Other, []string{"0", "1", "2", "3", "4", "5"}},
		{"ja", One, nil},
		{"fr", Many, []string{"1000000", "2000000", "10000000"}},
	}
	for _, c := range cases {
		if got := Samples(c.lang, KindCardinal, c.cat); !slices.Equal(got, c.want) {
			t.Errorf("Samples(%s, %s) = %q, want %q", c.lang, c.cat, got, c.want)
		}
	}
	// Every category a language uses has an example, and each example selects it.
	for _, lang := range []string{"pl", "ar", "ru", "fr", "cy", "ga", "lt", "he", "en", "ja", "sl", "mt"} {
		for _, kind := range []Kind{KindCardinal, KindOrdinal} {
			for _, cat := range Categories(lang, kind) {
				s := Samples(lang, kind, cat)
				if len(s) == 0 {
					t.Errorf("%s %s %s: no samples", lang, kind, cat)
				}
				for _, n := range s {
					if got := selectFor(lang, kind, n); got != cat {
						t.Errorf("%s %s: sample %s selects %s, not %s", lang, kind, n, got, cat)
					}
				}
			}
		}
	}
}
