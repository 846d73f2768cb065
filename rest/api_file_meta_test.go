package rest_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// poSource is a gettext template keyed by msgid, one entry with a msgctxt, with flags and
// references.
const poSource = `msgid ""
msgstr ""
"Project-Id-Version: shop 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"

#: app/views.py:12
#, python-format
msgid "Hello, %(name)s!"
msgstr ""

#: app/views.py:20
msgid "Save"
msgstr ""

#: app/menu.py:3
msgctxt "menu"
msgid "Open"
msgstr ""
`

// poNB is the Norwegian file of poSource as gettext writes it: a header with
// Language-Team, a translator comment, flags, references, a msgctxt and obsolete entries,
// entries in the order lokal exports them (by key), so that the export can be compared
// byte for byte.
const poNB = `msgid ""
msgstr ""
"Project-Id-Version: shop 1.0\n"
"Language-Team: Norwegian Bokmal <i18n-nb@lister.ping.uio.no>\n"
"Language: nb\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

# Uformell tone.
#: app/views.py:12
#, python-format
msgid "Hello, %(name)s!"
msgstr "Hei, %(name)s!"

#: app/views.py:20
msgid "Save"
msgstr "Lagre"

#: app/menu.py:3
msgctxt "menu"
msgid "Open"
msgstr "Åpne"

#~ msgid "Quit"
#~ msgstr "Avslutt"
`

// TestAPIFileMetaPO: what a PO file says beyond its values (flags, references, translator
// comments, msgctxt, the header, obsolete entries) is kept at import and written back by
// the export, byte for byte for a file in lokal's spelling, with no warning that anything
// was lost; a language whose file was never imported gets the source file's flags and
// references.
func TestAPIFileMetaPO(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		if out := s.importFile(t, "en", "shop", "format=po", poSource); len(out.Created) != 3 || len(out.Warnings) != 0 {
			t.Fatalf("source import: %+v", out)
		}
		out := s.importFile(t, "nb", "shop", "format=po", poNB)
		if len(out.Updated) != 3 || len(out.Warnings) != 0 {
			t.Errorf("nb import: updated %v, warnings %+v; want 3 and none", out.Updated, out.Warnings)
		}
		nb := s.call(t, "GET", s.readPath("nb", "shop")+"?format=po", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
		if got := string(nb.body); got != poNB {
			t.Errorf("nb export:\n%s\nwant the file imported:\n%s", got, poNB)
		}
		// Pushing the export back changes nothing, so the file's ETag stays.
		if out := s.importFile(t, "nb", "shop", "format=po", string(nb.body)); len(out.Updated) != 0 || len(out.Warnings) != 0 {
			t.Errorf("pushing the export back: %+v", out)
		}
		again := s.call(t, "GET", s.readPath("nb", "shop")+"?format=po", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
		if again.header.Get("ETag") != nb.header.Get("ETag") {
			t.Errorf("ETag moved from %s to %s though nothing changed", nb.header.Get("ETag"), again.header.Get("ETag"))
		}

		// sv was never imported: its file takes the source file's entry metadata, and no
		// header of another language.
		sv := string(s.call(t, "GET", s.readPath("sv", "shop")+"?format=po", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK).body)
		for _, want := range []string{"#: app/views.py:12\n#, python-format\nmsgid \"Hello, %(name)s!\"", "msgctxt \"menu\"\nmsgid \"Open\"", "#: app/views.py:20\n"} {
			if !strings.Contains(sv, want) {
				t.Errorf("sv export lacks %q:\n%s", want, sv)
			}
		}
		for _, not := range []string{"Language-Team", "Uformell", "#~", "Project-Id-Version"} {
			if strings.Contains(sv, not) {
				t.Errorf("sv export has %q of another language's file:\n%s", not, sv)
			}
		}
		// The source language's export is the template as imported, header included.
		en := string(s.call(t, "GET", s.readPath("en", "shop")+"?format=po", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK).body)
		if !strings.Contains(en, `"Project-Id-Version: shop 1.0\n"`) || !strings.Contains(en, "#, python-format\n") {
			t.Errorf("en export:\n%s", en)
		}
	})
}

