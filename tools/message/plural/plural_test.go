package plural

import (
	"errors"
	"slices"
	"testing"
)

func TestCardinalKnownCases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang string
		n    string
		want Category
	}{
		{"ru", "1", One}, {"ru", "21", One}, {"ru", "11", Many}, {"ru", "2", Few},
		{"ru", "22", Few}, {"ru", "12", Many}, {"ru", "5", Many}, {"ru", "0", Many},
		{"ru", "1.5", Other}, {"ru", "101", One}, {"ru", "111", Many},
		{"pl", "1", One}, {"pl", "21", Many}, {"pl", "22", Few}, {"pl", "25", Many},
		{"pl", "12", Many}, {"pl", "0", Many}, {"pl", "1.5", Other},
		{"ar", "0", Zero}, {"ar", "1", One}, {"ar", "2", Two}, {"ar", "3", Few},
		{"ar", "10", Few}, {"ar", "11", Many}, {"ar", "99", Many}, {"ar", "100", Other},
		{"ar", "102", Other}, {"ar", "103", Few}, {"ar", "0.5", Other},
		{"cy", "0", Zero}, {"cy", "1", One}, {"cy", "2", Two}, {"cy", "3", Few},
		{"cy", "4", Other}, {"cy", "5", Other}, {"cy", "6", Many}, {"cy", "7", Other},
		{"he", "1", One}, {"he", "2", Two}, {"he", "3", Other}, {"he", "20", Other},
		{"he", "0.5", One},
		{"fr", "0", One}, {"fr", "1", One}, {"fr", "1.5", One}, {"fr", "2", Other},
		{"fr", "1000000", Many}, {"fr", "1c6", Many}, {"fr", "1c3", Other},
		{"fr", "1.1c6", Many}, {"fr", "1.0000001c6", Many}, {"fr", "2c9", Many},
		{"es", "1c6", Many}, {"es", "1000000", Many}, {"es", "1", One}, {"es", "2c3", Other},
		{"it", "1c6", Many}, {"it", "1", One}, {"it", "1.0", Other},
		{"en", "1", One}, {"en", "1.0", Other}, {"en", "0", Other}, {"en", "2", Other},
		{"en", "-1", One}, {"en", "+1", One}, {"en", "01", One},
		{"lv", "0", Zero}, {"lv", "1", One}, {"lv", "0.1", One}, {"lv", "2", Other},
		{"ja", "1", Other}, {"ja", "0", Other},
		{"pt", "0", One}, {"pt", "1", One}, {"pt-PT", "0", Other}, {"pt-PT", "1", One},
		{"xx", "1", Other}, {"", "1", Other},
		{"en", "not a number", Other}, {"ru", "1.", Other}, {"ru", "", Other},
	}
	for _, tt := range tests {
		if got := Cardinal(tt.lang, tt.n); got != tt.want {
			t.Errorf("Cardinal(%q, %q) = %s, want %s", tt.lang, tt.n, got, tt.want)
		}
	}
}

func TestCardinalIntegersAndOperands(t *testing.T) {
	t.Parallel()
	if got := Cardinal("ru", 21); got != One {
		t.Errorf("ru int 21 = %s, want one", got)
	}
	if got := Cardinal("ru", int64(-11)); got != Many {
		t.Errorf("ru int64 -11 = %s, want many", got)
	}
	if got := Cardinal("pl", IntOperands(22)); got != Few {
		t.Errorf("pl operands 22 = %s, want few", got)
	}
	o, err := ParseOperands("1.5")
	if err != nil {
		t.Fatal(err)
	}
	if got := Cardinal("ru", o); got != Other {
		t.Errorf("ru operands 1.5 = %s, want other", got)
	}
	if got := Select("ar", KindCardinal, IntOperands(2)); got != Two {
		t.Errorf("Select ar 2 = %s, want two", got)
	}
	// The smallest int64 has no positive counterpart in int64.
	if got := IntOperands(-9223372036854775808); got.I != 9223372036854775808 {
		t.Errorf("IntOperands(MinInt64).I = %d", got.I)
	}
}

