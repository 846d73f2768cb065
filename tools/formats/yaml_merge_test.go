package formats

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// readMergeLocale is testdata/yaml/merge.de.yml: a Rails locale with a header comment and
// document marker, flow sequences (one over two lines, with ~), a block sequence of
// symbols, an anchor and a merge key, a comment at the end of a line, typed values
// (2, !!bool false, ”, an empty null), a plural, literal and folded blocks and quoted keys.
func readMergeLocale(t *testing.T) ([]byte, *File) {
	t.Helper()
	local, err := os.ReadFile("testdata/yaml/merge.de.yml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Decode("yaml", local, Options{Language: "de"})
	if err != nil {
		t.Fatal(err)
	}
	return local, f
}

// setValue sets (or adds after key after, "" for the end) a value in f.
func setYAMLValue(f *File, key, text, after string) {
	for i, e := range f.Entries {
		if e.Key == key {
			f.Entries[i].Values = map[string]Value{"de": {Text: text}}
			return
		}
	}
	e := Entry{Key: key, Values: map[string]Value{"de": {Text: text}}}
	i := slices.IndexFunc(f.Entries, func(e Entry) bool { return e.Key == after })
	f.Entries = slices.Insert(f.Entries, i+1, e)
}

func dropKeys(f *File, keys ...string) {
	f.Entries = slices.DeleteFunc(f.Entries, func(e Entry) bool { return slices.Contains(keys, e.Key) })
}

// mergeYAMLTest merges theirs into local and checks that the result reads as theirs.
func mergeYAMLTest(t *testing.T, local []byte, theirs *File, lang string) string {
	t.Helper()
	out, err := yamlCodec.Merge(local, theirs, Options{Language: lang})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode("yaml", out, Options{Language: lang})
	if err != nil {
		t.Fatalf("merged file does not read: %v\n%s", err, out)
	}
	if len(got.Entries) != len(theirs.Entries) {
		t.Errorf("merged file has %d keys, want %d\n%s", len(got.Entries), len(theirs.Entries), out)
	}
	byKey := map[string]string{}
	for _, e := range got.Entries {
		byKey[e.Key] = e.Values[lang].Text
	}
	for _, e := range theirs.Entries {
		if g, ok := byKey[e.Key]; !ok || g != e.Values[lang].Text {
			t.Errorf("merged %s = %q (present %v), want %q\n%s", e.Key, g, ok, e.Values[lang].Text, out)
		}
	}
	return string(out)
}

func checkDiff(t *testing.T, local []byte, out string, want ...string) {
	t.Helper()
	got := lineDiff(string(local), out)
	if !slices.Equal(got, want) {
		t.Errorf("diff:\n%s\nwant:\n%s\nmerged:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), out)
	}
}

// TestYAMLMergeUnchanged: theirs holding the file's own values (as decoded, and as lokal's
// export writes them: keys sorted, types spelled) leaves every byte as it is.
func TestYAMLMergeUnchanged(t *testing.T) {
	t.Parallel()
	local, f := readMergeLocale(t)
	if out := mergeYAMLTest(t, local, f, "de"); out != string(local) {
		t.Errorf("changed:\n%s", strings.Join(lineDiff(string(local), out), "\n"))
	}
	exported, err := Render("yaml", "de", rowsOf(f, "de"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := MergeFile("yaml", local, exported, Options{Language: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(local) {
		t.Errorf("changed through the export:\n%s", strings.Join(lineDiff(string(local), string(out)), "\n"))
	}
	// A draft of the same text changes nothing: the file has no place for states.
	for i := range f.Entries {
		v := f.Entries[i].Values["de"]
		v.State = StateNeedsReview
		f.Entries[i].Values = map[string]Value{"de": v}
	}
	if out := mergeYAMLTest(t, local, f, "de"); out != string(local) {
		t.Errorf("states changed the file:\n%s", strings.Join(lineDiff(string(local), out), "\n"))
	}
}

// TestYAMLMergeOneValue: a changed value rewrites its scalar only, in its own style where
// that holds the new text.
func TestYAMLMergeOneValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, key, text string
		diff            []string
	}{
		{"plain stays plain", "user_form.title", "Profil bearbeiten",
			[]string{"-    title: Benutzer bearbeiten", "+    title: Profil bearbeiten"}},
		{"plain that needs quotes is single-quoted", "legal.notice", "Zugriff: verweigert",
			[]string{"-    notice: Kein Zugriff", "+    notice: 'Zugriff: verweigert'"}},
		{"double quotes stay", "date.formats.long", `%e. %b "%Y"`,
			[]string{`-      long: "%e. %B %Y"`, `+      long: "%e. %b \"%Y\""`}},
		{"an item of a flow sequence over two lines", "date.abbr_month_names.3", "März",
			[]string{"-    abbr_month_names: [~, Jan, Feb, Mär, Apr, Mai, Jun,", "+    abbr_month_names: [~, Jan, Feb, März, Apr, Mai, Jun,"}},
		{"an item on the second line", "date.abbr_month_names.12", "Dez.",
			[]string{"-      Jul, Aug, Sep, Okt, Nov, Dez]", "+      Jul, Aug, Sep, Okt, Nov, Dez.]"}},
		{"a flow item that needs quotes", "date.abbr_day_names.0", "So, Mo",
			[]string{"-    abbr_day_names: [So, Mo, Di, Mi, Do, Fr, Sa]", "+    abbr_day_names: ['So, Mo', Mo, Di, Mi, Do, Fr, Sa]"}},
		{"a quoted key", "yes", "Jawohl",
			[]string{"-  'yes': Ja", "+  'yes': Jawohl"}},
		{"a literal block", "inbox.empty_html", "<p>Leer.</p>\n",
			[]string{"-      <p>Keine Nachrichten.</p>", "-      <p>Schreib doch eine!</p>", "+      <p>Leer.</p>"}},
		{"a folded block", "inbox.help", "Hier landen alle Nachrichten.\nAuch alte.\n",
			[]string{"-      Hier landen alle", "-      Nachrichten.", "+      Hier landen alle Nachrichten.", "+", "+      Auch alte."}},
		{"plain to multi-line writes the file's block style", "legal.terms", "Es gelten die AGB.\nStand 2024.",
			[]string{"-    terms: Es gelten die AGB.", "+    terms: |-", "+      Es gelten die AGB.", "+      Stand 2024."}},
		{"an empty string", "number.format.unit", "€",
			[]string{"-      unit: ''", "+      unit: '€'"}},
		{"an empty null gets a value", "number.format.nothing", "nichts",
			[]string{"-      nothing:", "+      nothing: nichts"}},
		{"a boolean", "number.format.significant", "!!bool true",
			[]string{"-      significant: !!bool false", "+      significant: true"}},
		{"a symbol", "date.order.1", "!!symbol :year",
			[]string{"-    - :month", "+    - :year"}},
		{"a translator's false is a string", "legal.notice", "false",
			[]string{"-    notice: Kein Zugriff", "+    notice: 'false'"}},
		{"an integer", "number.format.precision", "!!int 3",
			[]string{"-      precision: 2", "+      precision: 3"}},
		{"a value with a comment after it", "defaults.cancel", "Zurück",
			// user_form reads cancel through <<: *defaults and keeps its value: it is
			// written over the merge, in the style of user_form's own values.
			[]string{"-    cancel: 'Abbrechen'   # kurz halten", "+    cancel: 'Zurück'   # kurz halten", "+    cancel: Abbrechen"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			local, f := readMergeLocale(t)
			setYAMLValue(f, tt.key, tt.text, "")
			out := mergeYAMLTest(t, local, f, "de")
			checkDiff(t, local, out, tt.diff...)
		})
	}
}

// TestYAMLMergeAnchor: a value changed both at its anchor and where a merge reads it
// rewrites the anchor's scalar alone.
func TestYAMLMergeAnchor(t *testing.T) {
	t.Parallel()
	local, f := readMergeLocale(t)
	setYAMLValue(f, "defaults.save", "Sichern", "")
	setYAMLValue(f, "user_form.save", "Sichern", "")
	out := mergeYAMLTest(t, local, f, "de")
	checkDiff(t, local, out, "-    save: Speichern", "+    save: Sichern")
}

// TestYAMLMergeAddRemove: a new key goes after the key before it in theirs, a new parent is
// made, a removed key takes its comment lines, and a mapping left empty goes.
func TestYAMLMergeAddRemove(t *testing.T) {
	t.Parallel()
	local, f := readMergeLocale(t)
	setYAMLValue(f, "legal.imprint", "Impressum", "legal.terms")
	setYAMLValue(f, "errors.messages.blank", "darf nicht leer sein", "inbox.help")
	setYAMLValue(f, "errors.messages.taken", "ist schon vergeben", "errors.messages.blank")
	setYAMLValue(f, "date.formats.short", "%d. %b", "date.formats.default")
	dropKeys(f, "no", "inbox.messages", "number.format.delimiter", "number.format.precision",
		"number.format.significant", "number.format.unit", "number.format.nothing")
	out := mergeYAMLTest(t, local, f, "de")
	checkDiff(t, local, out,
		`+      short: "%d. %b"`,
		"-  number:",
		"-    format:",
		`-      delimiter: "."`,
		"-      precision: 2",
		"-      significant: !!bool false",
		"-      unit: ''",
		"-      nothing:",
		"-    # %{count} ist die Anzahl",
		"-    messages:",
		"-      one: Eine Nachricht",
		`-      other: "%{count} Nachrichten"`,
		"+  errors:",
		"+    messages:",
		"+      blank: darf nicht leer sein",
		"+      taken: ist schon vergeben",
		"-  'no': Nein",
		"+    imprint: Impressum",
	)
}

// TestYAMLMergePlural: a plural changes only its forms that changed; a language's new
// forms go after the form before them, and a form it no longer has goes.
func TestYAMLMergePlural(t *testing.T) {
	t.Parallel()
	local, f := readMergeLocale(t)
	setYAMLValue(f, "inbox.messages", "{count, plural, one {Eine Nachricht} other {%{count} neue Nachrichten}}", "")
	out := mergeYAMLTest(t, local, f, "de")
	checkDiff(t, local, out, `-      other: "%{count} Nachrichten"`, `+      other: "%{count} neue Nachrichten"`)

	ru := []byte("ru:\n  files:\n    zero: \"нет файлов\"\n    one: \"%{count} файл\"\n    other: \"%{count} файла\"\n  title: Файлы\n")
	theirs := &File{Languages: []string{"ru"}, Entries: []Entry{
		{Key: "files", Values: map[string]Value{"ru": {Text: "{count, plural, one {%{count} файл} few {%{count} файла} many {%{count} файлов} other {%{count} файла}}"}}},
		{Key: "title", Values: map[string]Value{"ru": {Text: "Файлы"}}},
	}}
	out = mergeYAMLTest(t, ru, theirs, "ru")
	checkDiff(t, ru, out, `-    zero: "нет файлов"`, `+    few: "%{count} файла"`, `+    many: "%{count} файлов"`)
}

// TestYAMLMergeRoot: a target file made from the source file gets the target's language
// as its root; the same language spelled otherwise keeps the file's spelling.
func TestYAMLMergeRoot(t *testing.T) {
	t.Parallel()
	en := []byte("en:\n  hello: Hello\n  bye: Bye # short\n")
	theirs := &File{Languages: []string{"de"}, Entries: []Entry{
		{Key: "hello", Values: map[string]Value{"de": {Text: "Hallo"}}},
		{Key: "bye", Values: map[string]Value{"de": {Text: "Tschüss"}}},
	}}
	out := mergeYAMLTest(t, en, theirs, "de")
	checkDiff(t, en, out, "-en:", "-  hello: Hello", "-  bye: Bye # short", "+de:", "+  hello: Hallo", "+  bye: Tschüss # short")

	pt := []byte("pt_BR:\n  hello: Olá\n")
	same := &File{Languages: []string{"pt-BR"}, Entries: []Entry{{Key: "hello", Values: map[string]Value{"pt-BR": {Text: "Olá"}}}}}
	if out := mergeYAMLTest(t, pt, same, "pt-BR"); out != string(pt) {
		t.Errorf("pt_BR renamed:\n%s", out)
	}
}

// TestYAMLMergeIndentation: what is added is indented as the file indents (four spaces,
// a sequence's dash under its key), and an alias that no longer reads right is replaced
// by the values.
func TestYAMLMergeIndentation(t *testing.T) {
	t.Parallel()
	local := []byte("en:\n    base: &base\n        ok: OK\n    dialog: *base\n    list:\n    - one\n    - two\n")
	theirs := &File{Languages: []string{"en"}, Entries: []Entry{
		{Key: "base.ok", Values: map[string]Value{"en": {Text: "Okay"}}},
		{Key: "dialog.ok", Values: map[string]Value{"en": {Text: "OK"}}},
		{Key: "dialog.title", Values: map[string]Value{"en": {Text: "Dialog"}}},
		{Key: "list.0", Values: map[string]Value{"en": {Text: "one"}}},
		{Key: "list.1", Values: map[string]Value{"en": {Text: "two"}}},
		{Key: "list.2", Values: map[string]Value{"en": {Text: "three"}}},
		{Key: "menu.file.open", Values: map[string]Value{"en": {Text: "Open"}}},
	}}
	out := mergeYAMLTest(t, local, theirs, "en")
	want := "en:\n    base: &base\n        ok: Okay\n" +
		"    dialog:\n        ok: OK\n        title: Dialog\n" +
		"    list:\n    - one\n    - two\n    - three\n" +
		"    menu:\n        file:\n            open: Open\n"
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// TestYAMLMergeHardCases: scalars whose ends only the bytes tell.
func TestYAMLMergeHardCases(t *testing.T) {
	t.Parallel()
	one := func(lang, key, text string) *File {
		return &File{Languages: []string{lang}, Entries: []Entry{{Key: key, Values: map[string]Value{lang: {Text: text}}}}}
	}
	tests := []struct {
		name, local, key, text, want string
	}{
		{"a # inside a plain value, a comment after it",
			"en:\n  tag: C# rocks # really\n", "tag", "F# rocks",
			"en:\n  tag: F# rocks # really\n"},
		{"a multi-line plain value",
			"en:\n  long: one\n    two\n  # next\n", "long", "three",
			"en:\n  long: three\n  # next\n"},
		{"a block scalar in a sequence item",
			"en:\n  steps:\n  - |\n    first\n    line\n  - second\n", "steps.0", "first only\n",
			"en:\n  steps:\n  - |\n    first only\n  - second\n"},
		{"a keep block with blank lines after it",
			"en:\n  a: |+\n    x\n\n  b: y\n", "a", "z\n\n",
			"en:\n  a: |+\n    z\n\n  b: y\n"},
		{"an anchored value keeps its anchor",
			"en:\n  a: &x 'old'\n", "a", "new",
			"en:\n  a: &x 'new'\n"},
		{"a double-quoted value over two lines",
			"en:\n  a: \"one\n    two\"\n  b: c\n", "a", "x",
			"en:\n  a: \"x\"\n  b: c\n"},
		{"a file without a newline at its end",
			"en:\n  a: b", "a", "c",
			"en:\n  a: c"},
		{"a document end marker",
			"---\nen:\n  a: b\n...\n", "a", "c",
			"---\nen:\n  a: c\n...\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := Decode("yaml", []byte(tt.local), Options{Language: "en"})
			if err != nil {
				t.Fatal(err)
			}
			theirs := one("en", tt.key, tt.text)
			for _, e := range f.Entries {
				if e.Key != tt.key {
					theirs.Entries = append(theirs.Entries, e)
				}
			}
			if out := mergeYAMLTest(t, []byte(tt.local), theirs, "en"); out != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, tt.want)
			}
		})
	}
}

// TestYAMLMergeNewKeys: a new key is written after the key before it in theirs, quoted as
// the file quotes keys, also at the end of a file without a final newline.
func TestYAMLMergeNewKeys(t *testing.T) {
	t.Parallel()
	local := []byte("en:\n  'on': An\n  last: x")
	theirs := &File{Languages: []string{"en"}, Entries: []Entry{
		{Key: "on", Values: map[string]Value{"en": {Text: "An"}}},
		{Key: "off", Values: map[string]Value{"en": {Text: "Aus"}}},
		{Key: "last", Values: map[string]Value{"en": {Text: "x"}}},
		{Key: "after", Values: map[string]Value{"en": {Text: "z"}}},
	}}
	out := mergeYAMLTest(t, local, theirs, "en")
	if want := "en:\n  'on': An\n  'off': Aus\n  last: x\n  after: z\n"; out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// TestYAMLMergeMergedKeyGone: a key read through a merge that theirs lacks cannot be taken
// out of the merge: the merging mapping is written again with theirs' keys, the rest of
// the file as it was.
func TestYAMLMergeMergedKeyGone(t *testing.T) {
	t.Parallel()
	local := []byte("# top\nen:\n  base: &b\n    ok: OK\n  form:\n    <<: *b\n    title: T\n  end: E\n")
	theirs := &File{Languages: []string{"en"}, Entries: []Entry{
		{Key: "base.ok", Values: map[string]Value{"en": {Text: "OK"}}},
		{Key: "form.title", Values: map[string]Value{"en": {Text: "T"}}},
		{Key: "end", Values: map[string]Value{"en": {Text: "E"}}},
	}}
	out := mergeYAMLTest(t, local, theirs, "en")
	checkDiff(t, local, out, "-    <<: *b")
}

// TestYAMLMergeWholeFile: a file the merge cannot edit in place (its keys in one flow
// mapping) is written whole, its top comment kept.
func TestYAMLMergeWholeFile(t *testing.T) {
	t.Parallel()
	local := []byte("# top\n\nen: {a: b, c: d}\n")
	theirs := &File{Languages: []string{"en"}, Entries: []Entry{
		{Key: "a", Values: map[string]Value{"en": {Text: "x"}}},
		{Key: "c", Values: map[string]Value{"en": {Text: "d"}}},
	}}
	out := mergeYAMLTest(t, local, theirs, "en")
	if !strings.HasPrefix(out, "# top\n") {
		t.Errorf("the file's comment went:\n%s", out)
	}
}
