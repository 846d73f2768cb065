package plural

// Number is what Cardinal and Ordinal accept: operands, a decimal string
// (see ParseOperands) or an integer.
type Number interface {
	Operands | string | int | int64
}

// Cardinal returns the cardinal category ("3 files") that lang's CLDR rules
// select for n. A string that is not a decimal number is Other.
func Cardinal[N Number](lang string, n N) Category {
	return selectFor(lang, KindCardinal, n)
}

// Ordinal returns the ordinal category ("the 3rd file") that lang's CLDR
// rules select for n. A string that is not a decimal number is Other.
func Ordinal[N Number](lang string, n N) Category {
	return selectFor(lang, KindOrdinal, n)
}

// Select is Cardinal or Ordinal as kind says, for operands.
func Select(lang string, kind Kind, o Operands) Category {
	_, rs := resolve(lang, kind)
	return rs.selectCategory(&o)
}

func selectFor[N Number](lang string, kind Kind, n N) Category {
	var o Operands
	switch v := any(n).(type) {
	case Operands:
		o = v
	case string:
		var err error
		if o, err = ParseOperands(v); err != nil {
			return Other
		}
	case int:
		o = IntOperands(int64(v))
	case int64:
		o = IntOperands(v)
	}
	return Select(lang, kind, o)
}

// Categories returns the categories lang uses for kind, in CLDR's order
// (zero, one, two, few, many, other). Other is always among them; a
// language without rules of its own has only Other.
func Categories(lang string, kind Kind) []Category {
	_, rs := resolve(lang, kind)
	var out []Category
	for c := Category(0); c < numCategories; c++ {
		if rs.cats&(1<<c) != 0 {
			out = append(out, c)
		}
	}
	return out
}

// ExactlyOne reports whether category c of lang matches exactly one whole
// number, so that a message form for it may leave the number out: Arabic
// zero, one and two, Hebrew one and two, English one. Russian one (1, 21,
// 31 ...) and French one (0 and 1) match several and are false, as is a
// category lang does not use.
//
// Whole numbers decide, as plural messages count things: Hebrew one also
// selects 0.5 written with its fraction, which a count never is.
func ExactlyOne(lang string, kind Kind, c Category) bool {
	_, ok := OnlyNumber(lang, kind, c)
	return ok
}

// OnlyNumber returns the whole number that category c of lang matches when
// it matches exactly one (see ExactlyOne).
func OnlyNumber(lang string, kind Kind, c Category) (uint64, bool) {
	_, rs := resolve(lang, kind)
	for _, s := range rs.singles {
		if s.cat == c {
			return s.n, true
		}
	}
	return 0, false
}

// Locale returns the CLDR locale whose rules of kind apply to the BCP 47
// tag lang: "pt-PT" for pt-AO, "sr" for sr-Latn, "und" (root, other only)
// for a language CLDR has no rules for.
func Locale(lang string, kind Kind) string {
	loc, _ := resolve(lang, kind)
	return loc
}
