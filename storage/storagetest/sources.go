package storagetest

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// sourceHash names what a template's rows can depend on: the module's Go files other than
// tests (the migrations, storage, and the catalogue that writes the Fixture), go.mod and
// go.sum, found by walking up from the working directory, where go test runs a package's
// binary. Any change to them gives another template; a test's own files do not. A binary
// run outside the module hashes itself instead: a template of its own, as safe as before.
func sourceHash() (string, error) {
	h := sha256.New()
	root := moduleRoot()
	if root == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", err
		}
		if err := hashFile(h, exe); err != nil {
			return "", err
		}
		return hex.EncodeToString(h.Sum(nil))[:16], nil
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if (strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")) ||
			(filepath.Dir(path) == root && (name == "go.mod" || name == "go.sum")) {
			rel, _ := filepath.Rel(root, path)
			io.WriteString(h, rel+"\x00")
			return hashFile(h, path)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

func hashFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	w.Write([]byte{0})
	return err
}

// moduleRoot is the directory of lokal's go.mod above the working directory, or "".
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			if strings.HasPrefix(string(b), "module github.com/lokal-dev/lokal\n") {
				return dir
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
