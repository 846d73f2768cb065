package checkup

import (
	"strconv"
	"testing"
)

// BenchmarkAnalyze times the analysis of 1,000 keys of prose, placeholders, markup and
// ICU plurals in two languages, one translation in three broken.
func BenchmarkAnalyze(b *testing.B) {
	sources := []string{
		"Hello %{name}, you have <b>%{count}</b> new messages in your inbox",
		"{n, plural, one {# file was uploaded by {user}} other {# files were uploaded by {user}}}",
		"Open the <a href=\"/settings\">settings</a> to change your password &amp; e-mail",
		"Save your changes before you leave this page",
	}
	trs := []string{
		"Hei %{name}, du har <b>%{count}</b> nye meldinger i innboksen",
		"{n, plural, one {# fil ble lastet opp av {user}} other {# filer ble lastet opp av {user}}}",
		"Åpne <a href=\"/settings\">innstillingene</a> for å endre passord & e-post",
		"Lagre endringene før du forlater siden",
	}
	in := Input{SourceLanguage: "en", Languages: []string{"nb", "de"}, DoNotTranslate: []string{"Lokal"},
		Glossary: []GlossaryPair{{SourceTerm: "settings", TargetTerm: "innstillinger", Locale: "nb"}}}
	for i := range 1000 {
		k := Key{Namespace: "app", Key: "k" + strconv.Itoa(i), Source: sources[i%4], Translations: map[string]Translation{}}
		for _, l := range in.Languages {
			v := trs[i%4]
			if i%3 == 0 {
				v = v[:len(v)/2]
			}
			k.Translations[l] = Translation{Value: v}
		}
		in.Keys = append(in.Keys, k)
	}
	b.ReportAllocs()
	for b.Loop() {
		Analyze(in)
	}
}
