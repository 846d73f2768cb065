package plural

import "strings"

// maxParentSteps bounds the walk up the locale chain (the longest real one
// has four steps); it keeps a bad parent table from looping.
const maxParentSteps = 16

// resolve returns the CLDR locale whose rules of kind apply to the BCP 47
// tag, and those rules.
//
// The tag is reduced to language, script and region (variants and
// extensions do not change plural rules). A deprecated or macrolanguage
// code without rules of its own is replaced as CLDR's aliases say (iw → he,
// cmn → zh). Then the chain is walked: the locale itself, its CLDR parent
// locale (pt-AO → pt-PT, nn → no), else the tag with its last subtag
// removed (sr-Latn-RS → sr-Latn → sr), down to root, which has only other.
// CLDR's parents that point to root are not followed: they stop display
// text written in another script from inheriting, and a language's plural
// grammar does not change with its script (sr-Latn uses sr's rules).
func resolve(tag string, kind Kind) (string, *ruleSet) {
	index := cardinalLocales
	if kind == KindOrdinal {
		index = ordinalLocales
	}
	lang, script, region := parseTag(tag)
	if lang == "" {
		return "und", &ruleSets[index["und"]]
	}
	if _, ok := cardinalLocales[lang]; !ok {
		if repl, ok := languageAliases[lang]; ok {
			rl, rs, _ := strings.Cut(repl, "-")
			lang = rl
			if script == "" {
				script = rs
			}
		}
	}
	loc := lang
	if script != "" {
		loc += "-" + script
	}
	if region != "" {
		loc += "-" + region
	}
	for range maxParentSteps {
		if i, ok := index[loc]; ok {
			return loc, &ruleSets[i]
		}
		if p, ok := parentLocales[loc]; ok {
			loc = p
			continue
		}
		k := strings.LastIndexByte(loc, '-')
		if k < 0 {
			break
		}
		loc = loc[:k]
	}
	return "und", &ruleSets[index["und"]]
}

// parseTag splits a BCP 47 tag (or a CLDR id with '_') into its language,
// script and region, in canonical case. An ill-formed language gives "";
// parsing stops at the first subtag that is neither script, region nor
// variant (an extension such as -u-nu-latn).
func parseTag(tag string) (lang, script, region string) {
	parts := strings.FieldsFunc(tag, func(r rune) bool { return r == '-' || r == '_' })
	if len(parts) == 0 {
		return "", "", ""
	}
	l := parts[0]
	if n := len(l); !(n >= 2 && n <= 3 || n >= 5 && n <= 8) || !isAlpha(l) {
		if strings.EqualFold(l, "root") {
			return "und", "", ""
		}
		return "", "", ""
	}
	lang = strings.ToLower(l)
	for _, p := range parts[1:] {
		switch {
		case len(p) == 4 && isAlpha(p) && script == "" && region == "":
			script = strings.ToUpper(p[:1]) + strings.ToLower(p[1:])
		case region == "" && (len(p) == 2 && isAlpha(p) || len(p) == 3 && allDigits(p)):
			region = strings.ToUpper(p)
		case len(p) >= 5 && len(p) <= 8 || len(p) == 4 && p[0] >= '0' && p[0] <= '9':
			// a variant: plural rules do not depend on it
		default:
			return lang, script, region
		}
	}
	return lang, script, region
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
