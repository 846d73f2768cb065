package formats

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/message"
)

// TestPOGolden decodes each golden file (written for these tests, in the codec's canonical
// spelling), compares what it holds, and checks that encoding gives the file back byte for
// byte and that decode(encode(f)) == f.
func TestPOGolden(t *testing.T) {
	t.Parallel()
	hdr := func(lang, pf string) string {
		return "Language: " + lang + "\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\nPlural-Forms: " + pf + "\n"
	}
	tests := []struct {
		file string
		o    Options
		want *File
	}{
		{file: "ru.po", o: Options{Language: "ru", SourceLanguage: "en"}},
		{file: "pl.po", o: Options{Language: "pl"}},
		{file: "ar.po", o: Options{Language: "ar"}},
		{file: "ja.po", o: Options{Language: "ja"}},
		{file: "fr.po", o: Options{Language: "fr"}}, // msgmerge's spelling, every kind of comment and flag, obsolete entries
		{file: "msgid.po", o: Options{Language: "de", SourceLanguage: "en"}, want: &File{
			SourceLanguage: "en",
			Languages:      []string{"de"},
			Meta:           map[string]string{"header": hdr("de", "nplurals=2; plural=(n != 1);"), "keys": "msgid"},
			Entries: []Entry{
				{Key: "Open", Source: "Open", Values: map[string]Value{"de": {Text: "Öffnen"}}},
				{Key: "door state\x04Open", Source: "Open", Values: map[string]Value{"de": {Text: "Offen"}}},
				{Key: "menu\x04File", Source: "File", Values: map[string]Value{"de": {Text: "Datei"}}},
				{Key: "One file", Source: "{count, plural, one {One file} other {%d files}}",
					Values: map[string]Value{"de": {Text: "{count, plural, one {Eine Datei} other {%d Dateien}}"}}},
			},
		}},
		{file: "keys.po", o: Options{Language: "nb", SourceLanguage: "en"}, want: &File{
			SourceLanguage: "en",
			Languages:      []string{"nb"},
			// lokal's own header: nothing to keep.
			Entries: []Entry{
				{Key: "auth.login.title", Source: "Sign in", Values: map[string]Value{"nb": {Text: "Logg inn"}}},
				{Key: "cart.items", Source: "{count, plural, one {{count} item} other {{count} items}}",
					Values: map[string]Value{"nb": {Text: "{count, plural, one {{count} vare} other {{count} varer}}"}}},
				{Key: "home.title", Source: "Welcome", Values: map[string]Value{"nb": {Text: "Velkommen tilbake", State: StateNeedsReview}}},
				{Key: "nav.help", Source: "Help", Values: map[string]Value{"nb": {Text: ""}}},
			},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			f := goldenRoundTrip(t, "po", filepath.Join("po", tt.file), tt.o, tt.want)
			entriesRoundTrip(t, "po", f, tt.o)
			data, err := os.ReadFile(filepath.Join("testdata", "po", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			poCheckMsgfmt(t, data) // gettext itself reads the golden file
		})
	}
}

// TestPORussianFile checks what the ru golden file carries: comments of both kinds,
// references, flags, previous msgid, fuzzy, context, escapes, an untranslated entry, a
// plural with an empty form, and the header and obsolete entries in File.Meta.
func TestPORussianFile(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "po", "ru.po"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Decode("po", data, Options{Language: "ru"})
	if err != nil {
		t.Fatal(err)
	}
	if f.Meta["keys"] != "msgid" || !strings.HasPrefix(f.Meta["header"], "Project-Id-Version: shop 1.0\n") ||
		f.Meta["header.comment"] != "Russian translation of the lokal demo shop.\nWritten for lokal's tests.\n" ||
		!strings.Contains(f.Meta["obsolete"], "#~ msgid \"Wishlist\"") || !strings.HasPrefix(f.Meta["obsolete"], "#~ msgid \"Old checkout\"") {
		t.Errorf("file meta: %q", f.Meta)
	}
	byKey := map[string]Entry{}
	var keys []string
	for _, e := range f.Entries {
		byKey[e.Key] = e
		keys = append(keys, e.Key)
	}
	wantKeys := []string{"Cart", "Empty cart", "%(count)d item", "Order #%d shipped", "verb\x04Order", "noun\x04Order",
		"Thank you for your order.\nWe will write to you.", "Tab\there, \"quotes\" and \\ backslash", "Help"}
	if !reflect.DeepEqual(keys, wantKeys) {
		t.Errorf("keys %q, want %q", keys, wantKeys)
	}
	want := map[string]Entry{
		"Empty cart": {Key: "Empty cart", Source: "Empty cart", Comment: "Button that empties the cart.",
			Values: map[string]Value{"ru": {Text: "Очистить", State: StateStale}},
			Meta:   map[string]string{"comment": "Checked by the reviewer.", "previous": `msgid "Clear"`, "references": "shop/cart.py:40 shop/templates/cart.html:7"}},
		"%(count)d item": {Key: "%(count)d item", Source: "{count, plural, one {%(count)d item} other {%(count)d items}}",
			Values: map[string]Value{"ru": {Text: "{count, plural, one {%(count)d товар} few {%(count)d товара} many {%(count)d товаров} other {%(count)d товаров}}"}},
			Meta:   map[string]string{"flags": "python-format", "references": "shop/cart.py:55"}},
		"Order #%d shipped": {Key: "Order #%d shipped", Source: "{count, plural, one {Order '#'%d shipped} other {Orders '#'%d shipped}}",
			Values: map[string]Value{"ru": {Text: "{count, plural, one {Заказ №%d отправлен} few {Заказа №%d отправлены}}"}},
			Meta:   map[string]string{"references": "shop/orders.py:9"}},
		"Tab\there, \"quotes\" and \\ backslash": {Key: "Tab\there, \"quotes\" and \\ backslash", Source: "Tab\there, \"quotes\" and \\ backslash",
			Values: map[string]Value{"ru": {Text: "Таб\tздесь, «кавычки» и \\ обратная черта"}}},
		"Help": {Key: "Help", Source: "Help", Values: map[string]Value{"ru": {}}, Meta: map[string]string{"references": "shop/help.py:3"}},
	}
	for k, w := range want {
		if got := byKey[k]; !reflect.DeepEqual(got, w) {
			t.Errorf("entry %q:\n got %#v\nwant %#v", k, got, w)
		}
	}
}

// TestPOPluralMapping: which CLDR category each gettext index of a language's usual
// Plural-Forms stands for.
func TestPOPluralMapping(t *testing.T) {
	t.Parallel()
	tests := []struct {
		lang, forms string
		want        []string
		other       int // the index "other" copies when no index is "other"; -1 when one is
	}{
		{lang: "pl", want: []string{"one", "few", "many"}, other: 2},
		{lang: "ru", want: []string{"one", "few", "many"}, other: 2},
		{lang: "uk", want: []string{"one", "few", "many"}, other: 2},
		// Django's Russian has a fourth form for fractions, which integers never reach.
		{lang: "ru", forms: "nplurals=4; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : n%10==0 || (n%10>=5 && n%10<=9) || (n%100>=11 && n%100<=14)? 2 : 3);",
			want: []string{"one", "few", "many", "other"}, other: -1},
		{lang: "ar", want: []string{"zero", "one", "two", "few", "many", "other"}, other: -1},
		{lang: "ja", want: []string{"other"}, other: -1},
		{lang: "zh", want: []string{"other"}, other: -1},
		{lang: "fr", want: []string{"one", "other"}, other: -1},
		{lang: "pt-BR", want: []string{"one", "other"}, other: -1},
		{lang: "en", want: []string{"one", "other"}, other: -1},
		{lang: "de", want: []string{"one", "other"}, other: -1},
		{lang: "cs", want: []string{"one", "few", "other"}, other: -1},
		{lang: "he", want: []string{"one", "two", "other"}, other: -1},
		// A file whose Plural-Forms is not the language's: English rules in a French file.
		{lang: "fr", forms: "nplurals=2; plural=(n != 1);", want: []string{"one", "other"}, other: -1},
		// Forms are ternaries with parentheses and every comparison.
		{lang: "en", forms: "nplurals=2; plural=((n == 1 || n < 1 && n > 0 || n <= 0 && n >= 1) ? 0 : 1);", want: []string{"one", "other"}, other: -1},
	}
	// Every Plural-Forms of the table gives each index a category of its language.
	for lang := range poPluralTable {
		pm, err := poPluralsFor(lang, "")
		if err != nil {
			t.Errorf("%s: %v", lang, err)
			continue
		}
		for i, c := range pm.cat {
			if c == "" {
				t.Errorf("%s: index %d of %q stands for no category of %v", lang, i, pm.forms, Categories(lang, false))
			}
		}
	}
	for _, tt := range tests {
		t.Run(tt.lang+" "+tt.forms, func(t *testing.T) {
			t.Parallel()
			pm, err := poPluralsFor(tt.lang, tt.forms)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(pm.cat, tt.want) || pm.other != tt.other {
				t.Errorf("categories %q (other from %d), want %q (other from %d)", pm.cat, pm.other, tt.want, tt.other)
			}
		})
	}
}

// TestPOPluralExpressions: Plural-Forms are evaluated (by gotext's plurals) as gettext
// does, on whole numbers; an expression gotext would misread is refused, never misread.
func TestPOPluralExpressions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		expr string
		n    uint32
		want int
	}{
		{"n != 1", 1, 0}, {"n != 1", 2, 1}, {"(n > 1)", 0, 0}, {"n>1", 2, 1}, {"0", 7, 0}, {"(0)", 7, 0},
		{"n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2", 21, 0},
		{"n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2", 11, 2},
		{"(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)", 104, 1},
		{"(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2", 3, 1}, {"n == 1 ? 0 : n == 2 ? 1 : 2", 2, 1},
	}
	for _, tt := range tests {
		_, e, err := poParsePluralForms("nplurals=3; plural=" + tt.expr + ";")
		if err != nil {
			t.Errorf("%q: %v", tt.expr, err)
			continue
		}
		if got := e.Eval(tt.n); got != tt.want {
			t.Errorf("%q at n=%v = %v, want %v", tt.expr, tt.n, got, tt.want)
		}
	}
	for _, bad := range []string{"", "n ==", "(n", "n ? 1", "n $ 2", "x", "n == 1)", "!(n==1)", "n+1", "n%0==1", "n==1?0:x",
		strings.Repeat("(", 500) + "n" + strings.Repeat(")", 500)} {
		if _, _, err := poParsePluralForms("nplurals=2; plural=" + bad + ";"); err == nil {
			t.Errorf("%q is read", bad)
		}
	}
}

