package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/model"
)

// importOut is the import endpoint's 200 body.
type importOut struct {
	Format   string `json:"format"`
	Language string `json:"language"`
	Summary  struct {
		TotalIncoming int `json:"total_incoming"`
		Created       int `json:"created"`
		Updated       int `json:"updated"`
		Unchanged     int `json:"unchanged"`
		NotFound      int `json:"not_found"`
		Plurals       int `json:"plurals"`
	} `json:"summary"`
	Created  []string `json:"created"`
	Updated  []string `json:"updated"`
	NotFound []string `json:"not_found"`
	Warnings []struct {
		Key     string `json:"key"`
		Message string `json:"message"`
	} `json:"warnings"`
	HeldBack []importHeld `json:"held_back"`
	Refused  []importHeld `json:"refused"`
}

// importHeld is a value an import held back from readers, or (dry run) would refuse.
type importHeld struct {
	Key        string `json:"key"`
	Language   string `json:"language"`
	Reason     string `json:"reason"`
	ReadersGet string `json:"readers_get"`
}

func (s *server) importPath(lang, ns, query string) string {
	return "/api/import/" + s.proj.ID + "/latest/" + lang + "/" + ns + "?" + query
}

// importFile imports body and checks that the answer is a 200 import report.
func (s *server) importFile(t *testing.T, lang, ns, query string, body any) importOut {
	t.Helper()
	r := s.call(t, "PUT", s.importPath(lang, ns, query), tokenAuth(s.rw), body).wantStatus(t, http.StatusOK)
	var out importOut
	r.decode(t, &out)
	var raw map[string]json.RawMessage
	r.decode(t, &raw)
	for _, k := range []string{"format", "language", "summary", "created", "updated", "not_found", "warnings", "held_back", "refused"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("the import answer lacks %s: %s", k, r.body)
		}
	}
	if len(raw) != 9 {
		t.Errorf("the import answer has %d fields, want the contract's 9: %s", len(raw), r.body)
	}
	return out
}

