package message

import "strings"

// pluralCategories are the CLDR plural categories, as i18next key
// suffixes spell them.
var pluralCategories = []string{"zero", "one", "two", "few", "many", "other"}

// SplitPluralKey splits an i18next plural key ("files_one",
// "place_ordinal_two") into its base key and CLDR category. i18next keeps
// the forms of a plural in sibling keys rather than in the value, so the
// file formats use this at their edge to gather them. ok is false for a
// key without such a suffix.
func SplitPluralKey(key string) (base, category string, ordinal, ok bool) {
	for _, c := range pluralCategories {
		b, found := strings.CutSuffix(key, "_"+c)
		if !found || b == "" {
			continue
		}
		if o, isOrd := strings.CutSuffix(b, "_ordinal"); isOrd && o != "" {
			return o, c, true, true
		}
		return b, c, false, true
	}
	return key, "", false, false
}
