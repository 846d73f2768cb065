package formatstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// CompiledShips compiles po with msgfmt -c and reads the catalog back with msgunfmt: the
// translations in ship are in it, those in skip (fuzzy entries) are not. Without gettext the
// check is left out, except under CI=true, which .ci/run gives gettext to: there it fails,
// so that CI never passes by leaving it out.
func CompiledShips(t testing.TB, po []byte, ship, skip []string) {
	t.Helper()
	msgfmt, err1 := exec.LookPath("msgfmt")
	msgunfmt, err2 := exec.LookPath("msgunfmt")
	if err1 != nil || err2 != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("gettext is not installed; CI must compile PO files (.ci/run installs gettext)")
		}
		t.Log("gettext is not installed: the compiled catalog is not checked")
		return
	}
	dir := t.TempDir()
	src, mo := filepath.Join(dir, "in.po"), filepath.Join(dir, "out.mo")
	if err := os.WriteFile(src, po, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(msgfmt, "-c", "-o", mo, src).CombinedOutput(); err != nil {
		t.Fatalf("msgfmt -c: %v\n%s\n%s", err, out, po)
	}
	out, err := exec.Command(msgunfmt, mo).CombinedOutput()
	if err != nil {
		t.Fatalf("msgunfmt: %v\n%s", err, out)
	}
	for _, s := range ship {
		if !strings.Contains(string(out), `"`+s+`"`) {
			t.Errorf("the compiled catalog lacks %q:\n%s", s, out)
		}
	}
	for _, s := range skip {
		if strings.Contains(string(out), `"`+s+`"`) {
			t.Errorf("the compiled catalog ships the fuzzy %q:\n%s", s, out)
		}
	}
}