// TestPOEncodePlurals: lokal's own values (no header in Meta) become msgid_plural and
// exactly nplurals msgstr[n] of the language, a category the value lacks an empty msgstr,
// with the language's Plural-Forms in the header; msgfmt accepts the file.
func TestPOEncodePlurals(t *testing.T) {
	t.Parallel()
	f := &File{Languages: []string{"pl"}, Entries: []Entry{
		{Key: "files", Source: "{count, plural, one {# file} other {# files}}",
			Values: map[string]Value{"pl": {Text: "{count, plural, one {# plik} few {# pliki} other {# pliku}}"}}},
		{Key: "title", Source: "Files", Values: map[string]Value{"pl": {Text: "Pliki"}}},
	}}
	out, err := Encode("po", f, Options{Language: "pl"})
	if err != nil {
		t.Fatal(err)
	}
	want := "msgid \"\"\nmsgstr \"\"\n\"Language: pl\\n\"\n\"MIME-Version: 1.0\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n" +
		"\"Content-Transfer-Encoding: 8bit\\n\"\n" +
		"\"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n\"\n" +
		"\"X-Generator: lokal\\n\"\n" +
		"\nmsgctxt \"files\"\nmsgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"%d plik\"\nmsgstr[1] \"%d pliki\"\nmsgstr[2] \"\"\n" +
		"\nmsgctxt \"title\"\nmsgid \"Files\"\nmsgstr \"Pliki\"\n"
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	poCheckMsgfmt(t, out)

	// A File lokal builds (no Meta) whose plurals fit gettext's forms comes back as it was.
	entriesRoundTrip(t, "po", &File{Languages: []string{"pl"}, Entries: []Entry{
		{Key: "files", Source: "{count, plural, one {%d file} other {%d files}}",
			Values:  map[string]Value{"pl": {Text: "{count, plural, one {%d plik} few {%d pliki} many {%d plików} other {%d plików}}", State: StateNeedsReview}},
			Comment: "Shown in the file list.", Meta: map[string]string{"flags": "c-format"}},
		{Key: "title", Source: "Files", Values: map[string]Value{"pl": {Text: "Pliki"}}},
		{Key: "empty", Source: "Empty", Values: map[string]Value{"pl": {}}},
	}}, Options{Language: "pl"})

	// Arabic needs six forms, Japanese one; each from the value's categories.
	for _, c := range []struct{ lang, value, want string }{
		{"ar", "{count, plural, zero {a} one {b} two {c} few {d} many {e} other {f}}",
			"msgstr[0] \"a\"\nmsgstr[1] \"b\"\nmsgstr[2] \"c\"\nmsgstr[3] \"d\"\nmsgstr[4] \"e\"\nmsgstr[5] \"f\"\n"},
		{"ja", "{count, plural, other {# 件}}", "msgstr[0] \"%d 件\"\n"},
		{"ja", "{count, plural, =0 {なし} other {# 件}}", "msgstr[0] \"%d 件\"\n"},
		{"fr", "{count, plural, one {# fichier} other {# fichiers}}", "msgstr[0] \"%d fichier\"\nmsgstr[1] \"%d fichiers\"\n"},
	} {
		f := &File{Languages: []string{c.lang}, Entries: []Entry{{Key: "k", Source: "{n, plural, one {# x} other {# xs}}", Values: map[string]Value{c.lang: {Text: c.value}}}}}
		out, err := Encode("po", f, Options{Language: c.lang})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(string(out), "msgid \"%d x\"\nmsgid_plural \"%d xs\"\n"+c.want) {
			t.Errorf("%s: got\n%s\nwant it to end in\n%s", c.lang, out, c.want)
		}
		poCheckMsgfmt(t, out)
	}
}

