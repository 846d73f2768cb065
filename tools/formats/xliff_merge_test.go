package formats

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// mergeFixture decodes a golden file, lets edit change the decoded File (lokal's side),
// encodes it as the export and merges that into the file: the merged file, and the File
// the export was.
func mergeFixture(t *testing.T, format, path string, o Options, edit func(f *File)) (local, merged []byte, theirs *File) {
	t.Helper()
	local, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Decode(format, local, o)
	if err != nil {
		t.Fatal(err)
	}
	edit(f)
	exported, err := Encode(format, f, o)
	if err != nil {
		t.Fatal(err)
	}
	o.Prune = true // entries the export lacks go, as with pull --prune
	merged, err = MergeFile(format, local, exported, o)
	if err != nil {
		t.Fatalf("MergeFile: %v", err)
	}
	theirs, err = Decode(format, exported, o)
	if err != nil {
		t.Fatal(err)
	}
	return local, merged, theirs
}

func wantDiff(t *testing.T, local, merged []byte, gone, added []string) {
	t.Helper()
	g, a := mergeLineDiff(string(local), string(merged))
	if !reflect.DeepEqual(g, gone) || !reflect.DeepEqual(a, added) {
		t.Errorf("diff:\n gone %q\nadded %q\nwant gone %q\nadded %q\nmerged:\n%s", g, a, gone, added, merged)
	}
}

// wantValues checks that the merged file reads as theirs: the same keys in the same order
// with the same values of lang.
func wantValues(t *testing.T, format string, merged []byte, theirs *File, o Options, lang string) {
	t.Helper()
	back, err := Decode(format, merged, o)
	if err != nil {
		t.Fatalf("the merged file does not read: %v\n%s", err, merged)
	}
	got, want := map[string]Entry{}, map[string]Entry{}
	for _, e := range back.Entries {
		got[e.Key] = e
	}
	for _, e := range theirs.Entries {
		want[e.Key] = e
		if !SameValue(got[e.Key], e, lang) {
			t.Errorf("%s: merged %#v, theirs %#v", e.Key, got[e.Key].Values[lang], e.Values[lang])
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: in the merged file, not in theirs", k)
		}
	}
}

func xliffByKey(f *File, key, file string) *Entry {
	for i := range f.Entries {
		if e := &f.Entries[i]; e.Key == key && (file == "" || e.Meta["file"] == file) {
			return e
		}
	}
	return nil
}

var xcodeMergeOpts = Options{Language: "de", SourceLanguage: "en"}

func TestXLIFFMergeUnchanged(t *testing.T) {
	t.Parallel()
	local, merged, _ := mergeFixture(t, "xliff", "xliff/xcode-merge.de.xliff", xcodeMergeOpts, func(f *File) {})
	if string(merged) != string(local) {
		t.Errorf("nothing changed, yet:\n%s", merged)
	}
	// Without what the File says of itself (a server that keeps only the entries), the
	// units still go back into their files with their ids.
	_, merged, _ = mergeFixture(t, "xliff", "xliff/xcode-merge.de.xliff", xcodeMergeOpts, func(f *File) { f.Meta = nil })
	if string(merged) != string(local) {
		t.Errorf("nothing changed (export without File.Meta), yet:\n%s", merged)
	}
}

func TestXLIFFMergeOneValue(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "xliff", "xliff/xcode-merge.de.xliff", xcodeMergeOpts, func(f *File) {
		xliffByKey(f, "App/en.lproj/Localizable.strings/CFBundleName", "").Values["de"] = Value{Text: "Listen <neu>", State: StateTranslated}
		xliffByKey(f, "html", "").Values["de"] = Value{Text: "<i>Kursiv</i> & mehr", State: StateTranslated}
	})
	wantDiff(t, local, merged,
		[]string{"        <target>Listen (in der App)</target>", "        <target><![CDATA[<b>Fett</b> & mehr]]></target>"},
		[]string{"        <target>Listen &lt;neu&gt;</target>", "        <target><![CDATA[<i>Kursiv</i> & mehr]]></target>"})
	wantValues(t, "xliff", merged, theirs, xcodeMergeOpts, "de")
}

func TestXLIFFMergeAddRemove(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "xliff", "xliff/xcode-merge.de.xliff", xcodeMergeOpts, func(f *File) {
		var es []Entry
		for _, e := range f.Entries {
			if e.Key == "NSCameraUsageDescription" {
				continue
			}
			es = append(es, e)
			if e.Key == "html" {
				es = append(es, Entry{Key: "Share", Source: "Share", Values: map[string]Value{"de": {Text: "Teilen"}}, Meta: map[string]string{"file": "App/en.lproj/Localizable.strings"}})
			}
		}
		f.Entries = es
	})
	wantDiff(t, local, merged, []string{
		"      <!-- Shown by iOS when the app asks for the camera -->",
		`      <trans-unit id="NSCameraUsageDescription" xml:space="preserve">`,
		"        <source>Scan &amp; share</source>",
		"        <target>Scannen &amp; teilen</target>",
		"        <note>Privacy - Camera Usage Description</note>",
		"      </trans-unit>",
	}, []string{
		`      <trans-unit id="Share">`,
		"        <source>Share</source>",
		"        <target>Teilen</target>",
		"      </trans-unit>",
	})
	wantValues(t, "xliff", merged, theirs, xcodeMergeOpts, "de")
	back, _ := Decode("xliff", merged, xcodeMergeOpts)
	if e := xliffByKey(back, "Share", ""); e == nil || e.Meta["file"] != "App/en.lproj/Localizable.strings" {
		t.Errorf("the new unit is not in its file: %#v", e)
	}
}

