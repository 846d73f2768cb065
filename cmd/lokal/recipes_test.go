package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
)

// The client recipes of the README (clients/*.mjs) run here with node and the real npm
// packages (clients/package-lock.json) against `lokal serve` on loopback, seeded as the
// quick start does. Every run loads clients/loopback-only.mjs first: a fetch to any other
// host is refused before it leaves and fails the run.

// recipesDir is clients/ with its packages installed; without node or node_modules the
// recipe tests skip, except under CI=true (.ci/run installs both), where they fail.
func recipesDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "clients"))
	if err != nil {
		t.Fatal(err)
	}
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not installed"
	} else if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		missing = "clients/node_modules is missing (cd clients && npm ci)"
	}
	if missing != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the client recipes cannot run: %s", missing)
		}
		t.Skipf("the client recipes cannot run: %s", missing)
	}
	return dir
}

// nodeRun is one run of node: its output and exit code.
type nodeRun struct {
	stdout, stderr string
	code           int
}

// lines is stdout split into lines.
func (r nodeRun) lines() []string { return strings.Split(strings.TrimSpace(r.stdout), "\n") }

// runNode runs node in dir with env added, the loopback guard loaded first; a minute is a
// guard, not an assertion.
func runNode(t *testing.T, dir string, env []string, args ...string) nodeRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", append([]string{"--import", "./loopback-only.mjs"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := nodeRun{stdout: stdout.String(), stderr: stderr.String()}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("running node %s: %v", strings.Join(args, " "), err)
		}
		r.code = ee.ExitCode()
	}
	if strings.Contains(r.stderr, "loopback-only: refused") {
		t.Errorf("node %s sent a request to another host than loopback:\n%s", strings.Join(args, " "), r.stderr)
	}
	return r
}

// TestRecipes runs each recipe against a seeded project and checks what it printed and, for
// writes, what the server stored.
func TestRecipes(t *testing.T) {
	t.Parallel()
	dir := recipesDir(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		testRecipes(t, dir, freshDSN(t, dialect))
	})
}

