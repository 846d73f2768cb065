package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPushPullFuzzy: a fuzzy PO entry pushed is stored as needs_review, and pull writes it
// back "#, fuzzy" with its other flags (an approved one without it), so that msgfmt -c accepts the file and
// does not ship the draft; pull --status approved leaves the draft out.
func TestPushPullFuzzy(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		r := newRepo(t, dsn, poFiles)
		header := "msgid \"\"\nmsgstr \"\"\n\"Language: %s\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n"
		r.write(t, "locales/en/app.po", strings.ReplaceAll(header, "%s", "en")+
			"\nmsgctxt \"hello\"\nmsgid \"Hello\"\nmsgstr \"Hello\"\n"+
			"\nmsgctxt \"files\"\nmsgid \"%d files\"\nmsgstr \"%d files\"\n")
		nb := strings.ReplaceAll(header, "%s", "nb") +
			"\nmsgctxt \"hello\"\nmsgid \"Hello\"\nmsgstr \"Hei\"\n" +
			"\n#, fuzzy, c-format\nmsgctxt \"files\"\nmsgid \"%d files\"\nmsgstr \"%d filer\"\n"
		r.write(t, "locales/nb/app.po", nb)
		var pushed pushJSON
		r.ok(t, &pushed, "push", "--languages", "nb")
		if got := r.flat(t, "nb", "app"); got["hello"] != "Hei" || got["files"] != "%d filer" {
			t.Fatalf("nb on the server: %v", got)
		}
		code, body := r.srv.do(t, "GET", "/api/"+r.project+"/latest/nb/app?format=json&status=approved", "Bearer "+r.key, "")
		if code != 200 || strings.Contains(string(body), "filer") || !strings.Contains(string(body), "Hei") {
			t.Errorf("approved nb values: %d %s, want hello only (files needs review)", code, body)
		}

		var pulled pullJSON
		r.ok(t, &pulled, "pull")
		// Nothing changed on the server: the file keeps its bytes, the draft still fuzzy.
		po := r.read(t, "locales/nb/app.po")
		if po != nb {
			t.Errorf("pulled nb file, want it as pushed (files, only, fuzzy):\n%s", po)
		}
		if msgfmt, err := exec.LookPath("msgfmt"); err == nil {
			out, err := exec.Command(msgfmt, "-c", "--statistics", "-o", filepath.Join(t.TempDir(), "nb.mo"), filepath.Join(r.dir, "locales/nb/app.po")).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "1 translated message, 1 fuzzy translation") {
				t.Errorf("msgfmt -c: %v\n%s\n%s", err, out, po)
			}
		} else if os.Getenv("CI") == "true" {
			t.Fatal("gettext is not installed; CI must compile PO files (.ci/run installs gettext)")
		}

		r.ok(t, &pulled, "pull", "--status", "approved")
		if po := r.read(t, "locales/nb/app.po"); strings.Contains(po, "filer") || !strings.Contains(po, `msgstr "Hei"`) {
			t.Errorf("pull --status approved, want the draft left out:\n%s", po)
		}
	})
}
