package main_test

// These tests build the lokal binary once and run it as a process, the way scripts and
// operators use it: the admin commands' output contract, their failures, and `lokal serve`
// (bootstrap, health, changes made by the CLI while it runs, and SIGTERM).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
)

// lokalBin is the binary built by TestMain, once for the package: a release build, its
// version and commit set with -ldflags -X as the release and `make build` set them
// (TestVersion checks them; each link costs seconds of CPU).
var lokalBin string

const testVersion, testCommit = "v1.2.3", "0123abc"

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lokal-cmd-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, "creating a temporary directory:", err)
		os.Exit(1)
	}
	lokalBin = filepath.Join(dir, "lokal")
	build := exec.Command("go", "build", "-o", lokalBin,
		"-ldflags", "-X main.version="+testVersion+" -X main.commit="+testCommit, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building lokal:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := storagetest.Run(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one run of the binary printed and how it exited.
type result struct {
	stdout, stderr string
	code           int
}

// lokal runs the binary with args and env (added to a clean environment without the
// LOKAL_ variables of the caller) and waits for it; a minute is a guard, not an assertion.
func lokal(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return lokalIn(t, env, "", args...)
}

// lokalIn is lokal with stdin.
func lokalIn(t *testing.T, env []string, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lokalBin, args...)
	cmd.Env = append(cleanEnv(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("running lokal %s: %v", strings.Join(args, " "), err)
		}
		code = ee.ExitCode()
	}
	return result{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LOKAL_") {
			env = append(env, kv)
		}
	}
	return env
}

// jsonObject runs a command that must succeed and print exactly one JSON object with
// exactly the fields named (any fields when fields is nil); it returns the object.
func jsonObject(t *testing.T, fields []string, args ...string) map[string]any {
	t.Helper()
	r := lokal(t, nil, args...)
	if r.code != 0 {
		t.Fatalf("lokal %s exited %d: %s", strings.Join(args, " "), r.code, r.stderr)
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("lokal %s printed no JSON object (%v): %q", strings.Join(args, " "), err, r.stdout)
	}
	var extra any
	if err := dec.Decode(&extra); err != io.EOF {
		t.Fatalf("lokal %s printed more than one JSON value: %q", strings.Join(args, " "), r.stdout)
	}
	if fields == nil {
		return obj
	}
	got := make([]string, 0, len(obj))
	for k := range obj {
		got = append(got, k)
	}
	sort.Strings(got)
	want := append([]string(nil), fields...)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("lokal %s printed fields %v, want %v", strings.Join(args, " "), got, want)
	}
	return obj
}

// str is obj[k] as a string, failing when it is not one.
func str(t *testing.T, obj map[string]any, k string) string {
	t.Helper()
	s, ok := obj[k].(string)
	if !ok || s == "" {
		t.Fatalf("%s is %v, want a non-empty string", k, obj[k])
	}
	return s
}

var projectFields = []string{"id", "title", "source_language", "enabled_languages", "editable_languages",
	"namespaces", "deploy_configured", "integration_type", "auto_translate_languages"}

// showFields are the fields of `project show` and `project set`: the Project object, its
// settings, and what it holds.
var showFields = append(append([]string{}, projectFields...), "settings", "namespace_counts", "newest_page_strings")

// eachDialect runs fn with the DSN of a fresh migrated database of each dialect, as
// parallel subtests.
func eachDialect(t *testing.T, fn func(t *testing.T, dsn string)) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		fn(t, storagetest.DSN(t, dialect))
	})
}

// freshDSN is the DSN of a fresh, migrated database of dialect: only serve creates a
// database, so the admin commands need one that exists.
func freshDSN(t *testing.T, dialect string) string {
	t.Helper()
	dsn := storagetest.DSN(t, dialect)
	db, err := storage.Open(t.Context(), dsn, nil)
	if err != nil {
		t.Fatalf("creating the %s database: %v", dialect, err)
	}
	db.Close()
	return dsn
}

// fixture is what the admin commands made.
type fixture struct {
	workspace, user, project string
}

