package rest_test

import (
	"net/http"
	"testing"

	"github.com/lokal-dev/lokal/tools"
)

// familyServer is a server whose project has pl, ja and ar on beside nb and sv.
func familyServer(t *testing.T, s *server) {
	t.Helper()
	for _, l := range []string{"pl", "ja", "ar"} {
		if _, err := s.cat.EnableLanguage(sys(t), tools.EnableLanguageIn{ProjectArg: tools.ProjectArg{ProjectID: s.proj.ID}, Language: l}); err != nil {
			t.Fatal(err)
		}
	}
}

type familySync struct {
	syncOut
	Warnings []string `json:"warnings"`
}

type familyOverwrite struct {
	overwriteOut
	Warnings []string `json:"warnings"`
}

// TestAPIPluralFamilies: in an i18next project the suffix keys of one plural are one key
// at every door: sync and missing gather them, overwrite merges the forms sent, endpoint 1
// serves each language exactly its own forms, stale lists them, and the counters count a
// family without every form the language needs as missing.
func TestAPIPluralFamilies(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		familyServer(t, s)
		var sout familySync
		s.call(t, "PUT", s.syncPath("en", "app"), tokenAuth(s.rw), map[string]string{
			"title": "Hello {{name}}", "files.count_one": "{{count}} file", "files.count_other": "{{count}} files",
		}).wantStatus(t, http.StatusOK).decode(t, &sout)
		wantKeys(t, "created", sout.Created, []string{"files.count_one", "files.count_other", "title"})
		if sout.Summary.TotalIncoming != 3 || sout.Summary.Created != 3 {
			t.Errorf("summary = %+v, want 3 incoming and created, in the request's names", sout.Summary)
		}
		// One key is stored: the family, whose source value is the plural.
		if v, ok := s.translation(t, "app", "files.count", "en"); !ok || v.Value != "{count, plural, one {{{count}} file} other {{{count}} files}}" {
			t.Errorf("family key read back as %+v", v)
		}
		s.wantFlat(t, "en", "app", map[string]string{"title": "Hello {{name}}", "files.count_one": "{{count}} file", "files.count_other": "{{count}} files"})
		// pl serves nothing for the family until it is translated.
		s.wantFlat(t, "pl", "app", map[string]string{})

		// Endpoint 2 with a form of an existing family creates nothing.
		s.call(t, "POST", s.missingPath("en", "app"), tokenAuth(s.rw), map[string]string{"files.count_few": "{{count}} files"}).wantStatus(t, http.StatusCreated)
		s.wantFlat(t, "en", "app", map[string]string{"title": "Hello {{name}}", "files.count_one": "{{count}} file", "files.count_other": "{{count}} files"})

		// pl with one and other only: served as sent, counted missing (few, many lacking).
		var oout familyOverwrite
		s.call(t, "PUT", s.overwritePath("pl", "app"), tokenAuth(s.rw), map[string]string{
			"files.count_one": "{{count}} plik", "files.count_other": "{{count}} pliku",
		}).wantStatus(t, http.StatusOK).decode(t, &oout)
		wantKeys(t, "updated", oout.Updated, []string{"files.count_one", "files.count_other"})
		s.wantFlat(t, "pl", "app", map[string]string{"files.count_one": "{{count}} plik", "files.count_other": "{{count}} pliku"})
		if st := s.familyStatus(t, "pl"); st.Translated != 0 || st.Missing != 2 {
			t.Errorf("pl with one and other of 2 keys: %+v, want the family counted missing", st)
		}
		// few and many sent: merged into the family, the forms sent before kept.
		s.call(t, "PUT", s.overwritePath("pl", "app"), tokenAuth(s.rw), map[string]string{
			"files.count_few": "{{count}} pliki", "files.count_many": "{{count}} plików", "files.nope_one": "x", "files.nope_other": "y",
		}).wantStatus(t, http.StatusOK).decode(t, &oout)
		wantKeys(t, "updated", oout.Updated, []string{"files.count_few", "files.count_many"})
		wantKeys(t, "not_found", oout.NotFound, []string{"files.nope_one", "files.nope_other"})
		s.wantFlat(t, "pl", "app", map[string]string{"files.count_one": "{{count}} plik", "files.count_few": "{{count}} pliki",
			"files.count_many": "{{count}} plików", "files.count_other": "{{count}} pliku"})
		if st := s.familyStatus(t, "pl"); st.Translated != 1 || st.Missing != 1 {
			t.Errorf("pl with every form: %+v, want the family translated", st)
		}

		// ja has only other: _one is not stored, and the answer says so.
		s.call(t, "PUT", s.overwritePath("ja", "app"), tokenAuth(s.rw), map[string]string{
			"files.count_one": "1 個のファイル", "files.count_other": "{{count}} 個のファイル",
		}).wantStatus(t, http.StatusOK).decode(t, &oout)
		if len(oout.Warnings) != 1 {
			t.Errorf("ja warnings = %q, want one about files.count_one", oout.Warnings)
		}
		wantKeys(t, "updated ja", oout.Updated, []string{"files.count_other"})
		s.wantFlat(t, "ja", "app", map[string]string{"files.count_other": "{{count}} 個のファイル"})

		// A changed source makes the family stale: listed as the suffix keys pl is served.
		s.sync(t, "en", "app", map[string]any{"preserve_source_values": false, "translations": map[string]string{
			"title": "Hello {{name}}", "files.count_one": "{{count}} file", "files.count_other": "{{count}} files!",
		}})
		wantKeys(t, "stale pl", s.stale(t, "app", "lang=pl"), []string{"files.count_few", "files.count_many", "files.count_one", "files.count_other"})
	})
}

