package rest_test

import (
	"testing"

	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestMCPImportTranslations: the import_translations tool imports through the same path
// as the endpoint (a dry run stores nothing; values land as needs_review unless approved is
// asked for; a broken file is invalid_file), and get_translations takes every format name.
func TestMCPImportTranslations(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		m := s.mcpProject(t, tokenAuth(s.rw))
		args := func(lang, content string, extra map[string]any) map[string]any {
			a := map[string]any{"namespace_key": "app", "language": lang, "format": "json", "content": content}
			for k, v := range extra {
				a[k] = v
			}
			return a
		}
		t.Run("a dry run stores nothing", func(t *testing.T) {
			out := mcpOK[importOut](t, m, "import_translations", args("en", `{"a":"A","b":"B"}`, map[string]any{"dry_run": true}))
			wantKeys(t, "created", out.Created, []string{"a", "b"})
			s.wantFlat(t, "en", "app", nil)
		})
		t.Run("source keys, then translations as needs_review", func(t *testing.T) {
			out := mcpOK[importOut](t, m, "import_translations", args("en", `{"a":"A","b":"B"}`, nil))
			wantKeys(t, "created", out.Created, []string{"a", "b"})
			out = mcpOK[importOut](t, m, "import_translations", args("nb", `{"a":"A-nb","x":"X"}`, nil))
			wantKeys(t, "updated", out.Updated, []string{"a"})
			wantKeys(t, "not_found", out.NotFound, []string{"x"})
			if v, _ := s.translation(t, "app", "a", "nb"); v.Status != model.StatusNeedsReview || v.Value != "A-nb" {
				t.Errorf("nb a is %+v, want A-nb needing review", v)
			}
			mcpOK[importOut](t, m, "import_translations", args("nb", `{"b":"B-nb"}`, map[string]any{"status": "approved"}))
			if v, _ := s.translation(t, "app", "b", "nb"); v.Status != model.StatusApproved {
				t.Errorf("nb b has status %q, want approved as asked", v.Status)
			}
		})
		t.Run("a broken file is invalid_file naming the line", func(t *testing.T) {
			e := mcpErr(t, m, "import_translations", args("en", "{\n\"c\": }", nil), "invalid_file")
			if e.Message == "" || s.keyExists(t, "app", "c") {
				t.Errorf("refusal %+v", e)
			}
		})
		t.Run("an unknown format", func(t *testing.T) {
			mcpErr(t, m, "import_translations", map[string]any{"namespace_key": "app", "language": "en", "format": "docx", "content": "{}"}, "invalid")
		})
		t.Run("get_translations takes every format name", func(t *testing.T) {
			for _, name := range append(formats.Names(), "yml") {
				res := m.call(t, "get_translations", map[string]any{"language": "nb", "namespace_key": "app", "format": name})
				if res.IsError {
					e := mcpWantError(t, name, res, "")
					if e.Error == "invalid" {
						t.Errorf("%s refused as a format: %+v", name, e)
					}
				}
			}
		})
	})
}