// TestAPIImport covers the import endpoint: keys made in the source language, values of a
// target language as an overwrite sets them (locks kept, unknown keys not found, status),
// the dry run, and the refusals, with nothing stored by a refused file.
func TestAPIImport(t *testing.T) {
	t.Parallel()
	oneAtATime(t)
	forEachDialect(t, func(t *testing.T, s *server) {
		t.Run("a source-language file makes the namespace and its keys", func(t *testing.T) {
			out := s.importFile(t, "en", "files", "format=json", `{"a":"A","b":"B","c":"{count, plural, one {# file} other {# files}}"}`)
			if out.Format != "json" || out.Language != "en" {
				t.Errorf("format %q language %q", out.Format, out.Language)
			}
			wantKeys(t, "created", out.Created, []string{"a", "b", "c"})
			if out.Summary.TotalIncoming != 3 || out.Summary.Created != 3 || out.Summary.Plurals != 1 || len(out.Updated) != 0 {
				t.Errorf("summary %+v", out.Summary)
			}
			s.wantFlat(t, "en", "files", map[string]string{"a": "A", "b": "B", "c": "{count, plural, one {# file} other {# files}}"})
		})
		t.Run("source texts stay unless preserve_source_values is false, and nothing is hidden", func(t *testing.T) {
			out := s.importFile(t, "en", "files", "format=json", `{"a":"A2"}`)
			if out.Summary.Unchanged != 1 || len(out.Updated) != 0 {
				t.Errorf("summary %+v", out.Summary)
			}
			out = s.importFile(t, "en", "files", "format=json&preserve_source_values=false", `{"a":"A2"}`)
			wantKeys(t, "updated", out.Updated, []string{"a"})
			s.wantFlat(t, "en", "files", map[string]string{"a": "A2", "b": "B", "c": "{count, plural, one {# file} other {# files}}"})
		})
		t.Run("a target-language file sets existing keys and reports unknown ones", func(t *testing.T) {
			out := s.importFile(t, "nb", "files", "format=json", `{"a":"A-nb","b":"","zzz":"Z"}`)
			wantKeys(t, "updated", out.Updated, []string{"a"})
			wantKeys(t, "not_found", out.NotFound, []string{"zzz"})
			if out.Summary.TotalIncoming != 2 || out.Summary.NotFound != 1 || out.Summary.Updated != 1 {
				t.Errorf("summary %+v (an empty value is not a translation)", out.Summary)
			}
			if s.keyExists(t, "files", "zzz") {
				t.Errorf("a target-language import made key zzz")
			}
			if v, _ := s.translation(t, "files", "a", "nb"); v.Status != model.StatusApproved {
				t.Errorf("nb a has status %q, want approved by default", v.Status)
			}
			s.importFile(t, "nb", "files", "format=json&status=needs_review", `{"b":"B-nb"}`)
			if v, _ := s.translation(t, "files", "b", "nb"); v.Status != model.StatusNeedsReview || v.Value != "B-nb" {
				t.Errorf("nb b is %+v, want B-nb needing review", v)
			}
		})
		t.Run("a plural lacking a form the language needs is a warning, not made-up text", func(t *testing.T) {
			out := s.importFile(t, "nb", "files", "format=json", `{"c":"{count, plural, other {# filer}}"}`)
			if len(out.Warnings) != 1 || out.Warnings[0].Key != "c" || !strings.Contains(out.Warnings[0].Message, "one") {
				t.Errorf("warnings %+v, want one naming c's missing one form", out.Warnings)
			}
			if v, _ := s.translation(t, "files", "c", "nb"); v.Value != "{count, plural, other {# filer}}" {
				t.Errorf("nb c is %q", v.Value)
			}
		})
		t.Run("a locked row keeps its value", func(t *testing.T) {
			s.lock(t, "files", "a", "nb")
			out := s.importFile(t, "nb", "files", "format=json", `{"a":"A-nb-new"}`)
			if len(out.Updated) != 0 || out.Summary.Unchanged != 1 {
				t.Errorf("a locked row was reported %+v", out)
			}
			if v, _ := s.translation(t, "files", "a", "nb"); v.Value != "A-nb" {
				t.Errorf("the locked row became %q", v.Value)
			}
		})
		t.Run("the namespace's cached file shows the import", func(t *testing.T) {
			before := s.flat(t, "en", "files") // cached now
			s.importFile(t, "en", "files", "format=json", `{"d":"D"}`)
			after := s.flat(t, "en", "files")
			if _, ok := before["d"]; ok || after["d"] != "D" {
				t.Errorf("before %v, after %v", before, after)
			}
		})
		t.Run("a dry run answers what would change and stores nothing", func(t *testing.T) {
			before := s.flat(t, "en", "files")
			out := s.importFile(t, "en", "files", "format=json&dry_run=true&preserve_source_values=false", `{"a":"A3","new":"N"}`)
			wantKeys(t, "created", out.Created, []string{"new"})
			wantKeys(t, "updated", out.Updated, []string{"a"})
			s.wantFlat(t, "en", "files", before)
			if s.keyExists(t, "files", "new") {
				t.Errorf("a dry run made key new")
			}
			out = s.importFile(t, "en", "dryspace", "format=json&dry_run=true", `{"x":"X"}`)
			wantKeys(t, "created", out.Created, []string{"x"})
			s.wantFlat(t, "en", "dryspace", nil)
		})
		t.Run("every language of a multi-language file with language all", func(t *testing.T) {
			out := s.importFile(t, "all", "table", "format=csv", "key,en,nb,de\nk1,One,En,Eins\nk2,Two,,Zwei\n")
			wantKeys(t, "created", out.Created, []string{"k1", "k2"})
			if len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0].Message, "de") {
				t.Errorf("warnings %+v, want one about de, which is not on", out.Warnings)
			}
			s.wantFlat(t, "en", "table", map[string]string{"k1": "One", "k2": "Two"})
			s.wantFlat(t, "nb", "table", map[string]string{"k1": "En"})
		})
		for _, tc := range []struct {
			name, path, auth string
			body             any
			status           int
			code             string
		}{
			{"a file that does not parse names the line", s.importPath("en", "files", "format=json"), tokenAuth(s.rw), "{\n\"bad\": \"X\",\n\"b\": }", 422, "invalid_file"},
			{"a body over 5 MB", s.importPath("en", "files", "format=json"), tokenAuth(s.rw), `{"big":"` + strings.Repeat("x", 5<<20) + `"}`, 413, "too_large"},
			{"an unknown format", s.importPath("en", "files", "format=docx"), tokenAuth(s.rw), `{"bad":"X"}`, 400, "invalid"},
			{"no format", s.importPath("en", "files", ""), tokenAuth(s.rw), `{"bad":"X"}`, 400, "invalid"},
			{"dry_run not a boolean", s.importPath("en", "files", "format=json&dry_run=maybe"), tokenAuth(s.rw), `{"bad":"X"}`, 400, "invalid"},
			{"language all for a one-language format", s.importPath("all", "files", "format=json"), tokenAuth(s.rw), `{"bad":"X"}`, 400, "invalid"},
			{"a read-only key", s.importPath("en", "files", "format=json"), tokenAuth(s.ro), `{"bad":"X"}`, 403, "read_only_key"},
			{"no token", s.importPath("en", "files", "format=json"), "", `{"bad":"X"}`, 401, "unauthorized"},
			{"a target language into an unknown namespace", s.importPath("nb", "nosuch", "format=json"), tokenAuth(s.rw), `{"bad":"X"}`, 404, "not_found"},
			{"a language that is not on", s.importPath("de", "files", "format=json"), tokenAuth(s.rw), `{"bad":"X"}`, 404, "not_found"},
			{"an executable value", s.importPath("en", "files", "format=json"), tokenAuth(s.rw), `{"bad":"javascript:alert(1)"}`, 422, "invalid_translation"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := s.call(t, "PUT", tc.path, tc.auth, tc.body).wantStatus(t, tc.status)
				r.wantError(t, tc.code)
				if tc.code == "invalid_file" && !strings.Contains(string(r.body), "line 3") {
					t.Errorf("the refusal does not name line 3: %s", r.body)
				}
				if s.keyExists(t, "files", "bad") || s.keyExists(t, "files", "big") {
					t.Errorf("a refused import stored a key")
				}
			})
		}
	})
}

