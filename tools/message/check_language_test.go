package message

import (
	"slices"
	"testing"
)

// The language check's thresholds, tested with real UI sentences: correct
// translations (many with English loanwords) are accepted, answers left in
// English or in the source language are refused once long enough to tell.
func TestCheckLanguageRealSentences(t *testing.T) {
	t.Parallel()
	correct := []struct{ lang, src, tr string }{
		{"pl", "Open the project folder and save your changes", "Otwórz folder projektu i zapisz zmiany"},
		{"pl", "Click here to delete your account", "Kliknij tutaj, aby usunąć swoje konto"},
		{"de", "Open the team dashboard and export the status report", "Öffnen Sie das Team-Dashboard und exportieren Sie den Statusbericht"},
		{"de", "You have 3 new messages in your inbox", "Sie haben 3 neue Nachrichten im Posteingang"},
		{"fr", "Your session has expired, please sign in again", "Votre session a expiré, veuillez vous reconnecter"},
		{"fr", "Share the project link with your team members", "Partagez le lien du projet avec les membres de votre team"},
		{"es", "Export the report in PDF format for your manager", "Exporta el informe en formato PDF para tu manager"},
		{"it", "Click here to delete your account", "Fai clic qui per eliminare il tuo account"},
		{"pt", "Click here to delete your account", "Clique aqui para excluir sua conta"},
		{"nl", "Click here to delete your account", "Klik hier om je account te verwijderen"},
		{"sv", "Click here to delete your account", "Klicka här för att radera ditt konto"},
		{"nb", "Click here to delete your account", "Klikk her for å slette kontoen din"},
		{"da", "Click here to delete your account", "Klik her for at slette din konto"},
		{"fi", "Click here to delete your account", "Poista tilisi napsauttamalla tätä"},
		{"tr", "Click here to delete your account", "Hesabınızı silmek için buraya tıklayın"},
		{"cs", "Click here to delete your account", "Kliknutím sem smažete svůj účet"},
		{"id", "Click here to delete your account", "Klik di sini untuk menghapus akun Anda"},
		{"vi", "Click here to delete your account", "Nhấp vào đây để xóa tài khoản của bạn"},
		{"cy", "Click here to delete your account now", "Cliciwch yma i ddileu eich cyfrif nawr"},
		{"ca", "Click here to delete your account now", "Feu clic aquí per suprimir el vostre compte ara"},
		{"de", "Upload your logo as PNG or SVG file", "Laden Sie Ihr Logo als PNG- oder SVG-Datei hoch"},
		{"pl", "Sync your GitHub repository with Lokal", "Synchronizuj repozytorium GitHub z Lokal"},
	}
	for _, c := range correct {
		if got := Check(c.src, c.tr, Rules{SourceLang: "en", TargetLang: c.lang, Syntax: ICU}); len(got) > 0 {
			t.Errorf("%s %q refused: %v", c.lang, c.tr, got)
		}
	}
	wrong := []struct{ srcLang, lang, src, tr string }{
		{"en", "de", "Your session has expired, please sign in again", "The session timed out, so please log in once more"},
		{"en", "fr", "Click here to delete your account", "Press this button to remove your profile for good"},
		{"en", "pl", "Open the project folder and save your changes", "Go to the folder of the project and store all the edits"},
		{"en", "es", "Export the report in PDF format", "Download the report as a PDF file for your records"},
		{"en", "cy", "Click here to delete your account now", "Press this button to remove your profile for good"},
		{"de", "fr", "Klicken Sie hier, um Ihr Konto zu löschen", "Drücken Sie diesen Knopf, um Ihr Profil zu entfernen"},
		{"fr", "de", "Votre session a expiré, veuillez vous reconnecter", "La session est terminée, merci de vous connecter à nouveau"},
	}
	for _, c := range wrong {
		got := Check(c.src, c.tr, Rules{SourceLang: c.srcLang, TargetLang: c.lang, Syntax: ICU})
		if !slices.ContainsFunc(got, func(p Problem) bool { return p.Code == CodeLanguage }) {
			t.Errorf("%s→%s %q: %v, want language", c.srcLang, c.lang, c.tr, got)
		}
	}
	// A kept term of three words is no copied sentence; four words are.
	if got := Check("Single Sign-On (SSO)", "Single Sign-On (SSO)", Rules{SourceLang: "en", TargetLang: "de", Syntax: ICU}); len(got) > 0 {
		t.Errorf("short term refused: %v", got)
	}
	got := Check("Export to Google Sheets", "Export to Google Sheets", Rules{SourceLang: "en", TargetLang: "de", Syntax: ICU})
	if len(got) != 1 || got[0].Code != CodeUntranslated {
		t.Errorf("copied sentence: %v, want untranslated", got)
	}
}
