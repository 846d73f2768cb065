package formats

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/message"
)

func TestI18nextGoldenPolish(t *testing.T) {
	t.Parallel()
	v := func(s string) map[string]Value { return map[string]Value{"pl": {Text: s}} }
	want := &File{Languages: []string{"pl"}, Meta: map[string]string{"arrays": `["steps"]`}, Entries: []Entry{
		{Key: "_comment", Values: v("Klucze zagnieżdżone i liczba mnoga")},
		{Key: "files.title", Values: v("Pliki")},
		{Key: "files.count", Values: v("{count, plural, one {{{count}} plik} few {{{count}} pliki} many {{{count}} plików} other {{{count}} pliku}}")},
		{Key: "files.delete", Values: v("Usuń {{name}}")},
		// A literal # in a form is quoted, so that it is not read as the number.
		{Key: "inbox.unread", Values: v("{count, plural, one {Masz {{count}} nieprzeczytaną wiadomość '#'1} few {Masz {{count}} nieprzeczytane wiadomości} many {Masz {{count}} nieprzeczytanych wiadomości} other {Masz {{count}} nieprzeczytanej wiadomości}}")},
		// Polish ordinals have one category, other.
		{Key: "place", Values: v("{count, selectordinal, other {{{count}}. miejsce}}")},
		{Key: "steps.0", Values: v("Otwórz plik")},
		{Key: "steps.1", Values: v("Zapisz {plik}")},
		{Key: "steps.2", Values: v("Zamknij")},
		{Key: "Sign in. Now", Values: v("Zaloguj się teraz")},
	}}
	f := goldenRoundTrip(t, "i18next", "i18next/pl.json", Options{Language: "pl"}, want)
	entriesRoundTrip(t, "i18next", f, Options{Language: "pl"})
}

func TestI18nextGoldenArabic(t *testing.T) {
	t.Parallel()
	v := func(s string) map[string]Value { return map[string]Value{"ar": {Text: s}} }
	want := &File{Languages: []string{"ar"}, Entries: []Entry{
		// Arabic has a zero category of its own: _zero stays zero.
		{Key: "cart.items", Values: v("{count, plural, zero {السلة فارغة} one {عنصر واحد} two {عنصران} few {{{count}} عناصر} many {{{count}} عنصرًا} other {{{count}} عنصر}}")},
		{Key: "cart.title", Values: v("سلة التسوق")},
	}}
	f := goldenRoundTrip(t, "i18next", "i18next/ar.json", Options{Language: "ar"}, want)
	entriesRoundTrip(t, "i18next", f, Options{Language: "ar"})
}

func TestI18nextGoldenEnglish(t *testing.T) {
	t.Parallel()
	v := func(s string) map[string]Value { return map[string]Value{"en": {Text: s}} }
	want := &File{Languages: []string{"en"}, Meta: map[string]string{"arrays": `["nested.list"]`}, Entries: []Entry{
		{Key: "place", Values: v("{count, selectordinal, one {{{count}}st place} two {{{count}}nd place} few {{{count}}rd place} other {{{count}}th place}}")},
		// English has no zero category: i18next's _zero is the explicit =0.
		{Key: "messages", Values: v("{count, plural, =0 {No messages} one {One message} other {{{count}} messages}}")},
		{Key: "key", Values: v("Plain")},
		{Key: "key_one", Values: v("Stays a key of its own, because key is one")},
		{Key: "quote", Values: v("It's {{name}}'s {turn} #{{count}}")},
		{Key: "icu", Values: v("{count, plural, one {# file} other {# files}}"), Meta: map[string]string{"icu": "true"}},
		{Key: "nested.deep.er", Values: v("Deep")},
		{Key: "nested.list.0.name", Values: v("First")},
		{Key: "nested.list.1.name", Values: v("Second")},
	}}
	f := goldenRoundTrip(t, "i18next", "i18next/en.json", Options{Language: "en"}, want)
	entriesRoundTrip(t, "i18next", f, Options{Language: "en"})
}

func TestI18nextGoldenJapanese(t *testing.T) {
	t.Parallel()
	want := &File{Languages: []string{"ja"}, Entries: []Entry{
		{Key: "files", Values: map[string]Value{"ja": {Text: "{count, plural, other {{{count}} 個のファイル}}"}}},
		{Key: "title", Values: map[string]Value{"ja": {Text: "ファイル"}}},
	}}
	f := goldenRoundTrip(t, "i18next", "i18next/ja.json", Options{Language: "ja"}, want)
	entriesRoundTrip(t, "i18next", f, Options{Language: "ja"})
}

