package message

import (
	"slices"
	"testing"
)

func hasCode(ps []Problem, code string) bool {
	return slices.ContainsFunc(ps, func(p Problem) bool { return p.Code == code })
}

// Close languages are told apart by letters on any length and by the
// identifier on a sentence; a short text both languages write alike passes.
func TestCheckCloseLanguages(t *testing.T) {
	t.Parallel()
	const src = "Save your changes before you leave the page."
	wrong := []struct{ lang, tr string }{
		{"nl", "Die Datei konnte nicht gespeichert werden, bitte erneut versuchen."},
		{"de", "Het bestand kon niet worden opgeslagen, probeer het opnieuw."},
		{"zh", "ページを離れる前に変更を保存してください。"},
		{"zh-Hant", "変更を保存します"},
		{"ko", "ページを離れる前に変更を保存してください。"},
		{"ja", "离开页面前请保存您的更改。"},
		{"sr-Latn", "Сачувајте измене пре него што напустите страницу."},
		{"sr-Cyrl", "Sačuvajte izmene pre nego što napustite stranicu."},
		{"uk", "Сохраните изменения, прежде чем покинуть страницу."},
		{"uk", "Объект"},
		{"ru", "Збережіть зміни, перш ніж залишити сторінку."},
		{"sr", "Сохраните изменения перед выходом."},
		{"fr", "Сохраните изменения, прежде чем покинуть страницу."},
		{"sv", "Gem dine ændringer, før du forlader siden, og prøv igen."},
		{"pt", "Guarde los cambios antes de salir de la página."},
	}
	for _, c := range wrong {
		if got := Check(src, c.tr, Rules{SourceLang: "en", TargetLang: c.lang, Syntax: ICU}); !hasCode(got, CodeLanguage) {
			t.Errorf("%s %q: %v, want language", c.lang, c.tr, got)
		}
	}
	right := []struct{ lang, src, tr string }{
		{"nl", src, "Sla je wijzigingen op voordat je de pagina verlaat."},
		{"de", src, "Speichern Sie Ihre Änderungen, bevor Sie die Seite verlassen."},
		{"zh", src, "离开页面前请保存您的更改。"},
		{"zh-Hant", src, "離開頁面前請儲存您的變更。"},
		{"ja", src, "ページを離れる前に変更を保存してください。"},
		{"ja", "Administrator settings", "管理者設定"},
		{"ja", "Processing completed", "処理完了"},
		{"sr-Latn", src, "Sačuvajte izmene pre nego što napustite stranicu."},
		{"sr", src, "Сачувајте измене пре него што напустите страницу."},
		{"uk", src, "Збережіть зміни, перш ніж залишити сторінку."},
		{"uk", "Text", "Текст"},
		{"ru", src, "Сохраните изменения, прежде чем покинуть страницу."},
		{"bg", src, "Запазете промените, преди да напуснете страницата."},
		{"sv", src, "Spara dina ändringar innan du lämnar sidan."},
		{"da", src, "Gem dine ændringer, før du forlader siden."},
		{"nb", src, "Lagre endringene dine før du forlater siden."},
		{"pt", src, "Salve suas alterações antes de sair da página."},
		{"es", src, "Guarda los cambios antes de salir de la página."},
		{"fr", "Open in GitHub", "Ouvrir dans GitHub"},
	}
	for _, c := range right {
		if got := Check(c.src, c.tr, Rules{SourceLang: "en", TargetLang: c.lang, Syntax: ICU}); len(got) > 0 {
			t.Errorf("%s %q refused: %v", c.lang, c.tr, got)
		}
	}
}

// A leading label or preface the source has not is refused in any
// language; a lead the source has, a word of the source, or a colon before
// placeholders only is not a label.
func TestCheckLeadingLabel(t *testing.T) {
	t.Parallel()
	labelled := []struct{ lang, src, tr string }{
		{"da", "Open settings", "Oversættelse: Åbn indstillinger"},
		{"sv", "Open settings", "Översättning: Öppna inställningar"},
		{"cs", "Open settings", "Překlad: Otevřít nastavení"},
		{"fr", "Open settings", "Traduction : Ouvrir les paramètres"},
		{"ja", "Open settings", "翻訳：設定を開く"},
		{"nb", "Open settings", "Her er oversettelsen din: Åpne innstillinger"},
		{"de", "Hello {name}", "Antwort: Hallo {name}"},
	}
	for _, c := range labelled {
		if got := Check(c.src, c.tr, Rules{SourceLang: "en", TargetLang: c.lang, Syntax: ICU}); !hasCode(got, CodeChatter) {
			t.Errorf("%s %q: %v, want chatter", c.lang, c.tr, got)
		}
	}
	fine := []struct{ lang, src, tr string }{
		{"fr", "Note: changes are saved automatically", "Remarque : les modifications sont enregistrées automatiquement"},
		{"de", "Error {code}", "Fehler: {code}"},
		{"de", "Step 2 - choose a plan", "Schritt 2: Wählen Sie einen Tarif"},
		{"de", "JavaScript is disabled in your browser", "JavaScript: in Ihrem Browser deaktiviert"},
		{"de", "Open https://example.com now", "Öffne jetzt https://example.com"},
		{"de", "Starts at 10:30", "Beginnt um 10:30"},
	}
	for _, c := range fine {
		if got := Check(c.src, c.tr, Rules{SourceLang: "en", TargetLang: c.lang, Syntax: ICU}); len(got) > 0 {
			t.Errorf("%s %q refused: %v", c.lang, c.tr, got)
		}
	}
}

