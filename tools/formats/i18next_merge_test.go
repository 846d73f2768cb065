package formats

import (
	"strings"
	"testing"
)

const i18nextMergeLocal = `{
	"title": "Accueil",
	"files_one": "{{count}} fichier",
	"files_other": "{{count}} fichiers",
	"menu": {
		"open": "Ouvrir",
		"recent": ["Hier", "Aujourd’hui"]
	},
	"bye": "Au revoir"
}
`

func TestI18nextMergeUnchanged(t *testing.T) {
	t.Parallel()
	got := mergeEdited(t, "i18next", i18nextMergeLocal, Options{Language: "fr"}, func(*File) {})
	checkMerged(t, got, i18nextMergeLocal)
}

// One changed plural form rewrites that form's member only; an array item is patched in
// place.
func TestI18nextMergePluralForm(t *testing.T) {
	t.Parallel()
	got := mergeEdited(t, "i18next", i18nextMergeLocal, Options{Language: "fr"}, func(f *File) {
		setValue(f, "files", "fr", "{count, plural, one {{{count}} fichier} other {{{count}} documents}}", StateNone, "")
		setValue(f, "menu.recent.1", "fr", "Maintenant", StateNone, "")
	})
	want := strings.Replace(i18nextMergeLocal, `"{{count}} fichiers"`, `"{{count}} documents"`, 1)
	checkMerged(t, got, strings.Replace(want, `"Aujourd’hui"`, `"Maintenant"`, 1))
}

// A new key is written after its predecessor with the file's tab indentation; a new
// plural writes its forms (those the value has); a removed family takes all its members.
func TestI18nextMergeAddRemove(t *testing.T) {
	t.Parallel()
	got := mergeEdited(t, "i18next", i18nextMergeLocal, Options{Language: "fr"}, func(f *File) {
		deleteEntry(f, "files")
		setValue(f, "menu.save", "fr", "Enregistrer", StateNone, "menu.open")
		setValue(f, "days", "fr", "{count, plural, one {# jour} other {# jours}}", StateNone, "title")
		setValue(f, "menu.recent.2", "fr", "Demain", StateNone, "menu.recent.1")
	})
	checkMerged(t, got, `{
	"title": "Accueil",
	"days_one": "{{count}} jour",
	"days_other": "{{count}} jours",
	"menu": {
		"open": "Ouvrir",
		"save": "Enregistrer",
		"recent": ["Hier", "Aujourd’hui", "Demain"]
	},
	"bye": "Au revoir"
}
`)
}
