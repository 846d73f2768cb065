package formats

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// entryOf returns the entry with key, failing the test when there is none.
func entryOf(t *testing.T, f *File, key string) Entry {
	t.Helper()
	for _, e := range f.Entries {
		if e.Key == key {
			return e
		}
	}
	t.Fatalf("no entry %q", key)
	return Entry{}
}

func TestAndroidGolden(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ path, lang string }{
		{"android/values-ru.xml", "ru"}, {"android/values-ar.xml", "ar"},
		{"android/values-pl.xml", "pl"}, {"android/values-ja.xml", "ja"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			t.Parallel()
			f := goldenRoundTrip(t, "android", c.path, Options{Language: c.lang}, nil)
			entriesRoundTrip(t, "android", f, Options{Language: c.lang})
		})
	}
}

// TestAndroidValues checks what each construct of the Russian golden file decodes to.
func TestAndroidValues(t *testing.T) {
	t.Parallel()
	f := goldenRoundTrip(t, "android", "android/values-ru.xml", Options{Language: "ru"}, nil)
	want := []Entry{
		{Key: "app_name", Values: map[string]Value{"ru": {Text: "Файлы"}}, DoNotTranslate: true},
		{Key: "title", Values: map[string]Value{"ru": {Text: "Мои файлы"}}, Comment: "Title of the screen that lists files"},
		{Key: "quote", Values: map[string]Value{"ru": {Text: `Нажмите "Сохранить", чтобы продолжить`}}},
		{Key: "apostrophe", Values: map[string]Value{"ru": {Text: "It's Ivan's"}}},
		{Key: "lines", Values: map[string]Value{"ru": {Text: "Первая строка\nВторая\tс табуляцией"}}},
		{Key: "spaces", Values: map[string]Value{"ru": {Text: "  два пробела в начале и в конце  "}}},
		{Key: "at_start", Values: map[string]Value{"ru": {Text: "@home и ?attr не ссылки"}}},
		{Key: "backslash", Values: map[string]Value{"ru": {Text: `C:\Users\ivan`}}},
		{Key: "control", Values: map[string]Value{"ru": {Text: "звонок\a"}}},
		{Key: "entities", Values: map[string]Value{"ru": {Text: "Том & Джерри <3"}}},
		{Key: "html_text", Values: map[string]Value{"ru": {Text: "<b>жирный</b> 100%"}}, Meta: map[string]string{"@formatted": "false", "content": "text"}},
		{Key: "cdata", Values: map[string]Value{"ru": {Text: `<a href="https://example.com">ссылка</a>`}}, Meta: map[string]string{"content": "cdata"}},
		{Key: "markup", Values: map[string]Value{"ru": {Text: "Нажмите <b>Сохранить</b> &amp; <i>выйти</i>"}}},
		{Key: "placeholder", Values: map[string]Value{"ru": {Text: `Привет, <xliff:g id="name" example="Иван">%1$s</xliff:g>!`}}},
		{Key: "ignored", Values: map[string]Value{"ru": {Text: "Только по-русски"}}, Meta: map[string]string{"@tools:ignore": "MissingTranslation"}},
		{Key: "files", Values: map[string]Value{"ru": {Text: "{count, plural, one {%d файл} few {%d файла} many {%d файлов} other {%d файла}}"}}, Comment: "Number of files in a folder"},
		{Key: "hash", Values: map[string]Value{"ru": {Text: "{count, plural, one {файл '#'%d} few {файла '#'%d} many {файлов '#'%d} other {файла '#'%d}}"}}},
		{Key: "days.0", Values: map[string]Value{"ru": {Text: "Понедельник"}}, Comment: "Days of the week"},
		{Key: "days.1", Values: map[string]Value{"ru": {Text: "Вторник"}}, Comment: "The day after Monday"},
		{Key: "days.2", Values: map[string]Value{"ru": {Text: "Среда"}}},
		{Key: "units.0", Values: map[string]Value{"ru": {Text: "КБ"}}, DoNotTranslate: true},
		{Key: "units.1", Values: map[string]Value{"ru": {Text: "МБ"}}, DoNotTranslate: true},
	}
	if !reflect.DeepEqual(f.Entries, want) {
		for i := range max(len(want), len(f.Entries)) {
			if i >= len(want) || i >= len(f.Entries) || !reflect.DeepEqual(f.Entries[i], want[i]) {
				t.Errorf("entry %d differs", i)
				if i < len(f.Entries) {
					t.Errorf(" got %#v", f.Entries[i])
				}
				if i < len(want) {
					t.Errorf("want %#v", want[i])
				}
			}
		}
	}
	wantMeta := map[string]string{
		"@xmlns:tools": "http://schemas.android.com/tools",
		"@xmlns:xliff": "urn:oasis:names:tc:xliff:document:1.2",
		"header":       "Russian strings of a file manager, written for lokal's tests.",
		"trailer":      "End of file.",
	}
	if !reflect.DeepEqual(f.Meta, wantMeta) || !reflect.DeepEqual(f.Languages, []string{"ru"}) {
		t.Errorf("file: languages %v meta %v", f.Languages, f.Meta)
	}
}

