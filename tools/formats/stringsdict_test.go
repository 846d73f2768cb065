package formats

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestStringsdictGolden(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ path, lang string }{
		{"stringsdict/ru.stringsdict", "ru"}, {"stringsdict/ar.stringsdict", "ar"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			t.Parallel()
			f := goldenRoundTrip(t, "stringsdict", c.path, Options{Language: c.lang}, nil)
			entriesRoundTrip(t, "stringsdict", f, Options{Language: c.lang})
		})
	}
}

// TestStringsdictValues: each %#@var@ is a plural argument named as the variable with the
// text around it kept; Apple's zero is =0 in Russian (which has no zero category) and
// zero in Arabic; value types are kept in Meta.
func TestStringsdictValues(t *testing.T) {
	t.Parallel()
	want := &File{Languages: []string{"ru"}, Entries: []Entry{
		{Key: "files_left", Comment: "Files left to upload", Meta: map[string]string{"valueType.files": "ld"},
			Values: map[string]Value{"ru": {Text: "Осталось {files, plural, =0 {ни одного файла} one {%ld файл} few {%ld файла} many {%ld файлов} other {%ld файла}}"}}},
		{Key: "files_in_folders", Meta: map[string]string{"valueType.files": "d", "valueType.folders": "u"},
			Values: map[string]Value{"ru": {Text: "{files, plural, one {%d файл} few {%d файла} many {%d файлов} other {%d файла}} в {folders, plural, one {%u папке} few {%u папках} many {%u папках} other {%u папки}} & «корзине»"}}},
		{Key: "tagged", Meta: map[string]string{"valueType.tags": "d"},
			Values: map[string]Value{"ru": {Text: "{tags, plural, one {%d тег '#'{избранное} Ivan's} few {%d тега} many {%d тегов} other {%d тега}}"}}},
		{Key: "plain", Values: map[string]Value{"ru": {Text: "Без переменных"}}},
	}}
	goldenRoundTrip(t, "stringsdict", "stringsdict/ru.stringsdict", Options{Language: "ru"}, want)
	ar := goldenRoundTrip(t, "stringsdict", "stringsdict/ar.stringsdict", Options{Language: "ar"}, nil)
	if got, want := ar.Entries[0].Values["ar"].Text, "{count, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {%d ملفات} many {%d ملفًا} other {%d ملف}}"; got != want {
		t.Errorf("ar: %q, want %q", got, want)
	}
}

