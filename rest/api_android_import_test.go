package rest_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
)

// androidSource is a strings.xml with what Android files carry beside plain text: a key
// not to translate, resource references, an escaped @, CDATA HTML and an array with
// empty items.
const androidSource = `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="app_name" translatable="false">Lokal</string>
    <string name="title">@string/app_name</string>
    <string name="attr">?android:attr/textColorPrimary</string>
    <string name="at">\@home is text</string>
    <string name="greeting">Hello</string>
    <string name="help"><![CDATA[<b>Bold</b> help]]></string>
    <string name="link"><![CDATA[<a href=x>Site</a><br/>Next]]></string>
    <string-array name="days">
        <item>Mon</item>
        <item/>
        <item>Wed</item>
        <item></item>
    </string-array>
</resources>
`

// TestAPIImportAndroid: an Android file imported into the source language and exported
// again keeps its references unescaped, its CDATA HTML as CDATA (with no warning: the
// spelling is kept), its array whole with empty items in place, as written, and
// translatable="false"; a key not to translate has its target rows flagged with the
// source text, so it is not missing and the AI never gets it, and a translation file
// leaves it out.
func TestAPIImportAndroid(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		s, llm := aiServer(t, dialect, nbEcho, nil)
		out := s.importFile(t, "en", "app", "format=android", androidSource)
		if len(out.Warnings) != 0 {
			t.Errorf("warnings %+v, want none", out.Warnings)
		}
		r := s.call(t, "GET", s.readPath("en", "app")+"?format=android", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
		want := `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="app_name" translatable="false">Lokal</string>
    <string name="at">\@home is text</string>
    <string name="attr">?android:attr/textColorPrimary</string>
    <string-array name="days">
        <item>Mon</item>
        <item/>
        <item>Wed</item>
        <item></item>
    </string-array>
    <string name="greeting">Hello</string>
    <string name="help"><![CDATA[<b>Bold</b> help]]></string>
    <string name="link"><![CDATA[<a href=x>Site</a><br/>Next]]></string>
    <string name="title">@string/app_name</string>
</resources>
`
		if got := string(r.body); got != want {
			t.Errorf("source export:\n%s\nwant\n%s", got, want)
		}

		// translatable="false": every target row holds the source text, flagged.
		row, ok := s.translation(t, "app", "app_name", "nb")
		if !ok || row.Value != "Lokal" || !row.DoNotTranslate {
			t.Errorf("nb row of app_name %+v (present %v), want Lokal flagged do_not_translate", row, ok)
		}
		if src, _ := s.translation(t, "app", "app_name", "en"); !src.DoNotTranslate {
			t.Errorf("the source row of app_name is not flagged: %+v", src)
		}
		st := s.familyStatus(t, "nb")
		if st.Translated != 1 {
			t.Errorf("nb stats %+v, want app_name alone translated (not missing)", st)
		}

		// Endpoint 6 asked for it by name still leaves it to its source text.
		rr := s.call(t, "POST", s.retranslatePath("nb", "app"), tokenAuth(s.rw), []string{"app_name", "greeting"}).wantStatus(t, http.StatusOK)
		var ro retranslateOut
		if err := json.Unmarshal(rr.body, &ro); err != nil {
			t.Fatal(err)
		}
		if _, sent := ro.Retranslated["app_name"]; sent || !slices.Contains(ro.SkippedLocked, "app_name") || ro.Retranslated["greeting"] != "NB Hello" {
			t.Errorf("retranslate %+v, want app_name skipped and greeting translated", ro)
		}
		for _, c := range llm.Calls() {
			for _, str := range c.Strings {
				if strings.Contains(str, "Lokal") {
					t.Errorf("the model was sent app_name: %+v", c)
				}
			}
		}
		nb := s.call(t, "GET", s.readPath("nb", "app")+"?format=android", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
		// The copy of the source text is not written to the translation file: Android lint
		// ("Untranslatable") refuses a translatable="false" string in values-nb, and the
		// app reads it from values/.
		if strings.Contains(string(nb.body), `app_name`) || !strings.Contains(string(nb.body), `name="greeting"`) {
			t.Errorf("nb export, want greeting and no app_name:\n%s", nb.body)
		}
	})
}
