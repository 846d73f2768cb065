package formats

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/formats/formatstest"
)

// poMergeLocal is testdata/po/fr.po: a file as msgmerge writes it, with translator and
// extracted comments, references, python-format, python-brace-format, c-format with
// range:, no-c-format, msgctxt, fuzzy entries with previous msgctxt/msgid, a string wrapped
// at 79 columns, a multi-line one, an untranslated one and obsolete entries.
func poMergeLocal(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "po", "fr.po"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// poMergeThrough merges into local lokal's export of the File edit makes of local's
// decoding, as pull does (MergeFile decodes the export and calls Codec.Merge).
func poMergeThrough(t *testing.T, local []byte, lang string, edit func(f *File)) []byte {
	t.Helper()
	o := Options{Language: lang}
	f, err := Decode("po", local, o)
	if err != nil {
		t.Fatal(err)
	}
	edit(f)
	exported, err := Encode("po", f, o)
	if err != nil {
		t.Fatal(err)
	}
	o.Prune = true // entries the export lacks go, as with pull --prune
	out, err := MergeFile("po", local, exported, o)
	if err != nil {
		t.Fatal(err)
	}
	// Decoding the merged file gives the export's values.
	back, err := Decode("po", out, o)
	if err != nil {
		t.Fatalf("the merged file does not read: %v\n%s", err, out)
	}
	got := map[string]Value{}
	for _, e := range back.Entries {
		got[e.Key] = e.Values[lang]
	}
	for _, e := range f.Entries {
		if g, w := got[e.Key], e.Values[lang]; g.Text != w.Text || (normState(g.State) == StateTranslated) != (normState(w.State) == StateTranslated) {
			t.Errorf("%q reads back as %+v, want %+v", e.Key, g, w)
		}
	}
	if len(back.Entries) != len(f.Entries) {
		t.Errorf("%d entries read back, want %d", len(back.Entries), len(f.Entries))
	}
	return out
}

func poEntryByKey(f *File, key string) *Entry {
	for i := range f.Entries {
		if f.Entries[i].Key == key {
			return &f.Entries[i]
		}
	}
	panic("no entry " + key)
}

func wantMerged(t *testing.T, got []byte, want string) {
	t.Helper()
	if string(got) != want {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(want, "\n")
		i := 0
		for i < len(gl) && i < len(wl) && gl[i] == wl[i] {
			i++
		}
		t.Errorf("merged file differs from line %d:\n--- got\n%s\n--- want\n%s", i+1, strings.Join(gl[i:min(len(gl), i+12)], "\n"), strings.Join(wl[i:min(len(wl), i+12)], "\n"))
	}
}

// TestPOMergeUnchanged: nothing changed gives local byte for byte, also when the export
// comes from a store that kept none of the entries' Meta (comments, flags, references).
func TestPOMergeUnchanged(t *testing.T) {
	t.Parallel()
	local := poMergeLocal(t)
	out := poMergeThrough(t, local, "fr", func(*File) {})
	wantMerged(t, out, string(local))
	out = poMergeThrough(t, local, "fr", func(f *File) {
		for i := range f.Entries {
			f.Entries[i].Meta, f.Entries[i].Comment = nil, ""
		}
	})
	wantMerged(t, out, string(local))
}

// TestPOMergeOneValue: a changed translation rewrites its msgstr lines only, wrapped at 79
// columns as the file is; a short one stays on its line.
func TestPOMergeOneValue(t *testing.T) {
	t.Parallel()
	local := poMergeLocal(t)
	out := poMergeThrough(t, local, "fr", func(f *File) {
		poEntryByKey(f, "Empty cart").Values["fr"] = Value{Text: "Vider mon panier"}
	})
	wantMerged(t, out, strings.Replace(string(local), `msgstr "Vider le panier"`, `msgstr "Vider mon panier"`, 1))

	long := "Your payment could not be processed because the card was declined by the bank that issued it. Please try another card."
	out = poMergeThrough(t, local, "fr", func(f *File) {
		poEntryByKey(f, long).Values["fr"] = Value{Text: "Le paiement a échoué : la banque qui a émis la carte l’a refusée. Essayez une autre carte, ou payez par virement."}
	})
	wantMerged(t, out, strings.Replace(string(local),
		"msgstr \"\"\n\"Votre paiement n’a pas pu être traité car la carte a été refusée par la \"\n\"banque qui l’a émise. Veuillez essayer une autre carte.\"\n",
		"msgstr \"\"\n\"Le paiement a échoué : la banque qui a émis la carte l’a refusée. Essayez \"\n\"une autre carte, ou payez par virement.\"\n", 1))
	formatstest.CompiledShips(t, out, []string{"une autre carte, ou payez par virement."}, nil) // msgunfmt wraps too
}

// TestPOMergeAddRemove: a removed translated entry becomes obsolete at the end, as
// msgmerge does, its references and extracted comments gone; a removed untranslated one
// goes; a new entry is written after the entry before it in the export, with its
// comments, references and flags.
func TestPOMergeAddRemove(t *testing.T) {
	t.Parallel()
	local := poMergeLocal(t)
	out := poMergeThrough(t, local, "fr", func(f *File) {
		var keep []Entry
		for _, e := range f.Entries {
			switch e.Key {
			case "Empty cart", "Returns":
				continue
			case "100% sure":
				keep = append(keep, e, Entry{Key: "Pay %s now", Source: "Pay %s now", Comment: "The amount.",
					Values: map[string]Value{"fr": {Text: "Payer %s maintenant"}},
					Meta:   map[string]string{"references": "src/pay.c:7", "flags": "c-format"}})
				continue
			}
			keep = append(keep, e)
		}
		f.Entries = keep
	})
	want := strings.Replace(string(local), "# Shown on the cart page; keep it short.\n#. TRANSLATORS: the button that empties the cart.\n#: shop/cart.py:40 shop/templates/cart.html:7\nmsgid \"Empty cart\"\nmsgstr \"Vider le panier\"\n\n", "", 1)
	want = strings.Replace(want, "#: shop/help.py:60\nmsgid \"Returns\"\nmsgstr \"\"\n\n", "", 1)
	want = strings.Replace(want, "msgstr \"Sûr à 100 %\"\n", "msgstr \"Sûr à 100 %\"\n\n#. The amount.\n#: src/pay.c:7\n#, c-format\nmsgid \"Pay %s now\"\nmsgstr \"Payer %s maintenant\"\n", 1)
	want += "\n# Shown on the cart page; keep it short.\n#~ msgid \"Empty cart\"\n#~ msgstr \"Vider le panier\"\n"
	wantMerged(t, out, want)
	formatstest.CompiledShips(t, out, []string{"Payer %s maintenant"}, []string{"Vider le panier"})
}

// TestPOMergePluralsAndStates: a changed plural form rewrites that msgstr[n] only; a value
// now needs_review gets "fuzzy" (first on its "#," line, or a line of its own before
// msgid); one now approved loses "fuzzy", its other flags kept in order, and its "#|".
func TestPOMergePluralsAndStates(t *testing.T) {
	t.Parallel()
	local := poMergeLocal(t)
	out := poMergeThrough(t, local, "fr", func(f *File) {
		poEntryByKey(f, "%d item left in stock").Values["fr"] = Value{Text: "{count, plural, one {%d article restant en stock} other {Encore %d articles en stock}}"}
		poEntryByKey(f, "Empty cart").Values["fr"] = Value{Text: "Vider le panier", State: StateNeedsReview}
		poEntryByKey(f, "Welcome back, %(name)s!").Values["fr"] = Value{Text: "Bon retour, %(name)s !", State: StateStale}
		poEntryByKey(f, "mail\x04Hello %(name)s").Values["fr"] = Value{Text: "Bonjour %(name)s", State: StateTranslated}
	})
	want := strings.Replace(string(local), `msgstr[1] "%d articles restants en stock"`, `msgstr[1] "Encore %d articles en stock"`, 1)
	want = strings.Replace(want, "shop/templates/cart.html:7\nmsgid", "shop/templates/cart.html:7\n#, fuzzy\nmsgid", 1)
	want = strings.Replace(want, "#: shop/views.py:12\n#, python-format\n", "#: shop/views.py:12\n#, fuzzy, python-format\n", 1)
	want = strings.Replace(want, "#, fuzzy, python-format\n#| msgctxt \"email\"\n#| msgid \"Hello %(name)s\"\nmsgctxt \"mail\"", "#, python-format\nmsgctxt \"mail\"", 1)
	wantMerged(t, out, want)
	// python-format survived: msgfmt -c checks the approved entry's %(name)s.
	formatstest.CompiledShips(t, out, []string{"Bonjour %(name)s", "Encore %d articles en stock"}, []string{"Vider le panier", "Bon retour, %(name)s !"})
}

// TestPOMergeTemplate: a target made from a POT (empty msgstrs, a header without
// Language) gets the values, and only Language, Plural-Forms and charset of its header
// set, as msginit would; msgfmt -c then compiles it with French plurals.
func TestPOMergeTemplate(t *testing.T) {
	t.Parallel()
	pot := `# SOME DESCRIPTIVE TITLE.
# Copyright (C) YEAR THE PACKAGE'S COPYRIGHT HOLDER
#
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: shopkeeper 2.4\n"
"Report-Msgid-Bugs-To: \n"
"POT-Creation-Date: 2026-11-02 10:14+0100\n"
"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\n"
"Last-Translator: FULL NAME <EMAIL@ADDRESS>\n"
"Language-Team: LANGUAGE <LL@li.org>\n"
"Language: \n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=CHARSET\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\n"

#: shop/cart.py:40
msgid "Empty cart"
msgstr ""

#: src/stock.c:88
#, c-format
msgid "%d item left in stock"
msgid_plural "%d items left in stock"
msgstr[0] ""
msgstr[1] ""
`
	o := Options{Language: "fr"}
	f, err := Decode("po", []byte(pot), o)
	if err != nil {
		t.Fatal(err)
	}
	poEntryByKey(f, "Empty cart").Values["fr"] = Value{Text: "Vider le panier"}
	poEntryByKey(f, "%d item left in stock").Values["fr"] = Value{Text: "{count, plural, one {%d article restant} other {%d articles restants}}"}
	exported, err := Encode("po", f, o)
	if err != nil {
		t.Fatal(err)
	}
	out, err := MergeFile("po", []byte(pot), exported, o)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		`"Language: \n"`, `"Language: fr\n"`,
		`charset=CHARSET`, `charset=UTF-8`,
		`"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\n"`, `"Plural-Forms: nplurals=2; plural=(n > 1);\n"`,
		"msgid \"Empty cart\"\nmsgstr \"\"", "msgid \"Empty cart\"\nmsgstr \"Vider le panier\"",
		"msgstr[0] \"\"\nmsgstr[1] \"\"", "msgstr[0] \"%d article restant\"\nmsgstr[1] \"%d articles restants\"",
	).Replace(pot)
	wantMerged(t, out, want)
	formatstest.CompiledShips(t, out, []string{"Vider le panier", "%d articles restants"}, nil)
}

