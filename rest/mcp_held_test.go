package rest_test

import (
	"strings"
	"testing"
)

// TestMCPHeldBack: update_translation with a renamed placeholder stores a draft that no
// reader gets, get_project_status counts it with its reason, approving it is refused, and
// a value that does not parse is refused with where, in words.
func TestMCPHeldBack(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		s.mcpSeed(t, "shop", map[string]string{"cart": "{{count}} items", "files": "{count, plural, one {# file} other {# files}}"},
			map[string]map[string]string{"nb": {"cart": "{{count}} varer"}})
		m := s.mcpProject(t, bearerAuth(s.pat))
		args := map[string]any{"namespace_key": "shop", "translation_key": "cart", "language": "nb", "value": "{{cnt}} varer i handlekurven"}

		row := mcpOK[struct {
			Value  string `json:"value"`
			Status string `json:"status"`
			Held   string `json:"held_back"`
		}](t, m, "update_translation", args)
		if row.Status != "needs_review" || !strings.Contains(row.Held, "{{cnt}}") {
			t.Errorf("update_translation answered %+v, want a held-back draft", row)
		}
		s.wantFlat(t, "nb", "shop", map[string]string{"cart": "{{count}} varer"})

		st := mcpOK[struct {
			HeldBack struct {
				Count int `json:"count"`
				Rows  []struct {
					Key     string `json:"translation_key"`
					Reason  string `json:"reason"`
					Readers string `json:"readers_get"`
				} `json:"rows"`
			} `json:"held_back"`
		}](t, m, "get_project_status", map[string]any{})
		if st.HeldBack.Count != 1 || len(st.HeldBack.Rows) != 1 || st.HeldBack.Rows[0].Key != "cart" ||
			!strings.Contains(st.HeldBack.Rows[0].Reason, "{{cnt}}") || st.HeldBack.Rows[0].Readers != "the previous value" {
			t.Errorf("held_back %+v, want cart with its reason", st.HeldBack)
		}

		approve := map[string]any{"namespace_key": "shop", "translation_key": "cart", "language": "nb", "value": "{{cnt}} varer i handlekurven", "status": "approved"}
		if e := mcpErr(t, m, "update_translation", approve, "invalid_translation"); !strings.Contains(e.Message, "{{cnt}}") {
			t.Errorf("approval refused with %q, want the reason", e.Message)
		}

		broken := map[string]any{"namespace_key": "shop", "translation_key": "files", "language": "nb", "value": "{count, plural, one {# fil} other {# filer}"}
		if e := mcpErr(t, m, "update_translation", broken, "invalid_translation"); !strings.Contains(e.Message, "the plural on count is never closed") {
			t.Errorf("refused with %q, want where in words", e.Message)
		}

		args["value"] = "{{count}} varer i handlekurven"
		mcpOK[struct{}](t, m, "update_translation", args)
		s.wantFlat(t, "nb", "shop", map[string]string{"cart": "{{count}} varer i handlekurven"})
		if st := mcpOK[struct {
			HeldBack struct {
				Count int `json:"count"`
			} `json:"held_back"`
		}](t, m, "get_project_status", map[string]any{}); st.HeldBack.Count != 0 {
			t.Errorf("held_back count %d after the fix, want 0", st.HeldBack.Count)
		}
	})
}