func testRecipes(t *testing.T, dir, migrated string) {
	f := makeFixture(t, migrated)
	rw := str(t, jsonObject(t, []string{"key", "read_only"}, "key", "create", "--project", f.project, "--json", "--database", migrated), "key")
	ro := str(t, jsonObject(t, []string{"key", "read_only"}, "key", "create", "--project", f.project, "--read-only", "--json", "--database", migrated), "key")
	pat := str(t, jsonObject(t, []string{"token"}, "token", "create", "--user", f.user, "--project", f.project, "--json", "--database", migrated), "token")
	srv := startServe(t, migrated)

	// The quick start's seed: CI syncs the source, a translation comes from the team's files.
	if status, body := srv.do(t, "PUT", "/api/sync/"+f.project+"/latest/en/common", "Token token="+rw,
		`{"translations": {"nav.home": "Home", "cart.items": "{{count}} items in your cart"}}`); status != http.StatusOK {
		t.Fatalf("sync: %d %s", status, body)
	}
	if status, body := srv.do(t, "PUT", "/api/overwrite/"+f.project+"/latest/nb/common", "Token token="+rw,
		`{"nav.home": "Hjem"}`); status != http.StatusOK {
		t.Fatalf("overwrite: %d %s", status, body)
	}
	source := func() map[string]string {
		status, body := srv.do(t, "GET", "/api/"+f.project+"/latest/en/common", "Token token="+ro, "")
		var m map[string]string
		if status != http.StatusOK || json.Unmarshal(body, &m) != nil {
			t.Fatalf("reading the source: %d %s", status, body)
		}
		return m
	}
	env := func(kv ...string) []string {
		return append([]string{"LOKAL_URL=http://" + srv.addr, "LOKAL_PROJECT=" + f.project}, kv...)
	}

	// Subtests in order: the read-only run must not have stored the key the next one reports.
	t.Run("i18next-http-backend with the read-only key reports nothing and says so", func(t *testing.T) {
		r := runNode(t, dir, env("LOKAL_KEY="+ro), "i18next-http-backend.mjs")
		if r.code == 0 || !strings.Contains(r.stderr, "answered 403") || !strings.Contains(r.stderr, "read_only_key") {
			t.Errorf("exit %d, want non-zero with the 403 on stderr:\n%s", r.code, r.stderr)
		}
		if want := []string{"Hjem", "3 items in your cart", "Pay now"}; !slices.Equal(r.lines(), want) {
			t.Errorf("printed %q, want %q", r.lines(), want)
		}
		if _, ok := source()["checkout.pay"]; ok {
			t.Errorf("a read-only key stored a missing key")
		}
	})
	t.Run("i18next-http-backend loads and reports a missing key", func(t *testing.T) {
		r := runNode(t, dir, env("LOKAL_KEY="+rw), "i18next-http-backend.mjs")
		if r.code != 0 {
			t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if want := []string{"Hjem", "3 items in your cart", "Pay now"}; !slices.Equal(r.lines(), want) {
			t.Errorf("printed %q, want %q", r.lines(), want)
		}
		if got := source()["checkout.pay"]; got != "Pay now" {
			t.Errorf("the reported key's source value is %q, want %q", got, "Pay now")
		}
	})
	t.Run("i18next-http-backend on a project whose namespace was never synced says 404", func(t *testing.T) {
		empty := str(t, jsonObject(t, projectFields, "project", "create", "--workspace", f.workspace, "--title", "Empty", "--source", "en",
			"--languages", "nb", "--json", "--database", migrated), "id")
		key := str(t, jsonObject(t, []string{"key", "read_only"}, "key", "create", "--project", empty, "--json", "--database", migrated), "key")
		r := runNode(t, dir, []string{"LOKAL_URL=http://" + srv.addr, "LOKAL_PROJECT=" + empty, "LOKAL_KEY=" + key}, "i18next-http-backend.mjs")
		if r.code == 0 || !strings.Contains(r.stderr, "/api/missing/"+empty+"/latest/en/common answered 404") {
			t.Errorf("exit %d, want non-zero with the report's 404 on stderr:\n%s", r.code, r.stderr)
		}
		if status, body := srv.do(t, "GET", "/api/"+empty+"/latest/en/common", "Token token="+key, ""); status != http.StatusNotFound {
			t.Errorf("the namespace answers %d %s, want 404: a report does not create it", status, body)
		}
	})
	t.Run("i18next-locize-backend loads with the key from lokal only", func(t *testing.T) {
		r := runNode(t, dir, env("LOKAL_KEY="+ro), "i18next-locize-backend.mjs")
		if r.code != 0 {
			t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if want := []string{"Hjem", "3 items in your cart"}; !slices.Equal(r.lines(), want) {
			t.Errorf("printed %q, want %q", r.lines(), want)
		}
	})
	t.Run("i18next-locize-backend with a wrong key fails", func(t *testing.T) {
		r := runNode(t, dir, env("LOKAL_KEY=wrong"), "i18next-locize-backend.mjs")
		if r.code == 0 || !strings.Contains(r.stderr, "loading nb/common failed") {
			t.Errorf("exit %d, want non-zero with the failed load on stderr:\n%s", r.code, r.stderr)
		}
	})
	for _, c := range []struct {
		name, token string
		tools       int
	}{
		{"MCP TypeScript SDK with a personal token", pat, 18},
		{"MCP TypeScript SDK with the read-only key", ro, 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runNode(t, dir, env("LOKAL_TOKEN="+c.token), "mcp-sdk.mjs")
			if r.code != 0 {
				t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			names, file, _ := strings.Cut(r.stdout, "\n")
			if got := strings.Fields(names); len(got) != c.tools || !slices.Contains(got, "get_translations") {
				t.Errorf("tools/list gave %d tools %v, want %d with get_translations", len(got), got, c.tools)
			}
			status, body := srv.do(t, "GET", "/api/"+f.project+"/latest/nb/common", "Token token="+ro, "")
			if status != http.StatusOK || !sameJSON([]byte(file), string(body)) {
				t.Errorf("get_translations printed %s, the server serves %d %s", file, status, body)
			}
		})
	}
}

// issueLocizeConfig is the i18next-locize-backend setup the README gave before: loadPath
// set, privatePath not, so with private: true the backend asked locize for the namespace,
// sending the key there.
const issueLocizeConfig = `
import i18next from 'i18next'
import LocizeBackend from 'i18next-locize-backend'
const { LOKAL_URL, LOKAL_PROJECT, LOKAL_KEY } = process.env
await i18next.use(LocizeBackend).init({ lng: 'nb', fallbackLng: 'en', ns: ['common'], defaultNS: 'common',
  backend: { projectId: LOKAL_PROJECT, apiKey: LOKAL_KEY, version: 'latest', private: true,
    loadPath: LOKAL_URL + '/api/{{projectId}}/{{version}}/{{lng}}/{{ns}}',
    addPath: LOKAL_URL + '/api/missing/{{projectId}}/{{version}}/{{lng}}/{{ns}}',
    getLanguagesPath: LOKAL_URL + '/api/languages/{{projectId}}' } })
`

// TestRecipeGuardRefusesOtherHosts: the loopback guard catches the old locize setup, which
// requested https://api.lite.locize.app/private/..., before anything leaves the machine.
func TestRecipeGuardRefusesOtherHosts(t *testing.T) {
	t.Parallel()
	dir := recipesDir(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "--import", "./loopback-only.mjs", "--input-type=module", "-e", issueLocizeConfig)
	cmd.Dir = dir
	// Port 9 (discard) on loopback: nothing there, and the guard refuses locize before any dial.
	cmd.Env = append(cleanEnv(), "LOKAL_URL=http://127.0.0.1:9", "LOKAL_PROJECT=3f0c1d2e-0000-4000-8000-000000000000", "LOKAL_KEY=secret-key")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the old locize setup passed the guard:\n%s", out)
	}
	if !strings.Contains(string(out), "loopback-only: refused GET https://api.lite.locize.app/private/") {
		t.Errorf("the guard did not name the locize request:\n%s", out)
	}
}

// TestReadmeShowsTheTestedRecipes: the README's recipes are the files TestRecipes runs,
// byte for byte, so what a reader pastes is what passed.
func TestReadmeShowsTheTestedRecipes(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"i18next-http-backend.mjs", "i18next-locize-backend.mjs", "mcp-sdk.mjs"} {
		script, err := os.ReadFile(filepath.Join("..", "..", "clients", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(readme, []byte("```js\n"+string(script)+"```\n")) {
			t.Errorf("README.md does not show clients/%s as it is", name)
		}
	}
}
