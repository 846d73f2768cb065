package main

// Safe paths: push and pull touch the repository's files only. The names the server sends
// (namespaces, languages) fill the placeholders of lokal.yaml's paths, so a hostile server,
// or anyone between it and an http:// URL, could otherwise aim pull at ../../.bashrc; and a
// symbolic link in the repository could lead a write or a read out of it. Three rules, each
// in one place: checkPathName decides a name the server sent, checkRepoPath decides a path
// made from it, and repoRoot (an os.Root) does every read and write, so that no symbolic
// link, of a file or of a directory on the way, leads outside the root.

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"
)

// checkPathName decides whether a name the server sent (kind is "namespace" or
// "language") may fill one placeholder of a path: it must be one plain file name on every
// system, so that the file it names stays in the folder lokal.yaml gives it.
func checkPathName(kind, name string) error {
	var why string
	switch {
	case name == "":
		why = "it is empty"
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		why = "it has a control character (such as NUL)"
	case strings.ContainsAny(name, `/\`):
		why = "it has a path separator"
	case strings.Contains(name, ":"):
		why = "it has a colon, which Windows reads as a drive (C:) or a stream"
	case strings.HasPrefix(name, "."):
		why = "it starts with a dot (.. leads up; .git and .lokal are not translation folders)"
	case strings.TrimSpace(name) != name:
		why = "it starts or ends with a space, which Windows drops"
	default:
		return nil
	}
	return fmt.Errorf("refusing the %s name %q the server sent: %s (a name that fills a path must be one plain file or folder name, inside the repository)", kind, name, why)
}

// checkRepoPath decides a slash-separated path made from lokal.yaml and the server's names:
// cleaned, it must stay under the repository root (filepath.IsLocal also refuses the
// device names of Windows there).
func checkRepoPath(rel string) error {
	if rel == "" || rel == "." || path.Clean(rel) != rel || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return fmt.Errorf("refusing the path %q: it does not stay inside the repository", rel)
	}
	return nil
}

// repoRoot is the repository opened as an os.Root: every file push reads and pull writes
// goes through it, and the operating system refuses a path whose symbolic links lead
// outside (links that stay inside are followed).
type repoRoot struct {
	dir  string
	root *os.Root
	// escapes is the os package's own error for such a path, learnt by asking for "..".
	escapes error
}

func openRepoRoot(dir string) (*repoRoot, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("opening the repository: %w", err)
	}
	r := &repoRoot{dir: dir, root: root}
	_, err = root.Lstat("..")
	var pe *fs.PathError
	if errors.As(err, &pe) {
		r.escapes = pe.Err
	}
	return r, nil
}

func (r *repoRoot) Close() error { return r.root.Close() }

// plain words for an escape: the caller's error names the file.
func (r *repoRoot) plain(err error) error {
	if err != nil && r.escapes != nil && errors.Is(err, r.escapes) {
		return fmt.Errorf("a symbolic link on its way leads outside the repository %s, and lokal does not follow it", r.dir)
	}
	return err
}

func (r *repoRoot) readFile(rel string) ([]byte, error) {
	data, err := r.root.ReadFile(filepath.FromSlash(rel))
	return data, r.plain(err)
}

func (r *repoRoot) stat(rel string) (fs.FileInfo, error) {
	fi, err := r.root.Stat(filepath.FromSlash(rel))
	return fi, r.plain(err)
}

// writeAtomic replaces rel with data through a temporary file in the same directory, so a
// reader (or a crash) sees the old file or the new one, never a part. It keeps an existing
// file's mode. The rename replaces a symbolic link at rel rather than writing through it.
func (r *repoRoot) writeAtomic(rel string, data []byte) error {
	name := filepath.FromSlash(rel)
	dir := filepath.Dir(name)
	if err := r.root.MkdirAll(dir, 0o755); err != nil {
		return r.plain(err)
	}
	mode := os.FileMode(0o644)
	fi, err := r.root.Stat(name)
	switch {
	case err == nil:
		if !fi.Mode().IsRegular() {
			return errors.New("not a regular file")
		}
		mode = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return r.plain(err)
	}
	var tmp *os.File
	var tmpName string
	for range 10 {
		tmpName = filepath.Join(dir, "."+filepath.Base(name)+".lokal-"+rand.Text()[:12])
		tmp, err = r.root.OpenFile(tmpName, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return r.plain(err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			r.root.Remove(tmpName)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := r.root.Rename(tmpName, name); err != nil {
		return r.plain(err)
	}
	done = true
	return nil
}
