package formats

import (
	"strings"
	"testing"
)

var xliff2MergeOpts = Options{Language: "de", SourceLanguage: "en"}

const xliff2MergePath = "xliff2/merge.de.xlf"

func TestXLIFF2MergeUnchanged(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "xliff2", xliff2MergePath, xliff2MergeOpts, func(f *File) {})
	if string(merged) != string(local) {
		t.Errorf("nothing changed, yet:\n%s", merged)
	}
	if e := xliffByKey(theirs, "mail/open", "mail"); e == nil || e.Meta["id"] != "open" {
		t.Errorf("the second file's open: %#v", e)
	}
	// Without what the File says of itself, the units still go back into their files.
	_, merged, _ = mergeFixture(t, "xliff2", xliff2MergePath, xliff2MergeOpts, func(f *File) { f.Meta = nil })
	if string(merged) != string(local) {
		t.Errorf("nothing changed (export without File.Meta), yet:\n%s", merged)
	}
}

func TestXLIFF2MergeOneValue(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "xliff2", xliff2MergePath, xliff2MergeOpts, func(f *File) {
		xliffByKey(f, "inboxTitle", "").Values["de"] = Value{Text: "Eingang <neu> & mehr", State: StateTranslated}
		xliffByKey(f, "mail/open", "").Values["de"] = Value{Text: "Mail öffnen", State: StateTranslated}
		xliffByKey(f, "close", "").Values["de"] = Value{Text: "Schließen", State: StateTranslated}
	})
	wantDiff(t, local, merged, []string{
		"        <target>Posteingang</target>",
		"          <target/>",
		"        <target>E-Mail öffnen</target>",
	}, []string{
		"        <target>Eingang &lt;neu&gt; &amp; mehr</target>",
		"          <target>Schließen</target>",
		"        <target>Mail öffnen</target>",
	})
	wantValues(t, "xliff2", merged, theirs, xliff2MergeOpts, "de")
}

func TestXLIFF2MergeAddRemove(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "xliff2", xliff2MergePath, xliff2MergeOpts, func(f *File) {
		var es []Entry
		for _, e := range f.Entries {
			if e.Key == "unread" || e.Key == "send" {
				continue
			}
			if e.Key == "mail/open" {
				// New, first in the second file: after nothing of it, so first in it.
				es = append(es, Entry{Key: "reply", Source: "Reply", Values: map[string]Value{"de": {Text: "Antworten"}}, Meta: map[string]string{"file": "mail"}})
			}
			es = append(es, e)
			if e.Key == "open" {
				es = append(es, Entry{Key: "save", Source: "Save", Comment: "Saves the draft", Values: map[string]Value{"de": {Text: "Sichern", State: StateNeedsReview}}, Meta: map[string]string{"file": "app", "group": `<group id="menu">`}})
			}
		}
		f.Entries = es
	})
	wantDiff(t, local, merged, []string{
		"    <!-- Counted on the toolbar -->",
		`    <unit id="unread">`,
		`      <segment state="translated">`,
		"        <source>{count, plural, one {# unread} other {# unread}}</source>",
		"        <target>{count, plural, one {# ungelesen} other {# ungelesen}}</target>",
		"      </segment>",
		"    </unit>",
		`    <unit id="send">`,
		`      <segment state="translated">`,
		"        <source>Send</source>",
		"        <target>Senden</target>",
		"      </segment>",
		"    </unit>",
	}, []string{
		`      <unit id="save">`,
		"        <notes>",
		"          <note>Saves the draft</note>",
		"        </notes>",
		`        <segment state="initial">`,
		"          <source>Save</source>",
		"          <target>Sichern</target>",
		"        </segment>",
		"      </unit>",
		`    <unit id="reply">`,
		"      <segment>",
		"        <source>Reply</source>",
		"        <target>Antworten</target>",
		"      </segment>",
		"    </unit>",
	})
	wantValues(t, "xliff2", merged, theirs, xliff2MergeOpts, "de")
	back, _ := Decode("xliff2", merged, xliff2MergeOpts)
	if e := xliffByKey(back, "reply", ""); e == nil || e.Meta["file"] != "mail" {
		t.Errorf("reply is not in the mail file: %#v", e)
	}
	if e := xliffByKey(back, "save", ""); e == nil || e.Meta["group"] != `<group id="menu">` || e.Comment != "Saves the draft" {
		t.Errorf("save is not in the menu group with its note: %#v", e)
	}
}