// TestAPIImportKeepsComments: the comment of an entry a source-language file creates is
// kept as the key's description and written back on export, in every format whose codec
// reads and writes comments.
func TestAPIImportKeepsComments(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		tested := 0
		for _, name := range formats.Names() {
			c, _ := formats.Lookup(name)
			f := &formats.File{SourceLanguage: "en", Languages: []string{"en"}, Entries: []formats.Entry{
				{Key: "pay", Source: "Pay now", Comment: "Shown on the checkout button", Values: map[string]formats.Value{"en": {Text: "Pay now"}}}}}
			body, err := c.Encode(f, formats.Options{Language: "en", SourceLanguage: "en"})
			if err != nil || !strings.Contains(string(body), "Shown on the checkout button") {
				continue // the codec cannot write files, or writes no comments
			}
			r := s.call(t, "PUT", s.importPath("en", "notes-"+name, "format="+name), tokenAuth(s.rw), body)
			if r.status == http.StatusUnprocessableEntity {
				continue // nor read them
			}
			r.wantStatus(t, http.StatusOK)
			out := s.call(t, "GET", s.readPath("en", "notes-"+name)+"?format="+name, tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
			if !strings.Contains(string(out.body), "Shown on the checkout button") {
				t.Errorf("%s: the comment is not in the export:\n%s", name, out.body)
			}
			tested++
		}
		if tested == 0 {
			t.Errorf("no format carried a comment")
		}
		t.Logf("%d formats keep comments", tested)
	})
}