func TestOrdinalKnownCases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang string
		n    int
		want Category
	}{
		{"en", 1, One}, {"en", 2, Two}, {"en", 3, Few}, {"en", 4, Other},
		{"en", 11, Other}, {"en", 12, Other}, {"en", 13, Other}, {"en", 21, One},
		{"en", 22, Two}, {"en", 23, Few}, {"en", 101, One}, {"en", 111, Other},
		{"fr", 1, One}, {"fr", 2, Other},
		{"sv", 1, One}, {"sv", 2, One}, {"sv", 3, Other}, {"sv", 11, Other},
		{"cy", 0, Zero}, {"cy", 1, One}, {"cy", 2, Two}, {"cy", 3, Few}, {"cy", 5, Many},
		{"de", 1, Other}, {"ru", 1, Other}, {"xx", 1, Other},
	}
	for _, tt := range tests {
		if got := Ordinal(tt.lang, tt.n); got != tt.want {
			t.Errorf("Ordinal(%q, %d) = %s, want %s", tt.lang, tt.n, got, tt.want)
		}
	}
}

func TestCategories(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang string
		kind Kind
		want []Category
	}{
		{"en", KindCardinal, []Category{One, Other}},
		{"ja", KindCardinal, []Category{Other}},
		{"pl", KindCardinal, []Category{One, Few, Many, Other}},
		{"ru", KindCardinal, []Category{One, Few, Many, Other}},
		{"ar", KindCardinal, []Category{Zero, One, Two, Few, Many, Other}},
		{"cy", KindCardinal, []Category{Zero, One, Two, Few, Many, Other}},
		{"he", KindCardinal, []Category{One, Two, Other}},
		{"nb", KindCardinal, []Category{One, Other}},
		{"no", KindCardinal, []Category{One, Other}},
		{"fr", KindCardinal, []Category{One, Many, Other}},
		{"en", KindOrdinal, []Category{One, Two, Few, Other}},
		{"ru", KindOrdinal, []Category{Other}},
		{"xx", KindCardinal, []Category{Other}},
		{"root", KindCardinal, []Category{Other}},
	}
	for _, tt := range tests {
		if got := Categories(tt.lang, tt.kind); !equalCats(got, tt.want) {
			t.Errorf("Categories(%q, %s) = %v, want %v", tt.lang, tt.kind, got, tt.want)
		}
	}
}

func TestExactlyOne(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang string
		kind Kind
		cat  Category
		want bool
	}{
		{"ar", KindCardinal, Zero, true}, {"ar", KindCardinal, One, true},
		{"ar", KindCardinal, Two, true}, {"ar", KindCardinal, Few, false},
		{"ar", KindCardinal, Many, false}, {"ar", KindCardinal, Other, false},
		{"he", KindCardinal, One, true}, {"he", KindCardinal, Two, true},
		{"he", KindCardinal, Other, false},
		{"ru", KindCardinal, One, false}, {"pl", KindCardinal, One, true},
		{"pl", KindCardinal, Few, false},
		{"fr", KindCardinal, One, false}, {"pt", KindCardinal, One, false},
		{"pt-PT", KindCardinal, One, true},
		{"en", KindCardinal, One, true}, {"de", KindCardinal, One, true},
		{"cy", KindCardinal, Zero, true}, {"cy", KindCardinal, Few, true},
		{"cy", KindCardinal, Many, true},
		{"en", KindCardinal, Two, false}, // not a category of en
		{"en", KindOrdinal, One, false},  // 1, 21, 31 ...
		{"sv", KindOrdinal, One, false},  // 1, 2, 21, 22 ...
		{"ja", KindCardinal, Other, false},
	}
	for _, tt := range tests {
		if got := ExactlyOne(tt.lang, tt.kind, tt.cat); got != tt.want {
			t.Errorf("ExactlyOne(%q, %s, %s) = %v, want %v", tt.lang, tt.kind, tt.cat, got, tt.want)
		}
	}
	for _, tt := range []struct {
		lang string
		cat  Category
		want uint64
	}{{"ar", Zero, 0}, {"ar", Two, 2}, {"he", Two, 2}, {"cy", Many, 6}} {
		if n, ok := OnlyNumber(tt.lang, KindCardinal, tt.cat); !ok || n != tt.want {
			t.Errorf("OnlyNumber(%q, %s) = %d, %v; want %d", tt.lang, tt.cat, n, ok, tt.want)
		}
	}
}