// TestAPIFileMetaChangesETag: an import that changes only what the file says beyond its
// values (a reference, the header) changes the exported file and its ETag: the cached
// file is not served.
func TestAPIFileMetaChangesETag(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		s.importFile(t, "en", "shop", "format=po", poSource)
		s.importFile(t, "nb", "shop", "format=po", poNB)
		first := s.call(t, "GET", s.readPath("nb", "shop")+"?format=po", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
		moved := strings.Replace(poNB, "app/views.py:20", "app/views.py:21", 1)
		moved = strings.Replace(moved, "Project-Id-Version: shop 1.0", "Project-Id-Version: shop 1.1", 1)
		if out := s.importFile(t, "nb", "shop", "format=po", moved); len(out.Updated) != 0 {
			t.Errorf("updated %v, want no value changed", out.Updated)
		}
		r := s.do(t, request{Method: "GET", Path: s.readPath("nb", "shop") + "?format=po", Auth: tokenAuth(s.ro),
			Header: map[string]string{"If-None-Match": first.header.Get("ETag")}}).wantStatus(t, http.StatusOK)
		if string(r.body) != moved {
			t.Errorf("export after the change:\n%s\nwant\n%s", r.body, moved)
		}
		if r.header.Get("ETag") == first.header.Get("ETag") {
			t.Errorf("the ETag did not change: %s", r.header.Get("ETag"))
		}
	})
}

// arbSource is an ARB file with @@ members and placeholders with types and formats.
const arbSource = `{
  "@@locale": "en",
  "@@last_modified": "2026-12-01T10:00:00Z",
  "greeting": "Hello {name}",
  "@greeting": {
    "description": "Greets the user",
    "placeholders": {
      "name": {
        "type": "String",
        "example": "Ada"
      }
    }
  },
  "items": "{count, plural, one {1 item} other {{count} items}}",
  "@items": {
    "placeholders": {
      "count": {
        "type": "int",
        "format": "compact"
      }
    }
  }
}
`

// TestAPIFileMetaARB: an ARB file's @@locale and @@ members and its placeholders' types
// and formats come back in the export, and in MCP's get_translations.
func TestAPIFileMetaARB(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		if out := s.importFile(t, "en", "app", "format=arb", arbSource); len(out.Created) != 2 || len(out.Warnings) != 0 {
			t.Fatalf("import: %+v", out)
		}
		got := s.call(t, "GET", s.readPath("en", "app")+"?format=arb", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK).body
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("export is no JSON: %v\n%s", err, got)
		}
		if err := json.Unmarshal([]byte(arbSource), &w); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("export:\n%s\nwant the meaning of\n%s", got, arbSource)
		}
		// MCP's get_translations of the one namespace writes the same file.
		type file struct {
			Content string `json:"content"`
		}
		m := s.mcpProject(t, tokenAuth(s.rw))
		if c := mcpOK[file](t, m, "get_translations", map[string]any{"language": "en", "namespace_key": "app", "format": "arb"}).Content; c != string(got) {
			t.Errorf("get_translations:\n%s\nwant the export\n%s", c, got)
		}
	})
}

// androidTools is a strings.xml with tools: attributes on <resources> and on an element,
// a comment before <resources> and CDATA HTML; attributes sorted by name, as lokal's
// encoder writes them.
const androidTools = `<?xml version="1.0" encoding="utf-8"?>
<!-- Strings of the app. -->
<resources tools:ignore="MissingTranslation" xmlns:tools="http://schemas.android.com/tools">
    <string name="app_name" translatable="false">Lokal</string>
    <string name="greeting" tools:ignore="UnusedResources">Hello</string>
    <string name="help"><![CDATA[<b>Bold</b> help]]></string>
</resources>
`

// TestAPIFileMetaAndroid: an Android file's tools: attributes, its header comment and its
// CDATA come back byte for byte, and the import warns of nothing, since nothing is lost.
func TestAPIFileMetaAndroid(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		if out := s.importFile(t, "en", "app", "format=android", androidTools); len(out.Created) != 3 || len(out.Warnings) != 0 {
			t.Fatalf("import: %+v", out)
		}
		got := s.call(t, "GET", s.readPath("en", "app")+"?format=android", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK).body
		if string(got) != androidTools {
			t.Errorf("export:\n%s\nwant\n%s", got, androidTools)
		}
	})
}

