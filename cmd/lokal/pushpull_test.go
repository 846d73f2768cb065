package main_test

// lokal push and pull end to end: the built binary run in a temporary repository against
// `lokal serve` on loopback, on SQLite and PostgreSQL.

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// repo is a temporary repository with a lokal.yaml, and the key push and pull use.
type repo struct {
	dir, key, project string
	srv               *serveProcess
}

// newRepo starts a server on dsn with a project (source en; nb and sv enabled), a
// read/write key, and an empty repository whose lokal.yaml lists files.
func newRepo(t *testing.T, dsn, files string) *repo {
	t.Helper()
	srv := startServe(t, dsn)
	f := makeFixture(t, dsn)
	key := str(t, jsonObject(t, []string{"key", "read_only"}, "key", "create", "--project", f.project, "--json", "--database", dsn), "key")
	r := &repo{dir: t.TempDir(), key: key, project: f.project, srv: srv}
	r.write(t, "lokal.yaml", "server: http://"+srv.addr+"\nproject: "+f.project+"\nfiles:\n"+files)
	return r
}

func (r *repo) write(t *testing.T, rel, content string) {
	t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (r *repo) read(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("reading %s: %v", rel, err)
	}
	return string(data)
}

// run runs the binary in the repository (or dir under it) with the key in LOKAL_API_KEY.
func (r *repo) run(t *testing.T, args ...string) result {
	t.Helper()
	return lokalAt(t, r.dir, []string{"LOKAL_API_KEY=" + r.key}, "", args...)
}

// lokalAt runs the binary in dir; a minute is a guard, not an assertion.
func lokalAt(tb testing.TB, dir string, env []string, stdin string, args ...string) result {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lokalBin, args...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String()}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			tb.Fatalf("running lokal %s: %v", strings.Join(args, " "), err)
		}
		res.code = ee.ExitCode()
	}
	return res
}

// ok runs a command that must succeed with --json and decodes its one object into v.
func (r *repo) ok(t *testing.T, v any, args ...string) {
	t.Helper()
	res := r.run(t, append(args, "--json")...)
	if res.code != 0 {
		t.Fatalf("lokal %s exited %d: %s", strings.Join(args, " "), res.code, res.stderr)
	}
	dec := json.NewDecoder(strings.NewReader(res.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("lokal %s --json: %v in %q", strings.Join(args, " "), err, res.stdout)
	}
	if dec.More() {
		t.Fatalf("lokal %s --json printed more than one object: %q", strings.Join(args, " "), res.stdout)
	}
}

// failsAt runs a command that must fail and returns its one line of stderr.
func failsAt(t *testing.T, dir string, env []string, stdin string, args ...string) string {
	t.Helper()
	res := lokalAt(t, dir, env, stdin, args...)
	if res.code == 0 {
		t.Fatalf("lokal %s exited 0, want a failure; stdout %q", strings.Join(args, " "), res.stdout)
	}
	if res.stdout != "" {
		t.Errorf("lokal %s printed %q on stdout, want nothing", strings.Join(args, " "), res.stdout)
	}
	line := strings.TrimSuffix(res.stderr, "\n")
	if line == "" || strings.Contains(line, "\n") {
		t.Errorf("lokal %s: stderr %q, want one line", strings.Join(args, " "), res.stderr)
	}
	return line
}

// flat is the server's flat map of a namespace in a language (endpoint 1), nil on 404.
func (r *repo) flat(t *testing.T, language, namespace string) map[string]string {
	t.Helper()
	code, body := r.srv.do(t, "GET", "/api/"+r.project+"/latest/"+language+"/"+namespace, "Bearer "+r.key, "")
	if code == http.StatusNotFound {
		return nil
	}
	if code != http.StatusOK {
		t.Fatalf("GET %s/%s: %d %s", language, namespace, code, body)
	}
	var m map[string]string
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("GET %s/%s: %v", language, namespace, err)
	}
	return m
}

