package main_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
)

// TestAutoTranslateSurvivesAKill: an assistant registers 200 strings, the server is killed
// (SIGKILL) while the model translates them, and restarted: every string ends translated
// into each language, each stored exactly once, within a minute of the restart.
//
// A server killed and restarted, and a model that takes its time: make test-long runs it.
func TestAutoTranslateSurvivesAKill(t *testing.T) {
	storagetest.Long(t)
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		model := aitest.New(t, func(c aitest.Call) aitest.Reply {
			out := map[string]string{}
			for id, s := range c.Strings {
				out[id] = strings.ToUpper(c.TargetLanguage) + " " + s
			}
			return aitest.Reply{Content: aitest.Content(out), Delay: 100 * time.Millisecond, PromptTokens: 50, CompletionTokens: 20}
		})
		f := makeFixture(t, dsn)
		key := str(t, jsonObject(t, []string{"key", "read_only"}, "key", "create", "--project", f.project, "--json", "--database", dsn), "key")
		env := []string{"LOKAL_AI_BASE_URL=" + model.URL, "LOKAL_AI_MODEL=test-model", "LOKAL_JOB_LEASE=2s",
			"LOKAL_AI_CONCURRENCY=2", "LOKAL_WORKERS=2"}
		addr := freeAddr(t)
		srv := startServeWith(t, addr, env, "serve", "--listen", addr, "--database", dsn)

		strs := map[string]string{}
		for i := range 200 {
			strs[fmt.Sprintf("s%03d", i)] = fmt.Sprintf("String %d for %%{name}", i)
		}
		args, _ := json.Marshal(map[string]any{"namespace_key": "app", "strings": strs})
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"register_source_strings","arguments":%s}}`, args)
		if code, out := srv.do(t, "POST", "/api/"+f.project+"/mcp", "Token token="+key, body); code != http.StatusOK || strings.Contains(string(out), `"isError":true`) {
			t.Fatalf("register_source_strings: %d %s", code, out)
		}
		poll(t, 30*time.Second, "the model to be called", func() bool { return len(model.Calls()) >= 6 })
		if err := srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-srv.done
		calledBefore := len(model.Calls())
		if calledBefore >= 40 {
			t.Fatalf("all 40 batches were called before the kill; nothing is left to resume")
		}

		srv = startServeWith(t, addr, env, "serve", "--listen", addr, "--database", dsn)
		poll(t, 60*time.Second, "every string translated after the restart", func() bool {
			code, out := srv.do(t, "POST", "/api/"+f.project+"/mcp", "Token token="+key,
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_project_status","arguments":{}}}`)
			if code != http.StatusOK {
				return false
			}
			var res struct {
				Result struct {
					StructuredContent struct {
						Languages []struct {
							Language           string
							Missing, Queued    int
							Translated, Failed int
						}
					} `json:"structuredContent"`
				}
			}
			if err := json.Unmarshal(out, &res); err != nil || len(res.Result.StructuredContent.Languages) == 0 {
				return false
			}
			for _, l := range res.Result.StructuredContent.Languages {
				if l.Language != "en" && (l.Missing != 0 || l.Translated != 200) {
					return false
				}
			}
			return true
		})
		srv.stop(t)

		db := storagetest.SQL(t, dsn)
		var stored, twice int
		if err := db.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM translation_history WHERE actor = 'ai:test-model'`).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM (SELECT key_id, language FROM translation_history
WHERE actor = 'ai:test-model' GROUP BY key_id, language HAVING COUNT(*) > 1) AS d`).Scan(&twice); err != nil {
			t.Fatal(err)
		}
		if stored != 400 || twice != 0 {
			t.Errorf("%d AI writes (%d rows written more than once), want 400 strings stored exactly once", stored, twice)
		}
		t.Logf("%d model calls before the kill, %d in all", calledBefore, len(model.Calls()))

		// The ledger has every call that finished; calls cut off by the kill never answered.
		u := jsonObject(t, []string{"by_model", "calls", "completion_tokens", "project_id", "prompt_tokens", "since",
			"strings_failed", "strings_from_memory", "strings_translated"}, "usage", "--project", f.project, "--json", "--database", dsn)
		calls, all := int(u["calls"].(float64)), len(model.Calls())
		if u["strings_translated"].(float64) != 400 || calls < 40 || calls > all || u["prompt_tokens"].(float64) != float64(50*calls) {
			t.Errorf("lokal usage %v, want 400 strings translated in 40 to %d calls of 50 prompt tokens", u, all)
		}
		if r := lokal(t, nil, "usage", "--project", f.project, "--since", "last week", "--database", dsn); r.code == 0 || !strings.Contains(r.stderr, "RFC 3339") {
			t.Errorf("lokal usage --since 'last week': exit %d, stderr %q; want a refusal naming RFC 3339", r.code, r.stderr)
		}
	})
}
