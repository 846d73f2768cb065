package rest_test

// Work per MCP call is bounded (issue 15, finding 4): register_source_strings takes at most
// 5,000 strings, and read tools spend a per-token budget (600 a minute by default) that the
// REST reads (endpoints 1 and 5) do not.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

// TestMCPRegisterSourceStringsCap: 5,000 strings in one call are taken, 5,001 are refused
// with unprocessable naming the cap and store nothing; the input schema says the caps.
func TestMCPRegisterSourceStringsCap(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("-short: 5,000 strings at the cap runs in the plain run; the race run keeps the tests that run at once")
	}
	strs := func(n int) map[string]string {
		m := make(map[string]string, n)
		for i := range n {
			m[fmt.Sprintf("screen.label_%05d", i)] = fmt.Sprintf("Label %d", i)
		}
		return m
	}
	// The write budget is out of reach: 5,000 keys in one write is quick, but not under the
	// race detector on a loaded machine, and the budget is not what this test is about.
	forEachDialectWith(t, &tools.Options{WriteTimeout: time.Hour}, func(t *testing.T, s *server) {
		m := s.mcpProject(t, tokenAuth(s.rw))
		t.Run("the schema says the caps", func(t *testing.T) {
			tl := m.tools(t)
			for _, c := range []struct{ tool, prop, keyword string }{
				{"register_source_strings", "strings", `"maxProperties":5000`},
				{"ai_translate_keys", "translation_keys", `"maxItems":10`},
			} {
				raw, err := json.Marshal(tl[c.tool].InputSchema)
				if err != nil {
					t.Fatal(err)
				}
				var schema mcpSchema
				if err := json.Unmarshal(raw, &schema); err != nil {
					t.Fatal(err)
				}
				if p := string(schema.Properties[c.prop]); !strings.Contains(p, c.keyword) {
					t.Errorf("%s: property %s is %s, want %s", c.tool, c.prop, p, c.keyword)
				}
			}
			if d := tl["register_source_strings"].Description; !strings.Contains(d, "5,000") {
				t.Errorf("register_source_strings description does not say the cap: %q", d)
			}
		})
		t.Run("one string over the cap", func(t *testing.T) {
			e := mcpErr(t, m, "register_source_strings", map[string]any{"namespace_key": "big", "strings": strs(5001)}, "unprocessable")
			if !strings.Contains(e.Message, "5000") {
				t.Errorf("message %q does not state the cap", e.Message)
			}
			if r := s.call(t, "GET", s.readPath("en", "big"), tokenAuth(s.rw), nil); r.status != http.StatusNotFound {
				t.Errorf("namespace big exists after the refused call: %d", r.status)
			}
		})
		t.Run("at the cap", func(t *testing.T) {
			type created struct {
				Created []string `json:"created"`
			}
			out := mcpOK[created](t, m, "register_source_strings", map[string]any{"namespace_key": "big", "strings": strs(5000)})
			if len(out.Created) != 5000 {
				t.Errorf("created %d keys, want 5000", len(out.Created))
			}
		})
	})
}

// mcpRateLimited is a tool error with the retry_after the write budget's carries too.
type mcpRateLimited struct {
	Error      string `json:"error"`
	Message    string `json:"message"`
	RetryAfter int    `json:"retry_after"`
}

func mcpWantRateLimited(t *testing.T, m *mcpSession, name string, args any) mcpRateLimited {
	t.Helper()
	res := m.call(t, name, args)
	mcpWantError(t, name, res, "rate_limited")
	var e mcpRateLimited
	if err := json.Unmarshal([]byte(mcpText(res)), &e); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if e.RetryAfter < 1 || e.RetryAfter > 60 {
		t.Errorf("%s: retry_after %d, want whole seconds between 1 and 60 (%s)", name, e.RetryAfter, e.Message)
	}
	return e
}

// TestMCPReadLimit: read tools share one budget per token (5 a minute here) on a frozen
// clock; past it each read tool answers rate_limited with retry_after, while write tools,
// other tokens and the REST reads (1 and 5) go on; the minute's end frees it again.
func TestMCPReadLimit(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		clock := &fakeClock{t: time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)}
		s := newServer(t, dialect, &tools.Options{Budgets: map[string]int{tools.ReadBudget.Name: 5}, Now: clock.now})
		s.sync(t, "en", "ui", map[string]string{"a": "A"})
		m := s.mcpProject(t, tokenAuth(s.ro))
		reads := []struct {
			name string
			args map[string]any
		}{
			{"list_projects", nil},
			{"get_project_status", nil},
			{"get_translations", map[string]any{"language": "en", "namespace_key": "ui"}},
			{"search_translations", map[string]any{"value_contains": "A"}},
			{"get_translation", map[string]any{"namespace_key": "ui", "translation_key": "a"}},
		}
		for _, r := range reads {
			if res := m.call(t, r.name, r.args); res.IsError {
				t.Fatalf("%s within the budget failed: %s", r.name, mcpText(res))
			}
		}
		clock.advance(20 * time.Second)
		for _, r := range append(reads, struct {
			name string
			args map[string]any
		}{"list_terminology", nil}) {
			e := mcpWantRateLimited(t, m, r.name, r.args)
			if e.RetryAfter != 40 || !strings.Contains(e.Message, "token") {
				t.Errorf("%s: retry_after %d, message %q; want 40 s (the first read leaves the minute then), per token", r.name, e.RetryAfter, e.Message)
			}
		}

		t.Run("writes, other tokens and the REST reads go on", func(t *testing.T) {
			rw := s.mcpProject(t, tokenAuth(s.rw))
			if res := rw.call(t, "add_key", map[string]any{"namespace_key": "ui", "translation_key": "b", "source_value": "B"}); res.IsError {
				t.Errorf("a write tool after the read budget of another token: %s", mcpText(res))
			}
			for i := 0; i < 5; i++ {
				if res := rw.call(t, "get_translation", map[string]any{"namespace_key": "ui", "translation_key": "a"}); res.IsError {
					t.Fatalf("read %d of the read/write key: %s", i+1, mcpText(res))
				}
			}
			mcpWantRateLimited(t, rw, "get_translation", map[string]any{"namespace_key": "ui", "translation_key": "a"})
			for i := 0; i < 20; i++ {
				s.call(t, "GET", s.readPath("en", "ui"), tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
				s.call(t, "GET", s.stalePath("ui", "lang=nb"), tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
			}
		})

		clock.advance(40 * time.Second)
		if res := m.call(t, "get_project_status", nil); res.IsError {
			t.Errorf("a read once the minute passed: %s", mcpText(res))
		}
	})
}

// TestMCPReadLimitDefault: 600 read tool calls a minute per token, the 601st refused. Six
// hundred sequential calls: skipped by the race run (-short). The clock stands still.
func TestMCPReadLimitDefault(t *testing.T) {
	t.Parallel()
	// 601 sequential calls; TestMCPReadLimit covers the limiter in make test and under -race.
	storagetest.Long(t)
	frozen := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	forEachDialectWith(t, &tools.Options{Now: func() time.Time { return frozen }}, func(t *testing.T, s *server) {
		m := s.mcpProject(t, tokenAuth(s.ro))
		for i := 0; i < 600; i++ {
			if res := m.call(t, "list_projects", nil); res.IsError {
				t.Fatalf("read %d failed: %s", i+1, mcpText(res))
			}
		}
		mcpWantRateLimited(t, m, "list_projects", nil)
	})
}
