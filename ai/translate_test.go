package ai_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/ai"
	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/tools/message"
)

// frenchish "translates" word by word and keeps every token, so that the
// answer is prose in another language, as the checks require.
func frenchish(_, masked string) string { return french(masked) }

var frenchWords = strings.NewReplacer("Open", "Ouvrez", "the ", "le ", " of ", " de ", "with", "avec", "Hello", "Bonjour",
	"Bold", "Gras", " and ", " et ", "italic", "italique", "items", "éléments", " in ", " dans ", "Save", "Enregistrer", "One", "Un")

func french(s string) string { return "FR " + frenchWords.Replace(s) }

func TestTranslateWireFormatAndBatches(t *testing.T) {
	t.Parallel()
	srv := aitest.New(t, aitest.Echo(frenchish))
	p, _ := newProvider(t, srv, nil)
	in := map[string]string{}
	for i := range 25 {
		in[fmt.Sprintf("key.%02d", i)] = fmt.Sprintf("Open the dashboard of <b>%%{name}</b> with Lokal #%d", i)
	}
	in["only.placeholder"] = "{{count}}"
	res, err := p.Translate(t.Context(), ai.Request{
		SourceLang: "en", TargetLang: "fr", Strings: in,
		Glossary:       []ai.Term{{Source: "dashboard", Target: "dashboard", Locale: "fr"}, {Source: "cart", Target: "Warenkorb", Locale: "de"}},
		DoNotTranslate: []string{"Lokal"},
		Substitutions:  []ai.Sub{{From: "FR", To: "FR!", Locale: "all"}, {From: "x", To: "y", Locale: "de"}},
		Instructions:   "Use the informal tu.",
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failed) != 0 || len(res.Translated) != 26 {
		t.Fatalf("translated %d, failed %v", len(res.Translated), res.Failed)
	}
	if got, want := res.Translated["key.03"], "FR! Ouvrez le dashboard de <b>%{name}</b> avec Lokal #3"; got != want {
		t.Errorf("key.03 = %q, want %q", got, want)
	}
	if got := res.Translated["only.placeholder"]; got != "{{count}}" {
		t.Errorf("only.placeholder = %q", got)
	}
	calls := srv.Calls()
	if len(calls) != 3 || len(res.Calls) != 3 {
		t.Fatalf("calls = %d (records %d), want 3 batches", len(calls), len(res.Calls))
	}
	total := 0
	for _, c := range calls {
		total += len(c.Strings)
		if len(c.Strings) > ai.BatchSize || c.SourceLanguage != "en" || c.TargetLanguage != "fr" || c.ResponseFormat != "json_object" {
			t.Errorf("call %d: %d strings, %s->%s, format %q", c.N, len(c.Strings), c.SourceLanguage, c.TargetLanguage, c.ResponseFormat)
		}
		for _, want := range []string{`"dashboard" -> "dashboard"`, `"Lokal"`, `"FR" -> "FR!"`, "Use the informal tu."} {
			if !strings.Contains(c.System, want) {
				t.Errorf("system message lacks %s:\n%s", want, c.System)
			}
		}
		for _, not := range []string{"Warenkorb", `"x" -> "y"`} {
			if strings.Contains(c.System, not) {
				t.Errorf("system message carries a rule of another language: %s", not)
			}
		}
		for _, s := range c.Strings {
			if strings.Contains(s, "%{name}") || strings.Contains(s, "<b>") || strings.Contains(s, "Lokal") {
				t.Errorf("the model saw an unmasked piece: %q", s)
			}
		}
	}
	if total != 25 {
		t.Errorf("strings sent = %d, want 25 (the placeholder-only one needs no model)", total)
	}
	for _, r := range res.Calls {
		if r.Outcome != "ok" || r.Model != "test-model" || r.PromptTokens == 0 || r.Retry {
			t.Errorf("record = %+v", r)
		}
	}
}

// brokenOnce answers the first call with broken(id, masked) and every
// later call correctly.
func brokenOnce(broken func(id, masked string) string) aitest.Responder {
	return aitest.Sequence(aitest.Echo(broken), aitest.Echo(frenchish))
}

func TestTranslateRepairsOnRetry(t *testing.T) {
	t.Parallel()
	source := map[string]string{
		"a": "Hello {{name}}",
		"b": "<b>Bold</b> and <i>italic</i>",
		"c": "%d items in %s",
	}
	tests := []struct {
		name   string
		reply  aitest.Responder
		detail string // what the retry must tell the model
	}{
		{"dropped token", brokenOnce(func(id, m string) string { return strings.ReplaceAll(m, "⟦0⟧", "") }), "the message lacks {{name}}"},
		{"duplicated token", brokenOnce(func(id, m string) string { return m + " ⟦0⟧" }), "the message has {{name}}, which the source has not"},
		{"renamed token", brokenOnce(func(id, m string) string { return strings.ReplaceAll(m, "⟦0⟧", "⟦9⟧") }), "⟦9⟧ is not a token"},
		{"translated placeholder", brokenOnce(func(id, m string) string { return strings.ReplaceAll(m, "⟦0⟧", "{{nom}}") }), "the message has {{nom}}"},
		{"unbalanced tags", brokenOnce(func(id, m string) string {
			if id == "s2" {
				return "⟦1⟧Gras⟦0⟧ et ⟦2⟧italique⟦3⟧"
			}
			return french(m)
		}), "where the source has <b></b><i></i>"},
		{"script payload", brokenOnce(func(id, m string) string { return m + `<img src=x onerror="alert(1)">` }), "inline event handler"},
		{"missing ids", aitest.Sequence(
			aitest.Fixed(aitest.Reply{Content: `{"strings":{"s1":"FR Bonjour ⟦0⟧"}}`}),
			aitest.Echo(frenchish)), "was missing from your answer"},
		{"non-JSON content", aitest.Sequence(
			aitest.Fixed(aitest.Reply{Content: "Sure! Here are your translations: ..."}),
			aitest.Echo(frenchish)), "not a JSON object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := aitest.New(t, tc.reply)
			p, _ := newProvider(t, srv, nil)
			res, err := p.Translate(t.Context(), ai.Request{SourceLang: "en", TargetLang: "fr", Strings: source})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Failed) != 0 {
				t.Fatalf("failed = %v", res.Failed)
			}
			for id, src := range source {
				if got := res.Translated[id]; got != french(src) {
					t.Errorf("%s = %q, want %q", id, got, french(src))
				}
			}
			calls := srv.Calls()
			if len(calls) != 2 {
				t.Fatalf("calls = %d, want 2 (one retry)", len(calls))
			}
			if !strings.Contains(calls[1].System, tc.detail) {
				t.Errorf("retry system message lacks %q:\n%s", tc.detail, calls[1].System)
			}
			// Problems spell pieces as the value does; the legend maps them to tokens.
			if legend := `⟦0⟧ = "{{name}}"`; strings.Contains(calls[1].Strings["s1"], "⟦0⟧") && !strings.Contains(calls[1].System, legend) {
				t.Errorf("retry system message lacks the token legend %s:\n%s", legend, calls[1].System)
			}
			if len(calls[1].Strings) != len(res.Repaired) || len(res.Repaired) == 0 {
				t.Errorf("retry sent %d strings, repaired %v", len(calls[1].Strings), res.Repaired)
			}
			if !res.Calls[1].Retry && !res.Calls[0].Retry {
				t.Error("no call record is marked as the retry")
			}
		})
	}
}