func TestLocaleFallback(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tag  string
		kind Kind
		want string
	}{
		{"pt", KindCardinal, "pt"},
		{"pt-PT", KindCardinal, "pt-PT"},
		{"pt_PT", KindCardinal, "pt-PT"},
		{"PT-pt", KindCardinal, "pt-PT"},
		{"pt-BR", KindCardinal, "pt"},
		{"pt-AO", KindCardinal, "pt-PT"}, // CLDR parent locale
		{"pt-MZ", KindCardinal, "pt-PT"},
		{"pt-PT", KindOrdinal, "pt"}, // no ordinal rules of pt-PT: truncation
		{"zh-Hant", KindCardinal, "zh"},
		{"zh-Hant-TW", KindCardinal, "zh"},
		{"zh-Hant-MO", KindCardinal, "zh"},
		{"sr-Latn", KindCardinal, "sr"},
		{"sr-Latn-RS", KindCardinal, "sr"},
		{"sr-Cyrl", KindCardinal, "sr"},
		{"nb", KindCardinal, "nb"},
		{"nb-NO", KindCardinal, "nb"},
		{"no", KindCardinal, "no"},
		{"nn", KindCardinal, "nn"},
		{"nn", KindOrdinal, "no"}, // nn's parent is no
		{"no-NO", KindCardinal, "no"},
		{"kok-Latn", KindCardinal, "kok-Latn"},
		{"kok-Latn-IN", KindCardinal, "kok-Latn"},
		{"en-GB", KindCardinal, "en"},
		{"en-AU", KindOrdinal, "en"},
		{"es-419", KindCardinal, "es"},
		{"es-MX", KindCardinal, "es"},
		{"es-CL", KindCardinal, "es"}, // es-CL → es-419 → es
		{"pa-PK", KindCardinal, "pa"}, // pa-Arab's parent is root: truncation
		{"zh-Hant-HK", KindCardinal, "zh"},
		{"br", KindCardinal, "br"},
		{"de-CH-1996", KindCardinal, "de"},
		{"en-US-u-nu-latn", KindCardinal, "en"},
		{"en-x-private", KindCardinal, "en"},
		{"iw", KindCardinal, "he"}, // deprecated code
		{"in", KindCardinal, "id"},
		{"cmn", KindCardinal, "zh"}, // macrolanguage member
		{"root", KindCardinal, "und"},
		{"und", KindCardinal, "und"},
		{"xx", KindCardinal, "und"},
		{"tlh", KindCardinal, "und"},
		{"", KindCardinal, "und"},
		{"-", KindCardinal, "und"},
		{"e", KindCardinal, "und"},
		{"123", KindCardinal, "und"},
		{"ak", KindOrdinal, "und"}, // cardinal rules only
	}
	for _, tt := range tests {
		if got := Locale(tt.tag, tt.kind); got != tt.want {
			t.Errorf("Locale(%q, %s) = %q, want %q", tt.tag, tt.kind, got, tt.want)
		}
	}
	// The fallback changes the answer: pt and pt-PT differ on 0.
	if Cardinal("pt-AO", 0) != Other || Cardinal("pt-BR", 0) != One {
		t.Error("pt-AO must follow pt-PT (0 is other), pt-BR pt (0 is one)")
	}
	if Cardinal("sr-Latn", 21) != One || Cardinal("sr-Latn", 22) != Few {
		t.Error("sr-Latn must use Serbian rules")
	}
	if Cardinal("iw", 2) != Two {
		t.Error("iw must use Hebrew rules")
	}
}