// States live on <segment>: only its start tag changes when only the state does; a plural
// form changed rewrites the target's line.
func TestXLIFF2MergePluralsAndStates(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "xliff2", xliff2MergePath, xliff2MergeOpts, func(f *File) {
		xliffByKey(f, "unread", "").Values["de"] = Value{Text: "{count, plural, one {# neue} other {# ungelesen}}", State: StateTranslated}
		g := xliffByKey(f, "greeting", "")
		g.Values["de"] = Value{Text: g.Values["de"].Text, State: StateTranslated}
		xliffByKey(f, "inboxTitle", "").Values["de"] = Value{Text: "Posteingang", State: StateNeedsReview}
		xliffByKey(f, "send", "").Values["de"] = Value{Text: "Senden", State: StateStale}
	})
	wantDiff(t, local, merged, []string{
		`      <segment state="final">`,
		"        <target>{count, plural, one {# ungelesen} other {# ungelesen}}</target>",
		`      <segment state="initial">`,
		`      <segment state="translated">`,
	}, []string{
		`      <segment state="initial">`,
		"        <target>{count, plural, one {# neue} other {# ungelesen}}</target>",
		`      <segment state="translated">`,
		`      <segment state="initial" subState="lokal:stale">`,
	})
	wantValues(t, "xliff2", merged, theirs, xliff2MergeOpts, "de")
}

// A unit of several segments changed is written again whole, its notes and its split
// (while the texts fit it) kept.
func TestXLIFF2MergeSegments(t *testing.T) {
	t.Parallel()
	local := []byte(`<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de">
  <file id="f1">
    <unit id="two">
      <notes>
        <note>Two sentences</note>
      </notes>
      <segment state="translated">
        <source>One. </source>
        <target>Eins. </target>
      </segment>
      <segment state="translated">
        <source>Two.</source>
        <target>Zwei.</target>
      </segment>
    </unit>
  </file>
</xliff>
`)
	theirs := &File{SourceLanguage: "en", Languages: []string{"de"}, Entries: []Entry{
		{Key: "two", Source: "One. Two.", Values: map[string]Value{"de": {Text: "Eins! Zwei.", State: StateTranslated}}},
	}}
	merged, err := mergeXLIFF2(local, theirs, xliff2MergeOpts)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(string(local), "<target>Eins. </target>", "<target>Eins! </target>", 1)
	if string(merged) != want {
		t.Errorf("merged:\n%s\nwant:\n%s", merged, want)
	}
}

// A self-closed <file/> is opened for the units theirs puts in it.
func TestXLIFF2MergeEmptyFile(t *testing.T) {
	t.Parallel()
	local := []byte("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\" srcLang=\"en\" trgLang=\"de\">\n  <file id=\"f1\"/>\n</xliff>\n")
	theirs := &File{SourceLanguage: "en", Languages: []string{"de"}, Entries: []Entry{
		{Key: "a", Source: "A", Values: map[string]Value{"de": {Text: "Ä", State: StateTranslated}}},
	}}
	merged, err := mergeXLIFF2(local, theirs, xliff2MergeOpts)
	if err != nil {
		t.Fatal(err)
	}
	want := "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\" srcLang=\"en\" trgLang=\"de\">\n  <file id=\"f1\">\n" +
		"    <unit id=\"a\">\n      <segment state=\"translated\">\n        <source>A</source>\n        <target>Ä</target>\n      </segment>\n    </unit>\n  </file>\n</xliff>\n"
	if string(merged) != want {
		t.Errorf("merged:\n%s\nwant:\n%s", merged, want)
	}
}