// A plural made in lokal is written with exactly the language's categories, # as {{count}}
// and =0 as _zero where the language has no zero; keys nest by the contract's rule.
func TestI18nextEncodeFromLokal(t *testing.T) {
	t.Parallel()
	v := func(s string) map[string]Value { return map[string]Value{"ru": {Text: s}} }
	f := &File{Entries: []Entry{
		{Key: "files.count", Values: v("{n, plural, =0 {Нет файлов} one {# файл} few {# файла} many {# файлов} other {# файла} two {лишняя}}")},
		{Key: "files", Values: v("Файлы")}, // also a prefix of files.count
		{Key: "a..b", Values: v("пустой сегмент")},
		{Key: "files.Sign in", Values: v("пробел")},
		{Key: "partial", Values: v("{count, plural, one {# раз} other {# раза}}")}, // few, many missing: left out
		{Key: "untranslated", Values: map[string]Value{"de": {Text: "x"}}},
	}}
	out, err := Encode("i18next", f, Options{Language: "ru"})
	if err != nil {
		t.Fatal(err)
	}
	// files.count runs through the leaf files: it is written beside it, whole.
	want := `{
  "files.count_zero": "Нет файлов",
  "files.count_one": "{{count}} файл",
  "files.count_few": "{{count}} файла",
  "files.count_many": "{{count}} файлов",
  "files.count_other": "{{count}} файла",
  "files": "Файлы",
  "a..b": "пустой сегмент",
  "files.Sign in": "пробел",
  "partial_one": "{{count}} раз",
  "partial_other": "{{count}} раза"
}
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestI18nextFormTextRoundTrips(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", "{{count}} files", "#1 {{count}}", "{x} and }{", "it's", "it'{", "''", "'",
		"'{{count}}", "a '#' b", "{'}", "#{{count}}#", "$t(other.key, {\"count\": 2})", "x'|y", "{{count}'"} {
		icu := nativeToICU(s, message.I18next)
		p, ok := SinglePlural("{count, plural, other {" + icu + "}}")
		if !ok {
			t.Errorf("nativeToICU(%q) = %q does not sit in a plural form", s, icu)
			continue
		}
		if got := icuToNative(p.Forms[0].Text, "{{count}}"); got != s {
			t.Errorf("icuToNative(nativeToICU(%q) = %q) = %q", s, icu, got)
		}
	}
	if got := icuToNative("# файл", "{{count}}"); got != "{{count}} файл" {
		t.Errorf("# is written as {{count}}: got %q", got)
	}
}

func TestI18nextRefusesBrokenFiles(t *testing.T) {
	t.Parallel()
	checkRefusals(t, "i18next", struct {
		name, data string
		line       int
	}{"boolean in array", "{\n  \"a\": [\n    \"x\",\n    true\n  ]\n}", 4})
}

func FuzzDecodeI18next(f *testing.F) {
	for _, p := range []string{"i18next/pl.json", "i18next/ar.json", "i18next/en.json", "i18next/ja.json"} {
		f.Add(readTestdata(f, p), strings.Split(strings.TrimSuffix(p[8:], ".json"), "/")[0])
	}
	f.Add([]byte(`{"a_one":"'#{","a_other":"x","a":{"b_zero":"z"},"l":[[],["q"]],"":{"":"e"}}`), "en")
	f.Add([]byte(`{"":["x"],"a":"b","a.l":["c"],"my list":["d"],"o":{"k":["e"]}}`), "en")
	f.Add([]byte(`{"":{"0_many":""},"b_other":"o","b_one":"1","c_two":"2","c_other":"x"}`), "0")
	for _, c := range brokenJSONCases {
		f.Add([]byte(c.data), "pl")
	}
	f.Fuzz(func(t *testing.T, data []byte, lang string) {
		if lang == "" || strings.ContainsAny(lang, "\x00") {
			lang = "en"
		}
		o := Options{Language: lang}
		f, err := Decode("i18next", data, o)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("error is not a *FileError: %v", err)
			}
			return
		}
		// A key that cannot nest, nested in the file ({"a": {"": "x"}} is "a."), is written
		// at the level the nesting rule gives it, so it may read back at another place:
		// the same entries, and from then on the same order.
		out, err := Encode("i18next", f, o)
		if err != nil {
			t.Fatalf("Encode: %v", err)
		}
		back, err := Decode("i18next", out, o)
		if err != nil {
			t.Fatalf("Decode of our own encoding: %v\n%s", err, out)
		}
		byKey := func(es []Entry) []Entry {
			return slices.SortedFunc(slices.Values(es), func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
		}
		if !reflect.DeepEqual(byKey(back.Entries), byKey(f.Entries)) || !reflect.DeepEqual(back.Meta, f.Meta) {
			t.Fatalf("decode(encode(f)) has other entries:\n got %#v\nwant %#v\nfile:\n%s", back, f, out)
		}
		entriesRoundTrip(t, "i18next", back, o)
	})
}

func FuzzI18nextFormText(f *testing.F) {
	for _, s := range []string{"{{count}} files", "it's #1", "'{'", "a}b{c", "{{a}}{{b}}'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		icu := nativeToICU(s, message.I18next)
		p, ok := SinglePlural("{count, plural, other {" + icu + "}}")
		if !ok {
			t.Skip() // text the parser cannot hold in a form at all (unbalanced i18next syntax)
		}
		if got := icuToNative(p.Forms[0].Text, "{{count}}"); got != s {
			t.Errorf("icuToNative(nativeToICU(%q) = %q) = %q", s, icu, got)
		}
	})
}

func TestI18nextPluralsThatStayKeys(t *testing.T) {
	t.Parallel()
	data := []byte(`{
  "place_one": "{{count}} place",
  "place_other": "{{count}} places",
  "place_ordinal_one": "{{count}}st",
  "place_ordinal_other": "{{count}}th",
  "odd_two": "two, which English has not",
  "odd_other": "other"
}
`)
	f, err := Decode("i18next", data, Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range f.Entries {
		keys = append(keys, e.Key)
	}
	// Ordinal forms beside cardinal ones, and forms lokal could not write back, stay keys.
	want := []string{"place", "place_ordinal_one", "place_ordinal_other", "odd_two", "odd_other"}
	if strings.Join(keys, " ") != strings.Join(want, " ") {
		t.Errorf("keys %q, want %q", keys, want)
	}
	out, err := Encode("i18next", f, Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(data) {
		t.Errorf("got\n%s\nwant\n%s", out, data)
	}
}