// TestStringsdictExportFromICU: a value made in lokal is written with =0 as zero, exactly
// the language's categories, '#' as the variable's conversion, and text around the blocks
// in the format key.
func TestStringsdictExportFromICU(t *testing.T) {
	t.Parallel()
	f := &File{Languages: []string{"ja"}, Entries: []Entry{
		{Key: "k", Meta: map[string]string{"valueType.n": "ld", "position.n": "1"}, Values: map[string]Value{"ja": {Text: "残り{n, plural, =0 {なし} one {# 件 (dropped)} other {# 件}}です"}}},
		{Key: "skip", Values: map[string]Value{"de": {Text: "x"}}},
	}}
	out, err := Encode("stringsdict", f, Options{Language: "ja"})
	if err != nil {
		t.Fatal(err)
	}
	want := `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>k</key>
	<dict>
		<key>NSStringLocalizedFormatKey</key>
		<string>残り%1$#@n@です</string>
		<key>n</key>
		<dict>
			<key>NSStringFormatSpecTypeKey</key>
			<string>NSStringPluralRuleType</string>
			<key>NSStringFormatValueTypeKey</key>
			<string>ld</string>
			<key>zero</key>
			<string>なし</string>
			<key>other</key>
			<string>%ld 件</string>
		</dict>
	</dict>
</dict>
</plist>
`
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	back, err := Decode("stringsdict", out, Options{Language: "ja"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := back.Entries[0].Values["ja"].Text, "残り{n, plural, =0 {なし} other {%ld 件}}です"; got != want {
		t.Errorf("read back %q, want %q", got, want)
	}
}

func TestStringsdictEntriesRoundTrip(t *testing.T) {
	t.Parallel()
	f := &File{Languages: []string{"pl"}}
	for i, s := range tricky {
		if strings.ContainsAny(s, "\xff\xfe\r") || strings.ContainsFunc(s, func(r rune) bool { return !xmlValidRune(r) }) {
			continue // not text an XML plist can hold
		}
		f.Entries = append(f.Entries, Entry{Key: "k" + strings.Repeat("x", i) + s, Values: map[string]Value{"pl": {Text: s}}})
	}
	f.Entries = append(f.Entries,
		Entry{Key: "two", Comment: "two variables", Meta: map[string]string{"valueType.a": "ld", "valueType.b": "@"},
			Values: map[string]Value{"pl": {Text: "x '{'y'}' '{' {a, plural, one {%ld a} few {'#' a} many {a's''} other {}} & {b, plural, other {b}}!"}}},
		Entry{Key: "literal", Meta: map[string]string{"plain": "true"}, Values: map[string]Value{"pl": {Text: "{n, plural, other {x}}"}}},
	)
	entriesRoundTrip(t, "stringsdict", f, Options{Language: "pl"})
}

func TestStringsdictBrokenFiles(t *testing.T) {
	t.Parallel()
	head := "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
	for _, c := range []struct {
		name, in string
		line     int
	}{
		// The root dict is not closed: </plist> on line 8 says so.
		{"unclosed", head + "<key>a</key>\n<dict>\n<key>x</key>\n</dict>\n</plist>\n", 8},
		{"no format key", head + "<key>a</key>\n<dict>\n<key>x</key>\n<string>y</string>\n</dict>\n</dict>\n</plist>\n", 4},
		{"missing variable", head + "<key>a</key>\n<dict>\n<key>NSStringLocalizedFormatKey</key>\n<string>%#@n@</string>\n</dict>\n</dict>\n</plist>\n", 7},
		{"width rule", head + "<key>a</key>\n<dict>\n<key>NSStringLocalizedFormatKey</key>\n<string>%#@n@</string>\n<key>n</key>\n<dict>\n<key>NSStringFormatSpecTypeKey</key>\n<string>NSStringVariableWidthRuleType</string>\n</dict>\n</dict>\n</dict>\n</plist>\n", 9},
		{"key without value", head + "<key>a</key>\n</dict>\n</plist>\n", 5},
		{"not a dict", "<plist>\n<array/>\n</plist>", 2},
		{"text", head + "<key>a</key>\nstray\n<dict/>\n</dict>\n</plist>\n", 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode("stringsdict", []byte(c.in), Options{Language: "en"})
			var fe *FileError
			if !errors.As(err, &fe) || fe.Line != c.line {
				t.Errorf("err = %v, want a FileError on line %d", err, c.line)
			}
		})
	}
}

func TestStringsdictEmpty(t *testing.T) {
	t.Parallel()
	f, err := Decode("stringsdict", []byte(`<plist version="1.0"><dict/></plist>`), Options{Language: "en"})
	if err != nil || !reflect.DeepEqual(f, &File{Languages: []string{"en"}, Entries: []Entry{}}) {
		t.Errorf("%#v %v", f, err)
	}
}

func FuzzDecodeStringsdict(f *testing.F) {
	f.Add([]byte(`<plist><dict><key>a</key><dict><key>NSStringLocalizedFormatKey</key><string>x %#@n@ y</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string><key>zero</key><string>#'{</string><key>other</key><string>%d</string></dict></dict></dict></plist>`))
	f.Add([]byte(`<plist><dict><!-- c --><key>b</key><dict><key>NSStringLocalizedFormatKey</key><string>{x, plural, other {y}}</string></dict><key>c</key><string>s</string></dict></plist>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRoundTrip(t, "stringsdict", data, Options{Language: "ru"})
	})
}

// TestStringsdictWidths: a variable-width key is the widest variant's text, its variants
// kept in Meta, written back with the widest taken from the value.
func TestStringsdictWidths(t *testing.T) {
	t.Parallel()
	in := "<plist>\n<dict>\n<key>w</key>\n<dict>\n<key>NSStringVariableWidthRuleType</key>\n<dict>\n<key>20</key>\n<string>Долго</string>\n<key>1</key>\n<string>Д</string>\n<key>100</key>\n<string>Очень долго</string>\n</dict>\n</dict>\n</dict>\n</plist>\n"
	f, err := Decode("stringsdict", []byte(in), Options{Language: "ru"})
	if err != nil {
		t.Fatal(err)
	}
	want := Entry{Key: "w", Values: map[string]Value{"ru": {Text: "Очень долго"}}, Meta: map[string]string{"width.1": "Д", "width.20": "Долго", "width.100": "Очень долго"}}
	if !reflect.DeepEqual(f.Entries, []Entry{want}) {
		t.Fatalf("got %#v", f.Entries)
	}
	f.Entries[0].Values["ru"] = Value{Text: "Совсем долго"}
	out, err := Encode("stringsdict", f, Options{Language: "ru"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "<key>1</key>\n\t\t\t<string>Д</string>\n\t\t\t<key>20</key>\n\t\t\t<string>Долго</string>\n\t\t\t<key>100</key>\n\t\t\t<string>Совсем долго</string>") {
		t.Errorf("export:\n%s", out)
	}
}