// The --json objects of push and pull, decoded strictly: a field added or renamed fails.
type pushJSON struct {
	DryRun    bool         `json:"dry_run"`
	Files     []pushedJSON `json:"files"`
	NotPushed []struct {
		Path, Language, Namespace, Reason string
	} `json:"not_pushed"`
	HideMissing []struct {
		Namespace        string
		Hidden, Unhidden []string
	} `json:"hide_missing"`
	Summary struct {
		Files, Created, Updated, Unchanged, Hidden, Warnings int
		NotFound                                             int `json:"not_found"`
	} `json:"summary"`
}

type pushedJSON struct {
	Path, Language, Namespace, Format string
	Summary                           struct {
		TotalIncoming                        int `json:"total_incoming"`
		Created, Updated, Unchanged, Plurals int
		NotFound                             int `json:"not_found"`
	}
	Created, Updated []string
	NotFound         []string `json:"not_found"`
	Warnings         []struct{ Key, Message string }
}

type pullJSON struct {
	Files []struct {
		Path, Language, Namespace, Format, Result string
	} `json:"files"`
	Summary struct {
		Files, Written, Created, Unchanged int
		NotModified                        int `json:"not_modified"`
	} `json:"summary"`
}

func (p pullJSON) result(path string) string {
	for _, f := range p.Files {
		if f.Path == path {
			return f.Result
		}
	}
	return "absent"
}

const (
	i18nextFiles = `  - path: locales/{language}/{namespace}.json
    format: i18next
`
	poFiles = `  - path: locales/{language}/{namespace}.po
    format: po
`
)

