package rest_test

import (
	"testing"

	"github.com/lokal-dev/lokal/tools"
)

// TestMCPWriteLimit: MCP write tools share the project's write budget, and a caller that
// may not write to the project never spends it.
func TestMCPWriteLimit(t *testing.T) {
	forEachDialectWith(t, &tools.Options{Limits: tools.Limits{Writes: 3}}, func(t *testing.T, s *server) {
		rival := s.mcpConnect(t, "/api/mcp", bearerAuth(s.otherWSToken), mcpOpts{})
		for i := 0; i < 5; i++ {
			mcpErr(t, rival, "add_key", map[string]any{"project_id": s.proj.ID, "namespace_key": "ui",
				"translation_key": "x", "source_value": "X"}, "unauthorized")
		}
		m := s.mcpProject(t, tokenAuth(s.rw))
		for i, key := range []string{"a", "b", "c"} {
			if res := m.call(t, "add_key", map[string]any{"namespace_key": "ui", "translation_key": key, "source_value": "V"}); res.IsError {
				t.Fatalf("write %d refused: %s", i+1, mcpText(res))
			}
		}
		mcpErr(t, m, "add_key", map[string]any{"namespace_key": "ui", "translation_key": "d", "source_value": "D"}, "rate_limited")
	})
}