// TestRegionalTagsShareTheirLanguagesCategories: a regional tag CLDR has no
// rules for uses its parent's, so a project's es-CL asks for es's forms.
func TestRegionalTagsShareTheirLanguagesCategories(t *testing.T) {
	t.Parallel()
	for tag, parent := range map[string]string{"es-CL": "es", "pa-PK": "pa", "nb-NO": "nb", "zh-Hant-HK": "zh", "sr-Latn": "sr", "pt_BR": "pt"} {
		for _, kind := range []Kind{KindCardinal, KindOrdinal} {
			if got, want := Categories(tag, kind), Categories(parent, kind); !slices.Equal(got, want) {
				t.Errorf("Categories(%q, %s) = %v, want %s's %v", tag, kind, got, parent, want)
			}
		}
	}
	if got := Categories("es-CL", KindCardinal); !slices.Equal(got, []Category{One, Many, Other}) {
		t.Errorf("es-CL cardinal categories %v, want one many other", got)
	}
	if got := Categories("pa-PK", KindCardinal); !slices.Equal(got, []Category{One, Other}) {
		t.Errorf("pa-PK cardinal categories %v, want one other", got)
	}
}

func TestParseOperands(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Operands
	}{
		{"0", Operands{}},
		{"1", Operands{I: 1}},
		{"1.0", Operands{I: 1, V: 1}},
		{"1.50", Operands{I: 1, V: 2, W: 1, F: 50, T: 5}},
		{"1.05", Operands{I: 1, V: 2, W: 2, F: 5, T: 5}},
		{"-12.340", Operands{I: 12, V: 3, W: 2, F: 340, T: 34}},
		{".5", Operands{V: 1, W: 1, F: 5, T: 5}},
		{"007", Operands{I: 7}},
		{"1c6", Operands{I: 1000000, C: 6}},
		{"1.1c6", Operands{I: 1100000, C: 6}},
		{"1.0000001c6", Operands{I: 1000000, V: 1, W: 1, F: 1, T: 1, C: 6}},
		{"1.5e3", Operands{I: 1500, C: 3}},
		{"1.2345c2", Operands{I: 123, V: 2, W: 2, F: 45, T: 45, C: 2}},
		{"1c0", Operands{I: 1}},
		{"1234567890123456789", Operands{I: 234567890123456789, IBig: true}},
		{"0.1234567890123456789", Operands{V: 19, W: 19, F: 234567890123456789, T: 234567890123456789, FBig: true, TBig: true}},
		{"1c40", Operands{I: 0, IBig: true, C: 40}},
	}
	for _, tt := range tests {
		got, err := ParseOperands(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseOperands(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "-", "+", ".", "1.", "1..2", "1.2.3", "a", "1e", "1c", "1c-3",
		"1e+3", "1 000", " 1", "1,5", "1c6c", "0x10", "1c99999999", "∞", "١"} {
		if o, err := ParseOperands(bad); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseOperands(%q) = %+v, %v; want ErrSyntax", bad, o, err)
		}
	}
}

// TestBigNumbers: numbers beyond 18 digits still select by their low
// digits where a rule takes a modulus, and equal no rule's constant.
func TestBigNumbers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, n string
		want    Category
	}{
		{"ru", "100000000000000000021", One},
		{"ru", "100000000000000000011", Many},
		{"pl", "100000000000000000022", Few},
		{"en", "1000000000000000000001", Other}, // i = 1 only in the low digits
		{"ar", "1000000000000000000000", Other}, // not zero
		{"ar", "1000000000000000000003", Few},
		{"fr", "1000000000000000000000000", Many},
		{"mk", "0.00000000000000000001", One}, // f % 10 = 1
	}
	for _, tt := range tests {
		if got := Cardinal(tt.lang, tt.n); got != tt.want {
			t.Errorf("Cardinal(%q, %q) = %s, want %s", tt.lang, tt.n, got, tt.want)
		}
	}
}