// TestPushPullI18next: push --dry-run changes nothing, push creates keys, a second push
// changes nothing, --languages sends translations, pull writes every language and
// namespace, a second pull is all 304s, a translation changed on the server is pulled,
// and push never hides a key unless --hide-missing.
func TestPushPullI18next(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		r := newRepo(t, dsn, i18nextFiles)
		r.write(t, "locales/en/common.json", `{"greeting": "Hello", "nav": {"home": "Home", "about": "About us"}}`)
		r.write(t, "locales/en/checkout.json", `{"pay": "Pay now", "items_one": "{{count}} item", "items_other": "{{count}} items"}`)
		r.write(t, "locales/nb/common.json", `{"greeting": "Hei", "nav": {"home": "Hjem"}}`)

		var dry pushJSON
		r.ok(t, &dry, "push", "--dry-run")
		if !dry.DryRun || dry.Summary.Files != 2 || dry.Summary.Created != 5 {
			t.Errorf("push --dry-run: %+v, want 2 files and 5 keys to create", dry.Summary)
		}
		if got := r.flat(t, "en", "common"); got != nil {
			t.Errorf("push --dry-run stored keys: %v", got)
		}

		var first pushJSON
		r.ok(t, &first, "push")
		if first.DryRun || first.Summary.Created != 5 || first.Summary.Updated != 0 {
			t.Errorf("push: %+v, want 5 created", first.Summary)
		}
		if got := r.flat(t, "en", "common"); got["nav.about"] != "About us" || got["greeting"] != "Hello" {
			t.Errorf("after push the server has %v", got)
		}
		if got := r.flat(t, "nb", "common"); len(got) != 0 {
			t.Errorf("push without --languages sent translations: %v", got)
		}

		var again pushJSON
		r.ok(t, &again, "push")
		if again.Summary.Created != 0 || again.Summary.Updated != 0 || again.Summary.Unchanged != 5 {
			t.Errorf("second push: %+v, want 5 unchanged", again.Summary)
		}

		var tr pushJSON
		r.ok(t, &tr, "push", "--languages", "nb")
		if tr.Summary.Files != 3 || tr.Summary.Updated+tr.Summary.Created != 2 {
			t.Errorf("push --languages nb: %+v, want 3 files and 2 translations set", tr.Summary)
		}
		if got := r.flat(t, "nb", "common"); got["greeting"] != "Hei" || got["nav.home"] != "Hjem" {
			t.Errorf("after push --languages nb the server has %v", got)
		}

		// A text in the repository changed: the source key is updated.
		r.write(t, "locales/en/common.json", `{"greeting": "Hello!", "nav": {"home": "Home", "about": "About us"}}`)
		var upd pushJSON
		r.ok(t, &upd, "push", "--dry-run")
		if upd.Summary.Updated != 1 || !slices.ContainsFunc(upd.Files, func(f pushedJSON) bool { return slices.Contains(f.Updated, "greeting") }) {
			t.Errorf("push --dry-run after an edit: %+v, want greeting updated", upd)
		}
		r.ok(t, &upd, "push")
		if got := r.flat(t, "en", "common"); got["greeting"] != "Hello!" {
			t.Errorf("the edited source text was not pushed: %v", got)
		}

		// pull: 2 namespaces x 3 languages.
		os.Remove(filepath.Join(r.dir, "locales/nb/common.json"))
		var p1 pullJSON
		r.ok(t, &p1, "pull")
		if p1.Summary.Files != 6 {
			t.Fatalf("pull: %+v, want 6 files", p1.Summary)
		}
		var nb map[string]any
		if err := json.Unmarshal([]byte(r.read(t, "locales/nb/common.json")), &nb); err != nil {
			t.Fatalf("pulled nb/common.json: %v", err)
		}
		if nb["greeting"] != "Hei" {
			t.Errorf("pulled nb/common.json: %v", nb)
		}
		if p1.result("locales/nb/common.json") != "created" || p1.result("locales/sv/checkout.json") != "created" {
			t.Errorf("pull: %+v, want nb/common and sv/checkout created", p1.Files)
		}
		if _, err := os.Stat(filepath.Join(r.dir, ".lokal", "state.json")); err != nil {
			t.Errorf("pull kept no ETags in .lokal/: %v", err)
		}

		before := snapshot(t, r.dir)
		for p := range before {
			if strings.Contains(filepath.Base(p), ".lokal-") {
				t.Errorf("pull left a temporary file: %s", p)
			}
		}
		var p2 pullJSON
		r.ok(t, &p2, "pull")
		if p2.Summary.Written != 0 || p2.Summary.NotModified != 6 {
			t.Errorf("second pull: %+v, want nothing written and 6 not modified", p2.Summary)
		}
		if after := snapshot(t, r.dir); !maps.Equal(before, after) {
			t.Errorf("second pull changed files")
		}

		// A translation changed on the server is pulled, and only that file written.
		if code, body := r.srv.do(t, "PUT", "/api/overwrite/"+r.project+"/latest/nb/common", "Bearer "+r.key, `{"nav.home": "Hjemmeside"}`); code != 200 {
			t.Fatalf("overwrite: %d %s", code, body)
		}
		var p3 pullJSON
		r.ok(t, &p3, "pull")
		if p3.Summary.Written != 1 || p3.result("locales/nb/common.json") != "updated" {
			t.Errorf("pull after a change on the server: %+v", p3)
		}
		if !strings.Contains(r.read(t, "locales/nb/common.json"), "Hjemmeside") {
			t.Errorf("pulled nb/common.json lacks the new text: %s", r.read(t, "locales/nb/common.json"))
		}
		// A value edited by hand is fetched again and restored, even though the file's ETag
		// matched: that entry's line alone, the rest of the file as the hand left it.
		pulled := r.read(t, "locales/nb/common.json")
		edited := strings.Replace(pulled, "Hjemmeside", "Hand edit", 1) + "\n"
		r.write(t, "locales/nb/common.json", edited)
		var p4 pullJSON
		r.ok(t, &p4, "pull", "--languages", "nb")
		if p4.Summary.Files != 2 || p4.result("locales/nb/common.json") != "updated" {
			t.Errorf("pull --languages nb after a hand edit: %+v", p4)
		}
		if got := r.read(t, "locales/nb/common.json"); got != pulled+"\n" {
			t.Errorf("after a hand edit, pull wrote\n%s\nwant the value restored and the added blank line kept:\n%s\n", got, pulled+"\n")
		}

		// An AI draft (needs_review) is left out by --status approved, pulled without it.
		r.mcp(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"update_translation","arguments":`+
			`{"namespace_key":"common","translation_key":"greeting","language":"nb","value":"Hei (utkast)"}}}`)
		var approved pullJSON
		r.ok(t, &approved, "pull", "--status", "approved", "--languages", "nb")
		if nbFile := r.read(t, "locales/nb/common.json"); approved.Summary.Files != 2 || strings.Contains(nbFile, "utkast") {
			t.Errorf("pull --status approved: %+v\n%s", approved.Summary, nbFile)
		}
		r.ok(t, &approved, "pull", "--languages", "nb")
		if nbFile := r.read(t, "locales/nb/common.json"); !strings.Contains(nbFile, "Hei (utkast)") {
			t.Errorf("pull without --status left the draft out:\n%s", nbFile)
		}

		// A key removed from the repository stays on the server unless --hide-missing.
		r.write(t, "locales/en/checkout.json", `{"items_one": "{{count}} item", "items_other": "{{count}} items"}`)
		var keep pushJSON
		r.ok(t, &keep, "push")
		if _, ok := r.flat(t, "en", "checkout")["pay"]; !ok {
			t.Errorf("push without --hide-missing hid a key")
		}
		var wouldHide pushJSON
		r.ok(t, &wouldHide, "push", "--hide-missing", "--dry-run")
		if wouldHide.Summary.Hidden != 1 || !hidden(wouldHide, "checkout", "pay") {
			t.Errorf("push --hide-missing --dry-run: %+v, want pay to hide", wouldHide.HideMissing)
		}
		if _, ok := r.flat(t, "en", "checkout")["pay"]; !ok {
			t.Errorf("push --hide-missing --dry-run hid a key")
		}
		var hide pushJSON
		r.ok(t, &hide, "push", "--hide-missing")
		if hide.Summary.Hidden != 1 || !hidden(hide, "checkout", "pay") {
			t.Errorf("push --hide-missing: %+v, want pay hidden", hide.HideMissing)
		}
		if got := r.flat(t, "en", "checkout"); len(got) != 2 || got["items_one"] == "" || got["items_other"] == "" {
			t.Errorf("after push --hide-missing the server serves %v, want the items family only", got)
		}
		if got := r.flat(t, "en", "common"); len(got) != 3 {
			t.Errorf("push --hide-missing touched another namespace: %v", got)
		}

		// Text output: a line per file and the summary last.
		res := r.run(t, "push")
		lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
		if res.code != 0 || !strings.HasPrefix(lines[0], "locales/en/checkout.json (en, checkout): 0 created, 0 updated, 1 unchanged") ||
			lines[len(lines)-1] != "push: 2 files, 0 created, 0 updated, 4 unchanged" {
			t.Errorf("push text: %d %q", res.code, res.stdout)
		}
		r.run(t, "pull") // writes en/checkout.json as the server exports it
		res = r.run(t, "pull")
		if res.code != 0 || strings.TrimSpace(res.stdout) != "pull: 6 files, 0 written (0 new), 6 unchanged (6 not modified on the server)" {
			t.Errorf("pull text: %d %q", res.code, res.stdout)
		}
	})
}

// mcp sends one JSON-RPC call to the project's MCP endpoint with the repository's key.
func (r *repo) mcp(t *testing.T, body string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "POST", "http://"+r.srv.addr+"/api/"+r.project+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+r.key)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Result struct{ IsError bool } `json:"result"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != 200 || out.Result.IsError {
		t.Fatalf("MCP %s: %d %v %+v", body, res.StatusCode, err, out)
	}
}

