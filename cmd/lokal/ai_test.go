package main_test

// lokal ai set and show run as a process: the workspace key piped on stdin and never shown
// or stored in plain text, the resolution order, the private-network refusal, and the
// secret key's rules (a key file beside SQLite; PostgreSQL refusing without
// LOKAL_SECRET_KEY). Base URLs are decision inputs only: nothing here calls a provider.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/secrets"
)

const aiKey = "sk-test-Zq8sV1e7-never-shown"

var aiShowFields = []string{"configured", "source", "base_url", "model", "instructions"}

// lokalStdin runs the binary with stdin, and fails the test if the API key was printed.
func lokalStdin(t *testing.T, env []string, stdin string, args ...string) result {
	t.Helper()
	r := lokalIn(t, env, stdin, args...)
	if strings.Contains(r.stdout+r.stderr, aiKey) {
		t.Errorf("lokal %s printed the API key: stdout %q stderr %q", strings.Join(args, " "), r.stdout, r.stderr)
	}
	return r
}

// aiJSON runs a command that must succeed and returns its one JSON object.
func aiJSON(t *testing.T, env []string, stdin string, args ...string) map[string]any {
	t.Helper()
	r := lokalStdin(t, env, stdin, append(args, "--json")...)
	if r.code != 0 {
		t.Fatalf("lokal %s exited %d: %s", strings.Join(args, " "), r.code, r.stderr)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &obj); err != nil {
		t.Fatalf("lokal %s printed %q: %v", strings.Join(args, " "), r.stdout, err)
	}
	return obj
}

// aiFails runs a command that must fail and returns its one line of stderr.
func aiFails(t *testing.T, env []string, stdin string, args ...string) string {
	t.Helper()
	r := lokalStdin(t, env, stdin, args...)
	if r.code == 0 || r.stdout != "" {
		t.Fatalf("lokal %s: exit %d, stdout %q; want a failure", strings.Join(args, " "), r.code, r.stdout)
	}
	line := strings.TrimSuffix(r.stderr, "\n")
	if line == "" || strings.Contains(line, "\n") {
		t.Errorf("lokal %s: stderr %q, want one line", strings.Join(args, " "), r.stderr)
	}
	return line
}

func sqlitePathOf(dsn string) string {
	p, _ := strings.CutPrefix(dsn, "sqlite:")
	return strings.TrimPrefix(p, "//")
}