// TestPOMergeUnwrapped: a file whose long strings are on one line (lokal's own spelling,
// Poedit's with wrapping off) gets a changed long value on one line too.
func TestPOMergeUnwrapped(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("A long sentence that goes on. ", 4)
	local := "msgid \"\"\nmsgstr \"\"\n\"Language: de\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\n" +
		"msgid \"" + long + "\"\nmsgstr \"" + strings.Repeat("Ein langer Satz, der weitergeht. ", 4) + "\"\n\n" +
		"msgid \"Short\"\nmsgstr \"Kurz\"\n"
	changed := strings.Repeat("Ein anderer langer Satz, der weitergeht. ", 4)
	out := poMergeThrough(t, []byte(local), "de", func(f *File) {
		poEntryByKey(f, long).Values["de"] = Value{Text: changed}
	})
	wantMerged(t, out, strings.Replace(local, strings.Repeat("Ein langer Satz, der weitergeht. ", 4), changed, 1))
}

// TestPOWrapLikeGettext: poWrapParts splits strings where msgcat does.
func TestPOWrapLikeGettext(t *testing.T) {
	t.Parallel()
	msgcat, err := exec.LookPath("msgcat")
	if err != nil {
		t.Skip("gettext is not installed")
	}
	strs := []string{
		"Your payment could not be processed because the card was declined by the bank that issued it. Please try another card.",
		"Votre paiement n’a pas pu être traité car la carte a été refusée par la banque qui l’a émise. Veuillez essayer une autre carte.",
		"Line one is short.\nLine two is a much longer line that will certainly need to be wrapped by msgcat at seventy-nine.\n",
		"See https://example.org/shopkeeper/documentation/payments/declined-cards for the reasons (and what to do).",
		"購入手続きを完了できませんでした。カードの発行銀行によってお支払いが拒否されました。別のカードでもう一度お試しください。",
		"Le fichier « %(name)s » n’a pas pu être enregistré : le disque est plein ! Libérez de l’espace puis réessayez ?",
		"Tab\tseparated\tvalues and \"quoted\" words and a back\\slash in a line long enough to be broken by the tools.",
	}
	var in strings.Builder
	in.WriteString("msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\n\"\n")
	for i, s := range strs {
		in.WriteString("\nmsgctxt \"" + string(rune('a'+i)) + "\"\nmsgid \"x\"\nmsgstr \"" + poEscape(s) + "\"\n")
	}
	src := filepath.Join(t.TempDir(), "in.po")
	if err := os.WriteFile(src, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(msgcat, src).Output()
	if err != nil {
		t.Fatal(err)
	}
	p := &poParser{lines: strings.Split(strings.TrimSuffix(string(out), "\n"), "\n"), cur: &poEntry{}}
	for i, l := range p.lines {
		if err := p.line(i, l); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.flush(len(p.lines)); err != nil {
		t.Fatal(err)
	}
	for _, e := range p.entries[1:] {
		l := e.layout[len(e.layout)-1]
		if got := poWrapParts("msgstr", e.str); !slices.Equal(got, l.parts) {
			t.Errorf("%q: msgcat splits it %v, poWrapParts %v", e.str, l.parts, got)
		}
	}
}