func TestAndroidPlurals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ path, lang, want string }{
		{"android/values-ar.xml", "ar", "{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {%d ملفات} many {%d ملفًا} other {%d ملف}}"},
		{"android/values-pl.xml", "pl", "{count, plural, one {%d plik} few {%d pliki} many {%d plików} other {%d pliku}}"},
		{"android/values-ja.xml", "ja", "{count, plural, other {%d 個のファイル}}"},
	} {
		f := goldenRoundTrip(t, "android", c.path, Options{Language: c.lang}, nil)
		if got := entryOf(t, f, "files").Values[c.lang].Text; got != c.want {
			t.Errorf("%s: files = %q, want %q", c.lang, got, c.want)
		}
	}
}

// TestAndroidZeroIsNotExplicit: Android never selects a category the language lacks, so an
// English quantity="zero" is kept under its own name (not =0) and left out on export.
func TestAndroidZeroIsNotExplicit(t *testing.T) {
	t.Parallel()
	in := `<resources><plurals name="n"><item quantity="zero">none</item><item quantity="one">%d item</item><item quantity="other">%d items</item></plurals></resources>`
	f, err := Decode("android", []byte(in), Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Entries[0].Values["en"].Text, "{count, plural, zero {none} one {%d item} other {%d items}}"; got != want {
		t.Errorf("value %q, want %q", got, want)
	}
	out, err := Encode("android", f, Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "zero") || !strings.Contains(string(out), `<item quantity="one">%d item</item>`) {
		t.Errorf("export:\n%s", out)
	}
}

// TestAndroidExportFromICU: a value made in lokal is written with exactly the language's
// categories, '#' as %d, explicit forms left out, and anything that is not a lone
// cardinal plural as a <string>.
func TestAndroidExportFromICU(t *testing.T) {
	t.Parallel()
	f := &File{Languages: []string{"ru"}, Entries: []Entry{
		{Key: "p", Values: map[string]Value{"ru": {Text: "{n, plural, =0 {нет} one {# файл} few {# файла} other {# файлов}}"}}},
		{Key: "around", Values: map[string]Value{"ru": {Text: "Всего {n, plural, one {# файл} other {# файлов}}"}}},
		{Key: "ord", Values: map[string]Value{"ru": {Text: "{n, selectordinal, other {#-й}}"}}},
		{Key: "untranslated", Values: map[string]Value{"de": {Text: "nicht hier"}}},
		{Key: "n.0", Values: map[string]Value{"ru": {Text: "ноль"}}},
		{Key: "n.1", Values: map[string]Value{"ru": {Text: "один"}}},
		{Key: "m.1", Values: map[string]Value{"ru": {Text: "не массив"}}},
		{Key: "only_explicit", Values: map[string]Value{"ru": {Text: "{n, plural, =1 {x}}"}}},
	}}
	out, err := Encode("android", f, Options{Language: "ru"})
	if err != nil {
		t.Fatal(err)
	}
	want := `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <plurals name="p">
        <item quantity="one">%d файл</item>
        <item quantity="few">%d файла</item>
        <item quantity="other">%d файлов</item>
    </plurals>
    <string name="around">Всего {n, plural, one {# файл} other {# файлов}}</string>
    <string name="ord">{n, selectordinal, other {#-й}}</string>
    <string-array name="n">
        <item>ноль</item>
        <item>один</item>
    </string-array>
    <string name="m.1">не массив</string>
    <string name="only_explicit">{n, plural, =1 {x}}</string>
</resources>
`
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// TestAndroidRealShapes reads what real files carry beyond the canonical spelling: blank
// lines, section comments, wrapped text, other resource types, an XML comment after
// </resources>; it re-encodes to the same entries.
func TestAndroidRealShapes(t *testing.T) {
	t.Parallel()
	in := `<?xml version="1.0" encoding="utf-8"?>
<resources>

    <!-- Timer -->
    <string name="a">Timers are
        running   now </string>
    <integer name="max">5</integer>
    <color name="red">#f00</color>

    <string name="b">"He said ""hi""" \u00e9t\u00E9</string>
    <string name="c"/>
    <string name="d">Don't</string>
    <!--
        Haven't found some strings?
    -->

</resources>
<!-- after -->
`
	f, err := Decode("android", []byte(in), Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	want := &File{Languages: []string{"en"}, Meta: map[string]string{"trailer": "Haven't found some strings?\n\nafter"}, Entries: []Entry{
		{Key: "a", Values: map[string]Value{"en": {Text: "Timers are running now"}}, Comment: "Timer"},
		{Key: "b", Values: map[string]Value{"en": {Text: "He said hi été"}}},
		{Key: "c", Values: map[string]Value{"en": {Text: ""}}, Meta: map[string]string{"content": "empty"}},
		{Key: "d", Values: map[string]Value{"en": {Text: "Don't"}}},
	}}
	want.Meta["trailer"] = "Haven't found some strings?\nafter"
	if !reflect.DeepEqual(f, want) {
		t.Errorf("got  %#v\nwant %#v", f, want)
	}
	entriesRoundTrip(t, "android", f, Options{Language: "en"})
}

func TestAndroidEntriesRoundTrip(t *testing.T) {
	t.Parallel()
	f := &File{Languages: []string{"nb"}}
	for i, s := range tricky {
		if strings.ContainsAny(s, "\xff\xfe") {
			continue // invalid UTF-8 cannot be in an XML file
		}
		f.Entries = append(f.Entries, Entry{Key: "k" + string(rune('a'+i%26)) + strings.Repeat("x", i/26), Values: map[string]Value{"nb": {Text: s}}})
	}
	f.Entries = append(f.Entries,
		Entry{Key: "plural", Values: map[string]Value{"nb": {Text: "{count, plural, one {'#'%d fil} other {%d filer {x}}}"}}, Comment: "a -- b"},
		Entry{Key: "literal_plural", Values: map[string]Value{"nb": {Text: "{count, plural, other {x}}"}}, Meta: map[string]string{"type": "string"}},
		Entry{Key: "arr.0", Values: map[string]Value{"nb": {Text: "<b>x</b>"}}, DoNotTranslate: true, Meta: map[string]string{"@tools:ignore": "X"}},
		Entry{Key: "arr.1", Values: map[string]Value{"nb": {Text: "<b>x</b>"}}, DoNotTranslate: true, Meta: map[string]string{"@tools:ignore": "X", "content": "text"}, Comment: "second"},
	)
	f.Entries[len(f.Entries)-4].Comment = "a - - b" // "--" cannot be in an XML comment
	entriesRoundTrip(t, "android", f, Options{Language: "nb"})
}

func TestAndroidBrokenFiles(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, in string
		line     int
	}{
		{"unclosed element", "<resources>\n<string name=\"a\">x</string>\n<string name=\"b\">y\n</resources>", 4},
		{"no name", "<resources>\n\n<string>x</string>\n</resources>", 3},
		{"bad quantity", "<resources>\n<plurals name=\"p\">\n<item quantity=\"lots\">x</item>\n</plurals>\n</resources>", 3},
		{"twice", "<resources>\n<string name=\"a\">x</string>\n<string name=\"a\">y</string>\n</resources>", 3},
		{"bad unicode escape", "<resources>\n<string name=\"a\">\\u12G4</string>\n</resources>", 2},
		{"wrong root", "<?xml version=\"1.0\"?>\n<plist/>", 2},
		{"undefined entity", "<resources>\n<string name=\"a\">&nbsp;</string>\n</resources>", 2},
		{"empty", "", 1},
		{"item outside plurals shape", "<resources>\n<plurals name=\"p\">\n<string>x</string>\n</plurals>\n</resources>", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode("android", []byte(c.in), Options{Language: "en"})
			var fe *FileError
			if !errors.As(err, &fe) || fe.Line != c.line {
				t.Errorf("err = %v, want a FileError on line %d", err, c.line)
			}
		})
	}
}

func FuzzDecodeAndroid(f *testing.F) {
	f.Add([]byte(`<resources><string name="a">x</string></resources>`))
	f.Add([]byte(`<resources><plurals name="p"><item quantity="one">#%d "a  b" \'</item><item quantity="other">{x</item></plurals></resources>`))
	f.Add([]byte(`<resources><string-array name="s"><!--c--><item>a<b>b</b></item><item><![CDATA[<i>]]></item></string-array></resources>`))
	f.Add([]byte(`<resources xmlns:tools="t"><string name="a" tools:ignore="x" translatable="false">&lt;b>\u0041  @x</string><!--e--></resources>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRoundTrip(t, "android", data, Options{Language: "ar"})
	})
}

func TestAndroidBOM(t *testing.T) {
	t.Parallel()
	f, err := Decode("android", []byte("\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources><string name=\"a\">b</string></resources>"), Options{Language: "en"})
	if err != nil || len(f.Entries) != 1 || f.Entries[0].Values["en"].Text != "b" {
		t.Errorf("%#v %v", f, err)
	}
	_, err = Decode("stringsdict", []byte("\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<plist><dict/></plist>"), Options{Language: "en"})
	if err != nil {
		t.Error(err)
	}
}

func TestAndroidArrayKey(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]bool{"a.0": true, "a.b.12": true, "a.01": false, "a.": false, ".0": false, "a.-1": false, "a.+1": false, "a": false, "a.x": false} {
		if _, _, ok := arrayKey(key); ok != want {
			t.Errorf("arrayKey(%q) ok = %v, want %v", key, ok, want)
		}
	}
}

// TestAndroidProducts: a string defined once per product keeps every definition.
func TestAndroidProducts(t *testing.T) {
	t.Parallel()
	in := "<resources>\n<string name=\"hint\" product=\"tablet\">Tablet</string>\n<string name=\"hint\" product=\"default\">Phone</string>\n<string name=\"hint\" product=\"default\">again</string>\n</resources>"
	_, err := Decode("android", []byte(in), Options{Language: "en"})
	var fe *FileError
	if !errors.As(err, &fe) || fe.Line != 4 {
		t.Errorf("a second default definition: err = %v, want line 4", err)
	}
	f, err := Decode("android", []byte(strings.Replace(in, "<string name=\"hint\" product=\"default\">again</string>\n", "", 1)), Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 2 || f.Entries[0].Key != "hint" || f.Entries[1].Key != "hint#default" {
		t.Fatalf("%#v", f.Entries)
	}
	out, _ := Encode("android", f, Options{Language: "en"})
	if !strings.Contains(string(out), `<string name="hint" product="default">Phone</string>`) {
		t.Errorf("%s", out)
	}
	entriesRoundTrip(t, "android", f, Options{Language: "en"})
}

// androidFeatures is a file in the codec's own spelling carrying what real strings.xml
// files carry beside plain text; it must come back byte for byte.
const androidFeatures = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="app_name" translatable="false">Lokal</string>
    <string name="ref">@string/app_name</string>
    <string name="ref_android">@android:string/ok</string>
    <string name="attr">?attr/colorPrimary</string>
    <string name="attr_bare">?colorPrimary</string>
    <string name="literal">\@string/app_name</string>
    <string name="at">\@home is text</string>
    <string name="cdata_b"><![CDATA[<b>%1$s</b> invited you]]></string>
    <string name="cdata_html"><![CDATA[<a href="https://example.com">Site</a><br/>next]]></string>
    <string name="cdata_plain"><![CDATA[Tom & Jerry]]></string>
    <string name="styled">Tap <b>Save</b></string>
    <string name="br_tags">Line<br/>two</string>
    <string name="escaped">&lt;b>not bold&lt;/b></string>
    <string name="blank"/>
    <string-array name="days">
        <item>Mon</item>
        <item/>
        <item></item>
        <item>Thu</item>
    </string-array>
    <plurals name="files">
        <item quantity="one"><![CDATA[<b>%d</b> file]]></item>
        <item quantity="other"><![CDATA[<b>%d</b> files]]></item>
    </plurals>
</resources>
`

// TestAndroidFeaturesRoundTrip: references stay references (and an escaped one text), CDATA
// stays CDATA as written, tags stay tags, empty items keep their places and spelling,
// plurals keep their quantities and CDATA; untouched, the file comes back byte for byte.
func TestAndroidFeaturesRoundTrip(t *testing.T) {
	t.Parallel()
	o := Options{Language: "en", SourceLanguage: "en"}
	f, err := Decode("android", []byte(androidFeatures), o)
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"ref": "@string/app_name", "attr": "?attr/colorPrimary", "literal": "@string/app_name", "at": "@home is text",
		"cdata_b": "<b>%1$s</b> invited you", "cdata_html": "<a href=https://example.com>Site</a><br/>next", "styled": "Tap <b>Save</b>",
		"escaped": "<b>not bold</b>", "blank": "", "days.0": "Mon", "days.1": "", "days.2": "", "days.3": "Thu",
		"files": "{count, plural, one {<b>%d</b> file} other {<b>%d</b> files}}",
	} {
		if got := entryOf(t, f, key).Values["en"].Text; got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	if !entryOf(t, f, "app_name").DoNotTranslate {
		t.Errorf("app_name is not marked not to translate")
	}
	out, err := Encode("android", f, o)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != androidFeatures {
		t.Errorf("not byte-identical:\n%s", out)
	}
	entriesRoundTrip(t, "android", f, o)
}

// TestAndroidSpellingWithoutMeta: a value made in lokal (no Meta, as the server stores it)
// is written as Android needs it: a reference unescaped, text starting with @ or ? escaped,
// HTML beyond style tags as CDATA, style tags as markup, a stray '<' escaped.
func TestAndroidSpellingWithoutMeta(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]string{
		"@string/app_name":                  `@string/app_name`,
		"@android:string/ok":                `@android:string/ok`,
		"?android:attr/textColorPrimary":    `?android:attr/textColorPrimary`,
		"@null":                             `@null`,
		"@home is text":                     `\@home is text`,
		"@string/app_name and more":         `\@string/app_name and more`,
		"?what":                             `\?what`,
		"<a href=x>Site</a><br/>next":       `<![CDATA[<a href=x>Site</a><br/>next]]>`,
		"<p>Para":                           `<![CDATA[<p>Para]]>`,
		"Tap <b>Save</b> &amp; <i>go</i>":   `Tap <b>Save</b> &amp; <i>go</i>`,
		`Hi <xliff:g id="n">%1$s</xliff:g>`: `Hi <xliff:g id="n">%1$s</xliff:g>`,
		"I <3 it":                           `I &lt;3 it`,
		"It's":                              `It\'s`,
	} {
		if got := androidWriteValue(v, "", ""); got != want {
			t.Errorf("%q written %q, want %q", v, got, want)
		}
	}
}

// TestAndroidArrayFromStore: array items as the server gives them, sorted by key bytes
// (days.10 before days.2) and with an item missing, are one array in index order with an
// empty item in the gap.
func TestAndroidArrayFromStore(t *testing.T) {
	t.Parallel()
	var entries []Entry
	for _, k := range []string{"0", "1", "10", "11", "3", "4", "5", "6", "7", "8", "9"} {
		entries = append(entries, Entry{Key: "days." + k, Values: map[string]Value{"en": {Text: "d" + k}}})
	}
	out, err := Encode("android", &File{Languages: []string{"en"}, Entries: entries}, Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	want := "    <string-array name=\"days\">\n        <item>d0</item>\n        <item>d1</item>\n        <item/>\n"
	for _, k := range []string{"3", "4", "5", "6", "7", "8", "9", "10", "11"} {
		want += "        <item>d" + k + "</item>\n"
	}
	want += "    </string-array>\n"
	if !strings.Contains(string(out), want) || strings.Count(string(out), "<string-array") != 1 {
		t.Errorf("export:\n%s\nwant the array\n%s", out, want)
	}
}

// TestAndroidUnkept: what only an entry's Meta keeps, and Android would read differently
// without it, is named (so that an import that cannot store the Meta warns); a spelling
// that reads the same is not; what not even Meta keeps is a warning of the file.
func TestAndroidUnkept(t *testing.T) {
	t.Parallel()
	in := `<resources>
    <string name="cdata_b"><![CDATA[<b>x</b>]]></string>
    <string name="cdata_html"><![CDATA[<p>x</p>]]></string>
    <string name="cdata_plain"><![CDATA[a & b]]></string>
    <string name="escaped">&lt;b>x&lt;/b></string>
    <string name="br">a<br/>b</string>
    <string name="literal">\@string/x</string>
    <string name="bare_ref">?colorPrimary</string>
    <string name="ref">@string/x</string>
    <string name="blank"/>
    <plurals name="p"><!-- c --><item quantity="one">%d</item><item quantity="other">%d</item></plurals>
    <plurals name="q"><item quantity="one"><![CDATA[<b>%d</b>]]></item><item quantity="other"><![CDATA[<b>%d</b>]]></item></plurals>
</resources>`
	f, err := Decode("android", []byte(in), Options{Language: "en"})
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, e := range f.Entries {
		if len(androidUnkept(e)) > 0 {
			named = append(named, e.Key)
		}
	}
	want := []string{"cdata_b", "escaped", "br", "literal", "bare_ref", "q"}
	if !reflect.DeepEqual(named, want) {
		t.Errorf("named %v, want %v", named, want)
	}
	// The comment inside p is kept nowhere, not even in Meta: a warning of the file says so.
	if len(f.Warnings) != 1 || f.Warnings[0].Key != "p" || !strings.Contains(f.Warnings[0].Message, "comment") {
		t.Errorf("warnings %+v, want one naming p's comment", f.Warnings)
	}
}
