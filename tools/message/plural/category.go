package plural

// Category is a CLDR plural category. The constants are in CLDR's order.
type Category uint8

const (
	Zero Category = iota
	One
	Two
	Few
	Many
	Other
)

// numCategories is the number of categories; Category values are below it.
const numCategories = 6

var categoryNames = [numCategories]string{"zero", "one", "two", "few", "many", "other"}

// String returns CLDR's keyword for c ("zero" ... "other").
func (c Category) String() string {
	if c < numCategories {
		return categoryNames[c]
	}
	return "invalid"
}

// ParseCategory returns the category named by CLDR's keyword s.
func ParseCategory(s string) (Category, bool) {
	for i, name := range categoryNames {
		if s == name {
			return Category(i), true
		}
	}
	return 0, false
}

// Kind says which of CLDR's two rule sets applies: cardinal numbers
// ("3 files") or ordinal numbers ("the 3rd file").
type Kind uint8

const (
	KindCardinal Kind = iota
	KindOrdinal
)

// String returns "cardinal" or "ordinal".
func (k Kind) String() string {
	if k == KindOrdinal {
		return "ordinal"
	}
	return "cardinal"
}
