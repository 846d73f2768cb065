package ai

import (
	"errors"
	"slices"
	"testing"
)

func codes(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		if !slices.Contains(out, p.Code) {
			out = append(out, p.Code)
		}
	}
	return out
}

func TestVerify(t *testing.T) {
	t.Parallel()
	rules := Rules{
		Glossary: []Term{
			{Source: "dashboard", Target: "tableau de bord", Locale: "fr"},
			{Source: "workspace", Target: "espace", Locale: "all"},
			{Source: "workspace", Target: "Arbeitsbereich", Locale: "de"},
		},
		DoNotTranslate: []string{"Lokal"},
		Substitutions: []Sub{
			{From: " !", To: "\u00a0!", Locale: "fr"},
			{From: "ß", To: "ss", Locale: "de-CH"},
		},
	}
	tests := []struct {
		name, lang, source, answer string
		want                       string   // the stored value when no problems
		codes                      []string // expected problem codes
	}{
		// Accepted, across families and scripts.
		{"i18next fr", "fr", "Hello {{name}}!", "Bonjour ⟦0⟧ !", "Bonjour {{name}}\u00a0!", nil},
		{"tokens reordered", "de", "%{count} new messages from %{name}", "⟦1⟧ hat ⟦0⟧ neue Nachrichten", "%{name} hat %{count} neue Nachrichten", nil},
		{"nested markup", "fr", "<p>Read <a href=\"/t\">the <b>terms</b></a></p>", "⟦0⟧Lisez ⟦1⟧les ⟦2⟧conditions⟦3⟧⟦4⟧⟦5⟧", "<p>Lisez <a href=\"/t\">les <b>conditions</b></a></p>", nil},
		{"markdown", "es", "See [the docs](https://example.com/docs)", "Consulta ⟦0⟧la documentación⟦1⟧", "Consulta [la documentación](https://example.com/docs)", nil},
		{"ar rtl", "ar", "Hello {name}, you have <b>{count}</b> messages", "مرحبا ⟦0⟧، لديك ⟦1⟧⟦2⟧⟦3⟧ رسائل", "مرحبا {name}، لديك <b>{count}</b> رسائل", nil},
		{"he rtl", "he", "Welcome back, %{name}", "ברוך שובך, ⟦0⟧", "ברוך שובך, %{name}", nil},
		{"ja cjk", "ja", "You have %d new messages", "新しいメッセージが⟦0⟧件あります", "新しいメッセージが%d件あります", nil},
		{"zh cjk glossary all", "zh", "Open your workspace", "打开您的espace", "打开您的espace", nil},
		{"ja plural collapses", "ja", "{n, plural, one {# file} other {# files}}", "⟦0⟧⟦1⟧ファイル⟦2⟧", "{n, plural, other {#ファイル}}", nil},
		{"pl plural expands", "pl", "{n, plural, one {# file} other {# files}}", "⟦0⟧⟦1⟧ plik⟦2⟧⟦3⟧ pliki⟦4⟧⟦5⟧ plików⟦6⟧⟦7⟧ pliku⟦8⟧",
			"{n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}", nil},
		{"ru plural with tags", "ru", "{n, plural, one {<b>#</b> day} other {<b>#</b> days}}", "⟦0⟧⟦1⟧⟦2⟧⟦3⟧ день⟦4⟧⟦5⟧⟦6⟧⟦7⟧ дня⟦8⟧⟦9⟧⟦10⟧⟦11⟧ дней⟦12⟧⟦13⟧⟦14⟧⟦15⟧ дня⟦16⟧",
			"{n, plural, one {<b>#</b> день} few {<b>#</b> дня} many {<b>#</b> дней} other {<b>#</b> дня}}", nil},
		{"glossary capitalised", "fr", "Dashboard", "Tableau de bord", "Tableau de bord", nil},
		{"glossary locale override", "de", "Your workspace", "Ihr Arbeitsbereich", "Ihr Arbeitsbereich", nil},
		{"dnt kept", "fr", "Lokal syncs", "⟦0⟧ synchronise", "Lokal synchronise", nil},
		{"dnt repeated is fine", "fr", "Lokal syncs", "⟦0⟧ synchronise Lokal", "Lokal synchronise Lokal", nil},
		{"substitution regional", "de-CH", "Street", "Straße", "Strasse", nil},

		// Refused.
		{"empty", "fr", "Save", "  ", "", []string{"empty"}},
		{"dropped token", "fr", "Hello {{name}}", "Bonjour", "", []string{"missing_arg"}},
		{"duplicated token", "fr", "Hello {{name}}", "Bonjour ⟦0⟧ ⟦0⟧", "", []string{"extra_arg"}},
		{"renamed token", "fr", "Hello {{name}}", "Bonjour ⟦1⟧", "", []string{"unknown_token"}},
		{"altered token", "fr", "Hello {{name}}", "Bonjour ⟦ 0 ⟧", "", []string{"malformed_token"}},
		{"translated placeholder", "fr", "Hello %{name}", "Bonjour %{nom}", "", []string{"missing_arg", "extra_arg"}},
		{"invented placeholder", "fr", "Hello", "Bonjour {name}", "", []string{"invented_syntax"}},
		{"invented tag", "fr", "Hello", "<b>Bonjour</b>", "", []string{"invented_syntax"}},
		{"script payload", "fr", "Hello there", "Bonjour <img src=x onerror=alert(1)>", "", []string{"invented_syntax", "value_check"}},
		{"invented entity", "fr", "Hello", "Bonjour&nbsp;!", "", []string{"invented_syntax"}},
		{"unbalanced tags", "fr", "<b>Bold</b> text", "⟦1⟧Gras⟦0⟧ texte", "", []string{"markup"}},
		{"crossed tags", "fr", "<b><i>x</i></b>", "⟦0⟧⟦1⟧x⟦3⟧⟦2⟧", "", []string{"markup"}},
		{"two blocks swapped whole", "de", "{a, plural, one {# file} other {# files}} and {b, plural, one {# folder} other {# folders}}",
			"⟦5⟧⟦6⟧ Ordner⟦7⟧⟦8⟧ Ordner⟦9⟧ und ⟦0⟧⟦1⟧ Datei⟦2⟧⟦3⟧ Dateien⟦4⟧",
			"{b, plural, one {# Ordner} other {# Ordner}} und {a, plural, one {# Datei} other {# Dateien}}", nil},
		{"swapped select forms", "fr", "{g, select, male {He} female {She} other {They}}", "⟦0⟧Il⟦2⟧Elle⟦1⟧Iels⟦3⟧", "", []string{"plural_forms"}},
		{"hash invented in branch", "en", "{n, plural, one {# file} other {# files}}", "⟦0⟧⟦1⟧ file #1⟦2⟧⟦3⟧ files⟦4⟧", "", []string{"pound"}},
		{"glossary ignored", "fr", "Open the dashboard", "Ouvrir le panneau", "", []string{"glossary"}},
		{"dnt dropped", "fr", "Lokal syncs", "Local synchronise", "", []string{"dnt"}},
		{"wrong plural forms", "ja", "{n, plural, one {# file} other {# files}}", "{n, plural, one {#ファイル} other {#ファイル}}", "", []string{"plural_forms"}},
		{"printf reordered", "de", "%s uploaded %d files", "⟦1⟧ Dateien wurden von ⟦0⟧ hochgeladen", "", []string{"printf_order"}},
		{"chatter", "fr", "Open settings", "Voici la traduction : Ouvrir les paramètres", "", []string{"chatter"}},

		// Raw syntax written instead of a token is right when the value is.
		{"raw placeholder", "fr", "Hello {{name}}", "Bonjour {{name}}", "Bonjour {{name}}", nil},
		{"raw tags and dnt", "de", "<b>Lokal</b> saves {count} files", "<b>Lokal</b> speichert {count} Dateien", "<b>Lokal</b> speichert {count} Dateien", nil},
		{"raw plural", "de", "{n, plural, one {# file} other {# files}}", "{n, plural, one {# Datei} other {# Dateien}}", "{n, plural, one {# Datei} other {# Dateien}}", nil},
		{"entity as its character", "fr", "Terms &amp; conditions", "Conditions & modalités", "Conditions & modalités", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := rules
			r.TargetLang = tc.lang
			m := Mask(tc.source, MaskOptions{DoNotTranslate: r.DoNotTranslate, PluralLang: tc.lang})
			got, probs := Verify(m, tc.answer, r)
			if gc := codes(probs); !slices.Equal(gc, tc.codes) {
				t.Fatalf("Verify(%q, %q) problems = %v, want codes %v", tc.source, tc.answer, probs, tc.codes)
			}
			if got != tc.want {
				t.Errorf("Verify(%q, %q) = %q, want %q", tc.source, tc.answer, got, tc.want)
			}
		})
	}
}

