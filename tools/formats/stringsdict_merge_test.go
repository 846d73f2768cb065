package formats

import (
	"strings"
	"testing"
)

var sdMergeOpts = Options{Language: "de"}

const sdMergePath = "stringsdict/merge.de.stringsdict"

func sdSet(f *File, key, text string) {
	for i := range f.Entries {
		if f.Entries[i].Key == key {
			f.Entries[i].Values["de"] = Value{Text: text}
			return
		}
	}
	panic("no entry " + key)
}

func sdValue(t *testing.T, f *File, key string) string {
	t.Helper()
	for _, e := range f.Entries {
		if e.Key == key {
			return e.Values["de"].Text
		}
	}
	t.Fatalf("no entry %s", key)
	return ""
}

// The golden file is in Encode's spelling, and reads as one ICU value per key.
func TestStringsdictMergeGolden(t *testing.T) {
	t.Parallel()
	f := goldenRoundTrip(t, "stringsdict", sdMergePath, sdMergeOpts, nil)
	for key, want := range map[string]string{
		"files_in_folders": "{files, plural, one {%d Datei} other {%d Dateien}} in {folders, plural, one {einem Ordner} other {%ld Ordnern}}",
		"progress":         "{percent, plural, one {%d %% & mehr} other {%d %%}} erledigt",
		"messages":         "{count, plural, =0 {Keine Nachrichten} one {Eine Nachricht} other {%lu Nachrichten}}",
		"nothing":          "Nichts ausgewählt",
	} {
		if got := sdValue(t, f, key); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
}

func TestStringsdictMergeUnchanged(t *testing.T) {
	t.Parallel()
	local, merged, _ := mergeFixture(t, "stringsdict", sdMergePath, sdMergeOpts, func(f *File) {})
	if string(merged) != string(local) {
		t.Errorf("nothing changed, yet:\n%s", merged)
	}
	// An export without Meta (a server that lost the value types) changes nothing either.
	_, merged, _ = mergeFixture(t, "stringsdict", sdMergePath, sdMergeOpts, func(f *File) {
		for i := range f.Entries {
			f.Entries[i].Meta = nil
		}
	})
	if string(merged) != string(local) {
		t.Errorf("nothing changed (export without Meta), yet:\n%s", merged)
	}
}

// One form of one of two variables changes: only its <string>; the format key, the other
// variable and the key with %% keep their bytes.
func TestStringsdictMergeOneValue(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "stringsdict", sdMergePath, sdMergeOpts, func(f *File) {
		sdSet(f, "files_in_folders", "{files, plural, one {%d Datei} other {%d Dateien}} in {folders, plural, one {einem Verzeichnis} other {%ld Ordnern}}")
		sdSet(f, "nothing", "Nichts gewählt <ok>")
	})
	wantDiff(t, local, merged,
		[]string{"\t\t\t<string>einem Ordner</string>", "\t\t<string>Nichts ausgewählt</string>"},
		[]string{"\t\t\t<string>einem Verzeichnis</string>", "\t\t<string>Nichts gewählt &lt;ok&gt;</string>"})
	wantValues(t, "stringsdict", merged, theirs, sdMergeOpts, "de")
}

// The text around the variables changes: only the format key's <string>.
func TestStringsdictMergeFormatKey(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "stringsdict", sdMergePath, sdMergeOpts, func(f *File) {
		sdSet(f, "progress", "Zu {percent, plural, one {%d %% & mehr} other {%d %%}} fertig")
	})
	wantDiff(t, local, merged,
		[]string{"\t\t<string>%1$#@percent@ erledigt</string>"},
		[]string{"\t\t<string>Zu %1$#@percent@ fertig</string>"})
	wantValues(t, "stringsdict", merged, theirs, sdMergeOpts, "de")
}

func TestStringsdictMergeAddRemove(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "stringsdict", sdMergePath, sdMergeOpts, func(f *File) {
		var es []Entry
		for _, e := range f.Entries {
			if e.Key == "messages" {
				continue
			}
			es = append(es, e)
			if e.Key == "files_in_folders" {
				es = append(es, Entry{Key: "photos", Comment: "Photos to share", Meta: map[string]string{"valueType.n": "d"},
					Values: map[string]Value{"de": {Text: "{n, plural, one {# Foto} other {# Fotos}} teilen"}}})
			}
		}
		f.Entries = es
	})
	// The blocks are alike, so a line diff could pair them either way: the whole file is
	// compared instead.
	gone := "\t<key>messages</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@count@</string>\n" +
		"\t\t<key>count</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n" +
		"\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>lu</string>\n\t\t\t<key>zero</key>\n\t\t\t<string>Keine Nachrichten</string>\n" +
		"\t\t\t<key>one</key>\n\t\t\t<string>Eine Nachricht</string>\n\t\t\t<key>other</key>\n\t\t\t<string>%lu Nachrichten</string>\n\t\t</dict>\n\t</dict>\n"
	added := "\t<!-- Photos to share -->\n\t<key>photos</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@n@ teilen</string>\n" +
		"\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n" +
		"\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d Foto</string>\n" +
		"\t\t\t<key>other</key>\n\t\t\t<string>%d Fotos</string>\n\t\t</dict>\n\t</dict>\n"
	want := string(local)
	if !strings.Contains(want, gone) {
		t.Fatal("the golden file lacks the block of messages")
	}
	want = strings.Replace(want, gone, "", 1)
	want = strings.Replace(want, "\t<key>progress</key>\n", added+"\t<key>progress</key>\n", 1)
	if string(merged) != want {
		t.Errorf("merged:\n%s\nwant:\n%s", merged, want)
	}
	wantValues(t, "stringsdict", merged, theirs, sdMergeOpts, "de")
}

