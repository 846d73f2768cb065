package main_test

// lokal pull merges into the repository's files: push a repository, pull with nothing
// changed and `git diff` is empty with no file rewritten; change one translation and the
// diff is that entry's line; a language's missing file follows the source file.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mergeLayout is a repository layout in one format, with files in the style teams write.
type mergeLayout struct {
	format, files string
	source, nb    [2]string // path and content
	sv            string    // the path of the file pull creates
	// change is a translation of nb set through the API, and the line it makes in the file.
	changeKey, changeValue, oldLine, newLine string
	// svTranslations are set through the API before the first pull; svWant is the file
	// pull then creates ("" to check only that it exists and reads).
	svTranslations, svWant string
}

var mergeLayouts = []mergeLayout{{
	format: "properties",
	files:  "  - path: i18n/{language}/{namespace}.properties\n    format: properties\n",
	source: [2]string{"i18n/en/messages.properties", "\ufeff# Shop messages\r\n! kept as written\r\n\r\n" +
		"# Front page\r\ngreeting : Hello \\\r\n    world\r\nfarewell   Goodbye\r\nthanks=Thanks \\u2014 a lot\r\n" +
		"\r\n# Checkout\r\npay = Pay now\r\n"},
	nb: [2]string{"i18n/nb/messages.properties", "\ufeff# Butikkens meldinger\r\n\r\n" +
		"# Forside\r\ngreeting : Hei \\\r\n    verden\r\nfarewell   Ha det\r\nthanks=Takk \\u2014 mange\r\n" +
		"\r\npay = Betal n\\u00e5\r\n"},
	sv:        "i18n/sv/messages.properties",
	changeKey: "farewell", changeValue: "Ha det bra",
	oldLine: "farewell   Ha det\r\n", newLine: "farewell   Ha det bra\r\n",
	svTranslations: `{"pay": "Betala nu", "greeting": "Hej världen"}`,
	svWant: "\ufeff# Shop messages\r\n! kept as written\r\n\r\n# Front page\r\ngreeting : Hej v\\u00E4rlden\r\n" +
		"\r\n# Checkout\r\npay = Betala nu\r\n",
}, {
	format: "i18next",
	files:  i18nextFiles,
	source: [2]string{"locales/en/common.json", "{\r\n    \"greeting\": \"Hello\",\r\n    \"nav\": {\r\n        \"home\": \"Home\",\r\n" +
		"        \"about\": \"About \\\"us\\\"\"\r\n    }\r\n}\r\n"},
	nb: [2]string{"locales/nb/common.json", "{\r\n    \"greeting\": \"Hei\",\r\n    \"nav\": {\r\n        \"home\": \"Hjem\",\r\n" +
		"        \"about\": \"Om \\u00abOss\\u00bb\"\r\n    }\r\n}\r\n"},
	sv:        "locales/sv/common.json",
	changeKey: "nav.home", changeValue: "Hjemmeside",
	oldLine: "        \"home\": \"Hjem\",\r\n", newLine: "        \"home\": \"Hjemmeside\",\r\n",
	svTranslations: `{"nav.about": "Om oss", "greeting": "Hej"}`,
}}

