package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/model"
)

// TestArchivedProjectIsReadOnly: an archived project answers reads (REST and MCP) as
// before, refuses writes through REST, and MCP with 409
// project_archived in the error shape (naming the project by its title), stores nothing,
// and takes writes again once restored.
func TestArchivedProjectIsReadOnly(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		s.sync(t, "en", "common", map[string]string{"hello": "Hello"})
		if _, err := s.cat.ArchiveProject(sys(t), s.proj.ID); err != nil {
			t.Fatal(err)
		}

		read := s.call(t, "GET", s.readPath("en", "common"), tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
		if !strings.Contains(string(read.body), `"hello":"Hello"`) {
			t.Errorf("read of an archived project: %s", read.body)
		}
		for _, auth := range []string{tokenAuth(s.rw), bearerAuth(s.pat)} {
			r := s.call(t, "POST", s.missingPath("en", "common"), auth, map[string]string{"bye": "Bye"}).wantStatus(t, http.StatusConflict)
			r.wantError(t, model.CodeArchived)
			if !strings.Contains(string(r.body), s.proj.Title) {
				t.Errorf("the refusal does not name the project: %s", r.body)
			}
		}
		m := s.mcpProject(t, bearerAuth(s.pat))
		mcpErr(t, m, "update_translation", map[string]any{"namespace_key": "common", "translation_key": "hello", "language": "nb", "value": "Hei"}, model.CodeArchived)
		if st := mcpOK[mcpStatus](t, m, "get_project_status", map[string]any{}); len(st.Languages) == 0 {
			t.Errorf("get_project_status of an archived project: %+v", st)
		}
		if got := s.call(t, "GET", s.readPath("en", "common"), tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK); strings.Contains(string(got.body), "bye") {
			t.Errorf("a refused write was stored: %s", got.body)
		}

		if _, err := s.cat.RestoreProject(sys(t), s.proj.ID); err != nil {
			t.Fatal(err)
		}
		s.call(t, "POST", s.missingPath("en", "common"), tokenAuth(s.rw), map[string]string{"bye": "Bye"}).wantStatus(t, http.StatusCreated)
		mcpOK[mcpRow](t, m, "update_translation", map[string]any{"namespace_key": "common", "translation_key": "hello", "language": "nb", "value": "Hei"})
	})
}