func TestVerifyFinalChecks(t *testing.T) {
	t.Parallel()
	t.Run("substitution that adds markup is refused", func(t *testing.T) {
		t.Parallel()
		m := Mask("Save", MaskOptions{})
		_, probs := Verify(m, "Enregistrer", Rules{TargetLang: "fr", Substitutions: []Sub{{From: "Enregistrer", To: "<b>Enregistrer</b>", Locale: "all"}}})
		if !slices.Equal(codes(probs), []string{"invented_syntax"}) {
			t.Fatalf("problems = %v, want invented_syntax", probs)
		}
	})
	t.Run("substitution never touches a token", func(t *testing.T) {
		t.Parallel()
		m := Mask("Hi {{name}}", MaskOptions{})
		got, probs := Verify(m, "Salut ⟦0⟧", Rules{TargetLang: "fr", Substitutions: []Sub{{From: "name", To: "nom"}}})
		if probs != nil || got != "Salut {{name}}" {
			t.Fatalf("Verify = %q, %v", got, probs)
		}
	})
	t.Run("value check", func(t *testing.T) {
		t.Parallel()
		// The source's own link survives tokens but the value check refuses it.
		m := Mask(`<a href="javascript:alert(1)">x</a>`, MaskOptions{})
		_, probs := Verify(m, "⟦0⟧y⟦1⟧", Rules{TargetLang: "fr"})
		if !slices.Equal(codes(probs), []string{"value_check"}) {
			t.Fatalf("problems = %v, want value_check", probs)
		}
	})
	t.Run("injected check", func(t *testing.T) {
		t.Parallel()
		m := Mask("Save", MaskOptions{})
		_, probs := Verify(m, "Enregistrer", Rules{TargetLang: "fr", Check: func(string) error { return errors.New("no") }})
		if !slices.Equal(codes(probs), []string{"value_check"}) {
			t.Fatalf("problems = %v, want value_check", probs)
		}
	})
	t.Run("icu must still parse", func(t *testing.T) {
		t.Parallel()
		m := Mask("{n, plural, one {# file} other {# files}} in {folder}", MaskOptions{})
		// A raw brace the source has not breaks ICU.
		_, probs := Verify(m, "⟦0⟧⟦1⟧ fichier⟦2⟧⟦3⟧ fichiers⟦4⟧ dans ⟦5⟧ {", Rules{TargetLang: "en"})
		if !slices.Equal(codes(probs), []string{"syntax"}) {
			t.Fatalf("problems = %v, want syntax", probs)
		}
	})
}