func TestXLIFFMergePluralsAndStates(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "xliff", "xliff/xcode-merge.de.xliff", xcodeMergeOpts, func(f *File) {
		xliffByKey(f, "ITEMS", "").Values["de"] = Value{Text: "{items, plural, one {%d Element} other {%d Einträge}}", State: StateTranslated}
		xliffByKey(f, "Done", "").Values["de"] = Value{Text: "Fertig", State: StateTranslated}
		xliffByKey(f, "CFBundleName", "").Values["de"] = Value{Text: "Listen", State: StateNeedsReview}
	})
	wantDiff(t, local, merged, []string{
		`        <target state='translated'>Listen</target>`,
		`        <target state="needs-review-translation">Fertig</target>`,
		"        <target>%d Eintrag</target>",
	}, []string{
		`        <target state="needs-review-translation">Listen</target>`,
		`        <target state="translated">Fertig</target>`,
		"        <target>%d Element</target>",
	})
	wantValues(t, "xliff", merged, theirs, xcodeMergeOpts, "de")
}

// An Xcode document comes back with its three <file>s and its unit ids, also from an
// export of a server that keeps only each entry's Meta.
func TestXLIFFXcodeFilesFromEntryMeta(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/xliff/xcode-merge.de.xliff")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Decode("xliff", data, xcodeMergeOpts)
	if err != nil {
		t.Fatal(err)
	}
	f.Meta = nil
	out, err := Encode("xliff", f, xcodeMergeOpts)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := xmlParse(out)
	if err != nil {
		t.Fatal(err)
	}
	var files, ids []string
	for _, fl := range doc.root.elements() {
		o, _ := fl.attr("original")
		files = append(files, o)
		var units []xunit
		if err := doc.units(fl.child("body"), "", &units); err != nil {
			t.Fatal(err)
		}
		for _, u := range units {
			ids = append(ids, u.id)
		}
	}
	if want := []string{"App/en.lproj/InfoPlist.strings", "App/en.lproj/Localizable.strings", "App/en.lproj/Localizable.stringsdict"}; !reflect.DeepEqual(files, want) {
		t.Errorf("files %q, want %q", files, want)
	}
	if want := []string{"CFBundleName", "NSCameraUsageDescription", "CFBundleName", `Delete "%@"?`, "html", "Done",
		"/ITEMS:dict/NSStringLocalizedFormatKey:dict/:string", "/ITEMS:dict/items:dict/one:dict/:string", "/ITEMS:dict/items:dict/other:dict/:string"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("unit ids %q, want %q", ids, want)
	}
	if a := xliffByKey(f, "CFBundleName", ""); !strings.Contains(a.Meta["attrs"], `resname="CFBundleName"`) {
		t.Errorf("resname not kept: %q", a.Meta["attrs"])
	}
}

// A <file> without a <body>, or with an empty one, still gets the new units of theirs: a
// body is made for them (a self-closed one opened), indented as the file is.
func TestXLIFFMergeNoBody(t *testing.T) {
	t.Parallel()
	local := []byte(`<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="a.strings" source-language="en" target-language="de" datatype="plaintext">
    <header>
      <tool tool-id="com.apple.dt.xcode" tool-name="Xcode"/>
    </header>
  </file>
  <file original="b.strings" source-language="en" target-language="de" datatype="plaintext">
    <body/>
  </file>
  <file original="c.strings" source-language="en" target-language="de" datatype="plaintext"/>
</xliff>
`)
	unit := func(id, file string) Entry {
		return Entry{Key: id, Source: id, Values: map[string]Value{"de": {Text: id + " (de)"}}, Meta: map[string]string{"file": file}}
	}
	theirs := &File{SourceLanguage: "en", Languages: []string{"de"}, Entries: []Entry{
		unit("One", "a.strings"), unit("Two", "a.strings"), unit("Three", "b.strings"), unit("Four", "c.strings"),
	}}
	merged, err := mergeXLIFF(local, theirs, xcodeMergeOpts)
	if err != nil {
		t.Fatal(err)
	}
	want := `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="a.strings" source-language="en" target-language="de" datatype="plaintext">
    <header>
      <tool tool-id="com.apple.dt.xcode" tool-name="Xcode"/>
    </header>
    <body>
      <trans-unit id="One">
        <source>One</source>
        <target>One (de)</target>
      </trans-unit>
      <trans-unit id="Two">
        <source>Two</source>
        <target>Two (de)</target>
      </trans-unit>
    </body>
  </file>
  <file original="b.strings" source-language="en" target-language="de" datatype="plaintext">
    <body>
      <trans-unit id="Three">
        <source>Three</source>
        <target>Three (de)</target>
      </trans-unit>
    </body>
  </file>
  <file original="c.strings" source-language="en" target-language="de" datatype="plaintext">
    <body>
      <trans-unit id="Four">
        <source>Four</source>
        <target>Four (de)</target>
      </trans-unit>
    </body>
  </file>
</xliff>
`
	if string(merged) != want {
		t.Errorf("merged:\n%s\nwant:\n%s", merged, want)
	}
	wantValues(t, "xliff", merged, theirs, xcodeMergeOpts, "de")
}