// TestAPIImportBrokenFiles: in every format whose codec reads files, a file that does not
// parse is 422 invalid_file naming its line, and nothing is stored, not even the namespace.
func TestAPIImportBrokenFiles(t *testing.T) {
	t.Parallel()
	broken := map[string]string{ // each breaks on line 3
		"po":         "msgid \"a\"\nmsgstr \"A\"\nmsgstr \"again\"\n",
		"android":    "<resources>\n<string name=\"a\">A</string>\n<string name=\"b\">B</strin>\n</resources>\n",
		"yaml":       "en:\n  a: A\n b: [\n",
		"json":       "{\n\"a\": \"A\",\n\"b\": }",
		"strings":    "\"a\" = \"A\";\n\"b\" = \"B\";\n\"c\" = ;\n",
		"csv":        "key,en\na,A\nb,\"B\n",
		"properties": "a=A\nb=B\nc=\\u12\n",
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		for _, name := range slices.Sorted(maps.Keys(broken)) {
			t.Run(name, func(t *testing.T) {
				r := s.call(t, "PUT", s.importPath("en", "broken-"+name, "format="+name), tokenAuth(s.rw), broken[name])
				if r.status == http.StatusUnprocessableEntity && strings.Contains(string(r.body), "cannot be read") {
					t.Skipf("%s files cannot be read yet", name)
				}
				r.wantStatus(t, http.StatusUnprocessableEntity)
				r.wantError(t, "invalid_file")
				var e struct{ Message string }
				r.decode(t, &e)
				if !strings.Contains(e.Message, "line ") {
					t.Errorf("the refusal names no line: %s", e.Message)
				}
				s.wantFlat(t, "en", "broken-"+name, nil)
			})
		}
	})
}

// TestAPIImportLarge: a source file of more new keys than SQLite's chunking threshold
// (2,000; such writes stage their keys in chunks first) is reported and stored whole.
func TestAPIImportLarge(t *testing.T) {
	t.Parallel()
	oneAtATime(t)
	forEachDialect(t, func(t *testing.T, s *server) {
		m := map[string]string{}
		for i := range 2500 {
			m[fmt.Sprintf("k%04d", i)] = fmt.Sprintf("Text %d", i)
		}
		body, _ := json.Marshal(m)
		out := s.importFile(t, "en", "big", "format=json", body)
		if out.Summary.Created != 2500 || len(out.Created) != 2500 {
			t.Errorf("summary %+v", out.Summary)
		}
		if got := s.flat(t, "en", "big"); len(got) != 2500 || got["k2499"] != "Text 2499" {
			t.Errorf("the namespace has %d keys", len(got))
		}
	})
}