// rawRow reads one row as strings, every column, straight from the database.
func rawRow(t *testing.T, dsn, query string, args ...any) map[string]string {
	t.Helper()
	db := storagetest.SQL(t, dsn)
	rows, err := db.QueryContext(t.Context(), query, args...)
	if err != nil {
		t.Fatalf("reading back: %v", err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	if !rows.Next() {
		t.Fatalf("reading back %q: no row", query)
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, c := range cols {
		switch v := vals[i].(type) {
		case []byte:
			out[c] = string(v)
		case string:
			out[c] = v
		case nil:
			out[c] = ""
		default:
			out[c] = fmt.Sprint(v)
		}
	}
	return out
}

// TestCLIAI covers ai set and show on each dialect.
func TestCLIAI(t *testing.T) {
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		pg := !strings.HasPrefix(dsn, "sqlite:")
		db := []string{"--database", dsn}
		// 203.0.113.0/24 is a documentation network: allowed here only so that a literal
		// address passes the guard; nothing is called.
		allowDoc := "LOKAL_ALLOW_PRIVATE_NETS=203.0.113.0/24"
		setWS := append([]string{"ai", "set", "--workspace", f.workspace, "--base-url", "https://203.0.113.10/v1/",
			"--model", "ws-model", "--api-key-stdin"}, db...)
		show := append([]string{"ai", "show", "--project", f.project}, db...)

		// Nothing configured: source none.
		wantJSON(t, "nothing configured", aiJSON(t, nil, "", show...),
			`{"configured":false,"source":"none","base_url":"","model":"","instructions":""}`)
		// The operator's default, when the workspace has none; its key is never shown.
		server := []string{"LOKAL_AI_BASE_URL=http://127.0.0.1:9/v1", "LOKAL_AI_MODEL=server-model", "LOKAL_AI_API_KEY=" + aiKey}
		wantJSON(t, "server default", aiJSON(t, server, "", show...),
			`{"configured":true,"source":"server","base_url":"http://127.0.0.1:9/v1","model":"server-model","instructions":""}`)

		var env []string
		if pg {
			// PostgreSQL has no place for a key file: storing a key needs LOKAL_SECRET_KEY.
			msg := aiFails(t, []string{allowDoc}, aiKey, setWS...)
			if !strings.Contains(msg, "LOKAL_SECRET_KEY") {
				t.Errorf("storing a key on PostgreSQL without LOKAL_SECRET_KEY: %q, want LOKAL_SECRET_KEY named", msg)
			}
			wantJSON(t, "after the refused set", aiJSON(t, nil, "", show...),
				`{"configured":false,"source":"none","base_url":"","model":"","instructions":""}`)
			env = []string{"LOKAL_SECRET_KEY=" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{9}, 32))}
		} else {
			if _, err := os.Stat(secrets.KeyFile(sqlitePathOf(dsn))); !os.IsNotExist(err) {
				t.Fatalf("a key file exists before any secret was stored: %v", err)
			}
		}

		set := aiJSON(t, append(env, allowDoc), aiKey+"\n", setWS...)
		wantJSON(t, "ai set --workspace", set,
			`{"workspace":"`+f.workspace+`","base_url":"https://203.0.113.10/v1","model":"ws-model","key_set":true}`)
		if !pg {
			fi, err := os.Stat(secrets.KeyFile(sqlitePathOf(dsn)))
			if err != nil {
				t.Fatalf("no key file beside the SQLite database: %v", err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("key file mode %v, want 0600", fi.Mode().Perm())
			}
		}
		// The workspace's provider wins over the operator's.
		wantJSON(t, "workspace provider", aiJSON(t, append(env, server...), "", show...),
			`{"configured":true,"source":"workspace","base_url":"https://203.0.113.10/v1","model":"ws-model","instructions":""}`)

		// The project's model and instructions come first.
		p := aiJSON(t, env, "", append([]string{"ai", "set", "--project", f.project, "--model", "proj-model",
			"--instructions", "Use the formal you."}, db...)...)
		checkFields(t, "ai set --project", p, aiShowFields)
		want := `{"configured":true,"source":"workspace","base_url":"https://203.0.113.10/v1","model":"proj-model","instructions":"Use the formal you."}`
		wantJSON(t, "ai set --project", p, want)
		wantJSON(t, "project model over the workspace's", aiJSON(t, env, "", show...), want)

		// A later set without --api-key-stdin keeps the key while the base URL stays.
		again := aiJSON(t, append(env, allowDoc), "", append([]string{"ai", "set", "--workspace", f.workspace,
			"--base-url", "https://203.0.113.10/v1", "--model", "ws-model-2"}, db...)...)
		if again["key_set"] != true || again["model"] != "ws-model-2" {
			t.Errorf("the key was lost by a set without --api-key-stdin: %v", again)
		}
		// A new base URL without the key clears the stored key and says so: the stored key is
		// never sent to an address it was not given for.
		moved := append([]string{"ai", "set", "--workspace", f.workspace, "--base-url", "https://203.0.113.11/v1", "--model", "ws-model-2"}, db...)
		cleared := aiJSON(t, append(env, allowDoc), "", moved...)
		if cleared["key_set"] != false || cleared["key_cleared"] != true || cleared["base_url"] != "https://203.0.113.11/v1" {
			t.Errorf("moving the provider without its key: %v, want the new URL with the key cleared", cleared)
		}
		if row := rawRow(t, dsn, "SELECT * FROM workspaces WHERE id = $1", f.workspace); row["ai_key_enc"] != "" && row["ai_key_enc"] != "<nil>" {
			t.Errorf("after a keyless move ai_key_enc = %q, want empty", row["ai_key_enc"])
		}
		// With the key given, both change together.
		again = aiJSON(t, append(env, allowDoc), aiKey+"\n", append(moved, "--api-key-stdin")...)
		if again["key_set"] != true || again["base_url"] != "https://203.0.113.11/v1" {
			t.Errorf("moving the provider with its key: %v", again)
		}

		// At rest the key is sealed: no column of the row holds it.
		row := rawRow(t, dsn, "SELECT * FROM workspaces WHERE id = $1", f.workspace)
		if !strings.HasPrefix(row["ai_key_enc"], "v1:") {
			t.Errorf("ai_key_enc = %q, want v1: ciphertext", row["ai_key_enc"])
		}
		for col, v := range row {
			if strings.Contains(v, aiKey) || strings.Contains(v, "Zq8sV1e7") {
				t.Errorf("workspaces.%s holds the key in plain text", col)
			}
		}

		// What the AI endpoint will use: the key opened with the same secret key.
		box, err := secrets.Load(strings.TrimPrefix(strings.Join(env, ""), "LOKAL_SECRET_KEY="), func() string {
			if pg {
				return ""
			}
			return sqlitePathOf(dsn)
		}())
		if err != nil {
			t.Fatal(err)
		}
		store, err := storage.Open(t.Context(), dsn, &storage.Options{MustExist: true})
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		cat := storagetest.Catalog(store, &tools.Options{Secrets: box})
		r, err := cat.ResolveAI(model.WithPrincipal(t.Context(), tools.System), f.project)
		if err != nil {
			t.Fatalf("ResolveAI: %v", err)
		}
		if r.Config.APIKey != aiKey || r.Config.BaseURL != "https://203.0.113.11/v1" || r.Config.Model != "proj-model" ||
			r.Instructions != "Use the formal you." || r.Source != tools.AISourceWorkspace || r.Config.HTTPClient == nil {
			t.Errorf("ResolveAI = %v (key matches: %v), want the workspace provider, project model and the key", r, r.Config.APIKey == aiKey)
		}
		if strings.Contains(r.String(), aiKey) {
			t.Error("ResolvedAI.String shows the key")
		}
		// Another secret key does not open it, and says so without a panic.
		other, _ := secrets.New(bytes.Repeat([]byte{7}, 32))
		if _, err := storagetest.Catalog(store, &tools.Options{Secrets: other}).ResolveAI(model.WithPrincipal(t.Context(), tools.System), f.project); err == nil ||
			!strings.Contains(err.Error(), "another key") {
			t.Errorf("ResolveAI with another secret key: %v, want a clear error", err)
		}

		// Clearing the project model goes back to the workspace's.
		wantJSON(t, "project model cleared", aiJSON(t, env, "", append([]string{"ai", "set", "--project", f.project, "--model="}, db...)...),
			`{"configured":true,"source":"workspace","base_url":"https://203.0.113.11/v1","model":"ws-model-2","instructions":"Use the formal you."}`)
	})
}

