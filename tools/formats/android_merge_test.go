package formats

import (
	"strings"
	"testing"
)

var androidMergeOpts = Options{Language: "de", SourceLanguage: "en"}

func androidSet(f *File, key, text string) {
	for i := range f.Entries {
		if f.Entries[i].Key == key {
			f.Entries[i].Values["de"] = Value{Text: text}
			return
		}
	}
	panic("no entry " + key)
}

func TestAndroidGoldenMergeFile(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "android", "android/merge-values-de.xml", androidMergeOpts, func(f *File) {})
	if string(merged) != string(local) {
		t.Errorf("nothing changed, yet:\n%s", merged)
	}
	var keys []string
	for _, e := range theirs.Entries {
		keys = append(keys, e.Key)
	}
	if got := strings.Join(keys, " "); got != "app_name title_settings alias_title html_help styled quoted ignored days.0 days.1 days.2 items_count last" {
		t.Errorf("keys: %s (the array with an empty item is one array)", got)
	}
	if e := theirs.Entries[0]; !e.DoNotTranslate {
		t.Errorf("translatable=false: %#v", e)
	}
	if e := theirs.Entries[6]; e.Meta["@tools:ignore"] != "UnusedResources" || e.Meta["@formatted"] != "false" {
		t.Errorf("tools:ignore and formatted: %#v", e.Meta)
	}
}

func TestAndroidMergeOneValue(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "android", "android/merge-values-de.xml", androidMergeOpts, func(f *File) {
		androidSet(f, "title_settings", "Optionen & mehr")
		androidSet(f, "html_help", `Siehe <a href="https://example.com/faq">FAQ</a>.<br/>`)
		androidSet(f, "days.2", "Mittwoch!")
	})
	wantDiff(t, local, merged, []string{
		`    <string name="title_settings">Einstellungen</string>`,
		`    <string name="html_help"><![CDATA[Lies die <a href="https://example.com/help">Hilfe</a>.<br/>Danke!]]></string>`,
		`        <item>Mittwoch</item>`,
	}, []string{
		`    <string name="title_settings">Optionen &amp; mehr</string>`,
		// aapt2 reads escapes in CDATA too: a quote is written \" so that it stays.
		`    <string name="html_help"><![CDATA[Siehe <a href=\"https://example.com/faq\">FAQ</a>.<br/>]]></string>`,
		`        <item>Mittwoch!</item>`,
	})
	wantValues(t, "android", merged, theirs, androidMergeOpts, "de")
}

func TestAndroidMergeAddRemove(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "android", "android/merge-values-de.xml", androidMergeOpts, func(f *File) {
		var es []Entry
		for _, e := range f.Entries {
			if e.Key == "app_name" {
				continue
			}
			es = append(es, e)
			if e.Key == "styled" {
				es = append(es, Entry{Key: "new_one", Values: map[string]Value{"de": {Text: "Neu"}}, Comment: "Added"})
			}
		}
		f.Entries = es
	})
	wantDiff(t, local, merged, []string{
		"    <!-- App name: never translated -->",
		`    <string name="app_name" translatable="false">Lists</string>`,
	}, []string{
		"    <!-- Added -->",
		`    <string name="new_one">Neu</string>`,
	})
	wantValues(t, "android", merged, theirs, androidMergeOpts, "de")
}

func TestAndroidMergePlurals(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "android", "android/merge-values-de.xml", androidMergeOpts, func(f *File) {
		androidSet(f, "items_count", "{count, plural, one {%d Element} other {%d Einträge}}")
	})
	wantDiff(t, local, merged, []string{`        <item quantity="one">%d Eintrag</item>`}, []string{`        <item quantity="one">%d Element</item>`})
	wantValues(t, "android", merged, theirs, androidMergeOpts, "de")
}

func TestAndroidMergeArrayItems(t *testing.T) {
	t.Parallel()
	local, merged, theirs := mergeFixture(t, "android", "android/merge-values-de.xml", androidMergeOpts, func(f *File) {
		var es []Entry
		for _, e := range f.Entries {
			es = append(es, e)
			if e.Key == "days.2" {
				es = append(es, Entry{Key: "days.3", Values: map[string]Value{"de": {Text: "Donnerstag"}}})
			}
		}
		f.Entries = es
	})
	// The array is written again; its items come back as they were, the empty one too.
	wantDiff(t, local, merged, nil, []string{"        <item>Donnerstag</item>"})
	wantValues(t, "android", merged, theirs, androidMergeOpts, "de")
}
