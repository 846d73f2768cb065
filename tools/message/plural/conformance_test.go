package plural

import (
	"strconv"
	"testing"
)

// cldrSample is one row of samples_gen_test.go.
type cldrSample struct {
	locale string
	kind   Kind
	cat    Category
	ints   []string
	more   bool // the @integer list goes on ("…")
	decs   []string
}

// TestCLDRSamples is the conformance test: every @integer and @decimal
// sample of every rule of every locale selects the rule's category.
func TestCLDRSamples(t *testing.T) {
	t.Parallel()
	if len(cldrSamples) < 500 {
		t.Fatalf("only %d sample rows: the generated table is incomplete", len(cldrSamples))
	}
	checked := 0
	for _, s := range cldrSamples {
		if got := Locale(s.locale, s.kind); got != s.locale {
			t.Errorf("%s %s: rules resolve to %q, not the locale's own", s.locale, s.kind, got)
		}
		for _, list := range [][]string{s.ints, s.decs} {
			for _, n := range list {
				if _, err := ParseOperands(n); err != nil {
					t.Errorf("%s %s: sample %q: %v", s.locale, s.kind, n, err)
					continue
				}
				if got := selectFor(s.locale, s.kind, n); got != s.cat {
					t.Errorf("%s %s %q = %s, CLDR sample of %s", s.locale, s.kind, n, got, s.cat)
				}
				checked++
			}
		}
	}
	t.Logf("%d samples checked", checked)
}

// TestCategoriesMatchSamples: a locale's categories are those CLDR gives
// rules (and samples) for, in CLDR's order.
func TestCategoriesMatchSamples(t *testing.T) {
	t.Parallel()
	want := map[string][]Category{}
	for _, s := range cldrSamples {
		key := s.kind.String() + " " + s.locale
		want[key] = append(want[key], s.cat)
	}
	for _, s := range cldrSamples {
		key := s.kind.String() + " " + s.locale
		got := Categories(s.locale, s.kind)
		if !equalCats(got, want[key]) {
			t.Errorf("%s: Categories = %v, CLDR has %v", key, got, want[key])
		}
	}
}

// TestExactlyOneMatchesSamples cross-checks the generator's analysis of
// the rules with CLDR's samples, and with the rules themselves: a category
// is ExactlyOne exactly when its @integer samples are one number and do not
// go on, and then no other whole number up to 20000 selects it.
func TestExactlyOneMatchesSamples(t *testing.T) {
	t.Parallel()
	singles := 0
	for _, s := range cldrSamples {
		fromSamples := len(s.ints) == 1 && !s.more
		got := ExactlyOne(s.locale, s.kind, s.cat)
		if got != fromSamples {
			t.Errorf("%s %s %s: ExactlyOne = %v, samples %v (more: %v)", s.locale, s.kind, s.cat, got, s.ints, s.more)
			continue
		}
		if !got {
			continue
		}
		singles++
		n, _ := OnlyNumber(s.locale, s.kind, s.cat)
		if strconv.FormatUint(n, 10) != s.ints[0] {
			t.Errorf("%s %s %s: OnlyNumber = %d, sample %s", s.locale, s.kind, s.cat, n, s.ints[0])
		}
		for x := int64(0); x <= 20000; x++ {
			if c := selectFor(s.locale, s.kind, x); c == s.cat && uint64(x) != n {
				t.Errorf("%s %s %s: ExactlyOne, but %d selects it too", s.locale, s.kind, s.cat, x)
				break
			}
		}
	}
	if singles == 0 {
		t.Fatal("no category matches exactly one number: the analysis found nothing")
	}
}

func equalCats(a, b []Category) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