// Plural forms come and go: a form the value loses goes, one it gains follows the one
// before it, a variable it gains follows the variable before it; the value type is kept.
func TestStringsdictMergePlurals(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "stringsdict", sdMergePath, sdMergeOpts, func(f *File) {
		sdSet(f, "messages", "{count, plural, one {Eine Nachricht} other {%lu Nachrichten}}")
		sdSet(f, "progress", "{percent, plural, =0 {Nichts} one {%d %% & mehr} other {%d %%}} erledigt")
		sdSet(f, "nothing", "Nichts in {n, plural, one {einem Ordner} other {# Ordnern}}")
	})
	wantDiff(t, local, merged, []string{
		"\t\t\t<key>zero</key>",
		"\t\t\t<string>Keine Nachrichten</string>",
		"\t\t<string>Nichts ausgewählt</string>",
	}, []string{
		"\t\t\t<key>zero</key>",
		"\t\t\t<string>Nichts</string>",
		"\t\t<string>Nichts in %#@n@</string>",
		"\t\t<key>n</key>",
		"\t\t<dict>",
		"\t\t\t<key>NSStringFormatSpecTypeKey</key>",
		"\t\t\t<string>NSStringPluralRuleType</string>",
		"\t\t\t<key>NSStringFormatValueTypeKey</key>",
		"\t\t\t<string>d</string>",
		"\t\t\t<key>one</key>",
		"\t\t\t<string>einem Ordner</string>",
		"\t\t\t<key>other</key>",
		"\t\t\t<string>%d Ordnern</string>",
		"\t\t</dict>",
	})
	wantValues(t, "stringsdict", merged, theirs, sdMergeOpts, "de")
}

// A file indented with spaces gets new lines indented with spaces.
func TestStringsdictMergeIndentation(t *testing.T) {
	t.Parallel()
	local := []byte("<plist version=\"1.0\">\n<dict>\n  <key>a</key>\n  <dict>\n    <key>NSStringLocalizedFormatKey</key>\n    <string>A</string>\n  </dict>\n</dict>\n</plist>\n")
	theirs := &File{Languages: []string{"de"}, Entries: []Entry{
		{Key: "a", Values: map[string]Value{"de": {Text: "A"}}},
		{Key: "b", Values: map[string]Value{"de": {Text: "B"}}},
	}}
	merged, err := mergeStringsdict(local, theirs, sdMergeOpts)
	if err != nil {
		t.Fatal(err)
	}
	wantDiff(t, local, merged, nil, []string{
		"  <key>b</key>", "  <dict>", "    <key>NSStringLocalizedFormatKey</key>", "    <string>B</string>", "  </dict>",
	})
}

// A variable the value loses goes with its dict; the other stays as written.
func TestStringsdictMergeVariableGone(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "stringsdict", sdMergePath, sdMergeOpts, func(f *File) {
		sdSet(f, "files_in_folders", "{files, plural, one {%d Datei} other {%d Dateien}} hochgeladen")
	})
	wantDiff(t, local, merged, []string{
		"\t\t<string>%#@files@ in %#@folders@</string>",
		"\t\t<key>folders</key>",
		"\t\t<dict>",
		"\t\t\t<key>NSStringFormatSpecTypeKey</key>",
		"\t\t\t<string>NSStringPluralRuleType</string>",
		"\t\t\t<key>NSStringFormatValueTypeKey</key>",
		"\t\t\t<string>ld</string>",
		"\t\t\t<key>one</key>",
		"\t\t\t<string>einem Ordner</string>",
		"\t\t\t<key>other</key>",
		"\t\t\t<string>%ld Ordnern</string>",
		"\t\t</dict>",
	}, []string{"\t\t<string>%#@files@ hochgeladen</string>"})
	wantValues(t, "stringsdict", merged, theirs, sdMergeOpts, "de")
}