func TestTranslateRefusesWhatStaysBroken(t *testing.T) {
	t.Parallel()
	srv := aitest.New(t, aitest.Echo(func(id, m string) string {
		if id == "s1" {
			return "Bonjour %{nom}" // the model insists on translating the placeholder
		}
		return french(m)
	}))
	p, _ := newProvider(t, srv, nil)
	res, err := p.Translate(t.Context(), ai.Request{SourceLang: "en", TargetLang: "fr", Strings: map[string]string{
		"greet": "Hello %{name}", "save": "Save",
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := res.Translated["greet"]; ok {
		t.Errorf("a broken value was returned: %q", res.Translated["greet"])
	}
	// The reason is for people: the detail in plain words, without the check's code.
	if !strings.Contains(res.Failed["greet"], "lacks %{name}") || strings.Contains(res.Failed["greet"], "missing_arg") {
		t.Errorf("failed[greet] = %q", res.Failed["greet"])
	}
	if res.Translated["save"] != "FR Enregistrer" {
		t.Errorf("save = %q", res.Translated["save"])
	}
	if n := len(srv.Calls()); n != 2 {
		t.Errorf("calls = %d, want exactly one retry", n)
	}
	outcomes := []string{res.Calls[0].Outcome, res.Calls[1].Outcome}
	slices.Sort(outcomes)
	if !slices.Equal(outcomes, []string{"partial", "refused"}) {
		t.Errorf("outcomes = %v", outcomes)
	}
}

func TestTranslateInventedAndDuplicateIDs(t *testing.T) {
	t.Parallel()
	srv := aitest.New(t, aitest.Sequence(
		aitest.Fixed(aitest.Reply{Content: `{"strings":{"s1":"Un","s1":"Deux","s2":"Trois","s99":"Extra","hack":"<script>"}}`}),
		aitest.Echo(frenchish),
	))
	p, _ := newProvider(t, srv, nil)
	res, err := p.Translate(t.Context(), ai.Request{SourceLang: "en", TargetLang: "fr", Strings: map[string]string{"a": "One", "b": "Three"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Translated["a"] != "FR Un" || res.Translated["b"] != "Trois" {
		t.Errorf("translated = %v", res.Translated)
	}
	if res.Calls[0].InventedIDs != 2 {
		t.Errorf("invented ids = %d, want 2", res.Calls[0].InventedIDs)
	}
	if !slices.Equal(res.Repaired, []string{"a"}) {
		t.Errorf("repaired = %v", res.Repaired)
	}
}

func TestTranslateAuthFailsEverything(t *testing.T) {
	t.Parallel()
	srv := aitest.New(t, aitest.Fixed(aitest.Reply{Status: 401}))
	p, _ := newProvider(t, srv, nil)
	in := map[string]string{"a": "One", "b": "Two"}
	res, err := p.Translate(t.Context(), ai.Request{SourceLang: "en", TargetLang: "fr", Strings: in})
	var e *ai.Error
	if !errors.As(err, &e) || e.Kind != ai.ErrAuth {
		t.Fatalf("err = %v, want auth", err)
	}
	if len(res.Translated) != 0 || !slices.Equal(slices.Sorted(maps.Keys(res.Failed)), []string{"a", "b"}) {
		t.Errorf("result = %+v", res)
	}
	if len(srv.Calls()) != 1 || res.Calls[0].Outcome != "auth" {
		t.Errorf("calls = %d, outcome %q: a wrong key is not retried", len(srv.Calls()), res.Calls[0].Outcome)
	}
}

func TestTranslatePluralHintsAndExpansion(t *testing.T) {
	t.Parallel()
	srv := aitest.New(t, aitest.Echo(func(_, m string) string {
		return strings.NewReplacer("files", "файлов", "file", "файл").Replace(m)
	}))
	p, _ := newProvider(t, srv, nil)
	res, err := p.Translate(t.Context(), ai.Request{SourceLang: "en", TargetLang: "ru", Strings: map[string]string{
		"files": "{n, plural, one {# file} other {# files}}",
	}})
	if err != nil || len(res.Failed) > 0 {
		t.Fatal(err, res.Failed)
	}
	want := "{n, plural, one {# файл} few {# файлов} many {# файлов} other {# файлов}}"
	if res.Translated["files"] != want {
		t.Errorf("files = %q, want %q", res.Translated["files"], want)
	}
	if sys := srv.Calls()[0].System; !strings.Contains(sys, `starts the "few" form`) {
		t.Errorf("system message lacks plural hints:\n%s", sys)
	}
}

// An i18next plural family is one value, an ICU plural on count with i18next text inside:
// translated in an i18next project's syntax, every form pl needs is asked in one request
// and each form comes back checked.
func TestTranslatePluralFamily(t *testing.T) {
	t.Parallel()
	srv := aitest.New(t, aitest.Echo(func(_, m string) string {
		return strings.NewReplacer("files", "plików", "file", "plik").Replace(m)
	}))
	p, _ := newProvider(t, srv, nil)
	res, err := p.Translate(t.Context(), ai.Request{SourceLang: "en", TargetLang: "pl", Syntax: message.I18next, Strings: map[string]string{
		"files.count": "{count, plural, one {{{count}} file} other {{{count}} files}}",
	}})
	if err != nil || len(res.Failed) > 0 {
		t.Fatal(err, res.Failed)
	}
	want := "{count, plural, one {{{count}} plik} few {{{count}} plików} many {{{count}} plików} other {{{count}} plików}}"
	if res.Translated["files.count"] != want {
		t.Errorf("files.count = %q, want %q", res.Translated["files.count"], want)
	}
	if n := len(srv.Calls()); n != 1 {
		t.Errorf("%d requests, want the family in one", n)
	}
}