func hidden(p pushJSON, ns, key string) bool {
	for _, h := range p.HideMissing {
		if h.Namespace == ns && slices.Contains(h.Hidden, key) {
			return true
		}
	}
	return false
}

// snapshot is every file under dir with its content and modification time.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = fi.ModTime().String() + "\x00" + string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPushPullErrors: every failure exits non-zero with one line on stderr that says what
// is wrong: no lokal.yaml, a bad one naming its field, no key, a wrong key with the
// server's message, a file the server cannot read, a language the project lacks.
func TestPushPullErrors(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		r := newRepo(t, dsn, poFiles)
		r.write(t, "locales/en/common.po", "msgctxt \"greeting\"\nmsgid \"Hello\"\nmsgstr \"Hello\"\n")
		env := []string{"LOKAL_API_KEY=" + r.key}

		empty := t.TempDir()
		if msg := failsAt(t, empty, env, "", "pull"); !strings.Contains(msg, "no lokal.yaml in") {
			t.Errorf("pull without lokal.yaml: %q", msg)
		}
		// Found from a subdirectory, and --config names one elsewhere.
		sub := filepath.Join(r.dir, "locales", "en")
		if res := lokalAt(t, sub, env, "", "push", "--dry-run"); res.code != 0 {
			t.Errorf("push --dry-run from a subdirectory: %s", res.stderr)
		}
		if res := lokalAt(t, empty, env, "", "push", "--dry-run", "--config", filepath.Join(r.dir, "lokal.yaml")); res.code != 0 {
			t.Errorf("push --dry-run --config: %s", res.stderr)
		}

		server := "server: http://" + r.srv.addr + "\n"
		project := "project: " + r.project + "\n"
		for _, tc := range []struct{ yaml, want string }{
			{project + "files:\n" + i18nextFiles, "server is missing"},
			{server + "files:\n" + i18nextFiles, "project is missing"},
			{server + project, "files is missing"},
			{server + project + "files:\n  - path: a/{language}/{namespace}.json\n    format: jsn\n", `files[0].format: unknown format "jsn"`},
			{server + project + "files:\n  - path: a/{language}.json\n    format: json\n", "files[0].namespace is missing"},
			{server + project + "files:\n  - path: a/{lang}/{namespace}.json\n    format: json\n", "unknown placeholder {lang}"},
			{server + project + "files:\n  - path: ../a/{language}/{namespace}.json\n    format: json\n", "files[0].path"},
			{server + project + "files:\n  - path: a/{language}/{namespace}.json\n    formt: json\n", `unknown field "formt"`},
			{"server: ftp://x\n" + project + "files:\n" + i18nextFiles, `server "ftp://x"`},
			{"server: [\n", "not YAML"},
		} {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "lokal.yaml"), []byte(tc.yaml), 0o644)
			if msg := failsAt(t, dir, env, "", "push"); !strings.Contains(msg, tc.want) || !strings.Contains(msg, "lokal.yaml") {
				t.Errorf("lokal.yaml %q: %q, want %q", tc.yaml, msg, tc.want)
			}
		}

		if msg := failsAt(t, r.dir, nil, "", "push"); !strings.Contains(msg, "LOKAL_API_KEY") {
			t.Errorf("push without a key: %q", msg)
		}
		if msg := failsAt(t, r.dir, []string{"LOKAL_API_KEY=lk_wrong"}, "", "pull"); !strings.Contains(msg, "401 unauthorized") {
			t.Errorf("pull with a wrong key: %q", msg)
		}
		if msg := failsAt(t, r.dir, nil, "lk_wrong\n", "push", "--key-stdin"); !strings.Contains(msg, "401 unauthorized") {
			t.Errorf("push with a wrong key on stdin: %q", msg)
		}
		if res := lokalAt(t, r.dir, nil, r.key+"\n", "push", "--key-stdin", "--dry-run"); res.code != 0 {
			t.Errorf("push --key-stdin: %s", res.stderr)
		}
		if msg := failsAt(t, r.dir, env, "", "push", "--languages", "xx"); !strings.Contains(msg, `no language "xx"`) {
			t.Errorf("push --languages xx: %q", msg)
		}

		// A file the server cannot read: its message, and nothing stored.
		r.write(t, "locales/en/broken.po", "msgid \"a\"\nmsgstr \"b\"\nmsgstr \"c\n")
		if msg := failsAt(t, r.dir, env, "", "push"); !strings.Contains(msg, "locales/en/broken.po") || !strings.Contains(msg, "422 invalid_file") || !strings.Contains(msg, "line ") {
			t.Errorf("push of a broken file: %q", msg)
		}
		if got := r.flat(t, "en", "broken"); got != nil {
			t.Errorf("a broken file stored keys: %v", got)
		}
		os.Remove(filepath.Join(r.dir, "locales/en/broken.po"))

		// A read-only key pulls but cannot push.
		ro := str(t, jsonObject(t, []string{"key", "read_only"}, "key", "create", "--project", r.project, "--read-only", "--json", "--database", dsn), "key")
		if res := lokalAt(t, r.dir, []string{"LOKAL_API_KEY=" + ro}, "", "pull"); res.code != 0 {
			t.Errorf("pull with a read-only key: %s", res.stderr)
		}
		if msg := failsAt(t, r.dir, []string{"LOKAL_API_KEY=" + ro}, "", "push"); !strings.Contains(msg, "403 read_only_key") {
			t.Errorf("push with a read-only key: %q", msg)
		}
		// No server there: the address in the message.
		dead := t.TempDir()
		os.WriteFile(filepath.Join(dead, "lokal.yaml"), []byte("server: http://"+freeAddr(t)+"\n"+project+"files:\n"+i18nextFiles), 0o644)
		if msg := failsAt(t, dead, env, "", "pull"); !strings.Contains(msg, "connection refused") {
			t.Errorf("pull from no server: %q", msg)
		}
	})
}

