package tools

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/lokal-dev/lokal/tools/model"
)

// LanguageInfo is a language a project may have: its code as lokal stores it, its name in
// English and its name in itself, both from CLDR.
type LanguageInfo struct {
	Code       string `json:"code"`
	Name       string `json:"name"`
	NativeName string `json:"native_name"`
	tag        language.Tag
}

// maxLanguageLen bounds a code: the longest real tags (zh-Hant-HK, ca-ES-valencia) are far
// shorter, and a code ends up in paths and file names.
const maxLanguageLen = 35

// languageExamples follows every refusal, so the reader sees what a tag looks like.
const languageExamples = "such as en, pt-BR, zh-Hant or sr-Latn"

// ParseLanguage reads code as a project language: any valid BCP 47 tag of a language with
// optional script, region and variants. Case and '_' are forgiven ("pt_br" is "pt-BR"),
// and deprecated subtags are replaced (iw is he, in is id); the code stored is the tag in
// BCP 47's canonical case (pt-BR, zh-Hant, sr-Latn, es-419). Nothing else is rewritten:
// no is not made nb, tl not fil, a region is kept even where it is the usual one (en-US),
// so every code ever stored reads back as itself. Refused with CodeInvalid: a tag that is
// not BCP 47, a subtag no registry knows (xx), und, and a tag with an extension or
// private-use part (en-u-nu-arab, x-pseudo), which names no language a translator writes.
func ParseLanguage(code string) (LanguageInfo, error) {
	return parseLanguage("language", code)
}

// parseLanguage is ParseLanguage with what the code is ("source language") in its errors.
func parseLanguage(what, code string) (LanguageInfo, error) {
	shown := model.Truncate(code, 40)
	s := strings.TrimSpace(code)
	if s == "" {
		return LanguageInfo{}, model.Errorf(model.CodeInvalid, "%s is empty: give a BCP 47 language tag, %s", what, languageExamples)
	}
	if len(s) > maxLanguageLen || !utf8.ValidString(s) {
		return LanguageInfo{}, model.Errorf(model.CodeInvalid, "%s %q is not a BCP 47 language tag (%s)", what, shown, languageExamples)
	}
	t, err := language.Deprecated.Parse(s)
	if err != nil {
		var unknown interface{ Subtag() string }
		if errors.As(err, &unknown) {
			return LanguageInfo{}, model.Errorf(model.CodeInvalid, "%s %q is not a BCP 47 language tag: no registered subtag is %q (%s)",
				what, shown, unknown.Subtag(), languageExamples)
		}
		return LanguageInfo{}, model.Errorf(model.CodeInvalid, "%s %q is not a BCP 47 language tag (%s)", what, shown, languageExamples)
	}
	if b, _, _ := t.Raw(); b.String() == "und" {
		return LanguageInfo{}, model.Errorf(model.CodeInvalid, "%s %q names no language (%s)", what, shown, languageExamples)
	}
	if len(t.Extensions()) > 0 {
		b, sc, r := t.Raw()
		plain, _ := language.Compose(b, sc, r, t.Variants())
		if sc.String() == "Zzzz" {
			plain, _ = language.Compose(b, r, t.Variants())
		}
		return LanguageInfo{}, model.Errorf(model.CodeInvalid, "%s %q has an extension or private-use part; a language is a language subtag with optional script, region and variants, such as %s",
			what, shown, plain)
	}
	return describe(t), nil
}

