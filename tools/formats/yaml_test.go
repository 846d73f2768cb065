package formats

import (
	"errors"
	"strings"
	"testing"
)

func yamlRu(text string) map[string]Value { return map[string]Value{"ru": {Text: text}} }

func TestYAMLGoldenRussian(t *testing.T) {
	t.Parallel()
	want := &File{
		Languages: []string{"ru"},
		Meta: map[string]string{
			"comment": "Russian strings of the shop.\nEdit in lokal, not here.",
			"foot":    "end of file",
		},
		Entries: []Entry{
			{Key: "cart.title", Values: yamlRu("Корзина"), Comment: "Shown above the list.", Meta: map[string]string{"comment.1": "The cart page."}},
			{Key: "cart.items", Values: yamlRu("{count, plural, one {%{count} товар} few {%{count} товара} many {%{count} товаров} other {%{count} товара}}")},
			{Key: "cart.empty", Values: yamlRu("{count, plural, =0 {Корзина пуста} one {%{count} товар} few {%{count} товара} many {%{count} товаров} other {%{count} товара}}")},
			{Key: "greeting", Values: yamlRu("Привет, %{name}!")},
			{Key: "settings.no", Values: yamlRu("Нет")},
			{Key: "settings.yes", Values: yamlRu("Да")},
			{Key: "settings.answer", Values: yamlRu("no")},
			{Key: "settings.count", Values: yamlRu("42")},
			{Key: "nav", Values: yamlRu("Меню")},
			{Key: "nav.home", Values: yamlRu("Главная")},
			{Key: "body", Values: yamlRu("Первая строка.\nВторая строка.")},
			{Key: "hash", Values: yamlRu("Заказ #%{number}")},
		},
	}
	f := goldenRoundTrip(t, "yaml", "yaml/ru.yml", Options{Language: "ru"}, want)
	entriesRoundTrip(t, "yaml", f, Options{Language: "ru"})
}

func TestYAMLGoldenPolish(t *testing.T) {
	t.Parallel()
	pl := func(s string) map[string]Value { return map[string]Value{"pl": {Text: s}} }
	want := &File{
		Languages: []string{"pl"},
		Entries: []Entry{
			{Key: "inbox.messages", Values: pl("{count, plural, one {Masz %{count} wiadomość} few {Masz %{count} wiadomości} many {Masz %{count} wiadomości} other {Masz %{count} wiadomości}}")},
			{Key: "inbox.title", Values: pl("Skrzynka")},
			{Key: "days.0", Values: pl("niedziela")},
			{Key: "days.1", Values: pl("poniedziałek")},
			{Key: "days.2", Values: pl("wtorek")},
		},
	}
	f := goldenRoundTrip(t, "yml", "yaml/pl.yml", Options{Language: "pl"}, want)
	entriesRoundTrip(t, "yaml", f, Options{Language: "pl"})
}

func TestYAMLGoldenJapanese(t *testing.T) {
	t.Parallel()
	ja := func(s string) map[string]Value { return map[string]Value{"ja": {Text: s}} }
	want := &File{
		Languages: []string{"ja"},
		Entries: []Entry{
			{Key: "files", Values: ja("{count, plural, =0 {ファイルがありません} other {%{count} 個のファイル}}")},
			{Key: "title", Values: ja("ファイル")},
		},
	}
	goldenRoundTrip(t, "yaml", "yaml/ja.yml", Options{Language: "ja"}, want)
}