func TestCategoryNames(t *testing.T) {
	t.Parallel()
	for c := Zero; c <= Other; c++ {
		back, ok := ParseCategory(c.String())
		if !ok || back != c {
			t.Errorf("ParseCategory(%q) = %v, %v", c.String(), back, ok)
		}
	}
	if _, ok := ParseCategory("several"); ok {
		t.Error(`ParseCategory("several") succeeded`)
	}
	if Category(9).String() != "invalid" {
		t.Error("an out-of-range category must not print as a real one")
	}
}

func FuzzCardinal(f *testing.F) {
	for _, s := range []string{"1", "1.50", "1c6", "-0.0", "1e999", "", "x", "1.0000001c6", "99999999999999999999999.9"} {
		f.Add("ru", s)
	}
	f.Add("pt-AO-u-nu-latn", "21")
	f.Add("zh_Hant_MO", "0")
	f.Fuzz(func(t *testing.T, lang, n string) {
		c := Cardinal(lang, n)
		o := Ordinal(lang, n)
		if c >= numCategories || o >= numCategories {
			t.Fatalf("out-of-range category %d %d", c, o)
		}
		// The category is one the language has.
		if !hasCat(Categories(lang, KindCardinal), c) || !hasCat(Categories(lang, KindOrdinal), o) {
			t.Fatalf("%q %q selected %s/%s outside the language's categories", lang, n, c, o)
		}
		if _, err := ParseOperands(n); err != nil && c != Other {
			t.Fatalf("invalid number %q selected %s", n, c)
		}
	})
}

func hasCat(list []Category, c Category) bool {
	for _, x := range list {
		if x == c {
			return true
		}
	}
	return false
}

// TestLokalLanguagesHaveRules: the languages lokal's projects used most (the
// codes of the table tools/languages.go had before any BCP 47 tag was taken)
// resolve to CLDR rules for their own language, not to root.
func TestLokalLanguagesHaveRules(t *testing.T) {
	t.Parallel()
	codes := []string{"af", "am", "ar", "az", "be", "bg", "bn", "bs", "ca", "cs", "cy", "da",
		"de", "de-AT", "de-CH", "el", "en", "en-AU", "en-CA", "en-GB", "en-US", "eo", "es",
		"es-419", "es-ES", "es-MX", "et", "eu", "fa", "fi", "fil", "fo", "fr", "fr-BE", "fr-CA",
		"fr-CH", "ga", "gl", "gu", "he", "hi", "hr", "hu", "hy", "id", "is", "it", "it-CH", "ja",
		"ka", "kk", "km", "kn", "ko", "lb", "lo", "lt", "lv", "mk", "ml", "mn", "mr", "ms", "mt",
		"my", "nb", "ne", "nl", "nl-BE", "nn", "no", "pa", "pl", "pt", "pt-BR", "pt-PT", "ro",
		"ru", "se", "si", "sk", "sl", "sq", "sr", "sr-Latn", "sv", "sv-FI", "sw", "ta", "te",
		"th", "tr", "uk", "ur", "uz", "vi", "zh", "zh-CN", "zh-HK", "zh-Hans", "zh-Hant",
		"zh-TW", "zu"}
	for _, code := range codes {
		loc := Locale(code, KindCardinal)
		lang, _, _ := parseTag(code)
		if got, _, _ := parseTag(loc); got != lang {
			t.Errorf("%s: cardinal rules of %q", code, loc)
		}
	}
}

func BenchmarkCardinalString(b *testing.B) {
	for b.Loop() {
		Cardinal("pt-AO", "1.50")
	}
}

func BenchmarkCardinalInt(b *testing.B) {
	for b.Loop() {
		Cardinal("ru", 21)
	}
}
