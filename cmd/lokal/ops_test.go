package main_test

// The operator commands run as a process: project list, show and set; key and token list
// and revoke (and a revoked key refused by a running server within a second); backup; the
// checks that come before any database is created; version.

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	_ "modernc.org/sqlite"
)

// fails runs a command that must fail and returns its one line of stderr.
func fails(t *testing.T, env []string, args ...string) string {
	t.Helper()
	r := lokal(t, env, args...)
	if r.code == 0 {
		t.Fatalf("lokal %s exited 0, want a failure; stdout %q", strings.Join(args, " "), r.stdout)
	}
	if r.stdout != "" {
		t.Errorf("lokal %s printed %q on stdout, want nothing", strings.Join(args, " "), r.stdout)
	}
	line := strings.TrimSuffix(r.stderr, "\n")
	if line == "" || strings.Contains(line, "\n") {
		t.Errorf("lokal %s: stderr %q, want one line", strings.Join(args, " "), r.stderr)
	}
	return line
}

// TestCLIProjectSettings covers project list, show and set: each flag, that only the flags
// given change anything, clearing lists, and the validation of every kind of value.
func TestCLIProjectSettings(t *testing.T) {
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		db := []string{"--database", dsn, "--json"}

		list := jsonObject(t, []string{"projects"}, append([]string{"project", "list", "--workspace", f.workspace}, db...)...)
		ps, _ := list["projects"].([]any)
		if len(ps) != 1 || ps[0].(map[string]any)["id"] != f.project {
			t.Fatalf("project list: %v", list)
		}
		for k := range ps[0].(map[string]any) {
			if !contains(projectFields, k) {
				t.Errorf("project list shows field %q, not in the Project object", k)
			}
		}

		show := jsonObject(t, showFields, append([]string{"project", "show", "--project", f.project}, db...)...)
		settings := show["settings"].(map[string]any)
		wantJSON(t, "new project settings", settings, `{"allowed_origins":[],"hosts":[],"show_switcher":true,"keep_site_up_to_date":false,
			"capabilities":{"mode":"swap","jit_harvest":false,"auto_apply":false},"syntax":{"names":[],"source":"detected"}}`)

		set := func(args ...string) map[string]any {
			t.Helper()
			return jsonObject(t, showFields,
				append(append([]string{"project", "set", "--project", f.project}, args...), db...)...)
		}
		p := set("--title", "Shop", "--languages", "nb,de", "--editable", "en,de", "--auto-translate", "de",
			"--integration-type", "embed", "--allowed-origins", "HTTPS://Shop.Example:443/,https://*.cdn.example",
			"--hosts", "Shop.Example.,www.shop.example", "--show-switcher=false", "--keep-site-up-to-date=true",
			"--mode", "off", "--jit-harvest=true", "--auto-apply", "--syntax", "html,icu")
		wantJSON(t, "project after set", p, fmt.Sprintf(`{"id":%q,"title":"Shop","source_language":"en",
			"enabled_languages":["en","nb","de"],"editable_languages":["en","de"],"namespaces":[],"deploy_configured":false,
			"integration_type":"embed","auto_translate_languages":["de"],
			"settings":{"allowed_origins":["https://shop.example:443","https://*.cdn.example"],
				"hosts":["shop.example","www.shop.example"],"show_switcher":false,"keep_site_up_to_date":true,
				"capabilities":{"mode":"off","jit_harvest":true,"auto_apply":true},"syntax":{"names":["icu","html"],"source":"set"}},
			"namespace_counts":[],"newest_page_strings":[]}`, f.project))

		// Only the flags given change anything; show answers what set did.
		p = set("--jit-harvest=false")
		settings = p["settings"].(map[string]any)
		if p["title"] != "Shop" || settings["show_switcher"] != false || settings["capabilities"].(map[string]any)["jit_harvest"] != false ||
			settings["capabilities"].(map[string]any)["auto_apply"] != true || len(settings["hosts"].([]any)) != 2 {
			t.Errorf("set --jit-harvest=false changed more: %v", p)
		}
		again := jsonObject(t, nil, append([]string{"project", "show", "--project", f.project}, db...)...)
		if !sameJSON(mustJSON(t, again), string(mustJSON(t, p))) {
			t.Errorf("project show %v differs from what set answered %v", again, p)
		}

		// An empty list clears it; a language taken off leaves the editable and
		// auto-translate lists too, and comes back editable and auto-translated.
		p = set("--hosts=", "--allowed-origins=", "--languages=nb")
		wantJSON(t, "cleared", map[string]any{"enabled": p["enabled_languages"], "editable": p["editable_languages"],
			"auto": p["auto_translate_languages"], "hosts": p["settings"].(map[string]any)["hosts"],
			"origins": p["settings"].(map[string]any)["allowed_origins"]},
			`{"enabled":["en","nb"],"editable":["en"],"auto":[],"hosts":[],"origins":[]}`)
		p = set("--languages", "nb,de")
		if got := fmt.Sprint(p["editable_languages"], p["auto_translate_languages"]); got != "[en de] [de]" {
			t.Errorf("de turned back on: editable and auto-translate %s, want [en de] [de]", got)
		}

		// A host belongs to one project.
		set("--hosts", "shop.example")
		other := str(t, jsonObject(t, projectFields, "project", "create", "--workspace", f.workspace, "--title", "Other",
			"--source", "en", "--json", "--database", dsn), "id")
		msg := fails(t, nil, "project", "set", "--project", other, "--hosts", "blog.example,SHOP.example", "--database", dsn)
		if !strings.Contains(msg, "host shop.example is bound to another project") {
			t.Errorf("a host bound twice: %q", msg)
		}
		if h := jsonObject(t, nil, "project", "show", "--project", other, "--json", "--database", dsn)["settings"].(map[string]any)["hosts"]; len(h.([]any)) != 0 {
			t.Errorf("a refused set bound hosts anyway: %v", h)
		}
		set("--hosts", "blog.example")
		jsonObject(t, nil, "project", "set", "--project", other, "--hosts", "shop.example", "--json", "--database", dsn)

		for _, tt := range []struct {
			args []string
			want string
		}{
			{[]string{"--languages", "nb,xx"}, `language "xx" is not a BCP 47 language tag`},
			{[]string{"--languages", "nb,xx-!!"}, `language "xx-!!" is not a BCP 47 language tag`},
			{[]string{"--editable", "sv"}, "editable language sv is not enabled (enabled: en, nb, de)"},
			{[]string{"--languages", "nb", "--auto-translate", "de"}, "auto-translate language de is not enabled (enabled: en, nb)"},
			{[]string{"--integration-type", "i18next"}, "integration type must be one of api, embed"},
			{[]string{"--mode", "fade"}, "mode must be swap or off"},
			{[]string{"--allowed-origins", "shop.example"}, `allowed origin "shop.example"`},
			{[]string{"--allowed-origins", "ftp://shop.example"}, "the scheme must be http or https"},
			{[]string{"--allowed-origins", "https://shop.example/path"}, "an origin has no user, path, query or fragment"},
			{[]string{"--allowed-origins", "https://shop.example:99999"}, "the port must be 1 to 65535"},
			{[]string{"--hosts", "https://shop.example"}, "is not a host name"},
			{[]string{"--hosts", "192.0.2.1"}, "is an IP address, not a host name"},
			{[]string{"--hosts", "bad_host.example"}, "is not a host name"},
			{[]string{"--title="}, "project title must be 1 to 200 characters"},
			{[]string{"--show-switcher=maybe"}, `--show-switcher takes true or false, not "maybe"`},
		} {
			msg := fails(t, nil, append(append([]string{"project", "set", "--project", f.project}, tt.args...), "--database", dsn)...)
			if !strings.Contains(msg, tt.want) {
				t.Errorf("project set %v: %q, want it to say %q", tt.args, msg, tt.want)
			}
		}
		unknown := "00000000-0000-4000-8000-000000000000"
		for _, args := range [][]string{
			{"project", "show", "--project", unknown},
			{"project", "set", "--project", unknown, "--title", "X"},
			{"project", "list", "--workspace", unknown},
		} {
			if msg := fails(t, nil, append(args, "--database", dsn)...); !strings.Contains(msg, "not found") {
				t.Errorf("%v: %q, want not found", args, msg)
			}
		}
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func wantJSON(t *testing.T, what string, got any, want string) {
	t.Helper()
	if b := mustJSON(t, got); !sameJSON(b, want) {
		t.Errorf("%s:\n got %s\nwant %s", what, b, strings.Join(strings.Fields(want), ""))
	}
}

var prefixRE = regexp.MustCompile(`^(lk_|pat_|pat_ws_)[0-9a-f]{6}$`)

// TestCLIKeysAndTokens lists keys and tokens with the fields of the contract, checks that a
// prefix is the start of its token, and revokes.
func TestCLIKeysAndTokens(t *testing.T) {
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		key := str(t, jsonObject(t, nil, "key", "create", "--project", f.project, "--json", "--database", dsn), "key")
		jsonObject(t, nil, "key", "create", "--project", f.project, "--read-only", "--json", "--database", dsn)
		pat := str(t, jsonObject(t, nil, "token", "create", "--user", f.user, "--project", f.project, "--json", "--database", dsn), "token")
		wsTok := str(t, jsonObject(t, nil, "token", "create", "--user", f.user, "--workspace", f.workspace, "--json", "--database", dsn), "token")

		keyFields := []string{"id", "prefix", "read_only", "created_at", "last_used_at", "revoked_at"}
		keys := jsonObject(t, []string{"keys"}, "key", "list", "--project", f.project, "--json", "--database", dsn)["keys"].([]any)
		if len(keys) != 2 {
			t.Fatalf("key list: %v", keys)
		}
		for i, want := range []struct {
			token    string
			readOnly bool
		}{{key, false}, {"", true}} {
			k := keys[i].(map[string]any)
			checkFields(t, "key", k, keyFields)
			p, _ := k["prefix"].(string)
			if !prefixRE.MatchString(p) || (want.token != "" && !strings.HasPrefix(want.token, p)) {
				t.Errorf("key %d prefix %q, want the start of its key", i, p)
			}
			if k["read_only"] != want.readOnly || k["last_used_at"] != nil || k["revoked_at"] != nil {
				t.Errorf("key %d: %v", i, k)
			}
			if _, err := time.Parse(time.RFC3339Nano, k["created_at"].(string)); err != nil {
				t.Errorf("created_at: %v", err)
			}
		}

		tokFields := []string{"id", "prefix", "scope", "project_id", "workspace_id", "created_at", "last_used_at", "revoked_at"}
		toks := jsonObject(t, []string{"tokens"}, "token", "list", "--user", f.user, "--json", "--database", dsn)["tokens"].([]any)
		if len(toks) != 2 {
			t.Fatalf("token list: %v", toks)
		}
		for i, want := range []struct {
			token, scope string
			project      any
		}{{pat, "project", f.project}, {wsTok, "workspace", nil}} {
			tk := toks[i].(map[string]any)
			checkFields(t, "token", tk, tokFields)
			if p, _ := tk["prefix"].(string); !prefixRE.MatchString(p) || !strings.HasPrefix(want.token, p) {
				t.Errorf("token %d prefix %q, want the start of %s…", i, p, want.token[:12])
			}
			if tk["scope"] != want.scope || tk["project_id"] != want.project || tk["workspace_id"] != f.workspace {
				t.Errorf("token %d: %v", i, tk)
			}
		}

		keyID := keys[0].(map[string]any)["id"].(string)
		r := jsonObject(t, []string{"id", "revoked_at"}, "key", "revoke", "--id", keyID, "--json", "--database", dsn)
		if r["id"] != keyID {
			t.Errorf("key revoke: %v", r)
		}
		// Twice is fine and answers the first time.
		if again := jsonObject(t, nil, "key", "revoke", "--id", keyID, "--json", "--database", dsn); again["revoked_at"] != r["revoked_at"] {
			t.Errorf("revoking twice: %v then %v", r, again)
		}
		if k := jsonObject(t, nil, "key", "list", "--project", f.project, "--json", "--database", dsn)["keys"].([]any)[0].(map[string]any); k["revoked_at"] != r["revoked_at"] {
			t.Errorf("key list after revoke: %v, want revoked_at %v", k, r["revoked_at"])
		}
		tokID := toks[1].(map[string]any)["id"].(string)
		jsonObject(t, []string{"id", "revoked_at"}, "token", "revoke", "--id", tokID, "--json", "--database", dsn)

		// A key is not a token and the other way round.
		for _, args := range [][]string{
			{"token", "revoke", "--id", keyID},
			{"key", "revoke", "--id", tokID},
			{"key", "list", "--project", "00000000-0000-4000-8000-000000000000"},
			{"token", "list", "--user", "00000000-0000-4000-8000-000000000000"},
		} {
			if msg := fails(t, nil, append(args, "--database", dsn)...); !strings.Contains(msg, "not found") {
				t.Errorf("%v: %q, want not found", args, msg)
			}
		}
		if out := lokal(t, nil, "key", "list", "--project", f.project, "--database", dsn); out.code != 0 || !strings.Contains(out.stdout, "revoked") {
			t.Errorf("key list as text: %d %q", out.code, out.stdout)
		}
	})
}