// makeFixture creates a workspace, user and project with the CLI.
func makeFixture(t *testing.T, dsn string) fixture {
	t.Helper()
	var f fixture
	f.workspace = str(t, jsonObject(t, []string{"id", "name", "public_token"}, "workspace", "create", "--name", "Acme", "--json", "--database", dsn), "id")
	f.user = str(t, jsonObject(t, []string{"id", "email", "role"}, "user", "create", "--workspace", f.workspace, "--email", "dev@acme.test", "--json", "--database", dsn), "id")
	f.project = str(t, jsonObject(t, projectFields, "project", "create", "--workspace", f.workspace, "--title", "Web app", "--source", "en", "--languages", "nb,sv", "--json", "--database", dsn), "id")
	return f
}

// TestCLIJSON checks every admin command's --json output: one object with the documented
// fields and values.
func TestCLIJSON(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		ws := jsonObject(t, []string{"id", "name", "public_token"}, "workspace", "create", "--name", "Acme", "--json", "--database", dsn)
		if ws["name"] != "Acme" {
			t.Errorf("workspace name %v", ws["name"])
		}
		str(t, ws, "public_token")
		wsID := str(t, ws, "id")

		u := jsonObject(t, []string{"id", "email", "role"}, "user", "create", "--workspace", wsID, "--email", "dev@acme.test", "--json", "--database", dsn)
		if u["email"] != "dev@acme.test" {
			t.Errorf("user email %v", u["email"])
		}
		userID := str(t, u, "id")

		p := jsonObject(t, projectFields, "project", "create", "--workspace", wsID, "--title", "Web app", "--source", "en", "--languages", "nb,sv", "--json", "--database", dsn)
		if p["title"] != "Web app" || p["source_language"] != "en" || p["deploy_configured"] != false {
			t.Errorf("project %v", p)
		}
		if langs := strings.Join(sortedStrings(t, p["enabled_languages"]), ","); langs != "en,nb,sv" {
			t.Errorf("enabled_languages %v, want en, nb and sv", p["enabled_languages"])
		}
		for _, f := range []string{"editable_languages", "namespaces", "auto_translate_languages"} {
			sortedStrings(t, p[f])
		}
		if _, ok := p["integration_type"].(string); !ok {
			t.Errorf("integration_type %v is not a string", p["integration_type"])
		}
		projectID := str(t, p, "id")

		for _, c := range []struct {
			args     []string
			readOnly bool
		}{
			{[]string{"key", "create", "--project", projectID, "--json", "--database", dsn}, false},
			{[]string{"key", "create", "--project", projectID, "--read-only", "--json", "--database", dsn}, true},
		} {
			k := jsonObject(t, []string{"key", "read_only"}, c.args...)
			str(t, k, "key")
			if k["read_only"] != c.readOnly {
				t.Errorf("key create %v: read_only %v", c.args, k["read_only"])
			}
		}

		pat := str(t, jsonObject(t, []string{"token"}, "token", "create", "--user", userID, "--project", projectID, "--json", "--database", dsn), "token")
		if !strings.HasPrefix(pat, "pat_") || strings.HasPrefix(pat, "pat_ws_") {
			t.Errorf("project token %q, want the pat_ prefix", pat)
		}
		wsTok := str(t, jsonObject(t, []string{"token"}, "token", "create", "--user", userID, "--workspace", wsID, "--json", "--database", dsn), "token")
		if !strings.HasPrefix(wsTok, "pat_ws_") {
			t.Errorf("workspace token %q, want the pat_ws_ prefix", wsTok)
		}

		// A checkup report has an id; the rest of its shape is not part of the spec.
		id := str(t, jsonObject(t, nil, "checkup", "--project", projectID, "--json", "--database", dsn), "id")
		// checkup show prints a stored report, a page of findings from --offset.
		shown := jsonObject(t, nil, "checkup", "show", "--project", projectID, "--offset", "0", "--json", "--database", dsn)
		if shown["id"] != id || shown["next_offset"] != nil {
			t.Errorf("checkup show: id %v, next_offset %v; want %s and no further page", shown["id"], shown["next_offset"], id)
		}
	})
}

