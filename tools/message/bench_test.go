package message

import (
	"strings"
	"testing"
)

// BenchmarkParse shows the cost of a typical value and that adversarial
// input (every construct opened and never closed) stays linear: the 64KiB
// case should cost about four times the 16KiB one.
func BenchmarkParse(b *testing.B) {
	typical := `{g, select, female {{n, plural, one {<b>{name}</b> has # cat} other {{name} has # cats}}} other {They have <a href="/x" title="Cats">{n} cats</a>}}`
	junk := `{a, plural, other {<b title="x [y](z %1$s {{q ${r &amp; '{ <0> <p x=1 %{s} [t](u(v) {w, number, ::x} }`
	for _, c := range []struct {
		name string
		v    string
	}{
		{"typical", typical},
		{"adversarial-16KiB", strings.Repeat(junk, 16<<10/len(junk))},
		{"adversarial-64KiB", strings.Repeat(junk, 64<<10/len(junk))},
		{"brackets-64KiB", strings.Repeat("[<{'", 16<<10)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.v)))
			for b.Loop() {
				Parse(c.v, All)
			}
		})
	}
}

// BenchmarkCheck is the cost of Check per value: a short plain string, a
// typical plural with markup into Polish, a long paragraph with glossary
// and DNT terms (stemming and the language identifier), and a long value
// of adversarial syntax.
func BenchmarkCheck(b *testing.B) {
	glossary := []Term{{"file", "plik", "pl"}, {"folder", "folder", "all"}, {"project", "projekt", "pl"}, {"account", "konto", "pl"}}
	dnt := []string{"Lokal", "GitHub"}
	paragraph := "Connect your GitHub account to Lokal to sync every project file automatically. Changes in the folder are saved and shared with your team."
	paragraphPL := "Połącz konto GitHub z Lokal, aby automatycznie synchronizować każdy plik projektu. Zmiany w folderze są zapisywane i udostępniane zespołowi."
	junk := `{a, plural, other {<b title="x [y](z %1$s {{q ${r &amp; '{ <0> <p x=1 %{s} [t](u(v) {w, number, ::x} }`
	for _, c := range []struct{ name, src, tr string }{
		{"short", "Save changes", "Zapisz zmiany"},
		{"plural-markup", `{n, plural, one {<b>{name}</b> has # file in <a href="/f">{folder}</a>} other {<b>{name}</b> has # files in <a href="/f">{folder}</a>}}`,
			`{n, plural, one {<b>{name}</b> ma # plik w <a href="/f">{folder}</a>} few {<b>{name}</b> ma # pliki w <a href="/f">{folder}</a>} many {<b>{name}</b> ma # plików w <a href="/f">{folder}</a>} other {<b>{name}</b> ma # pliku w <a href="/f">{folder}</a>}}`},
		{"paragraph-terms", paragraph, paragraphPL},
		{"adversarial-4KiB", strings.Repeat(junk, 4<<10/len(junk)), strings.Repeat(junk, 4<<10/len(junk))},
	} {
		r := Rules{SourceLang: "en", TargetLang: "pl", Syntax: All, Glossary: glossary, DoNotTranslate: dnt}
		if c.name != "adversarial-4KiB" {
			if got := Check(c.src, c.tr, r); len(got) > 0 {
				b.Fatalf("%s: %v", c.name, got)
			}
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.src) + len(c.tr)))
			b.ReportAllocs()
			for b.Loop() {
				Check(c.src, c.tr, r)
			}
		})
	}
}
