package tools

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/model"
)

// TestParseLanguageNamesAnyTag: languages the hand-written table lacked are read, stored in
// canonical case and named from CLDR in English and in themselves.
func TestParseLanguageNamesAnyTag(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, code, name, native string }{
		{"br", "br", "Breton", "Brezhoneg"},
		{"tok", "tok", "tok", "tok"}, // CLDR in x/text has no name for Toki Pona: its code
		{"es-CL", "es-CL", "Spanish (Chile)", "Español (Chile)"},
		{"nb-NO", "nb-NO", "Norwegian Bokmål (Norway)", "Norsk bokmål (Norge)"},
		{"pa-PK", "pa-PK", "Punjabi (Pakistan)", "ਪੰਜਾਬੀ (ਪਾਕਿਸਤਾਨ)"},
		{"sr-Latn", "sr-Latn", "Serbian (Latin)", "Srpski (latinica)"},
		{"sr", "sr", "Serbian", "Српски"},
		{"zh-Hant-HK", "zh-Hant-HK", "Chinese (Traditional Han, Hong Kong SAR China)", "中文 (繁體中文, 中國香港特別行政區)"},
		{"pt_br", "pt-BR", "Portuguese (Brazil)", "Português (Brasil)"},
		{"ZH-hans", "zh-Hans", "Chinese (Simplified Han)", "中文 (简体中文)"},
		{" de ", "de", "German", "Deutsch"},
		{"iw", "he", "Hebrew", "עברית"}, // deprecated code
		{"ca-ES-valencia", "ca-ES-valencia", "Catalan (Spain, valencia)", "Català (Espanya, valencia)"},
		{"ku", "ku", "Kurdish", "Kurdish"}, // no CLDR name in itself: the English one
		{"en-XA", "en-XA", "English (XA)", "English (XA)"},
	} {
		l, err := ParseLanguage(tt.in)
		if err != nil {
			t.Errorf("ParseLanguage(%q): %v", tt.in, err)
			continue
		}
		if l.Code != tt.code || l.Name != tt.name || l.NativeName != tt.native {
			t.Errorf("ParseLanguage(%q) = %q %q %q, want %q %q %q", tt.in, l.Code, l.Name, l.NativeName, tt.code, tt.name, tt.native)
		}
	}
}

// TestParseLanguageRefuses: what is no language tag is refused with CodeInvalid, saying why.
func TestParseLanguageRefuses(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"xx-!!":                 `language "xx-!!" is not a BCP 47 language tag (such as en, pt-BR, zh-Hant or sr-Latn)`,
		"xx":                    `language "xx" is not a BCP 47 language tag: no registered subtag is "xx"`,
		"de-DE-zzzzz":           `language "de-DE-zzzzz" is not a BCP 47 language tag: no registered subtag is "zzzzz"`,
		"":                      "language is empty",
		"und":                   `language "und" names no language`,
		"x-pseudo":              `language "x-pseudo" names no language`,
		"de-u-co-phonebk":       `language "de-u-co-phonebk" has an extension or private-use part; a language is a language subtag with optional script, region and variants, such as de`,
		"en-x-test":             "has an extension or private-use part",
		strings.Repeat("a", 36): "is not a BCP 47 language tag",
		"pt\xffBR":              "is not a BCP 47 language tag",
	} {
		_, err := ParseLanguage(in)
		var e *model.Error
		if err == nil || !errors.As(err, &e) || e.Code != model.CodeInvalid || !strings.Contains(e.Message, want) {
			t.Errorf("ParseLanguage(%q) = %v, want invalid saying %q", in, err, want)
		}
	}
}

// oldTableCodes are the codes of the table ParseLanguage replaced: projects store them,
// so each must read back as itself (no migration).
var oldTableCodes = []string{"af", "am", "ar", "az", "be", "bg", "bn", "bs", "ca", "cs", "cy", "da",
	"de", "de-AT", "de-CH", "el", "en", "en-AU", "en-CA", "en-GB", "en-US", "eo", "es",
	"es-419", "es-ES", "es-MX", "et", "eu", "fa", "fi", "fil", "fo", "fr", "fr-BE", "fr-CA",
	"fr-CH", "ga", "gl", "gu", "he", "hi", "hr", "hu", "hy", "id", "is", "it", "it-CH", "ja",
	"ka", "kk", "km", "kn", "ko", "lb", "lo", "lt", "lv", "mk", "ml", "mn", "mr", "ms", "mt",
	"my", "nb", "ne", "nl", "nl-BE", "nn", "no", "pa", "pl", "pt", "pt-BR", "pt-PT", "ro",
	"ru", "se", "si", "sk", "sl", "sq", "sr", "sr-Latn", "sv", "sv-FI", "sw", "ta", "te",
	"th", "tr", "uk", "ur", "uz", "vi", "zh", "zh-CN", "zh-HK", "zh-Hans", "zh-Hant",
	"zh-TW", "zu"}

func TestStoredCodesReadAsThemselves(t *testing.T) {
	t.Parallel()
	for _, code := range oldTableCodes {
		l, err := ParseLanguage(code)
		if err != nil || l.Code != code || l.Name == code {
			t.Errorf("ParseLanguage(%q) = %+v, %v; want the same code, named", code, l, err)
		}
		if lower, err := ParseLanguage(strings.ToLower(code)); err != nil || lower.Code != code {
			t.Errorf("ParseLanguage(%q) = %q, %v; want %q", strings.ToLower(code), lower.Code, err, code)
		}
	}
}

// TestLanguageList: CLDR's locales and the default variant beside variants, each a code
// ParseLanguage gives back, in code order.
func TestLanguageList(t *testing.T) {
	t.Parallel()
	list := LanguageList()
	codes := make([]string, len(list))
	for i, l := range list {
		codes[i] = l.Code
		if back, err := ParseLanguage(l.Code); err != nil || back.Code != l.Code || l.Name == "" {
			t.Errorf("listed %+v reads back as %+v, %v", l, back, err)
		}
	}
	if !slices.IsSorted(codes) {
		t.Errorf("list not in code order")
	}
	for _, want := range []string{"br", "es-CL", "pa-Arab", "sr-Latn", "zh-Hant-HK", "pt-BR", "pt-PT", "zh-Hans", "en-US", "en-GB", "de"} {
		if !slices.Contains(codes, want) {
			t.Errorf("list lacks %s", want)
		}
	}
}

// TestPlainLanguage: the Embed seeds a browser's tag without what it adds nothing with.
func TestPlainLanguage(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"de-DE": "de", "en-US": "en", "zh-Hans-CN": "zh", "sr-Latn-RS": "sr-Latn",
		"zh-TW": "zh-TW", "en-GB": "en-GB", "pa-PK": "pa-PK", "br": "br", "es-419": "es-419", "nb-NO": "nb"} {
		l, err := ParseLanguage(in)
		if err != nil || l.plainLanguage() != want {
			t.Errorf("plainLanguage(%q) = %q, %v; want %q", in, l.plainLanguage(), err, want)
		}
	}
}