// TestPOICUQuoting: a gettext text in a plural form reads back exactly through the ICU
// value, whatever ICU syntax it holds.
func TestPOICUQuoting(t *testing.T) {
	t.Parallel()
	for _, s := range append([]string{"#", "# and #", "'#'", "it's", "''", "'{", "{a}", "{a} #", "}", "{", "{x, plural, other {#}}",
		"a|b", "'|'", "%d # %s", "{{count}} #"}, tricky...) {
		q := poFormICU(s)
		if _, ok := message.ParseForm(q); !ok {
			t.Errorf("%q: form %q does not parse as one form", s, q)
			continue
		}
		if got := poFormText(q); got != s {
			t.Errorf("%q: quoted %q, read back %q", s, q, got)
		}
	}
	// python-brace-format's arguments stay ICU arguments; '#' is quoted, gettext has no number.
	for s, want := range map[string]string{"{name} has # files": "{name} has '#' files", "it's {name}": "it's {name}", "{ x": "'{' x"} {
		if got := poFormICU(s); got != want {
			t.Errorf("poFormICU(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestPOKeying follows the contract: every entry with a distinct msgctxt keys by msgctxt,
// anything else by msgid with msgctxt and U+0004 in front.
func TestPOKeying(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file string
		keys       []string
	}{
		{"all msgctxt, distinct", "msgctxt \"a\"\nmsgid \"X\"\nmsgstr \"\"\n\nmsgctxt \"b\"\nmsgid \"X\"\nmsgstr \"\"\n", []string{"a", "b"}},
		{"shared msgctxt", "msgctxt \"a\"\nmsgid \"X\"\nmsgstr \"\"\n\nmsgctxt \"a\"\nmsgid \"Y\"\nmsgstr \"\"\n", []string{"a\x04X", "a\x04Y"}},
		{"some msgctxt", "msgid \"X\"\nmsgstr \"\"\n\nmsgctxt \"a\"\nmsgid \"X\"\nmsgstr \"\"\n", []string{"X", "a\x04X"}},
		{"no msgctxt", "msgid \"X\"\nmsgstr \"x\"\n\nmsgid \"Y\"\nmsgstr \"y\"\n", []string{"X", "Y"}},
		{"empty msgctxt counts", "msgctxt \"\"\nmsgid \"X\"\nmsgstr \"\"\n", []string{""}},
	}
	for _, tt := range tests {
		f, err := Decode("po", []byte(tt.file), Options{Language: "de"})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var keys []string
		for _, e := range f.Entries {
			keys = append(keys, e.Key)
		}
		if !reflect.DeepEqual(keys, tt.keys) {
			t.Errorf("%s: keys %q, want %q", tt.name, keys, tt.keys)
		}
		entriesRoundTrip(t, "po", f, Options{Language: "de"})
	}
}

// TestPOSpellings: CRLF line ends, a byte order mark, escapes gettext reads but does not
// write, GNU's 79-column wrapping and comments without a space all read as the canonical
// file does.
func TestPOSpellings(t *testing.T) {
	t.Parallel()
	canonical := "msgid \"\"\nmsgstr \"\"\n\"Language: de\\n\"\n\n#. Note\n#, c-format\nmsgid \"A long sentence that a tool wrapped.\"\nmsgstr \"Ein langer Satz\\x01 \\a\"\n"
	variants := map[string]string{
		"crlf": strings.ReplaceAll(canonical, "\n", "\r\n"),
		"bom":  "\ufeff" + canonical,
		"spelling": "msgid \"\"\nmsgstr \"\"\n\"Language: \"\n\"de\\n\"\n#.Note\n#,c-format\n  msgid \"\"\n\"A long sentence \"\n  \"that a tool wrapped.\"\n" +
			"msgstr \"Ein \" \t\n\"langer Satz\\1 \\007\"\n",
	}
	want, err := Decode("po", []byte(canonical), Options{Language: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if want.Entries[0].Values["de"].Text != "Ein langer Satz\x01 \a" {
		t.Errorf("escapes: %q", want.Entries[0].Values["de"].Text)
	}
	for name, v := range variants {
		got, err := Decode("po", []byte(v), Options{Language: "de"})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if name == "spelling" {
			// The split lines are kept apart from the text, so the file can be written back
			// as it was.
			if got.Meta["header.wrap"] != "0,10,3" || got.Entries[0].Meta["wrap"] != "msgid=0,16,20 msgstr=4,14" {
				t.Errorf("wrap: %q, %q", got.Meta, got.Entries[0].Meta)
			}
			delete(got.Meta, "header.wrap")
			delete(got.Entries[0].Meta, "wrap")
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", name, got, want)
		}
	}
}

// TestPOKeepsWrapping: a file wrapped the way gettext's tools wrap (79 columns) comes back
// byte for byte; a string whose text changed is written in lokal's spelling.
func TestPOKeepsWrapping(t *testing.T) {
	t.Parallel()
	file := "msgid \"\"\nmsgstr \"\"\n\"Language-Team: German (http://www.example.com/projects/p/language/\"\n\"de/)\\n\"\n\"Language: de\\n\"\n" +
		"\n#. Translators: a comment long enough that the extraction tool wrapped it over\n#. two lines.\n" +
		"msgid \"\"\n\"This sentence is long enough that msgmerge wrapped it at seventy-nine \"\n\"columns.\"\n" +
		"msgstr \"\"\n\"Dieser Satz ist lang genug, dass msgmerge ihn bei neunundsiebzig Spalten \"\n\"umbrach.\"\n" +
		"\nmsgid \"Short\"\nmsgstr \"\"\n\"Kurz\"\n"
	o := Options{Language: "de"}
	f, err := Decode("po", []byte(file), o)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Encode("po", f, o)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != file {
		t.Errorf("got\n%s\nwant\n%s", out, file)
	}
	entriesRoundTrip(t, "po", f, o)
	f.Entries[0].Values["de"] = Value{Text: "Neu."}
	out, err = Encode("po", f, o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "columns.\"\nmsgstr \"Neu.\"\n") {
		t.Errorf("changed text not written on one line:\n%s", out)
	}
}

// TestPOStates: fuzzy on a translation is needs_review, and stale when "#|" gives the msgid
// it was made for; fuzzy on an empty msgstr (nothing to review) stays a flag; a flag list
// keeps its other flags, and the previous msgid is written back after them.
func TestPOStates(t *testing.T) {
	t.Parallel()
	file := "msgid \"\"\nmsgstr \"\"\n\"Language: de\\n\"\n" +
		"\n#, fuzzy, python-format\nmsgid \"A %s\"\nmsgstr \"B %s\"\n" +
		"\n#, fuzzy\nmsgid \"C\"\nmsgstr \"\"\n" +
		"\n#, fuzzy, c-format\n#| msgid \"Old %d\"\nmsgid \"New %d\"\nmsgstr \"Neu %d\"\n"
	f, err := Decode("po", []byte(file), Options{Language: "de"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Key: "A %s", Source: "A %s", Values: map[string]Value{"de": {Text: "B %s", State: StateNeedsReview}}, Meta: map[string]string{"flags": "python-format"}},
		{Key: "C", Source: "C", Values: map[string]Value{"de": {}}, Meta: map[string]string{"flags": "fuzzy"}},
		{Key: "New %d", Source: "New %d", Values: map[string]Value{"de": {Text: "Neu %d", State: StateStale}}, Meta: map[string]string{"flags": "c-format", "previous": `msgid "Old %d"`}},
	}
	if !reflect.DeepEqual(f.Entries, want) {
		t.Errorf("got %#v\nwant %#v", f.Entries, want)
	}
	out, err := Encode("po", f, Options{Language: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != file {
		t.Errorf("got\n%s\nwant\n%s", out, file)
	}
}

// TestPOBrokenFiles: a file that does not parse is a *FileError naming its line.
func TestPOBrokenFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file string
		line       int
		msg        string
	}{
		{"unterminated string", "msgid \"a\"\nmsgstr \"b\n", 2, "unterminated string"},
		{"unterminated continuation", "msgid \"a\"\nmsgstr \"\"\n\"b\n", 3, "unterminated string"},
		{"msgstr without msgid", "\nmsgstr \"b\"\n", 2, "msgstr without msgid"},
		{"msgid without msgstr", "msgid \"a\"\n\nmsgid \"b\"\nmsgstr \"\"\n", 1, "msgid without msgstr"},
		{"msgid without msgstr at the end", "msgid \"a\"\nmsgstr \"\"\n\nmsgid \"b\"\n", 4, "msgid without msgstr"},
		{"bad escape", "msgid \"a\"\nmsgstr \"\\q\"\n", 2, "bad escape"},
		{"bad hex escape", "msgid \"a\\xg\"\nmsgstr \"\"\n", 1, "bad escape"},
		{"duplicate entry", "msgid \"a\"\nmsgstr \"\"\n\nmsgid \"b\"\nmsgstr \"\"\n\nmsgid \"a\"\nmsgstr \"x\"\n", 7, "duplicate entry"},
		{"duplicate with context", "msgctxt \"c\"\nmsgid \"a\"\nmsgstr \"\"\n\nmsgid \"b\"\nmsgstr \"\"\n\nmsgctxt \"c\"\nmsgid \"a\"\nmsgstr \"\"\n", 8, "duplicate entry"},
		{"bad msgstr index", "msgid \"a\"\nmsgid_plural \"b\"\nmsgstr[0] \"\"\nmsgstr[2] \"\"\n", 4, "bad msgstr index"},
		{"msgstr index not a number", "msgid \"a\"\nmsgid_plural \"b\"\nmsgstr[x] \"\"\n", 3, "bad msgstr index"},
		{"msgstr[n] without plural", "msgid \"a\"\nmsgstr[0] \"\"\n", 2, "without msgid_plural"},
		{"plain msgstr in a plural", "msgid \"a\"\nmsgid_plural \"b\"\nmsgstr \"\"\n", 3, "needs msgstr[0]"},
		{"too many forms", "msgid \"\"\nmsgstr \"Language: ja\\nPlural-Forms: nplurals=1; plural=0;\\n\"\n\nmsgid \"a\"\nmsgid_plural \"b\"\nmsgstr[0] \"x\"\nmsgstr[1] \"y\"\n", 4, "nplurals=1"},
		{"bad Plural-Forms", "msgid \"\"\nmsgstr \"Language: pl\\nPlural-Forms: nplurals=3; plural=(n==1 ? 0;\\n\"\n\nmsgid \"a\"\nmsgid_plural \"b\"\nmsgstr[0] \"\"\n", 1, "Plural-Forms"},
		{"Plural-Forms out of range", "msgid \"\"\nmsgstr \"Language: de\\nPlural-Forms: nplurals=2; plural=n>1 ? 2 : 0;\\n\"\n\nmsgid \"a\"\nmsgid_plural \"b\"\nmsgstr[0] \"\"\n", 1, "outside nplurals"},
		{"garbage line", "msgid \"a\"\nmsgstr \"\"\nhello\n", 3, "unexpected"},
		{"keyword without string", "msgid a\nmsgstr \"\"\n", 1, "needs a string"},
		{"text after string", "msgid \"a\" x\nmsgstr \"\"\n", 1, "after the string"},
		{"string outside an entry", "\"a\"\n", 1, "outside an entry"},
		{"second msgstr", "msgid \"a\"\nmsgstr \"\"\nmsgstr \"\"\n", 3, "second msgstr"},
		{"msgctxt without msgid", "msgctxt \"a\"\n", 1, "msgctxt without msgid"},
		{"empty msgid after the header", "msgid \"a\"\nmsgstr \"\"\n\nmsgid \"\"\nmsgstr \"x\"\n", 4, "empty msgid"},
		{"not UTF-8", "msgid \"a\"\nmsgstr \"\xff\"\n", 2, "not UTF-8"},
		{"NUL escape", "msgid \"a\\0\"\nmsgstr \"\"\n", 1, "NUL and EOT"},
		{"escape not UTF-8", "msgid \"a\"\nmsgstr \"\\377\"\n", 2, "not UTF-8"},
		{"msgid_plural out of place", "msgid_plural \"a\"\n", 1, "msgid_plural out of place"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode("po", []byte(tt.file), Options{Language: "de"})
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *FileError", err)
			}
			if fe.Line != tt.line || !strings.Contains(fe.Msg, tt.msg) {
				t.Errorf("err = %v, want line %d and %q", err, tt.line, tt.msg)
			}
		})
	}
}

// TestPORenderIsKeyBased: lokal's export (no Meta) decodes back to its keys, sources and
// values, keyed by msgctxt.
func TestPORenderIsKeyBased(t *testing.T) {
	t.Parallel()
	out, err := Render("po", "nb", fixture)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Decode("po", out, Options{Language: "nb"})
	if err != nil {
		t.Fatal(err)
	}
	if f.Meta != nil || len(f.Entries) != len(fixture) {
		t.Fatalf("meta %q, %d entries", f.Meta, len(f.Entries))
	}
	for i, e := range f.Entries {
		r := fixture[0]
		for _, x := range fixture {
			if x.Key == e.Key {
				r = x
			}
		}
		src := r.Source
		if src == "" {
			src = r.Key
		}
		if e.Key != r.Key || e.Source != src || e.Values["nb"].Text != r.Value {
			t.Errorf("entry %d: %#v, want %#v", i, e, r)
		}
	}
	again, err := Encode("po", f, Options{Language: "nb"})
	if err != nil {
		t.Fatal(err)
	}
	// The header read back is written as read (the file keeps lokal's fields).
	if !bytes.Equal(again, out) {
		t.Errorf("re-encoding lokal's export changed it:\n%s", again)
	}
}

// FuzzDecodePO: no input panics, and a decoded file re-encodes and decodes to the same File.
func FuzzDecodePO(f *testing.F) {
	for _, name := range []string{"ru.po", "pl.po", "ar.po", "ja.po", "msgid.po", "keys.po"} {
		if data, err := os.ReadFile(filepath.Join("testdata", "po", name)); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("msgid \"a\"\nmsgstr \"b\"\n"))
	f.Add([]byte("#\nmsgid \"\"\nmsgstr \"\"\n"))
	f.Add([]byte("#~ msgid \"a\"\n#~ msgstr \"b\"\n# c\n"))
	f.Add([]byte("msgid \"\"\nmsgstr \"Plural-Forms: nplurals=2; plural=n>1;\\n\"\nmsgid \"a\"\nmsgid_plural \"b\"\nmsgstr[0] \"'#\"\nmsgstr[1] \"{\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		o := Options{Language: "ru"}
		file, err := Decode("po", data, o)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *FileError", err)
			}
			return
		}
		out, err := Encode("po", file, o)
		if err != nil {
			return // keys gettext cannot tell apart (NUL, EOT) are refused, not written
		}
		back, err := Decode("po", out, o)
		if err != nil {
			t.Fatalf("decode of our own encoding: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(back, file) {
			t.Fatalf("decode(encode(f)) != f:\n got %#v\nwant %#v\n%s", back, file, out)
		}
	})
}

// BenchmarkPO10k decodes and encodes a 10,000-key file with comments, references, flags
// and every fifth entry a Russian plural.
func BenchmarkPO10k(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("msgid \"\"\nmsgstr \"\"\n\"Language: ru\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n" +
		"\"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n\"\n")
	for i := range 10000 {
		fmt.Fprintf(&buf, "\n#. Note %d\n#: src/file%d.c:%d\n#, c-format\nmsgctxt \"screen%d.label\"\n", i, i%50, i, i)
		if i%5 == 0 {
			fmt.Fprintf(&buf, "msgid \"%%d item %d\"\nmsgid_plural \"%%d items %d\"\nmsgstr[0] \"%%d товар %d\"\nmsgstr[1] \"%%d товара %d\"\nmsgstr[2] \"%%d товаров %d\"\n", i, i, i, i, i)
		} else {
			fmt.Fprintf(&buf, "msgid \"Source text number %d, \\\"quoted\\\"\"\nmsgstr \"Текст перевода номер %d\"\n", i, i)
		}
	}
	data := buf.Bytes()
	o := Options{Language: "ru"}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := Decode("po", data, o)
		if err != nil {
			b.Fatal(err)
		}
		if len(f.Entries) != 10000 {
			b.Fatalf("%d entries", len(f.Entries))
		}
		out, err := Encode("po", f, o)
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.Equal(out, data) {
			b.Fatal("the file did not come back byte for byte")
		}
	}
}

// poCheckMsgfmt runs GNU msgfmt --check on a file when it is installed.
func poCheckMsgfmt(t *testing.T, data []byte) {
	t.Helper()
	path, err := exec.LookPath("msgfmt")
	if err != nil {
		return
	}
	src := filepath.Join(t.TempDir(), "in.po")
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(path, "--check-format", "--check-header", "-o", os.DevNull, src).CombinedOutput(); err != nil {
		t.Errorf("msgfmt: %v\n%s\n%s", err, out, data)
	}
}

// TestPOLatin1: a file in ISO-8859-1, as its header declares, is read as text and its
// header then says UTF-8, the encoding lokal writes.
func TestPOLatin1(t *testing.T) {
	t.Parallel()
	file := "# Traducci\xf3n\nmsgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=ISO-8859-1\\n\"\n\nmsgid \"Caf\xe9\"\nmsgstr \"Caf\xe9 cr\xe8me\"\n"
	f, err := Decode("po", []byte(file), Options{Language: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	if f.Entries[0].Key != "Café" || f.Entries[0].Values["fr"].Text != "Café crème" || f.Meta["header"] != "Content-Type: text/plain; charset=UTF-8\n" || f.Meta["header.comment"] != "Traducción" {
		t.Errorf("got %#v, meta %q", f.Entries, f.Meta)
	}
}

// TestPOTemplateAndLeftovers: a POT (fuzzy header, CHARSET placeholder, empty msgstr)
// comes back byte for byte; an obsolete entry in the middle of a file moves to the end,
// where gettext keeps them, and comments after the last entry stay.
func TestPOTemplateAndLeftovers(t *testing.T) {
	t.Parallel()
	pot := "# SOME DESCRIPTIVE TITLE.\n#\n#, fuzzy\nmsgid \"\"\nmsgstr \"\"\n\"Project-Id-Version: PACKAGE VERSION\\n\"\n" +
		"\"Language: \\n\"\n\"Content-Type: text/plain; charset=CHARSET\\n\"\n\"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n\"\n" +
		"\n#: main.c:10\n#, c-format\nmsgid \"Hello, %s\"\nmsgstr \"\"\n" +
		"\n#, c-format\nmsgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n"
	o := Options{Language: "de"}
	f, err := Decode("po", []byte(pot), o)
	if err != nil {
		t.Fatal(err)
	}
	if f.Meta["header.flags"] != "fuzzy" || f.Meta["header.comment"] != "SOME DESCRIPTIVE TITLE.\n" {
		t.Errorf("meta %q", f.Meta)
	}
	out, err := Encode("po", f, o)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != pot {
		t.Errorf("got\n%s\nwant\n%s", out, pot)
	}
	// Into a language with one form, the template's two empty forms become one.
	ja, err := Decode("po", []byte(pot), Options{Language: "ja"})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := Encode("po", ja, Options{Language: "ja"}); err != nil || !strings.HasSuffix(string(out), "msgid_plural \"%d files\"\nmsgstr[0] \"\"\n") {
		t.Errorf("ja: %v\n%s", err, out)
	}

	in := "msgid \"\"\nmsgstr \"\"\n\"Language: de\\n\"\n" +
		"\n# gone\n#~ msgid \"Old\"\n#~ msgstr \"Alt\"\n" +
		"\nmsgid \"New\"\nmsgstr \"Neu\"\n" +
		"\n# a note left at the end\n"
	f, err = Decode("po", []byte(in), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 1 || f.Entries[0].Key != "New" || f.Meta["obsolete"] != "# gone\n#~ msgid \"Old\"\n#~ msgstr \"Alt\"" || f.Meta["trailing"] != "# a note left at the end" {
		t.Fatalf("entries %#v meta %q", f.Entries, f.Meta)
	}
	out, err = Encode("po", f, o)
	if err != nil {
		t.Fatal(err)
	}
	want := "msgid \"\"\nmsgstr \"\"\n\"Language: de\\n\"\n\nmsgid \"New\"\nmsgstr \"Neu\"\n\n# gone\n#~ msgid \"Old\"\n#~ msgstr \"Alt\"\n\n# a note left at the end\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	entriesRoundTrip(t, "po", f, o)
}

// TestPOMsgidKeysWithoutMeta: a msgid-keyed catalog imported into lokal comes back keyed
// by msgid even though lokal keeps no File.Meta: every key is its msgid (a context before
// U+0004), so gettext programs still find every entry.
func TestPOMsgidKeysWithoutMeta(t *testing.T) {
	t.Parallel()
	in := "msgid \"\"\nmsgstr \"\"\n\"Language: de\\n\"\n\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n\n" +
		"msgid \"Save\"\nmsgstr \"Speichern\"\n\n" +
		"msgctxt \"menu\"\nmsgid \"Open\"\nmsgstr \"Öffnen\"\n\n" +
		"msgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"%d Datei\"\nmsgstr[1] \"%d Dateien\"\n"
	o := Options{Language: "de", SourceLanguage: "en"}
	f, err := Decode("po", []byte(in), o)
	if err != nil {
		t.Fatal(err)
	}
	stored := &File{Languages: f.Languages}
	for _, e := range f.Entries {
		stored.Entries = append(stored.Entries, Entry{Key: e.Key, Source: e.Source, Values: e.Values})
	}
	out, err := Encode("po", stored, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nmsgid \"Save\"\nmsgstr \"Speichern\"\n", "\nmsgctxt \"menu\"\nmsgid \"Open\"\n",
		"\nmsgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"%d Datei\"\nmsgstr[1] \"%d Dateien\"\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("export lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "msgctxt \"Save\"") {
		t.Errorf("export keyed by msgctxt:\n%s", out)
	}
}

// TestPOFlagsSurvive: the flags of testdata/po/fr.po come back from decode and encode, so
// that msgfmt -c still checks a python-format entry: a translation that drops %(name)s is
// refused.
func TestPOFlagsSurvive(t *testing.T) {
	t.Parallel()
	msgfmt, err := exec.LookPath("msgfmt")
	if err != nil {
		t.Skip("gettext is not installed")
	}
	data, err := os.ReadFile(filepath.Join("testdata", "po", "fr.po"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Decode("po", data, Options{Language: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range f.Entries {
		if e.Key == "Welcome back, %(name)s!" {
			f.Entries[i].Values["fr"] = Value{Text: "Bon retour !"}
		}
	}
	out, err := Encode("po", f, Options{Language: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "fr.po")
	if err := os.WriteFile(src, out, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(msgfmt, "-c", "--check-format", "-o", os.DevNull, src)
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANGUAGE=")
	msg, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(msg), "format specification") {
		t.Errorf("msgfmt -c accepts a python-format entry without its %%(name)s (err %v):\n%s", err, msg)
	}
}