// TestAPIPluralFamilyImport: a pl file with every form updates the family; a ja file with
// _one and _other keeps other and warns about _one.
func TestAPIPluralFamilyImport(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		familyServer(t, s)
		s.sync(t, "en", "app", map[string]string{"files.count_one": "{{count}} file", "files.count_other": "{{count}} files"})
		out := s.importFile(t, "pl", "app", "format=i18next",
			`{"files":{"count_one":"{{count}} plik","count_few":"{{count}} pliki","count_many":"{{count}} plików","count_other":"{{count}} pliku"}}`)
		if len(out.NotFound) != 0 || len(out.Updated) != 1 {
			t.Errorf("pl import: updated %q, not found %q", out.Updated, out.NotFound)
		}
		s.wantFlat(t, "pl", "app", map[string]string{"files.count_one": "{{count}} plik", "files.count_few": "{{count}} pliki",
			"files.count_many": "{{count}} plików", "files.count_other": "{{count}} pliku"})
		out = s.importFile(t, "ja", "app", "format=i18next", `{"files":{"count_one":"1 個","count_other":"{{count}} 個"}}`)
		if len(out.Warnings) == 0 || out.Warnings[0].Key != "files.count_one" {
			t.Errorf("ja import warnings = %+v, want files.count_one named", out.Warnings)
		}
		s.wantFlat(t, "ja", "app", map[string]string{"files.count_other": "{{count}} 個"})
	})
}

// TestAPIPluralFamilyUpgrade: a namespace that stored a family's suffix keys as keys of
// their own before (a project whose syntax showed no i18next yet) is gathered by the next
// sync: the translations move into the family and the old keys are hidden, nothing lost.
func TestAPIPluralFamilyUpgrade(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		familyServer(t, s)
		// No i18next syntax in these values: the suffix keys are stored as plain keys.
		s.sync(t, "en", "app", map[string]string{"files_one": "One file", "files_other": "Many files"})
		s.overwrite(t, "pl", "app", map[string]string{"files_one": "Jeden plik", "files_other": "Wiele plików"})
		if v, ok := s.translation(t, "app", "files_one", "pl"); !ok || v.Value != "Jeden plik" {
			t.Fatalf("the plain key files_one was not stored: %+v", v)
		}
		// The project now shows i18next: the next sync gathers the family.
		out := s.sync(t, "en", "app", map[string]string{"title": "{{n}} items", "files_one": "One file", "files_other": "Many files"})
		wantKeys(t, "hidden", out.Hidden, []string{"files_one", "files_other"})
		s.wantFlat(t, "en", "app", map[string]string{"title": "{{n}} items", "files_one": "One file", "files_other": "Many files"})
		s.wantFlat(t, "pl", "app", map[string]string{"files_one": "Jeden plik", "files_other": "Wiele plików"})
		if v, ok := s.translation(t, "app", "files", "pl"); !ok || v.Value != "{count, plural, one {Jeden plik} other {Wiele plików}}" {
			t.Errorf("pl family value = %+v", v)
		}
	})
}

// familyStatus is get_project_status's stats of one language.
func (s *server) familyStatus(t *testing.T, lang string) tools.LanguageStats {
	t.Helper()
	st, err := s.cat.GetProjectStatus(sys(t), tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: s.proj.ID}})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range st.Languages {
		if l.Language == lang {
			return l
		}
	}
	t.Fatalf("no stats for %s in %+v", lang, st)
	return tools.LanguageStats{}
}

// TestMCPPluralFamily: through the MCP client a suffix key name is its family's form:
// update_translation sets that one form (the others kept), a form the language does not
// have is refused, and get_translation reads the family.
func TestMCPPluralFamily(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		familyServer(t, s)
		s.sync(t, "en", "app", map[string]string{"files.count_one": "{{count}} file", "files.count_other": "{{count}} files"})
		s.overwrite(t, "pl", "app", map[string]string{"files.count_one": "{{count}} plik", "files.count_other": "{{count}} pliku"})
		m := s.mcpProject(t, bearerAuth(s.pat))
		row := mcpOK[mcpRow](t, m, "update_translation", map[string]any{"namespace_key": "app", "translation_key": "files.count_few",
			"language": "pl", "value": "{{count}} pliki", "status": "approved"})
		if want := "{count, plural, one {{{count}} plik} few {{{count}} pliki} other {{{count}} pliku}}"; row.Value != want {
			t.Errorf("update_translation of files.count_few stored %q, want %q", row.Value, want)
		}
		s.wantFlat(t, "pl", "app", map[string]string{"files.count_one": "{{count}} plik", "files.count_few": "{{count}} pliki", "files.count_other": "{{count}} pliku"})
		mcpErr(t, m, "update_translation", map[string]any{"namespace_key": "app", "translation_key": "files.count_one",
			"language": "ja", "value": "1 個"}, "unprocessable")
		got := mcpOK[struct {
			Key          string `json:"translation_key"`
			Translations []struct {
				Language string `json:"language"`
				Value    string `json:"value"`
			} `json:"translations"`
		}](t, m, "get_translation", map[string]any{"namespace_key": "app", "translation_key": "files.count_many"})
		// The answer names the key as asked; its rows are the family's.
		if len(got.Translations) != 2 || got.Translations[0].Value != "{count, plural, one {{{count}} file} other {{{count}} files}}" {
			t.Errorf("get_translation of files.count_many = %+v, want the family files.count's rows", got)
		}
	})
}