// TestAPIFileMetaCaps: an entry whose metadata is over the 64 KiB cap, or a file whose own
// is over 4 MiB, is imported with a warning naming it; what was kept before stays, so the
// export (and its ETag) does not change, and the values are imported all the same.
func TestAPIFileMetaCaps(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		s.importFile(t, "en", "shop", "format=po", poSource)
		s.importFile(t, "nb", "shop", "format=po", poNB)
		before := s.call(t, "GET", s.readPath("nb", "shop")+"?format=po", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)

		refs := strings.Repeat("#: app/views.py:20\n", 100<<10/19) // over 64 KiB
		big := strings.Replace(poNB, "#: app/views.py:20\n", refs, 1)
		out := s.importFile(t, "nb", "shop", "format=po", big)
		if len(out.Warnings) != 1 || out.Warnings[0].Key != "Save" || !strings.Contains(out.Warnings[0].Message, "64 KiB") {
			t.Errorf("warnings %+v, want one naming Save and the cap", out.Warnings)
		}
		after := s.call(t, "GET", s.readPath("nb", "shop")+"?format=po", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
		if string(after.body) != string(before.body) || after.header.Get("ETag") != before.header.Get("ETag") {
			t.Errorf("the export changed:\n%s", truncated(after.body))
		}

		obsolete := strings.Repeat("#~ msgid \"Quit\"\n#~ msgstr \"Avslutt\"\n\n", 4200<<10/36) // over 4 MiB
		huge := strings.Replace(poNB, "#~ msgid \"Quit\"", obsolete+"#~ msgid \"Quit\"", 1)
		huge = strings.Replace(huge, `msgstr "Lagre"`, `msgstr "Lagre nå"`, 1)
		out = s.importFile(t, "nb", "shop", "format=po", huge)
		if len(out.Warnings) != 1 || out.Warnings[0].Key != "" || !strings.Contains(out.Warnings[0].Message, "4096 KiB") {
			t.Errorf("warnings %+v, want one for the file and the cap", out.Warnings)
		}
		if len(out.Updated) != 1 || out.Updated[0] != "Save" {
			t.Errorf("updated %v, want Save's value imported all the same", out.Updated)
		}
		after = s.call(t, "GET", s.readPath("nb", "shop")+"?format=po", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
		if want := strings.Replace(poNB, `msgstr "Lagre"`, `msgstr "Lagre nå"`, 1); string(after.body) != want {
			t.Errorf("export:\n%s\nwant the old header and obsolete entries with the new value:\n%s", truncated(after.body), want)
		}
	})
}

// xcstringsAll is a String Catalog of two languages with metadata lokal has no field for:
// extractionState and comments aside, the file's version.
const xcstringsAll = `{
  "sourceLanguage" : "en",
  "strings" : {
    "greeting" : {
      "extractionState" : "manual",
      "localizations" : {
        "en" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Hello"
          }
        },
        "nb" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Hei"
          }
        }
      }
    }
  },
  "version" : "1.0"
}`

// TestAPIFileMetaAllLanguages: a file of every language (xcstrings, language all) keeps
// its metadata under all, and the export of all, and of one language, write it back.
func TestAPIFileMetaAllLanguages(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		if out := s.importFile(t, "all", "app", "format=xcstrings", xcstringsAll); len(out.Created) != 1 || len(out.Warnings) != 0 {
			t.Fatalf("import: %+v", out)
		}
		for _, lang := range []string{"all", "nb"} {
			got := string(s.call(t, "GET", s.readPath(lang, "app")+"?format=xcstrings", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK).body)
			if !strings.Contains(got, `"extractionState" : "manual"`) || !strings.Contains(got, `"version" : "1.0"`) {
				t.Errorf("%s export lacks the file's metadata:\n%s", lang, got)
			}
		}
	})
}
