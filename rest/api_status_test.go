package rest_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/formats/formatstest"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestAPIStatusesThroughFiles: a fuzzy PO entry is imported as needs_review (its previous
// msgid kept, and written back, with no warning), an approved row is exported
// without the fuzzy flag, a needs_review row and a stale one with it, and msgfmt -c accepts
// the file and ships neither; pushing the exported file back changes no status, and the
// stale row stays stale (fuzzy is no confirmation). XLIFF 1.2 and xcstrings carry the same
// marks in their own words.
func TestAPIStatusesThroughFiles(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		s.sync(t, "en", "shop", map[string]string{"ok": "Done", "draft": "Draft %s", "old": "Old"})
		s.overwrite(t, "nb", "shop", map[string]string{"old": "Gammel"})
		s.sync(t, "en", "shop", map[string]any{"translations": map[string]string{"ok": "Done", "draft": "Draft %s", "old": "Older"},
			"preserve_source_values": false})

		po := "msgid \"\"\nmsgstr \"\"\n\"Language: nb\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n" +
			"\nmsgctxt \"ok\"\nmsgid \"Done\"\nmsgstr \"Ferdig\"\n" +
			"\n#, fuzzy, c-format\n#| msgid \"Drafts %s\"\nmsgctxt \"draft\"\nmsgid \"Draft %s\"\nmsgstr \"Utkast %s\"\n"
		out := s.importFile(t, "nb", "shop", "format=po", po)
		wantKeys(t, "updated", out.Updated, []string{"draft", "ok"})
		if len(out.Warnings) != 0 {
			t.Errorf("warnings %+v, want none: the previous msgid is kept", out.Warnings)
		}
		for key, want := range map[string]string{"ok": model.StatusApproved, "draft": model.StatusNeedsReview, "old": model.StatusApproved} {
			if v, _ := s.translation(t, "shop", key, "nb"); v.Status != want {
				t.Errorf("nb %s has status %q, want %q", key, v.Status, want)
			}
		}
		if got := s.stale(t, "shop", "lang=nb"); !slices.Equal(got, []string{"old"}) {
			t.Fatalf("stale keys %v, want [old]", got)
		}

		get := func(t *testing.T, query string) string {
			t.Helper()
			return string(s.do(t, request{Method: "GET", Path: s.readPath("nb", "shop") + "?" + query, Auth: tokenAuth(s.ro)}).wantStatus(t, http.StatusOK).body)
		}
		file := get(t, "format=po")
		if fuzzy := poFuzzy(t, file); !slices.Equal(fuzzy, []string{"draft", "old"}) {
			t.Errorf("fuzzy entries %v, want [draft old]:\n%s", fuzzy, file)
		}
		if !strings.Contains(file, "#, fuzzy, c-format\n#| msgid \"Drafts %s\"\nmsgctxt \"draft\"\n") {
			t.Errorf("the export lost draft's flags or previous msgid:\n%s", file)
		}
		formatstest.CompiledShips(t, []byte(file), []string{"Ferdig"}, []string{"Utkast %s", "Gammel"})
		if xliff := get(t, "format=xliff"); strings.Count(xliff, `state="needs-review-translation"`) != 2 || strings.Count(xliff, `state="translated"`) != 1 {
			t.Errorf("xliff states:\n%s", xliff)
		}
		if xc := get(t, "format=xcstrings"); !strings.Contains(xc, `"needs_review"`) || !strings.Contains(xc, `"stale"`) {
			t.Errorf("xcstrings states:\n%s", xc)
		}

		// The file pulled and pushed back as it is changes nothing.
		out = s.importFile(t, "nb", "shop", "format=po", file)
		if len(out.Updated) != 0 {
			t.Errorf("pushing the exported file back updated %v", out.Updated)
		}
		for key, want := range map[string]string{"ok": model.StatusApproved, "draft": model.StatusNeedsReview, "old": model.StatusApproved} {
			if v, _ := s.translation(t, "shop", key, "nb"); v.Status != want {
				t.Errorf("after the push back nb %s has status %q, want %q", key, v.Status, want)
			}
		}
		if got := s.stale(t, "shop", "lang=nb"); !slices.Equal(got, []string{"old"}) {
			t.Errorf("stale keys %v after the push back, want [old]", got)
		}
	})
}