func sortedStrings(t *testing.T, v any) []string {
	t.Helper()
	list, ok := v.([]any)
	if !ok {
		t.Errorf("%v is not an array", v)
		return nil
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			t.Errorf("%v is not an array of strings", v)
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// TestCLIFlagOrder runs the commands with flags before, between and after the words, in
// both the --flag value and --flag=value forms, and with the database from LOKAL_DATABASE.
func TestCLIFlagOrder(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		wsFields := []string{"id", "name", "public_token"}
		var wsID string
		for _, args := range [][]string{
			{"--database", dsn, "--json", "workspace", "create", "--name", "One"},
			{"--database=" + dsn, "workspace", "--name", "Two", "create", "--json"},
			{"workspace", "--json", "create", "--database", dsn, "--name=Three"},
			{"--json", "--name", "Four", "workspace", "create", "--database", dsn},
		} {
			wsID = str(t, jsonObject(t, wsFields, args...), "id")
		}
		r := lokal(t, []string{"LOKAL_DATABASE=" + dsn}, "user", "create", "--workspace", wsID, "--email", "env@acme.test", "--json")
		if r.code != 0 {
			t.Fatalf("user create with LOKAL_DATABASE exited %d: %s", r.code, r.stderr)
		}
		userID := str(t, jsonObject(t, []string{"id", "email", "role"}, "--database", dsn, "--email", "flags@acme.test", "user", "--workspace", wsID, "create", "--json"), "id")
		projectID := str(t, jsonObject(t, projectFields, "--languages", "nb", "--json", "--source", "en", "project", "--title", "T", "create", "--workspace", wsID, "--database", dsn), "id")
		k := jsonObject(t, []string{"key", "read_only"}, "--read-only", "key", "--database", dsn, "create", "--project", projectID, "--json")
		if k["read_only"] != true {
			t.Errorf("--read-only before the words: read_only %v", k["read_only"])
		}
		tok := str(t, jsonObject(t, []string{"token"}, "--json", "--workspace", wsID, "token", "--user", userID, "create", "--database", dsn), "token")
		if !strings.HasPrefix(tok, "pat_ws_") {
			t.Errorf("workspace token %q", tok)
		}
	})
}