// A glossary term is checked in every reading of the plural and select
// forms, and the problem names the form that lacks it.
func TestCheckGlossaryPerForm(t *testing.T) {
	t.Parallel()
	g := []Term{{Source: "workspace", Target: "Arbeitsbereich", Locale: "all"}}
	r := Rules{SourceLang: "en", TargetLang: "de", Syntax: ICU, Glossary: g}
	got := Check("{n, plural, one {# workspace} other {# workspaces}}", "{n, plural, one {# Arbeitsbereich} other {# Bereiche}}", r)
	if len(got) != 1 || got[0].Code != CodeGlossary || got[0].Path != "n:other" {
		t.Errorf("other form without the term: %v, want one glossary problem in n:other", got)
	}
	got = Check("{role, select, admin {Admin of the workspace} other {Member of the workspace}}",
		"{role, select, admin {Admin des Teams} other {Mitglied des Teams}}", r)
	if len(got) != 1 || got[0].Code != CodeGlossary || got[0].Path != "" {
		t.Errorf("no form with the term: %v, want one glossary problem for the message", got)
	}
	for _, tr := range []string{
		"{n, plural, one {# Arbeitsbereich} other {# Arbeitsbereiche}}",
		// The term moved out of the forms, into the sentence around them.
		"Arbeitsbereich: {n, plural, one {# Eintrag} other {# Einträge}}",
	} {
		src := "{n, plural, one {# workspace} other {# workspaces}}"
		if tr[0] == 'A' {
			src = "Workspace: {n, plural, one {# entry} other {# entries}}"
		}
		if got := Check(src, tr, r); len(got) > 0 {
			t.Errorf("%q refused: %v", tr, got)
		}
	}
	// The term only in the source's sentence around a form: every form's
	// reading has it.
	if got := Check("Delete {n, plural, one {# file} other {# files}} from the workspace",
		"{n, plural, one {# Datei} other {# Dateien}} aus dem Arbeitsbereich löschen", r); len(got) > 0 {
		t.Errorf("term around the plural refused: %v", got)
	}
	// Polish: the source's one and other answer one, few, many and other.
	pl := Rules{SourceLang: "en", TargetLang: "pl", Syntax: ICU, Glossary: []Term{{Source: "folder", Target: "folder", Locale: "all"}}}
	got = Check("{n, plural, one {# folder} other {# folders}}", "{n, plural, one {# folder} few {# katalogi} many {# katalogów} other {# folderu}}", pl)
	var paths []string
	for _, p := range got {
		paths = append(paths, p.Path)
	}
	if !slices.Equal(paths, []string{"n:few", "n:many"}) {
		t.Errorf("pl: %v, want glossary problems in n:few and n:many", got)
	}
}

// Without a stemmer, inflected targets are found by the prefix rule with
// Greek accents folded; a longer word sharing the letters is another word.
func TestGlossaryInflectedWithoutStemmer(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang, target, text string
		want               bool
	}{
		{"el", "χώρος εργασίας", "Ρυθμίσεις του χώρου εργασίας", true},
		{"el", "πίνακας", "Σύγκριση πινάκων", true},
		{"el", "ρύθμιση", "Λίστα ρυθμίσεων", true},
		{"el", "πίνακας", "Διαγραφή της πινακίδας", false},
		{"cs", "složka", "Přesunout do složky", true},
		{"cs", "složka", "Ve složce", true},
		{"cs", "nastavení", "Nastavit heslo", false},
		{"pl", "przestrzeń robocza", "w przestrzeni roboczej", true},
	} {
		if got := GlossaryTargetFound(c.lang, c.target, c.text); got != c.want {
			t.Errorf("%s %q in %q = %v, want %v", c.lang, c.target, c.text, got, c.want)
		}
	}
}

// ICU quoting is judged by the text printed.
func TestCheckQuotedByPrintedText(t *testing.T) {
	t.Parallel()
	r := Rules{SourceLang: "en", TargetLang: "de", Syntax: ICU}
	for _, c := range [][2]string{
		{"Type '{first_name}' to insert the first name", "Geben Sie '{'first_name'}' ein, um den Vornamen einzufügen"},
		{"Type '{'first_name'}' to insert the first name", "Geben Sie '{first_name}' ein, um den Vornamen einzufügen"},
		{"Type '{first_name}' to insert the first name", "Geben Sie '{first_name}' ein, um den Vornamen einzufügen"},
	} {
		if got := Check(c[0], c[1], r); len(got) > 0 {
			t.Errorf("%q refused: %v", c[1], got)
		}
	}
	got := Check("Type '{first_name}' to insert the first name", "Geben Sie {first_name} ein, um den Vornamen einzufügen", r)
	if !hasCode(got, CodeQuoted) || !hasCode(got, CodeExtraArg) {
		t.Errorf("unquoted literal: %v, want quoted and extra_arg", got)
	}
}