func checkFields(t *testing.T, what string, obj map[string]any, fields []string) {
	t.Helper()
	if len(obj) != len(fields) {
		t.Errorf("%s has fields %v, want %v", what, obj, fields)
	}
	for _, f := range fields {
		if _, ok := obj[f]; !ok {
			t.Errorf("%s has no %q: %v", what, f, obj)
		}
	}
}

// TestCLINamesKeysAndTokens: --name on create is what key list and token list show, so an
// operator can tell the CI key from the shipped one; a name too long is refused.
func TestCLINamesKeysAndTokens(t *testing.T) {
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		jsonObject(t, []string{"key", "read_only"}, "key", "create", "--project", f.project, "--name", "GitHub Actions", "--json", "--database", dsn)
		jsonObject(t, []string{"token"}, "token", "create", "--user", f.user, "--project", f.project, "--name", "Claude Code", "--json", "--database", dsn)
		k := jsonObject(t, nil, "key", "list", "--project", f.project, "--json", "--database", dsn)["keys"].([]any)[0].(map[string]any)
		if k["name"] != "GitHub Actions" {
			t.Errorf("key list: %v, want the name given at create", k)
		}
		tk := jsonObject(t, nil, "token", "list", "--user", f.user, "--json", "--database", dsn)["tokens"].([]any)[0].(map[string]any)
		if tk["name"] != "Claude Code" {
			t.Errorf("token list: %v, want the name given at create", tk)
		}
		if out := lokal(t, nil, "key", "create", "--project", f.project, "--name", strings.Repeat("x", 101), "--json", "--database", dsn); out.code == 0 {
			t.Errorf("a 101-character name was accepted: %s", out.stdout)
		}
		if n := len(jsonObject(t, nil, "key", "list", "--project", f.project, "--json", "--database", dsn)["keys"].([]any)); n != 1 {
			t.Errorf("%d keys after a refused create, want 1", n)
		}
	})
}

