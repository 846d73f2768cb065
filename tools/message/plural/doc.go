// Package plural holds CLDR's plural rules: which category (zero, one, two,
// few, many, other) a number selects in a language, for cardinal and
// ordinal numbers, which categories a language uses, and whether a category
// matches exactly one number.
//
// The rules are compiled into rules_gen.go (no parsing at run time) from
// the CLDR release named by [CLDRVersion]. To update them, unpack the
// cldr-core npm package (npm view cldr-core version names the newest) and
// run go generate, from the repository's root:
//
//	tmp=$(mktemp -d)
//	(cd "$tmp" && npm pack cldr-core@48.2.0 && tar xzf cldr-core-48.2.0.tgz)
//	CLDR_CORE="$tmp/package" go generate ./tools/message/plural
//	CLDR_CORE="$tmp/package" go test ./tools/message/plural/...
//
// The generator (gen/main.go) reads supplemental/plurals.json and
// ordinals.json for the rules, parentLocales.json and aliases.json for the
// locale fallback, and also writes samples_gen_test.go: every @integer and
// @decimal sample CLDR gives, which the tests check selects its category.
// The CLDR files themselves are not kept in the repository.
//
// # API
//
//   - [Cardinal] and [Ordinal] select a category for a number given as
//     [Operands], a decimal string ("1.50", "1c6") or an integer.
//   - [Categories] lists a language's categories in CLDR's order.
//   - [ExactlyOne] tells whether a category matches exactly one whole
//     number (ar zero/one/two, he one/two: true; ru one, fr one: false);
//     [OnlyNumber] returns that number.
//   - [Locale] names the CLDR locale whose rules apply to a tag.
//
// # Numbers
//
// A decimal string's visible digits matter, as CLDR defines: in English
// "1" is one but "1.0" is other. "1.50" has v=2, f=50, t=5. The compact
// exponent c (also written e) shifts the point: "1c6" is a million with
// c=6, which is many in French and Spanish where "1000000" is too but
// "1c3" is other. A string that is not a number selects other.
//
// # Languages
//
// Languages are BCP 47 tags (or CLDR ids with '_'). A tag is reduced to
// language, script and region and looked up in CLDR's rules; pt-PT has
// rules of its own, pt-AO inherits them through CLDR's parent locales,
// sr-Latn and zh-Hant fall back to sr and zh, nb and nn have their own
// rules and inherit no's ordinals. Deprecated codes are replaced (iw is
// he). A language CLDR has no rules for, and root, has only other.
package plural

//go:generate go run ./gen