// TestAPIExportFormats covers endpoint 1 with a format: the codec's media type, an ETag of
// its own per format and status with 304, drafts left out by status=approved, and every
// built format's file read back by the import endpoint to the same file.
func TestAPIExportFormats(t *testing.T) {
	t.Parallel()
	oneAtATime(t)
	forEachDialect(t, func(t *testing.T, s *server) {
		s.sync(t, "en", "ui", map[string]string{"greet": "Hello", "bye": "Goodbye", "files": "{n, plural, one {# file} other {# files}}"})
		s.overwrite(t, "nb", "ui", map[string]string{"greet": "Hei"})
		s.draft(t, "ui", "bye", "nb", "Ha det")
		get := func(t *testing.T, lang, query, etag string) *response {
			t.Helper()
			h := map[string]string{}
			if etag != "" {
				h["If-None-Match"] = etag
			}
			return s.do(t, request{Method: "GET", Path: s.readPath(lang, "ui") + query, Auth: tokenAuth(s.ro), Header: h})
		}
		t.Run("json with its ETag and 304; status=approved leaves drafts out", func(t *testing.T) {
			all := get(t, "nb", "?format=json", "").wantStatus(t, http.StatusOK)
			approved := get(t, "nb", "?format=json&status=approved", "").wantStatus(t, http.StatusOK)
			plain := get(t, "nb", "", "").wantStatus(t, http.StatusOK)
			var m, ma map[string]string
			all.decode(t, &m)
			approved.decode(t, &ma)
			if m["bye"] != "Ha det" || m["greet"] != "Hei" || ma["bye"] != "" || ma["greet"] != "Hei" {
				t.Errorf("with drafts %v, approved only %v", m, ma)
			}
			if _, ok := m["files"]; ok {
				t.Errorf("an untranslated key is in a monolingual file: %v", m)
			}
			if ct := all.header.Get("Content-Type"); ct != formats.ContentType("json") {
				t.Errorf("Content-Type %q", ct)
			}
			tags := map[string]bool{all.header.Get("ETag"): true, approved.header.Get("ETag"): true, plain.header.Get("ETag"): true}
			if len(tags) != 3 || tags[""] {
				t.Errorf("ETags are not distinct per format and status: %v", tags)
			}
			get(t, "nb", "?format=json", all.header.Get("ETag")).wantStatus(t, http.StatusNotModified)
			r := get(t, "nb", "?format=json&status=approved", all.header.Get("ETag")).wantStatus(t, http.StatusOK)
			if r.header.Get("ETag") != approved.header.Get("ETag") {
				t.Errorf("the approved file's ETag moved")
			}
			s.overwrite(t, "nb", "ui", map[string]string{"greet": "Hallo"})
			get(t, "nb", "?format=json", all.header.Get("ETag")).wantStatus(t, http.StatusOK)
		})
		for _, tc := range []struct{ name, lang, query, code string }{
			{"an unknown format", "nb", "?format=docx", "invalid"},
			{"status other than approved", "nb", "?format=json&status=draft", "invalid"},
			{"all for a one-language format", "all", "?format=json", "invalid"},
			{"a language that is not on", "de", "?format=json", "not_found"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				get(t, tc.lang, tc.query, "").wantError(t, tc.code)
			})
		}
		t.Run("a file exported and imported again gives the same file", func(t *testing.T) {
			tested := 0
			for _, name := range formats.Names() {
				c, _ := formats.Lookup(name)
				for _, lang := range []string{"en", "nb", "all"} {
					if lang == "all" && !c.Multilingual {
						continue
					}
					r := get(t, lang, "?format="+name, "")
					if r.status == http.StatusUnprocessableEntity {
						continue // the codec cannot write files yet
					}
					r.wantStatus(t, http.StatusOK)
					ns := "copy-" + name + "-" + lang
					if lang != "en" {
						// A target language needs its keys first.
						s.sync(t, "en", ns, map[string]string{"greet": "Hello", "bye": "Goodbye", "files": "{n, plural, one {# file} other {# files}}"})
					}
					imp := s.call(t, "PUT", s.importPath(lang, ns, "format="+name), tokenAuth(s.rw), r.body)
					if imp.status == http.StatusUnprocessableEntity && strings.Contains(string(imp.body), "cannot be read") {
						continue // nor read them
					}
					imp.wantStatus(t, http.StatusOK)
					back := s.do(t, request{Method: "GET", Path: "/api/" + s.proj.ID + "/latest/" + lang + "/" + ns + "?format=" + name, Auth: tokenAuth(s.ro)}).wantStatus(t, http.StatusOK)
					if !bytes.Equal(back.body, r.body) {
						t.Errorf("%s %s: exported\n%s\nimported and exported again\n%s", name, lang, r.body, back.body)
					}
					tested++
				}
			}
			if tested == 0 {
				t.Errorf("no format was round-tripped")
			}
			t.Logf("%d round trips", tested)
		})
	})
}

// TestAPIImportPluralPlaceholders: plurals whose forms write the number in the format's own
// spelling (i18next's {{count}}, Rails' %{count}, Android's %d) import with no warning
// about missing forms, and the file exported again is the file imported, byte for byte.
func TestAPIImportPluralPlaceholders(t *testing.T) {
	t.Parallel()
	files := []struct{ format, body string }{
		{"i18next", "{\n  \"files_one\": \"{{count}} file\",\n  \"files_other\": \"{{count}} files\",\n  \"nested\": {\n    \"items_one\": \"{{count}} item in {{place}}\",\n    \"items_other\": \"{{count}} items in {{place}}\"\n  }\n}\n"},
		{"yaml", "en:\n  files:\n    one: \"%{count} file\"\n    other: \"%{count} files\"\n"},
		{"android", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n    <plurals name=\"files\">\n        <item quantity=\"one\">%d file</item>\n        <item quantity=\"other\">%d files</item>\n    </plurals>\n</resources>\n"},
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		for _, f := range files {
			t.Run(f.format, func(t *testing.T) {
				ns := "placeholders-" + f.format
				out := s.importFile(t, "en", ns, "format="+f.format, f.body)
				if len(out.Warnings) != 0 {
					t.Errorf("warnings %+v", out.Warnings)
				}
				if out.Summary.Plurals == 0 || out.Summary.Plurals != out.Summary.Created {
					t.Errorf("summary %+v", out.Summary)
				}
				r := s.call(t, "GET", s.readPath("en", ns)+"?format="+f.format, tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
				if string(r.body) != f.body {
					t.Errorf("the export differs from the file imported:\n%s\nwant:\n%s", r.body, f.body)
				}
			})
		}
	})
}