// TestRevokedKeyRefusedWithinASecond runs the API on one database handle and revokes a key
// in use with the CLI, a second process: the server answers 401 within one second of the
// revocation, and meanwhile records the key's last use.
func TestRevokedKeyRefusedWithinASecond(t *testing.T) {
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		key := str(t, jsonObject(t, nil, "key", "create", "--project", f.project, "--json", "--database", dsn), "key")
		db, err := storage.Open(t.Context(), dsn, &storage.Options{MustExist: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		hs := httptest.NewServer(rest.New(storagetest.Catalog(db, nil), &rest.Options{Logger: slog.New(slog.DiscardHandler), Health: db.Ping}))
		t.Cleanup(hs.Close)
		put, _ := http.NewRequestWithContext(t.Context(), "PUT", hs.URL+"/api/sync/"+f.project+"/latest/en/common",
			strings.NewReader(`{"translations":{"hello":"Hello"}}`))
		put.Header.Set("Authorization", "Token token="+key)
		if res, err := http.DefaultClient.Do(put); err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("syncing with the key: %v %v", res, err)
		} else {
			res.Body.Close()
		}
		get := func() int {
			req, _ := http.NewRequestWithContext(t.Context(), "GET", hs.URL+"/api/"+f.project+"/latest/en/common", nil)
			req.Header.Set("Authorization", "Token token="+key)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			return res.StatusCode
		}
		if s := get(); s != http.StatusOK {
			t.Fatalf("the key before revocation: %d", s)
		}
		// The use is recorded in the background, once: poll for it.
		var keyID string
		poll(t, 10*time.Second, "key list to show the key's last use", func() bool {
			k := jsonObject(t, nil, "key", "list", "--project", f.project, "--json", "--database", dsn)["keys"].([]any)[0].(map[string]any)
			keyID = k["id"].(string)
			return k["last_used_at"] != nil
		})
		if s := get(); s != http.StatusOK { // the key is in the server's auth cache
			t.Fatalf("the key before revocation: %d", s)
		}

		lokal(t, nil, "key", "revoke", "--id", keyID, "--database", dsn)
		revoked := time.Now()
		for {
			s := get()
			if s == http.StatusUnauthorized {
				break
			}
			if s != http.StatusOK {
				t.Fatalf("while waiting for the revocation: %d", s)
			}
			if time.Since(revoked) > time.Second {
				t.Fatalf("the revoked key still works %v after the revocation", time.Since(revoked))
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// TestCLIBackup backs up a SQLite database while another handle keeps writing, and opens
// the copy: it is whole and holds at least what was written before the backup began.
func TestCLIBackup(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		dsn := freshDSN(t, "sqlite")
		db, err := storage.Open(t.Context(), dsn, &storage.Options{MustExist: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		cat := storagetest.Catalog(db, nil)
		ctx := model.WithPrincipal(t.Context(), tools.System)
		var written atomic.Int64
		write := func() {
			if _, err := cat.CreateWorkspace(ctx, tools.CreateWorkspaceIn{Name: "w"}); err != nil {
				t.Error(err)
			}
			written.Add(1)
		}
		for range 20 {
			write()
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					write()
				}
			}
		}()
		before := written.Load()
		to := filepath.Join(t.TempDir(), "copy.db")
		out := jsonObject(t, []string{"path", "bytes"}, "backup", "--to", to, "--json", "--database", dsn)
		close(stop)
		wg.Wait()
		if out["path"] != to {
			t.Errorf("backup printed %v", out)
		}

		copyDB, err := sql.Open("sqlite", "file:"+to+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer copyDB.Close()
		var check string
		var n int64
		if err := copyDB.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
			t.Errorf("integrity_check of the copy: %q, %v", check, err)
		}
		if err := copyDB.QueryRow("SELECT COUNT(*) FROM workspaces").Scan(&n); err != nil || n < before {
			t.Errorf("the copy has %d workspaces (%v), want at least the %d written before the backup", n, err, before)
		}

		if msg := fails(t, nil, "backup", "--to", to, "--database", dsn); !strings.Contains(msg, "already exists") {
			t.Errorf("backup over an existing file: %q", msg)
		}
		if msg := fails(t, nil, "backup", "--to", filepath.Join(t.TempDir(), "no", "x.db"), "--database", dsn); !strings.Contains(msg, "does not exist") {
			t.Errorf("backup into a missing directory: %q", msg)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := freshDSN(t, "postgres")
		if msg := fails(t, nil, "backup", "--to", filepath.Join(t.TempDir(), "x.db"), "--database", dsn); !strings.Contains(msg, "pg_dump") {
			t.Errorf("backup on PostgreSQL: %q, want it to point to pg_dump", msg)
		}
	})
}

// TestCLIDatabaseChecks covers what is refused before a database is opened or created.
func TestCLIDatabaseChecks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missingDir := filepath.Join(dir, "nonexistent", "dir")
	for _, tt := range []struct {
		dsn, want string
	}{
		{"sqlite:" + filepath.Join(missingDir, "x.db"), "the directory " + missingDir + " does not exist"},
		{"sqlite::memory:", "an in-memory database is not supported"},
		{"sqlite:file::memory:?cache=shared", "an in-memory database is not supported"},
		{"sqlite:" + filepath.Join(dir, "none.db"), "no database at " + filepath.Join(dir, "none.db") + " (run `lokal serve` there first, or pass --database / LOKAL_DATABASE)"},
	} {
		msg := fails(t, nil, "project", "list", "--workspace", "w", "--database", tt.dsn)
		if !strings.Contains(msg, tt.want) || strings.Contains(msg, "out of memory") {
			t.Errorf("%s: %q, want it to say %q", tt.dsn, msg, tt.want)
		}
		if strings.Contains(tt.want, "no database") {
			continue // serve creates it
		}
		// serve checks the same, after its address.
		if msg := fails(t, nil, "serve", "--listen", "127.0.0.1:0", "--database", tt.dsn); !strings.Contains(msg, tt.want) {
			t.Errorf("serve on %s: %q, want it to say %q", tt.dsn, msg, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); !os.IsNotExist(err) {
		t.Errorf("an admin command created the database (%v)", err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"project", "create", "--workspace", "--title", "X", "--source", "en"}, "lokal: --workspace needs a value"},
		{[]string{"project", "create", "--workspace", "w", "--source", "en"}, "lokal: --title is required (see lokal help project create)"},
		{[]string{"key", "create", "--project", "p", "--colour", "red"}, "lokal: unknown flag --colour for lokal key create (see lokal help key create)"},
		{[]string{"token", "create", "--user", "u"}, "lokal: give exactly one of --project and --workspace"},
	} {
		if msg := fails(t, []string{"LOKAL_DATABASE=" + freshDSN(t, "sqlite")}, tt.args...); msg != tt.want {
			t.Errorf("%v: %q, want %q", tt.args, msg, tt.want)
		}
	}
}

// TestServeBusyPort starts serve on a port in use: it fails before it creates the database
// or prints a token.
func TestServeBusyPort(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	path := filepath.Join(t.TempDir(), "lokal.db")
	r := lokal(t, nil, "serve", "--listen", ln.Addr().String(), "--database", "sqlite:"+path)
	if r.code == 0 || !strings.Contains(r.stderr, "address already in use") {
		t.Errorf("serve on a busy port: exit %d, stderr %q", r.code, r.stderr)
	}
	if strings.Contains(r.stdout, "pat_ws_") {
		t.Errorf("serve on a busy port printed a token:\n%s", r.stdout)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("serve on a busy port created the database (%v)", err)
	}
}

// TestHelpExitsZero runs help the ways a newcomer would.
func TestHelpExitsZero(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"help"}, {"-h"}, {"key", "list", "-h"}, {"help", "project", "set"}, {"project", "--help"}} {
		r := lokal(t, nil, args...)
		if r.code != 0 || r.stdout == "" || r.stderr != "" {
			t.Errorf("lokal %v: exit %d, stdout %d bytes, stderr %q", args, r.code, len(r.stdout), r.stderr)
		}
	}
	if r := lokal(t, nil, "project", "set", "-h"); !strings.Contains(r.stdout, "--keep-site-up-to-date") || !strings.Contains(r.stdout, "LOKAL_DATABASE") {
		t.Errorf("project set -h:\n%s", r.stdout)
	}
}

// TestVersion checks the version that -ldflags -X sets, in the binary TestMain built so;
// TestBuildVersion checks the build's own record, used when no -X is given.
func TestVersion(t *testing.T) {
	t.Parallel()
	v := jsonObject(t, []string{"version", "commit", "go"}, "version", "--json")
	if !sameJSON(mustJSON(t, v), fmt.Sprintf(`{"version":%q,"commit":%q,"go":%q}`, testVersion, testCommit, runtime.Version())) {
		t.Errorf("version --json of a release build: %v", v)
	}
	want := fmt.Sprintf("lokal %s (commit %s, %s)\n", testVersion, testCommit, runtime.Version())
	if r := lokal(t, nil, "version"); r.code != 0 || r.stdout != want {
		t.Errorf("version: %d %q, want %q", r.code, r.stdout, want)
	}
}