// TestYAMLLoose reads a file in another spelling than ours: quoting styles, an anchor and
// a merge key, non-string scalars, nulls, a flow sequence and a plural with a literal '#'.
func TestYAMLLoose(t *testing.T) {
	t.Parallel()
	data := readCodecTestdata(t, "yaml/loose.yml")
	f, err := Decode("yaml", data, Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var order []string
	for _, e := range f.Entries {
		got[e.Key] = e.Values["en"].Text
		order = append(order, e.Key)
	}
	want := map[string]string{
		"defaults.save": "Save", "defaults.cancel": "Cancel",
		"form.save": "Save", "form.cancel": "Back",
		"numbers.answer": "!!int 42", "numbers.ratio": "!!float 1.5", "numbers.enabled": "!!bool yes",
		"numbers.empty": "!!null ~", "numbers.nothing": "!!null",
		"list.0": "a", "list.1": "b",
		"posts":      "{count, plural, one {1 post '#'%{count}} other {%{count} posts}}",
		"dotted.key": "Dotted",
	}
	if len(got) != len(want) {
		t.Errorf("keys %v, want %d keys", order, len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if strings.Join(order[:4], " ") != "defaults.save defaults.cancel form.save form.cancel" {
		t.Errorf("order %v", order)
	}
	// Our spelling of it reads back the same, and the literal '#' is written as '#'.
	out, err := Encode("yaml", f, Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `one: "1 post #%{count}"`) {
		t.Errorf("literal # not kept:\n%s", out)
	}
	entriesRoundTrip(t, "yaml", f, Options{Language: "en"})
}

func TestYAMLPluralExport(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, lang, value, want string
	}{
		{"pl writes its four categories, # as %{count}", "pl",
			"{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}",
			"pl:\n  files:\n    one: \"%{count} plik\"\n    few: \"%{count} pliki\"\n    many: \"%{count} plików\"\n    other: \"%{count} pliku\"\n"},
		{"=0 is Rails' zero in any language", "ru",
			"{count, plural, =0 {нет} one {# файл} few {# файла} many {# файлов} other {# файла}}",
			"ru:\n  files:\n    zero: нет\n    one: \"%{count} файл\"\n    few: \"%{count} файла\"\n    many: \"%{count} файлов\"\n    other: \"%{count} файла\"\n"},
		{"ar writes its six categories", "ar",
			"{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}",
			"ar:\n  files:\n    zero: لا ملفات\n    one: ملف واحد\n    two: ملفان\n    few: \"%{count} ملفات\"\n    many: \"%{count} ملفًا\"\n    other: \"%{count} ملف\"\n"},
		{"categories the language lacks are left out", "ja",
			"{count, plural, =0 {なし} one {# 個} other {# 個}}",
			"ja:\n  files:\n    zero: なし\n    other: \"%{count} 個\"\n"},
		{"a missing category is not invented", "pl",
			"{count, plural, one {# plik} other {# pliku}}",
			"pl:\n  files:\n    one: \"%{count} plik\"\n    other: \"%{count} pliku\"\n"},
		{"one form only stays ICU", "ja",
			"{count, plural, one {# 個} other {# 個}}",
			"ja:\n  files: \"{count, plural, one {# 個} other {# 個}}\"\n"},
		{"another argument stays ICU", "pl",
			"{n, plural, one {# plik} other {# pliku}}",
			"pl:\n  files: \"{n, plural, one {# plik} other {# pliku}}\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := &File{Languages: []string{tt.lang}, Entries: []Entry{{Key: "files", Values: map[string]Value{tt.lang: {Text: tt.value}}}}}
			out, err := Encode("yaml", f, Options{Language: tt.lang})
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, tt.want)
			}
		})
	}
}

func TestYAMLPluralImport(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, lang, data, want string }{
		{"ar keeps its own zero", "ar", "ar:\n  f:\n    zero: a\n    other: b\n", "{count, plural, zero {a} other {b}}"},
		{"ru zero is =0", "ru", "ru:\n  f:\n    zero: a\n    other: b\n", "{count, plural, =0 {a} other {b}}"},
		{"ja one is =1", "ja", "ja:\n  f:\n    one: a\n    other: b\n", "{count, plural, =1 {a} other {b}}"},
		{"no other: ordinary keys", "en", "en:\n  f:\n    one: a\n    few: b\n", ""},
		{"other alone: an ordinary key", "en", "en:\n  f:\n    other: b\n", ""},
		{"a key that is not a category: ordinary keys", "en", "en:\n  f:\n    one: a\n    other: b\n    title: c\n", ""},
		{"a nested mapping: ordinary keys", "en", "en:\n  f:\n    one: a\n    other:\n      x: b\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := Decode("yaml", []byte(tt.data), Options{Language: tt.lang})
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				for _, e := range f.Entries {
					if !strings.HasPrefix(e.Key, "f.") {
						t.Errorf("want ordinary keys under f, got %+v", f.Entries)
					}
				}
				return
			}
			if len(f.Entries) != 1 || f.Entries[0].Key != "f" || f.Entries[0].Values[tt.lang].Text != tt.want {
				t.Errorf("got %+v, want f = %q", f.Entries, tt.want)
			}
		})
	}
}