// TestCLIText checks that without --json the commands print readable text naming what
// they made.
func TestCLIText(t *testing.T) {
	t.Parallel()
	dsn := storagetest.DSN(t, "sqlite")
	f := makeFixture(t, dsn)
	tests := []struct {
		name     string
		args     []string
		contains []*regexp.Regexp
	}{
		{"workspace create", []string{"workspace", "create", "--name", "Readable", "--database", dsn},
			[]*regexp.Regexp{regexp.MustCompile(`[0-9a-f-]{36}`), regexp.MustCompile(`Readable`)}},
		{"user create", []string{"user", "create", "--workspace", f.workspace, "--email", "text@acme.test", "--database", dsn},
			[]*regexp.Regexp{regexp.MustCompile(`[0-9a-f-]{36}`), regexp.MustCompile(`text@acme\.test`)}},
		{"project create", []string{"project", "create", "--workspace", f.workspace, "--title", "Shop", "--source", "en", "--database", dsn},
			[]*regexp.Regexp{regexp.MustCompile(`[0-9a-f-]{36}`), regexp.MustCompile(`Shop`)}},
		{"key create", []string{"key", "create", "--project", f.project, "--database", dsn},
			[]*regexp.Regexp{regexp.MustCompile(`lk_[0-9a-f]+|[0-9a-f]{32,}`)}},
		{"token create", []string{"token", "create", "--user", f.user, "--project", f.project, "--database", dsn},
			[]*regexp.Regexp{regexp.MustCompile(`pat_[0-9a-f]+`)}},
		{"checkup", []string{"checkup", "--project", f.project, "--database", dsn},
			[]*regexp.Regexp{regexp.MustCompile(`[0-9a-f-]{8,}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := lokal(t, nil, tt.args...)
			if r.code != 0 {
				t.Fatalf("exited %d: %s", r.code, r.stderr)
			}
			if strings.TrimSpace(r.stdout) == "" || json.Valid([]byte(r.stdout)) {
				t.Errorf("stdout %q, want readable text", r.stdout)
			}
			for _, re := range tt.contains {
				if !re.MatchString(r.stdout) {
					t.Errorf("stdout %q does not match %s", r.stdout, re)
				}
			}
		})
	}
}

// TestCLIFailures checks that a failing command exits non-zero with exactly one line on
// stderr and nothing on stdout.
func TestCLIFailures(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		otherWS := str(t, jsonObject(t, []string{"id", "name", "public_token"}, "workspace", "create", "--name", "Other", "--json", "--database", dsn), "id")
		otherUser := str(t, jsonObject(t, []string{"id", "email", "role"}, "user", "create", "--workspace", otherWS, "--email", "x@other.test", "--json", "--database", dsn), "id")
		unknown := "00000000-0000-4000-8000-000000000000"
		tests := []struct {
			name string
			args []string
		}{
			{"unknown command", []string{"frobnicate", "--database", dsn}},
			{"unknown subcommand", []string{"workspace", "delete", "--database", dsn}},
			{"unknown flag", []string{"workspace", "create", "--name", "X", "--colour", "red", "--database", dsn}},
			{"flag without its value", []string{"workspace", "create", "--database", dsn, "--name"}},
			{"workspace without a name", []string{"workspace", "create", "--json", "--database", dsn}},
			{"user in an unknown workspace", []string{"user", "create", "--workspace", unknown, "--email", "a@b.test", "--json", "--database", dsn}},
			{"user with a bad email", []string{"user", "create", "--workspace", f.workspace, "--email", "not an email", "--json", "--database", dsn}},
			{"user twice", []string{"user", "create", "--workspace", f.workspace, "--email", "dev@acme.test", "--json", "--database", dsn}},
			{"project with an unknown source language", []string{"project", "create", "--workspace", f.workspace, "--title", "T", "--source", "xx", "--json", "--database", dsn}},
			{"project with an unknown target language", []string{"project", "create", "--workspace", f.workspace, "--title", "T", "--source", "en", "--languages", "nb,zz", "--json", "--database", dsn}},
			{"project without a title", []string{"project", "create", "--workspace", f.workspace, "--source", "en", "--json", "--database", dsn}},
			{"project in an unknown workspace", []string{"project", "create", "--workspace", unknown, "--title", "T", "--source", "en", "--json", "--database", dsn}},
			{"key for an unknown project", []string{"key", "create", "--project", unknown, "--json", "--database", dsn}},
			{"checkup of an unknown project", []string{"checkup", "--project", unknown, "--json", "--database", dsn}},
			{"checkup show of an unknown project", []string{"checkup", "show", "--project", unknown, "--json", "--database", dsn}},
			{"checkup show from a negative offset", []string{"checkup", "show", "--project", f.project, "--offset=-1", "--json", "--database", dsn}},
			{"token for a project and a workspace", []string{"token", "create", "--user", f.user, "--project", f.project, "--workspace", f.workspace, "--json", "--database", dsn}},
			{"token for neither", []string{"token", "create", "--user", f.user, "--json", "--database", dsn}},
			{"token for an unknown user", []string{"token", "create", "--user", unknown, "--project", f.project, "--json", "--database", dsn}},
			{"token for a user of another workspace", []string{"token", "create", "--user", otherUser, "--project", f.project, "--json", "--database", dsn}},
			{"a database that is neither SQLite nor PostgreSQL", []string{"workspace", "create", "--name", "X", "--json", "--database", "mysql://localhost/x"}},
			{"a SQLite file in a missing directory", []string{"workspace", "create", "--name", "X", "--json", "--database", "sqlite:" + filepath.Join(t.TempDir(), "no", "such", "dir", "x.db")}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				r := lokal(t, nil, tt.args...)
				if r.code == 0 {
					t.Errorf("exited 0, want non-zero; stdout %q", r.stdout)
				}
				if r.stdout != "" {
					t.Errorf("stdout %q, want nothing", r.stdout)
				}
				if lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n"); strings.TrimSpace(r.stderr) == "" || len(lines) != 1 {
					t.Errorf("stderr has %d lines, want exactly one: %q", len(lines), r.stderr)
				}
			})
		}
	})
}

// lockedBuffer collects a process's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// serveProcess is a running `lokal serve`.
type serveProcess struct {
	cmd    *exec.Cmd
	addr   string
	stdout *lockedBuffer
	stderr *lockedBuffer
	done   chan struct{}
	err    error
}

// freeAddr finds a free loopback port.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("finding a free port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startServe starts `lokal serve` on dsn and waits (polling, up to 30 s) until /healthz
// answers 200.
func startServe(t testing.TB, dsn string) *serveProcess {
	t.Helper()
	addr := freeAddr(t)
	return startServeWith(t, addr, nil, "serve", "--listen", addr, "--database", dsn)
}

// startServeWith starts the binary with args and env, expecting it to serve on addr.
func startServeWith(t testing.TB, addr string, env []string, args ...string) *serveProcess {
	t.Helper()
	p := &serveProcess{addr: addr, stdout: &lockedBuffer{}, stderr: &lockedBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(lokalBin, args...)
	p.cmd.Env = append(cleanEnv(), env...)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("starting lokal serve: %v", err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			p.cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			t.Logf("lokal serve stdout:\n%s\nstderr:\n%s", p.stdout, truncate(p.stderr.String(), 4000))
		}
	})
	poll(t, 30*time.Second, "lokal serve to answer /healthz", func() bool {
		select {
		case <-p.done:
			t.Fatalf("lokal serve exited early (%v): %s", p.err, p.stderr)
		default:
		}
		res, err := http.Get("http://" + p.addr + "/healthz")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	return p
}

// stop sends SIGTERM and waits (up to 30 s) for the exit; it returns the exit code.
func (p *serveProcess) stop(t *testing.T) int {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("sending SIGTERM: %v", err)
	}
	return p.wait(t)
}

func (p *serveProcess) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("lokal serve did not exit after SIGTERM")
	}
	return p.cmd.ProcessState.ExitCode()
}

// do sends one request to the server.
func (p *serveProcess) do(t *testing.T, method, path, auth, body string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, "http://"+p.addr+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data
}

// poll calls cond every 50 ms until it holds, failing after limit.
func poll(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", limit, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sameJSON reports whether got is the JSON value want.
func sameJSON(got []byte, want string) bool {
	var a, b any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal([]byte(want), &b) != nil {
		return false
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

var workspaceTokenRE = regexp.MustCompile(`pat_ws_[0-9A-Za-z]+`)

// TestServe runs `lokal serve` on an empty database (no schema yet): the migrations, the
// bootstrap workspace token printed once, /healthz, a project and key made by the CLI while it runs, and SIGTERM finishing an
// in-flight request before exiting 0.
func TestServe(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		testServe(t, storagetest.EmptyDSN(t, dialect))
	})
}

func testServe(t *testing.T, dsn string) {
	srv := startServe(t, dsn)

	// The bootstrap token: printed once, on stdout.
	var token string
	poll(t, 5*time.Second, "the bootstrap workspace token on stdout", func() bool {
		token = workspaceTokenRE.FindString(srv.stdout.String())
		return token != ""
	})
	if n := strings.Count(srv.stdout.String(), token); n != 1 {
		t.Errorf("the workspace token is printed %d times, want once:\n%s", n, srv.stdout)
	}
	status, body := srv.do(t, "GET", "/api/me", "Bearer "+token, "")
	if status != http.StatusOK {
		t.Fatalf("/api/me with the bootstrap token: %d %s", status, body)
	}
	var me struct {
		User      struct{ ID, Email string } `json:"user"`
		Workspace struct{ ID string }        `json:"workspace"`
		Projects  *[]json.RawMessage         `json:"projects"`
	}
	if err := json.Unmarshal(body, &me); err != nil || me.Workspace.ID == "" || me.User.ID == "" {
		t.Fatalf("/api/me with the bootstrap token: %s", body)
	}
	if me.Projects == nil {
		t.Errorf("/api/me of a workspace with no project has no projects array: %s", body)
	}

	// The CLI makes a project and a key on the same database while the server runs.
	proj := jsonObject(t, projectFields, "project", "create", "--workspace", me.Workspace.ID, "--title", "Live", "--source", "en", "--languages", "nb", "--json", "--database", dsn)
	projectID := str(t, proj, "id")
	key := str(t, jsonObject(t, []string{"key", "read_only"}, "key", "create", "--project", projectID, "--json", "--database", dsn), "key")
	poll(t, 2*time.Second, "the server to take the key made by the CLI", func() bool {
		status, _ := srv.do(t, "PUT", "/api/sync/"+projectID+"/latest/en/common", "Token token="+key, `{"translations":{"hello":"Hello"}}`)
		return status == http.StatusOK
	})
	status, body = srv.do(t, "GET", "/api/"+projectID+"/latest/en/common", "Token token="+key, "")
	if status != http.StatusOK || !sameJSON(body, `{"hello":"Hello"}`) {
		t.Errorf("reading back: %d %s", status, body)
	}
	poll(t, 2*time.Second, "/api/me to list the project made by the CLI", func() bool {
		status, body := srv.do(t, "GET", "/api/me", "Bearer "+token, "")
		return status == http.StatusOK && strings.Contains(string(body), projectID)
	})
	userID := str(t, jsonObject(t, []string{"id", "email", "role"}, "user", "create", "--workspace", me.Workspace.ID, "--email", "live@acme.test", "--role", "owner", "--json", "--database", dsn), "id")
	pat := str(t, jsonObject(t, []string{"token"}, "token", "create", "--user", userID, "--project", projectID, "--json", "--database", dsn), "token")
	poll(t, 2*time.Second, "the server to take the personal token made by the CLI", func() bool {
		status, body := srv.do(t, "GET", "/api/me", "Bearer "+pat, "")
		return status == http.StatusOK && strings.Contains(string(body), `"email":"live@acme.test"`) && strings.Contains(string(body), projectID)
	})

	// SIGTERM while a request is in flight: it is answered, then the process exits 0.
	conn, err := net.Dial("tcp", srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	payload := `{"translations":{"hello":"Hello","bye":"Bye"},"partial":true}`
	fmt.Fprintf(conn, "PUT /api/sync/%s/latest/en/common HTTP/1.1\r\nHost: %s\r\nAuthorization: Token token=%s\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", projectID, srv.addr, key, len(payload))
	br := bufio.NewReader(conn)
	// The server asks for the body once the handler reads it: the request is in flight.
	line, err := br.ReadString('\n')
	if err != nil || !strings.Contains(line, "100") {
		t.Fatalf("want 100 Continue, got %q (%v)", line, err)
	}
	if blank, _ := br.ReadString('\n'); blank != "\r\n" {
		t.Fatalf("want the end of the 100 Continue, got %q", blank)
	}
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	poll(t, 10*time.Second, "the server to stop accepting connections", func() bool {
		c, err := net.DialTimeout("tcp", srv.addr, time.Second)
		if err != nil {
			return true
		}
		c.Close()
		return false
	})
	io.WriteString(conn, payload)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("reading the in-flight answer: %v", err)
	}
	data, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(data), `"created":["bye"]`) {
		t.Errorf("in-flight sync answered %d: %s", res.StatusCode, data)
	}
	if code := srv.wait(t); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}

	// Logs carry no token.
	for _, secret := range []string{token, key, pat} {
		if strings.Contains(srv.stderr.String(), secret) {
			t.Errorf("the server log shows a token")
		}
	}

	// A second start on the same database creates nothing and prints no token.
	again := startServe(t, dsn)
	status, body = again.do(t, "GET", "/api/"+projectID+"/latest/en/common", "Token token="+key, "")
	if status != http.StatusOK || !sameJSON(body, `{"bye":"Bye","hello":"Hello"}`) {
		t.Errorf("after a restart: %d %s", status, body)
	}
	if code := again.stop(t); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}
	if out := again.stdout.String(); strings.Contains(out, "pat_ws_") {
		t.Errorf("a second start printed a workspace token again:\n%s", out)
	}
}

// TestServeEnv starts `lokal serve` with its address and database from LOKAL_LISTEN and
// LOKAL_DATABASE, and checks that an admin command looks for the default database,
// sqlite:lokal.db, in the working directory without creating it there.
func TestServeEnv(t *testing.T) {
	t.Parallel()
	dsn := storagetest.EmptyDSN(t, "sqlite")
	addr := freeAddr(t)
	srv := startServeWith(t, addr, []string{"LOKAL_LISTEN=" + addr, "LOKAL_DATABASE=" + dsn}, "serve")
	poll(t, 5*time.Second, "the bootstrap token", func() bool { return workspaceTokenRE.FindString(srv.stdout.String()) != "" })
	if _, err := os.Stat(strings.TrimPrefix(dsn, "sqlite:")); err != nil {
		t.Errorf("the database named by LOKAL_DATABASE was not used: %v", err)
	}
	if code := srv.stop(t); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}

	dir := t.TempDir()
	cmd := exec.Command(lokalBin, "workspace", "create", "--name", "Here", "--json")
	cmd.Dir, cmd.Env = dir, cleanEnv()
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("workspace create without a database exited 0: %s", out)
	}
	want := "lokal: no database at " + filepath.Join(dir, "lokal.db") + " (run `lokal serve` there first, or pass --database / LOKAL_DATABASE)\n"
	if string(out) != want {
		t.Errorf("workspace create without a database printed %q, want %q", out, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "lokal.db")); !os.IsNotExist(err) {
		t.Errorf("an admin command created lokal.db in the working directory (%v)", err)
	}
}
