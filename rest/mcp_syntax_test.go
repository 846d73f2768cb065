package rest_test

import (
	"slices"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestMCPProjectStatusSyntax: get_project_status tells the syntax the project's values are
// read in and where it comes from: detected from the source values (again after a source
// value changes), set by the operator, and detected once more when the setting is cleared.
func TestMCPProjectStatusSyntax(t *testing.T) {
	t.Parallel()
	type status struct {
		Syntax *struct {
			Names  []string `json:"names"`
			Source string   `json:"source"`
		} `json:"syntax"`
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		m := s.mcpProject(t, bearerAuth(s.pat))
		want := func(what string, names []string, source string) {
			t.Helper()
			st := mcpOK[status](t, m, "get_project_status", nil)
			if st.Syntax == nil || !slices.Equal(st.Syntax.Names, names) || st.Syntax.Source != source {
				t.Errorf("%s: syntax %+v, want %v %s", what, st.Syntax, names, source)
			}
		}
		want("no values", []string{}, "detected")
		s.mcpSeed(t, "common", map[string]string{"a": "Hello {{name}}", "b": "Plain"}, nil)
		want("seeded", []string{"i18next"}, "detected")
		mcpOK[map[string]any](t, m, "update_translation", map[string]any{"namespace_key": "common", "translation_key": "b",
			"language": "en", "value": "Read the <a href=\"/terms\">terms</a>"})
		want("after a source change", []string{"i18next", "html"}, "detected")
		mcpOK[map[string]any](t, m, "update_translation", map[string]any{"namespace_key": "common", "translation_key": "b",
			"language": "nb", "value": "%s {x} [y](z)"})
		want("a translation is no source", []string{"i18next", "html"}, "detected")

		admin := model.WithPrincipal(t.Context(), tools.System)
		set := func(list string) {
			t.Helper()
			if _, err := s.cat.SetProject(admin, s.proj.ID, tools.SetProjectIn{Syntax: &list}); err != nil {
				t.Fatal(err)
			}
		}
		set("icu,printf")
		want("set", []string{"icu", "printf"}, "set")
		set("")
		want("cleared", []string{"i18next", "html"}, "detected")
	})
}
