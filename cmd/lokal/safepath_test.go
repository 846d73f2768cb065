package main_test

// Safe paths end to end: the built binary's pull against a hostile server on loopback, and
// push and pull against `lokal serve` in a repository with symbolic links leading out.

import (
	"encoding/json"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// hostileServer answers what pull asks (the project's status over MCP, then each file)
// with the namespaces and languages given; it counts the files asked for.
func hostileServer(t *testing.T, source string, enabled, namespaces []string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var gets atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/p1/mcp":
			status := map[string]any{"source_language": source, "enabled_languages": enabled, "namespaces": namespaces}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": 1,
				"result": map[string]any{"content": []any{}, "structuredContent": status}})
		case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/p1/latest/"):
			gets.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"pwned": "yes"}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &gets
}

// tree lists every path under dir with its content (links by their target), skipping skip.
func tree(t *testing.T, dir, skip string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == skip {
			return filepath.SkipDir
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			out[p] = "-> " + target
			return err
		case d.IsDir():
			out[p] = "dir"
		default:
			data, err := os.ReadFile(p)
			out[p] = string(data)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// treeDiff names the paths that differ between two trees.
func treeDiff(before, after map[string]string) string {
	var out []string
	for p, v := range after {
		if w, ok := before[p]; !ok || w != v {
			out = append(out, "+"+p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, "-"+p)
		}
	}
	return strings.Join(out, " ")
}

// TestPullRefusesHostileNames: a namespace or language name from the server that would
// lead out of the repository stops pull before it fetches or writes anything, nothing is
// created outside the repository (or in it), and the one line on stderr names the name.
func TestPullRefusesHostileNames(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	abs := filepath.Join(base, "abs")
	cases := []struct {
		name               string
		bad                string
		source             string
		enabled, namespace []string
	}{
		{"namespace up", "../../evil", "en", nil, []string{"common", "../../evil"}},
		{"namespace absolute", "/tmp/x", "en", nil, []string{"/tmp/x"}},
		{"namespace absolute here", abs, "en", nil, []string{abs}},
		{"namespace through a folder", "a/../../b", "en", nil, []string{"a/../../b"}},
		{"namespace dot dot", "..", "en", nil, []string{".."}},
		{"namespace backslashes", `..\..\evil`, "en", nil, []string{`..\..\evil`}},
		{"namespace drive", `C:\evil`, "en", nil, []string{`C:\evil`}},
		{"namespace UNC", `\\host\share\evil`, "en", nil, []string{`\\host\share\evil`}},
		{"namespace NUL", "common\x00.json", "en", nil, []string{"common\x00.json"}},
		{"source language", "../../evil", "../../evil", nil, []string{"common"}},
		{"enabled language", "../../../../evil", "en", []string{"nb", "../../../../evil"}, []string{"common"}},
	}
	// One after another: each compares the whole of base before and after.
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The repository sits three levels down, so that ../../ of a file lands in base.
			repo := filepath.Join(base, strconv.Itoa(i), "a", "b", "repo")
			if err := os.MkdirAll(repo, 0o755); err != nil {
				t.Fatal(err)
			}
			srv, gets := hostileServer(t, tc.source, tc.enabled, tc.namespace)
			yaml := "server: " + srv.URL + "\nproject: p1\nfiles:\n  - path: \"{language}/{namespace}.json\"\n    format: i18next\n"
			if err := os.WriteFile(filepath.Join(repo, "lokal.yaml"), []byte(yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			before := tree(t, base, "")
			line := failsAt(t, repo, []string{"LOKAL_API_KEY=k"}, "", "pull")
			t.Log(line)
			if !strings.Contains(line, strconv.Quote(tc.bad)) || !strings.Contains(line, "refusing") {
				t.Errorf("pull: %q, want a refusal naming %q", line, tc.bad)
			}
			if after := tree(t, base, ""); !maps.Equal(before, after) {
				t.Errorf("pull changed the disk: %s", treeDiff(before, after))
			}
			if n := gets.Load(); n != 0 {
				t.Errorf("pull fetched %d files before refusing, want none", n)
			}
			if _, err := os.Stat("/tmp/x.json"); err == nil && tc.bad == "/tmp/x" {
				t.Errorf("/tmp/x.json exists")
			}
		})
	}
	// The same server with plain names is pulled: the refusals above are the names'.
	t.Run("plain names", func(t *testing.T) {
		t.Parallel()
		repo := t.TempDir()
		srv, _ := hostileServer(t, "en", []string{"nb"}, []string{"common"})
		yaml := "server: " + srv.URL + "\nproject: p1\nfiles:\n  - path: \"{language}/{namespace}.json\"\n    format: i18next\n"
		if err := os.WriteFile(filepath.Join(repo, "lokal.yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		res := lokalAt(t, repo, []string{"LOKAL_API_KEY=k"}, "", "pull")
		if res.code != 0 {
			t.Fatalf("pull exited %d: %s", res.code, res.stderr)
		}
		for _, rel := range []string{"en/common.json", "nb/common.json"} {
			if _, err := os.Stat(filepath.Join(repo, rel)); err != nil {
				t.Errorf("pull wrote no %s: %v", rel, err)
			}
		}
	})
}

// TestPushPullSymlinksOut: push refuses a file (or a folder on its way) whose symbolic link
// leads outside the repository, naming it and sending nothing; pull does not write
// through such a link of a folder, of a file or of .lokal, and the files outside keep
// their bytes. A link that stays inside is followed.
func TestPushPullSymlinksOut(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		r := newRepo(t, dsn, i18nextFiles)
		outside := t.TempDir()
		secret := filepath.Join(outside, "secret.json")
		if err := os.WriteFile(secret, []byte(`{"password": "hunter2"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		nbOut := filepath.Join(outside, "nb")
		if err := os.MkdirAll(nbOut, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(nbOut, "common.json"), []byte(`{"mine": "not yours"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		r.write(t, "locales/en/common.json", `{"greeting": "Hello"}`)
		link := func(rel, target string) func() {
			t.Helper()
			p := filepath.Join(r.dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
				t.Fatal(err) // a file an earlier pull wrote gives way to the link
			}
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			return func() {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
			}
		}
		outsideBefore := tree(t, outside, "")

		// push: a namespace file that is a link out.
		unlink := link("locales/en/secret.json", secret)
		line := failsAt(t, r.dir, []string{"LOKAL_API_KEY=" + r.key}, "", "push")
		t.Log(line)
		if !strings.Contains(line, "locales/en/secret.json") || !strings.Contains(line, "outside the repository") {
			t.Errorf("push with a link out: %q, want a refusal naming locales/en/secret.json", line)
		}
		if m := r.flat(t, "en", "secret"); m != nil {
			t.Errorf("push sent the file outside: %v", m)
		}
		if m := r.flat(t, "en", "common"); m != nil {
			t.Errorf("push sent files before refusing: %v", m)
		}
		unlink()

		// push --languages nb: the language's folder is a link out.
		unlink = link("locales/nb", nbOut)
		line = failsAt(t, r.dir, []string{"LOKAL_API_KEY=" + r.key}, "", "push", "--languages", "nb")
		t.Log(line)
		if !strings.Contains(line, "locales/nb/common.json") || !strings.Contains(line, "outside the repository") {
			t.Errorf("push with a folder linked out: %q, want a refusal naming locales/nb/common.json", line)
		}
		if m := r.flat(t, "nb", "common"); m != nil {
			t.Errorf("push sent the file outside: %v", m)
		}
		unlink()
		var push pushJSON
		r.ok(t, &push, "push")

		// pull: the nb folder linked out is not written through.
		unlink = link("locales/nb", nbOut)
		line = failsAt(t, r.dir, []string{"LOKAL_API_KEY=" + r.key}, "", "pull")
		t.Log(line)
		if !strings.Contains(line, "locales/nb/common.json") || !strings.Contains(line, "outside the repository") {
			t.Errorf("pull with a folder linked out: %q, want a refusal naming locales/nb/common.json", line)
		}
		unlink()

		// pull: a file linked out is not written through.
		unlink = link("locales/sv/common.json", secret)
		line = failsAt(t, r.dir, []string{"LOKAL_API_KEY=" + r.key}, "", "pull")
		t.Log(line)
		if !strings.Contains(line, "locales/sv/common.json") || !strings.Contains(line, "outside the repository") {
			t.Errorf("pull with a file linked out: %q, want a refusal naming locales/sv/common.json", line)
		}
		unlink()

		// pull: .lokal linked out keeps its cache from being written there.
		if err := os.RemoveAll(filepath.Join(r.dir, ".lokal")); err != nil {
			t.Fatal(err)
		}
		unlink = link(".lokal", outside)
		line = failsAt(t, r.dir, []string{"LOKAL_API_KEY=" + r.key}, "", "pull")
		t.Log(line)
		if !strings.Contains(line, ".lokal/") || !strings.Contains(line, "outside the repository") {
			t.Errorf("pull with .lokal linked out: %q, want a refusal naming .lokal", line)
		}
		unlink()

		if after := tree(t, outside, ""); !maps.Equal(outsideBefore, after) {
			t.Errorf("files outside the repository changed: %s", treeDiff(outsideBefore, after))
		}

		// A link that stays inside is followed.
		if err := os.RemoveAll(filepath.Join(r.dir, "locales", "nb")); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(r.dir, "nb-real"), 0o755); err != nil {
			t.Fatal(err)
		}
		link("locales/nb", "../nb-real")
		var pull pullJSON
		r.ok(t, &pull, "pull")
		if got := pull.result("locales/nb/common.json"); got != "created" {
			t.Errorf("pull through a link inside: locales/nb/common.json %s, want created", got)
		}
		r.read(t, "nb-real/common.json")
	})
}