// TestCLIAIRefusals: private base URLs unless allowed, the key only on stdin, and the
// flags that belong to the other form of ai set.
func TestCLIAIRefusals(t *testing.T) {
	dsn := freshDSN(t, "sqlite")
	f := makeFixture(t, dsn)
	db := []string{"--database", dsn}
	ws := func(url string, extra ...string) []string {
		return append(append([]string{"ai", "set", "--workspace", f.workspace, "--base-url", url, "--model", "m"}, db...), extra...)
	}
	for _, url := range []string{"http://10.0.0.5:11434/v1", "http://127.0.0.1:11434/v1", "http://[::1]:8080/v1",
		"http://169.254.169.254/latest", "http://[::ffff:192.168.1.2]/v1"} {
		msg := aiFails(t, nil, "", ws(url)...)
		if !strings.Contains(msg, "refused") || !strings.Contains(msg, "LOKAL_ALLOW_PRIVATE_NETS") {
			t.Errorf("base URL %s: %q, want a refusal naming LOKAL_ALLOW_PRIVATE_NETS", url, msg)
		}
	}
	// Allowed by the operator, through the environment or the flag.
	ok := aiJSON(t, []string{"LOKAL_ALLOW_PRIVATE_NETS=10.0.0.0/8"}, "", ws("http://10.0.0.5:11434/v1")...)
	if ok["base_url"] != "http://10.0.0.5:11434/v1" || ok["key_set"] != false {
		t.Errorf("allowed private base URL: %v", ok)
	}
	aiJSON(t, nil, "", ws("http://127.0.0.1:11434/v1", "--allow-private-nets", "127.0.0.1")...)

	for _, tc := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{ws("ftp://203.0.113.1/v1"), "", "http or https"},
		{ws("not a url"), "", "http or https"},
		{ws("https://203.0.113.1/v1?x=1", "--allow-private-nets", "203.0.113.0/24"), "", "query"},
		{ws("https://203.0.113.1/v1", "--api-key", aiKey), "", "unknown flag --api-key"},
		{ws("https://203.0.113.1/v1", "--api-key-stdin"), "  \n", "stdin is empty"},
		{append([]string{"ai", "set", "--project", "p", "--base-url", "https://203.0.113.1/v1"}, db...), "", "--base-url is a workspace setting"},
		{append([]string{"ai", "set", "--project", "p", "--workspace", f.workspace}, db...), "", "exactly one of"},
		{append([]string{"ai", "set", "--workspace", f.workspace, "--model", "m"}, db...), "", "--base-url is required"},
		{append([]string{"ai", "set", "--project", f.project}, db...), "", "--model or --instructions"},
		{append([]string{"ai", "show", "--project", "nope"}, db...), "", "not found"},
	} {
		if msg := aiFails(t, nil, tc.stdin, tc.args...); !strings.Contains(msg, tc.want) {
			t.Errorf("lokal %s: %q, want %q", strings.Join(tc.args, " "), msg, tc.want)
		}
	}
	// A bad LOKAL_SECRET_KEY stops the command before anything is stored.
	if msg := aiFails(t, []string{"LOKAL_SECRET_KEY=short"}, aiKey, ws("http://10.0.0.5/v1", "--api-key-stdin", "--allow-private-nets", "10.0.0.0/8")...); !strings.Contains(msg, "LOKAL_SECRET_KEY") {
		t.Errorf("bad LOKAL_SECRET_KEY: %q", msg)
	}
}