// TestAPIImportXCStringsSubstitutions: a String Catalog whose strings are %#@var@ format
// keys with plural substitutions imports as ICU plurals (counted as plurals, no warning)
// and exports to the same file.
func TestAPIImportXCStringsSubstitutions(t *testing.T) {
	t.Parallel()
	const file = "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n    \"%lld files in %lld folders\" : {\n      \"localizations\" : {\n        \"en\" : {\n          \"stringUnit\" : {\n            \"state\" : \"translated\",\n            \"value\" : \"%#@files@ in %#@folders@\"\n          },\n          \"substitutions\" : {\n            \"files\" : {\n              \"formatSpecifier\" : \"lld\",\n              \"variations\" : {\n                \"plural\" : {\n                  \"one\" : {\n                    \"stringUnit\" : {\n                      \"state\" : \"translated\",\n                      \"value\" : \"%arg file\"\n                    }\n                  },\n                  \"other\" : {\n                    \"stringUnit\" : {\n                      \"state\" : \"translated\",\n                      \"value\" : \"%arg files\"\n                    }\n                  }\n                }\n              }\n            },\n            \"folders\" : {\n              \"formatSpecifier\" : \"lld\",\n              \"variations\" : {\n                \"plural\" : {\n                  \"one\" : {\n                    \"stringUnit\" : {\n                      \"state\" : \"translated\",\n                      \"value\" : \"%arg folder\"\n                    }\n                  },\n                  \"other\" : {\n                    \"stringUnit\" : {\n                      \"state\" : \"translated\",\n                      \"value\" : \"%arg folders\"\n                    }\n                  }\n                }\n              }\n            }\n          }\n        },\n        \"nb\" : {\n          \"stringUnit\" : {\n            \"state\" : \"translated\",\n            \"value\" : \"%#@files@ i %#@folders@\"\n          },\n          \"substitutions\" : {\n            \"files\" : {\n              \"formatSpecifier\" : \"lld\",\n              \"variations\" : {\n                \"plural\" : {\n                  \"one\" : {\n                    \"stringUnit\" : {\n                      \"state\" : \"translated\",\n                      \"value\" : \"%arg fil\"\n                    }\n                  },\n                  \"other\" : {\n                    \"stringUnit\" : {\n                      \"state\" : \"translated\",\n                      \"value\" : \"%arg filer\"\n                    }\n                  }\n                }\n              }\n            },\n            \"folders\" : {\n              \"formatSpecifier\" : \"lld\",\n              \"variations\" : {\n                \"plural\" : {\n                  \"one\" : {\n                    \"stringUnit\" : {\n                      \"state\" : \"translated\",\n                      \"value\" : \"%arg mappe\"\n                    }\n                  },\n                  \"other\" : {\n                    \"stringUnit\" : {\n                      \"state\" : \"translated\",\n                      \"value\" : \"%arg mapper\"\n                    }\n                  }\n                }\n              }\n            }\n          }\n        }\n      }\n    }\n  },\n  \"version\" : \"1.0\"\n}\n"
	forEachDialect(t, func(t *testing.T, s *server) {
		out := s.importFile(t, "all", "catalog", "format=xcstrings", file)
		if len(out.Warnings) != 0 || out.Summary.Plurals != 1 || out.Summary.Created != 1 {
			t.Errorf("summary %+v, warnings %+v", out.Summary, out.Warnings)
		}
		s.wantFlat(t, "nb", "catalog", map[string]string{"%lld files in %lld folders": "{files, plural, one {%arg fil} other {%arg filer}} i {folders, plural, one {%arg mappe} other {%arg mapper}}"})
		r := s.call(t, "GET", s.readPath("all", "catalog")+"?format=xcstrings", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
		if string(r.body) != file {
			t.Errorf("the export differs from the file imported:\n%s\nwant:\n%s", r.body, file)
		}
	})
}