func TestYAMLEntriesRoundTrip(t *testing.T) {
	t.Parallel()
	v := func(s string) map[string]Value { return map[string]Value{"de": {Text: s}} }
	f := &File{
		Languages: []string{"de"},
		Meta:      map[string]string{"comment": "Header", "language": "de-DE"},
		Entries: []Entry{
			{Key: "z.last", Values: v("zuerst"), Comment: "two\nlines", Meta: map[string]string{"comment.1": "section"}},
			{Key: "a", Values: v("yes")},
			{Key: "a.b", Values: v("1")},
			{Key: "Sign in. Now", Values: v("Jetzt anmelden.")},
			{Key: "n.on", Values: v("")},
			{Key: "p", Values: v("{count, plural, one {%{count} Datei} other {%{count} Dateien}}")},
			{Key: "list.0", Values: v("x")},
			{Key: "list.1", Values: v("y: z")},
			{Key: "t", Values: v("\ttab and trailing \n")},
		},
	}
	entriesRoundTrip(t, "yaml", f, Options{Language: "de"})
}

// TestYAMLCommentBreaks: a comment from another format with any YAML line break stays a
// comment and cannot add keys.
func TestYAMLCommentBreaks(t *testing.T) {
	t.Parallel()
	f := &File{Languages: []string{"en"}, Entries: []Entry{{Key: "a", Values: map[string]Value{"en": {Text: "x"}},
		Comment: "one\rb: injected\r\ntwo\u2028c: injected\u0085d: injected"}}}
	out, err := Encode("yaml", f, Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Decode("yaml", out, Options{Language: "en"})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(g.Entries) != 1 || g.Entries[0].Comment != "one\nb: injected\ntwo\nc: injected\nd: injected" {
		t.Errorf("got %+v\n%s", g.Entries, out)
	}
}

func TestYAMLBroken(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, data string
		line       int
	}{
		{"empty", "", 1},
		{"two languages", "en:\n  a: b\nde:\n  a: c\n", 1},
		{"root is a sequence", "- en\n", 1},
		{"language holds text", "en: hello\n", 1},
		{"bad indentation", "en:\n  a: b\n    c: d\n", 3},
		{"unclosed quote", "en:\n  a: \"b\n", 2},
		{"duplicate key", "en:\n  a:\n    b: x\n  a.b: y\n", 4},
		{"key is a mapping", "en:\n  ? {a: b}\n  : c\n", 2},
		{"invalid utf-8", "en:\n  a: \xff\n", 2},
		{"two documents", "en:\n  a: b\n---\nde: {}\n", 3},
		{"undefined alias", "en:\n  a: *x\n", 2},
		{"aliases that expand without end", "en:\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n" +
			"  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
			"  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n  e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n" +
			"  f: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n", 5},
		{"merges that expand without end", "en:\n  a: &a {x: 1, y: 2}\n  b: &b {<<: [*a, *a, *a, *a, *a, *a, *a, *a]}\n" +
			"  c: &c {<<: [*b, *b, *b, *b, *b, *b, *b, *b]}\n  d: &d {<<: [*c, *c, *c, *c, *c, *c, *c, *c]}\n" +
			"  e: &e {<<: [*d, *d, *d, *d, *d, *d, *d, *d]}\n  f: {<<: [*e, *e, *e, *e, *e, *e, *e, *e]}\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode("yaml", []byte(tt.data), Options{Language: "en"})
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("err = %v, want a *FileError", err)
			}
			if fe.Line != tt.line {
				t.Errorf("line %d, want %d (%v)", fe.Line, tt.line, err)
			}
		})
	}
}

func FuzzDecodeYAML(f *testing.F) {
	for _, p := range []string{"yaml/ru.yml", "yaml/pl.yml", "yaml/ja.yml", "yaml/loose.yml"} {
		f.Add(readCodecTestdata(f, p))
	}
	f.Add([]byte("en:\n  a: &x {b: *x}\n"))
	f.Add([]byte("en:\n  a:\n    one: '#'\n    other: \"'#\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Options without a language: the file's root key is the language. Normalized
		// once: export drops plural categories the language lacks, and a key that cannot
		// nest moves to the top, by design.
		fuzzDecodedRoundTrip(t, "yaml", data, Options{}, true)
	})
}

func BenchmarkYAML10k(b *testing.B) {
	benchCodec10k(b, "yaml", Options{Language: "pl"}, []string{"pl"})
}
