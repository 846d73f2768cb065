package tools

import (
	"sort"
	"strings"
)

// LanguageInfo names a supported language in English and in itself.
type LanguageInfo struct {
	Code       string `json:"code"`
	Name       string `json:"name"`
	NativeName string `json:"native_name"`
}

// languageTable holds the languages a project may enable: base languages and the regional
// variants people ship separately.
var languageTable = []LanguageInfo{
	{"af", "Afrikaans", "Afrikaans"}, {"am", "Amharic", "አማርኛ"}, {"ar", "Arabic", "العربية"},
	{"az", "Azerbaijani", "Azərbaycan"}, {"be", "Belarusian", "Беларуская"}, {"bg", "Bulgarian", "Български"},
	{"bn", "Bengali", "বাংলা"}, {"bs", "Bosnian", "Bosanski"}, {"ca", "Catalan", "Català"},
	{"cs", "Czech", "Čeština"}, {"cy", "Welsh", "Cymraeg"}, {"da", "Danish", "Dansk"},
	{"de", "German", "Deutsch"}, {"de-AT", "German (Austria)", "Deutsch (Österreich)"}, {"de-CH", "German (Switzerland)", "Deutsch (Schweiz)"},
	{"el", "Greek", "Ελληνικά"}, {"en", "English", "English"}, {"en-AU", "English (Australia)", "English (Australia)"},
	{"en-CA", "English (Canada)", "English (Canada)"}, {"en-GB", "English (United Kingdom)", "English (UK)"}, {"en-US", "English (United States)", "English (US)"},
	{"eo", "Esperanto", "Esperanto"}, {"es", "Spanish", "Español"}, {"es-419", "Spanish (Latin America)", "Español (Latinoamérica)"},
	{"es-ES", "Spanish (Spain)", "Español (España)"}, {"es-MX", "Spanish (Mexico)", "Español (México)"}, {"et", "Estonian", "Eesti"},
	{"eu", "Basque", "Euskara"}, {"fa", "Persian", "فارسی"}, {"fi", "Finnish", "Suomi"},
	{"fil", "Filipino", "Filipino"}, {"fo", "Faroese", "Føroyskt"}, {"fr", "French", "Français"},
	{"fr-BE", "French (Belgium)", "Français (Belgique)"}, {"fr-CA", "French (Canada)", "Français (Canada)"}, {"fr-CH", "French (Switzerland)", "Français (Suisse)"},
	{"ga", "Irish", "Gaeilge"}, {"gl", "Galician", "Galego"}, {"gu", "Gujarati", "ગુજરાતી"},
	{"he", "Hebrew", "עברית"}, {"hi", "Hindi", "हिन्दी"}, {"hr", "Croatian", "Hrvatski"},
	{"hu", "Hungarian", "Magyar"}, {"hy", "Armenian", "Հայերեն"}, {"id", "Indonesian", "Bahasa Indonesia"},
	{"is", "Icelandic", "Íslenska"}, {"it", "Italian", "Italiano"}, {"it-CH", "Italian (Switzerland)", "Italiano (Svizzera)"},
	{"ja", "Japanese", "日本語"}, {"ka", "Georgian", "ქართული"}, {"kk", "Kazakh", "Қазақ"},
	{"km", "Khmer", "ខ្មែរ"}, {"kn", "Kannada", "ಕನ್ನಡ"}, {"ko", "Korean", "한국어"},
	{"lb", "Luxembourgish", "Lëtzebuergesch"}, {"lo", "Lao", "ລາວ"}, {"lt", "Lithuanian", "Lietuvių"},
	{"lv", "Latvian", "Latviešu"}, {"mk", "Macedonian", "Македонски"}, {"ml", "Malayalam", "മലയാളം"},
	{"mn", "Mongolian", "Монгол"}, {"mr", "Marathi", "मराठी"}, {"ms", "Malay", "Bahasa Melayu"},
	{"mt", "Maltese", "Malti"}, {"my", "Burmese", "မြန်မာ"}, {"nb", "Norwegian Bokmål", "Norsk bokmål"},
	{"ne", "Nepali", "नेपाली"}, {"nl", "Dutch", "Nederlands"}, {"nl-BE", "Dutch (Belgium)", "Nederlands (België)"},
	{"nn", "Norwegian Nynorsk", "Norsk nynorsk"}, {"no", "Norwegian", "Norsk"}, {"pa", "Punjabi", "ਪੰਜਾਬੀ"},
	{"pl", "Polish", "Polski"}, {"pt", "Portuguese", "Português"}, {"pt-BR", "Portuguese (Brazil)", "Português (Brasil)"},
	{"pt-PT", "Portuguese (Portugal)", "Português (Portugal)"}, {"ro", "Romanian", "Română"}, {"ru", "Russian", "Русский"},
	{"se", "Northern Sami", "Davvisámegiella"}, {"si", "Sinhala", "සිංහල"}, {"sk", "Slovak", "Slovenčina"},
	{"sl", "Slovenian", "Slovenščina"}, {"sq", "Albanian", "Shqip"}, {"sr", "Serbian", "Српски"},
	{"sr-Latn", "Serbian (Latin)", "Srpski"}, {"sv", "Swedish", "Svenska"}, {"sv-FI", "Swedish (Finland)", "Svenska (Finland)"},
	{"sw", "Swahili", "Kiswahili"}, {"ta", "Tamil", "தமிழ்"}, {"te", "Telugu", "తెలుగు"},
	{"th", "Thai", "ไทย"}, {"tr", "Turkish", "Türkçe"}, {"uk", "Ukrainian", "Українська"},
	{"ur", "Urdu", "اردو"}, {"uz", "Uzbek", "Oʻzbek"}, {"vi", "Vietnamese", "Tiếng Việt"},
	{"zh", "Chinese", "中文"}, {"zh-CN", "Chinese (Simplified)", "简体中文"}, {"zh-HK", "Chinese (Hong Kong)", "繁體中文（香港）"},
	{"zh-Hans", "Chinese (Simplified)", "简体中文"}, {"zh-Hant", "Chinese (Traditional)", "繁體中文"}, {"zh-TW", "Chinese (Taiwan)", "繁體中文（台灣）"},
	{"zu", "Zulu", "isiZulu"},
}

var languageIndex = func() map[string]LanguageInfo {
	m := make(map[string]LanguageInfo, len(languageTable))
	for _, l := range languageTable {
		m[strings.ToLower(l.Code)] = l
	}
	return m
}()

// LookupLanguage returns the supported language for code, matched case-insensitively, with
// its canonical spelling ("pt-br" gives "pt-BR").
func LookupLanguage(code string) (LanguageInfo, bool) {
	l, ok := languageIndex[strings.ToLower(strings.ReplaceAll(code, "_", "-"))]
	return l, ok
}

// SupportedLanguages returns every supported language ordered by code.
func SupportedLanguages() []LanguageInfo {
	out := append([]LanguageInfo(nil), languageTable...)
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// languageName is the English name of code, or the code itself when it is not in the table.
func languageName(code string) (name, native string) {
	if l, ok := LookupLanguage(code); ok {
		return l.Name, l.NativeName
	}
	return code, code
}
