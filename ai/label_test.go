package ai_test

import (
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/ai"
	"github.com/lokal-dev/lokal/ai/aitest"
)

// A label kept in front of the answer is never stripped by the pipeline:
// the answer is refused, the retry names the label, and only a retry
// without it is stored. A model that keeps it leaves the string failed.
func TestTranslateLeadingLabel(t *testing.T) {
	t.Parallel()
	labelled := `{"strings":{"s1":"Oversættelse: Åbn indstillinger"}}`
	for _, tc := range []struct {
		name  string
		reply aitest.Responder
		want  string // "" for failed
	}{
		{"retry without the label", aitest.Sequence(
			aitest.Fixed(aitest.Reply{Content: labelled}),
			aitest.Fixed(aitest.Reply{Content: `{"strings":{"s1":"Åbn indstillinger"}}`})), "Åbn indstillinger"},
		{"label kept on the retry", aitest.Fixed(aitest.Reply{Content: labelled}), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := aitest.New(t, tc.reply)
			p, _ := newProvider(t, srv, nil)
			res, err := p.Translate(t.Context(), ai.Request{SourceLang: "en", TargetLang: "da", Strings: map[string]string{"k": "Open settings"}})
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := res.Translated["k"]; tc.want != "" && got != tc.want || tc.want == "" && ok {
				t.Errorf("translated %q (%v), failed %v; want %q", got, ok, res.Failed, tc.want)
			}
			calls := srv.Calls()
			if len(calls) != 2 || !strings.Contains(calls[1].System, `starts with "Oversættelse"`) {
				t.Errorf("%d calls; the retry must name the label:\n%s", len(calls), calls[len(calls)-1].System)
			}
		})
	}
}

// Verify takes a close language, a label, a branch without its glossary
// term, a requoted ICU literal and JavaScript: prose as the checks judge
// them.
func TestVerifyProbeClasses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src, answer string
		r                 ai.Rules
		ok                bool
	}{
		{"German for Dutch", "The file could not be saved.", "Die Datei konnte nicht gespeichert werden.", ai.Rules{SourceLang: "en", TargetLang: "nl"}, false},
		{"Japanese for Chinese", "Save your changes", "変更を保存してください", ai.Rules{SourceLang: "en", TargetLang: "zh"}, false},
		{"Russian for Ukrainian", "Save changes", "Сохранить объект", ai.Rules{SourceLang: "en", TargetLang: "uk"}, false},
		{"label", "Open settings", "Översättning: Öppna inställningar", ai.Rules{SourceLang: "en", TargetLang: "sv"}, false},
		{"source label kept", "Note: changes are saved", "Remarque : les modifications sont enregistrées", ai.Rules{SourceLang: "en", TargetLang: "fr"}, true},
		{"glossary in one form only", "{n, plural, one {# workspace} other {# workspaces}}", "{n, plural, one {# Arbeitsbereich} other {# Bereiche}}",
			ai.Rules{SourceLang: "en", TargetLang: "de", Glossary: []ai.Term{{Source: "workspace", Target: "Arbeitsbereich", Locale: "all"}}}, false},
		{"Greek genitive", "Settings of the workspace", "Ρυθμίσεις του χώρου εργασίας",
			ai.Rules{SourceLang: "en", TargetLang: "el", Glossary: []ai.Term{{Source: "workspace", Target: "χώρος εργασίας", Locale: "all"}}}, true},
		{"requoted literal", "Type '{first_name}' here", "Tippe '{'first_name'}' hier ein", ai.Rules{SourceLang: "en", TargetLang: "de"}, true},
		{"JavaScript: prose", "JavaScript: enable it in your browser settings", "JavaScript: aktivieren Sie es in Ihren Browsereinstellungen", ai.Rules{SourceLang: "en", TargetLang: "de"}, true},
		{"script URL", "JavaScript: enable it in your browser settings", "javascript:alert(document.cookie)", ai.Rules{SourceLang: "en", TargetLang: "de"}, false},
	} {
		m := ai.Mask(tc.src, ai.MaskOptions{PluralLang: tc.r.TargetLang})
		v, probs := ai.Verify(m, tc.answer, tc.r)
		if ok := probs == nil; ok != tc.ok {
			t.Errorf("%s: stored %q, problems %v; want ok=%v", tc.name, v, probs, tc.ok)
		}
	}
}