// describe names a parsed tag in English and in itself. CLDR's names are composed the way
// its locale display pattern does, "Language (Script, Region, variant)", from the subtags
// actually written: the dialect names ("Brazilian Portuguese") are left aside because
// x/text's table gives sr-Latn the name of Serbo-Croatian. A language CLDR cannot name in
// English is named by its code (tok), and one it cannot name in itself by its English name.
func describe(t language.Tag) LanguageInfo {
	code := t.String()
	b, s, r := t.Raw()
	l := LanguageInfo{Code: code, tag: t}
	base, _ := language.Compose(b)
	lang := display.English.Languages().Name(base)
	if lang == "" {
		l.Name, l.NativeName = code, code
		return l
	}
	explicitScript := s.String() != "Zzzz"
	explicitRegion := r.String() != "ZZ"
	parts := func(scripts, regions display.Namer) []string {
		var out []string
		if explicitScript {
			out = append(out, nameOr(scripts, s, s.String()))
		}
		if explicitRegion {
			out = append(out, nameOr(regions, r, r.String()))
		}
		for _, v := range t.Variants() {
			out = append(out, v.String())
		}
		return out
	}
	l.Name = withParts(lang, parts(display.English.Scripts(), display.English.Regions()))
	self := display.Self.Name(base)
	if self == "" {
		l.NativeName = l.Name
		return l
	}
	// The language's own dictionary, in the written script (sr-Latn's names are Latin).
	own := base
	if explicitScript {
		own, _ = language.Compose(b, s)
	}
	self = nameOr(display.Languages(own), base, self)
	l.NativeName = withParts(upperFirst(self), parts(display.Scripts(own), display.Regions(own)))
	return l
}

func nameOr(n display.Namer, x any, fallback string) string {
	if n != nil {
		if s := n.Name(x); s != "" {
			return s
		}
	}
	return fallback
}

func withParts(name string, parts []string) string {
	if len(parts) == 0 {
		return name
	}
	return name + " (" + strings.Join(parts, ", ") + ")"
}

// upperFirst capitalizes a name for a list or menu, as CLDR's contextTransforms ask of
// most languages ("español" is listed as "Español").
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToTitle(r)) + s[n:]
}

var (
	languageListOnce sync.Once
	languageList     []LanguageInfo
)

// LanguageList is the languages a picker offers, ordered by code: CLDR's locales (those
// x/text has names for), and beside a language's variants its default one, as CLDR's
// default content has it (pt-PT is listed, so pt-BR is too; zh-Hant, so zh-Hans). It is a
// list of suggestions; ParseLanguage accepts any tag.
func LanguageList() []LanguageInfo {
	languageListOnce.Do(func() {
		seen := map[string]bool{}
		add := func(t language.Tag, err error) {
			if err != nil {
				return
			}
			l, err := ParseLanguage(t.String())
			if err != nil || seen[l.Code] {
				return
			}
			seen[l.Code] = true
			languageList = append(languageList, l)
		}
		for _, t := range display.Supported.Tags() {
			add(t, nil)
			b, s, r := t.Raw()
			lang, _ := language.Compose(b)
			if s.String() != "Zzzz" { // a script variant: the language's usual script too
				ls, _ := lang.Script()
				add(language.Compose(b, ls))
			} else if r.String() != "ZZ" && r.IsCountry() { // a regional one: its usual region too
				lr, _ := lang.Region()
				add(language.Compose(b, lr))
			}
		}
		slices.SortFunc(languageList, func(a, b LanguageInfo) int { return strings.Compare(a.Code, b.Code) })
	})
	return slices.Clone(languageList)
}

// LanguageName is the English and native name of a stored code; a code that does not
// parse is its own name.
func LanguageName(code string) (name, native string) {
	if l, err := ParseLanguage(code); err == nil {
		return l.Name, l.NativeName
	}
	return code, code
}

// plainLanguage is the tag less what it adds nothing with: a script or region that is the
// language's likely one (de-DE is de, zh-Hans-CN is zh, sr-Latn-RS is sr-Latn, but zh-TW
// and pt-BR stay). A visitor's browser names such tags; the Embed seeds the plain ones.
func (l LanguageInfo) plainLanguage() string {
	b, s, r := l.tag.Raw()
	likely, _ := language.Compose(b)
	ls, _ := likely.Script()
	lr, _ := likely.Region()
	if s == ls {
		s = language.Script{}
	}
	if s != (language.Script{}) && s.String() != "Zzzz" {
		withScript, _ := language.Compose(b, s)
		lr, _ = withScript.Region()
	}
	if r == lr {
		r = language.Region{}
	}
	var parts []any = []any{b}
	if s != (language.Script{}) && s.String() != "Zzzz" {
		parts = append(parts, s)
	}
	if r != (language.Region{}) && r.String() != "ZZ" {
		parts = append(parts, r)
	}
	for _, v := range l.tag.Variants() {
		parts = append(parts, v)
	}
	t, err := language.Compose(parts...)
	if err != nil {
		return l.Code
	}
	return t.String()
}