func TestPullMergesIntoTheRepository(t *testing.T) {
	t.Parallel()
	for _, l := range mergeLayouts {
		t.Run(l.format, func(t *testing.T) {
			t.Parallel()
			eachDialect(t, func(t *testing.T, dsn string) {
				r := newRepo(t, dsn, l.files)
				r.write(t, l.source[0], l.source[1])
				r.write(t, l.nb[0], l.nb[1])
				git(t, r.dir, "init", "-q")
				git(t, r.dir, "add", "-A")
				git(t, r.dir, "commit", "-qm", "repository")
				var push pushJSON
				r.ok(t, &push, "push", "--languages", "en,nb")
				ns := strings.TrimSuffix(filepath.Base(l.nb[0]), filepath.Ext(l.nb[0]))
				if code, body := r.srv.do(t, "PUT", "/api/overwrite/"+r.project+"/latest/sv/"+ns, "Bearer "+r.key, l.svTranslations); code != 200 {
					t.Fatalf("overwrite sv: %d %s", code, body)
				}

				// Nothing changed: no file of the repository is rewritten; sv is created.
				before := snapshot(t, r.dir)
				var p1 pullJSON
				r.ok(t, &p1, "pull")
				if got := p1.result(l.nb[0]); got != "unchanged" {
					t.Errorf("pull: %s is %s, want unchanged", l.nb[0], got)
				}
				if got := p1.result(l.source[0]); got != "unchanged" {
					t.Errorf("pull: %s is %s, want unchanged", l.source[0], got)
				}
				after := snapshot(t, r.dir)
				for _, rel := range []string{l.source[0], l.nb[0]} {
					p := filepath.Join(r.dir, filepath.FromSlash(rel))
					if before[p] != after[p] {
						t.Errorf("pull with nothing changed rewrote %s", rel)
					}
				}
				if out := git(t, r.dir, "diff"); out != "" {
					t.Errorf("git diff after a pull with nothing changed:\n%s", out)
				}
				if p1.result(l.sv) != "created" {
					t.Errorf("pull: %s is %s, want created", l.sv, p1.result(l.sv))
				}
				if sv := r.read(t, l.sv); l.svWant != "" && sv != l.svWant {
					t.Errorf("created %s:\n%q\nwant (the source file's order and style)\n%q", l.sv, sv, l.svWant)
				}
				git(t, r.dir, "add", "-A")
				git(t, r.dir, "commit", "-qm", "sv")

				// One translation changed: the diff is its line.
				body := `{"` + l.changeKey + `": "` + l.changeValue + `"}`
				if code, out := r.srv.do(t, "PUT", "/api/overwrite/"+r.project+"/latest/nb/"+ns, "Bearer "+r.key, body); code != 200 {
					t.Fatalf("overwrite nb: %d %s", code, out)
				}
				var p2 pullJSON
				r.ok(t, &p2, "pull")
				if p2.Summary.Written != 1 || p2.result(l.nb[0]) != "updated" {
					t.Errorf("pull after one change: %+v", p2)
				}
				removed, added := diffLines(git(t, r.dir, "diff", "-U0"))
				if strings.Join(removed, "") != l.oldLine || strings.Join(added, "") != l.newLine {
					t.Errorf("git diff removed %q and added %q, want %q and %q", removed, added, l.oldLine, l.newLine)
				}

				// The next pull is a round of conditional GETs: the merged file's hash is kept.
				var p3 pullJSON
				r.ok(t, &p3, "pull")
				if p3.Summary.NotModified != p3.Summary.Files || p3.Summary.Written != 0 {
					t.Errorf("pull after a merged pull: %+v, want every file not modified", p3.Summary)
				}

				// A key the server no longer has stays in the files; --prune removes its lines.
				git(t, r.dir, "add", "-A")
				git(t, r.dir, "commit", "-qm", "nb")
				src := r.flat(t, "en", ns)
				delete(src, l.changeKey)
				sync, _ := json.Marshal(map[string]any{"translations": src})
				if code, out := r.srv.do(t, "PUT", "/api/sync/"+r.project+"/latest/en/"+ns, "Bearer "+r.key, string(sync)); code != 200 {
					t.Fatalf("sync without %s: %d %s", l.changeKey, code, out)
				}
				var p4 pullJSON
				r.ok(t, &p4, "pull")
				if out := git(t, r.dir, "diff"); out != "" || p4.Summary.Written != 0 {
					t.Errorf("pull after a key was hidden: %+v\n%s\nwant nothing written", p4.Summary, out)
				}
				var p5 pullJSON
				r.ok(t, &p5, "pull", "--prune")
				removed, added = diffLines(git(t, r.dir, "diff", "-U0", "--", l.nb[0]))
				if len(added) != 0 || !strings.Contains(strings.Join(removed, ""), l.newLine) {
					t.Errorf("pull --prune: removed %q added %q in %s, want the line %q removed and nothing added", removed, added, l.nb[0], l.newLine)
				}
			})
		})
	}
}

// TestPullRefusesABrokenFile: a repository file that does not read stops pull with its
// name and line, and is left as it is.
func TestPullRefusesABrokenFile(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		r := newRepo(t, dsn, mergeLayouts[0].files)
		r.write(t, "i18n/en/messages.properties", "greeting=Hello\n")
		var push pushJSON
		r.ok(t, &push, "push")
		broken := "greeting=Hei\nbad=\\uZZ\n"
		r.write(t, "i18n/nb/messages.properties", broken)
		line := failsAt(t, r.dir, []string{"LOKAL_API_KEY=" + r.key}, "", "pull")
		if !strings.Contains(line, "i18n/nb/messages.properties") || !strings.Contains(line, "line 2") {
			t.Errorf("pull: %q, want the file and line named", line)
		}
		if got := r.read(t, "i18n/nb/messages.properties"); got != broken {
			t.Errorf("pull rewrote the broken file: %q", got)
		}
	})
}

// git runs the git binary in dir and returns its output.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "core.autocrlf=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// diffLines are the removed and added lines of a unified diff, without their - and +.
func diffLines(diff string) (removed, added []string) {
	for _, l := range strings.SplitAfter(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "---"), strings.HasPrefix(l, "+++"):
		case strings.HasPrefix(l, "-"):
			removed = append(removed, l[1:])
		case strings.HasPrefix(l, "+"):
			added = append(added, l[1:])
		}
	}
	return removed, added
}