// TestPushPullPOAndXcstrings: a PO file per language and one String Catalog holding every
// language, pushed and pulled: the catalog is one request with the language all.
func TestPushPullPOAndXcstrings(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		r := newRepo(t, dsn, `  - path: po/{language}/messages.po
    format: po
    namespace: messages
  - path: ios/Localizable.xcstrings
    format: xcstrings
    namespace: ios
`)
		r.write(t, "po/en/messages.po", `msgid ""
msgstr ""
"Language: en\n"
"Content-Type: text/plain; charset=UTF-8\n"

#. The first thing a visitor reads
msgctxt "greeting"
msgid "Hello"
msgstr "Hello"

msgctxt "farewell"
msgid "Goodbye"
msgstr "Goodbye"
`)
		r.write(t, "po/nb/messages.po", `msgid ""
msgstr ""
"Language: nb\n"
"Content-Type: text/plain; charset=UTF-8\n"

msgctxt "greeting"
msgid "Hello"
msgstr "Hei"

msgctxt "farewell"
msgid "Goodbye"
msgstr ""
`)
		r.write(t, "ios/Localizable.xcstrings", `{
  "sourceLanguage" : "en",
  "strings" : {
    "Settings" : {
      "comment" : "Tab title"
    },
    "Welcome" : {
      "localizations" : {
        "en" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Welcome!"
          }
        },
        "nb" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Velkommen!"
          }
        }
      }
    }
  },
  "version" : "1.0"
}
`)
		var dry pushJSON
		r.ok(t, &dry, "push", "--dry-run")
		if dry.Summary.Files != 2 || dry.Summary.Created != 4 {
			t.Errorf("push --dry-run: %+v, want 2 files and 4 keys to create", dry.Summary)
		}
		if r.flat(t, "en", "messages") != nil || r.flat(t, "en", "ios") != nil {
			t.Errorf("push --dry-run stored keys")
		}
		var first pushJSON
		r.ok(t, &first, "push", "--languages", "nb")
		if first.Summary.Files != 4 || first.Summary.Created != 4 {
			t.Errorf("push --languages nb: %+v, want 4 files and 4 keys created", first.Summary)
		}
		if got := r.flat(t, "en", "messages"); got["greeting"] != "Hello" || got["farewell"] != "Goodbye" {
			t.Errorf("the PO source keys on the server: %v", got)
		}
		if got := r.flat(t, "en", "ios"); got["Welcome"] != "Welcome!" || got["Settings"] != "Settings" {
			t.Errorf("the catalog's source keys on the server: %v", got)
		}
		if got := r.flat(t, "nb", "ios"); got["Welcome"] != "Velkommen!" {
			t.Errorf("the catalog's nb values on the server: %v", got)
		}
		if got := r.flat(t, "nb", "messages"); got["greeting"] != "Hei" {
			t.Errorf("the PO nb values on the server: %v", got)
		}
		var again pushJSON
		r.ok(t, &again, "push")
		if again.Summary.Created+again.Summary.Updated != 0 || again.Summary.Unchanged != 4 {
			t.Errorf("second push: %+v, want 4 unchanged", again.Summary)
		}

		// pull: PO in en, nb and sv, and the catalog once.
		var p1 pullJSON
		r.ok(t, &p1, "pull")
		if p1.Summary.Files != 4 || p1.result("ios/Localizable.xcstrings") == "absent" {
			t.Fatalf("pull: %+v", p1)
		}
		for _, f := range p1.Files {
			if f.Path == "ios/Localizable.xcstrings" && f.Language != "all" {
				t.Errorf("the catalog was pulled in %s, want all", f.Language)
			}
		}
		if po := r.read(t, "po/nb/messages.po"); !strings.Contains(po, `msgstr "Hei"`) {
			t.Errorf("pulled po/nb/messages.po:\n%s", po)
		}
		if po := r.read(t, "po/sv/messages.po"); !strings.Contains(po, `msgctxt "greeting"`) {
			t.Errorf("pulled po/sv/messages.po lacks the untranslated keys:\n%s", po)
		}
		var p2 pullJSON
		r.ok(t, &p2, "pull")
		if p2.Summary.Written != 0 || p2.Summary.NotModified != 4 {
			t.Errorf("second pull: %+v, want 4 not modified", p2.Summary)
		}
		if code, body := r.srv.do(t, "PUT", "/api/overwrite/"+r.project+"/latest/nb/ios", "Bearer "+r.key, `{"Settings": "Innstillinger"}`); code != 200 {
			t.Fatalf("overwrite: %d %s", code, body)
		}
		var p3 pullJSON
		r.ok(t, &p3, "pull")
		if p3.Summary.Written != 1 || p3.result("ios/Localizable.xcstrings") != "updated" {
			t.Errorf("pull after a change: %+v", p3)
		}
		var cat struct {
			Strings map[string]struct {
				Localizations map[string]struct {
					StringUnit struct{ Value string } `json:"stringUnit"`
				} `json:"localizations"`
			} `json:"strings"`
		}
		if err := json.Unmarshal([]byte(r.read(t, "ios/Localizable.xcstrings")), &cat); err != nil {
			t.Fatalf("pulled catalog: %v", err)
		}
		if v := cat.Strings["Settings"].Localizations["nb"].StringUnit.Value; v != "Innstillinger" {
			t.Errorf("pulled catalog has Settings in nb %q", v)
		}
		if v := cat.Strings["Welcome"].Localizations["en"].StringUnit.Value; v != "Welcome!" {
			t.Errorf("pulled catalog has Welcome in en %q", v)
		}
	})
}
