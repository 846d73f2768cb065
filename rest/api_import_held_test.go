package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestImportHeldAndRefused: an import lists the values it stored but holds back from
// readers, with why and what readers get; a dry run also lists the values that would be
// refused and stores nothing; an import with a value that does not parse is refused whole,
// naming every refused value, through REST and MCP alike.
func TestImportHeldAndRefused(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		s.sync(t, "en", "ui", map[string]string{"cart": "{{count}} items", "new": "{{count}} new", "greet": "Hello {name}", "plain": "Cart"})
		s.overwrite(t, "nb", "ui", map[string]string{"cart": "{{count}} varer"})
		file := `{"cart":"{{cnt}} varer","new":"{{cnt}} nye","greet":"Hei {name","plain":"Handlekurv"}`

		dry := s.importFile(t, "nb", "ui", "format=json&dry_run=true", file)
		if len(dry.Refused) != 1 || dry.Refused[0].Key != "greet" || !strings.Contains(dry.Refused[0].Reason, `the { before "name" is never closed`) {
			t.Errorf("the dry run's refused: %+v", dry.Refused)
		}
		held := map[string]importHeld{}
		for _, h := range dry.HeldBack {
			held[h.Key] = h
		}
		if len(held) != 2 || !strings.Contains(held["cart"].Reason, "{{cnt}}") || held["cart"].ReadersGet != "the previous value" ||
			held["new"].ReadersGet != "the source text" || held["new"].Language != "nb" {
			t.Errorf("the dry run's held back: %+v", dry.HeldBack)
		}
		s.wantFlat(t, "nb", "ui", map[string]string{"cart": "{{count}} varer"})

		r := s.call(t, "PUT", s.importPath("nb", "ui", "format=json"), tokenAuth(s.rw), file)
		r.wantStatus(t, http.StatusUnprocessableEntity).wantError(t, "invalid_translation")
		if !strings.Contains(string(r.body), "nothing was imported") || !strings.Contains(string(r.body), "never closed") {
			t.Errorf("the refused import says %s", r.body)
		}
		s.wantFlat(t, "nb", "ui", map[string]string{"cart": "{{count}} varer"})

		out := s.importFile(t, "nb", "ui", "format=json", strings.Replace(file, "Hei {name", "Hei {name}", 1))
		if len(out.Refused) != 0 || len(out.HeldBack) != 2 {
			t.Errorf("the import's held back %+v, refused %+v", out.HeldBack, out.Refused)
		}
		s.wantFlat(t, "nb", "ui", map[string]string{"cart": "{{count}} varer", "greet": "Hei {name}", "plain": "Handlekurv"})

		m := s.mcpProject(t, bearerAuth(s.pat))
		mo := mcpOK[importOut](t, m, "import_translations", map[string]any{"namespace_key": "ui", "language": "nb", "format": "json",
			"content": `{"plain":"{{count}} Handlekurv"}`})
		if len(mo.HeldBack) != 1 || mo.HeldBack[0].Key != "plain" || mo.HeldBack[0].ReadersGet != "the previous value" {
			t.Errorf("import_translations' held back: %+v", mo.HeldBack)
		}
	})
}
