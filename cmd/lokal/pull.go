package main

// lokal pull: every language and namespace that lokal.yaml's paths name, merged from the
// server's export into the repository's file (formats.MergeFile: untouched entries keep
// their bytes, a new key goes where the source-language file has it) and written, atomically,
// only when that changed it. A file the repository lacks follows the source-language file
// where the format allows (formats.MergeTemplate). The ETag of each file is kept in .lokal/
// so that an unchanged file costs one conditional request.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/lokal-dev/lokal/tools/formats"
	"golang.org/x/sync/errgroup"
)

// pullParallel bounds the requests in flight: 100 files of a project go in one round of
// eight connections, without crowding the server.
const pullParallel = 8

// stateDir is the directory at the repository root where pull keeps its ETags.
const stateDir = ".lokal"

// pulledFile is one file pull looked at, and what it did.
type pulledFile struct {
	Path      string `json:"path"`
	Language  string `json:"language"`
	Namespace string `json:"namespace"`
	Format    string `json:"format"`
	// Result: created or updated (written), unchanged (the export merged into the file
	// changes nothing in it) or not_modified (304: the server's ETag still matches the file).
	Result string `json:"result"`
}

type pullTotals struct {
	Files       int `json:"files"`
	Written     int `json:"written"`
	Created     int `json:"created"`
	Unchanged   int `json:"unchanged"`
	NotModified int `json:"not_modified"`
}

type pullOut struct {
	Files   []pulledFile `json:"files"`
	Summary pullTotals   `json:"summary"`
}

// download is one file to fetch.
type download struct {
	spec      fileSpec
	rel       string
	language  string // a code, or "all" for a file of every language
	namespace string
	// source is the file of the same entry and namespace in the source language (the
	// source: file when given); "" when d is that file or holds every language.
	source string
}

// pullState is .lokal/state.json: per file, the request and ETag of the last fetch and the
// hash of what it wrote. The ETag is sent only while the file still holds those bytes, so
// a file edited or deleted by hand is fetched again.
type pullState struct {
	Files map[string]fileState `json:"files"`
}

type fileState struct {
	URL    string `json:"url"`
	ETag   string `json:"etag"`
	SHA256 string `json:"sha256"`
}

func runPull(ctx context.Context, c *call) (any, string, error) {
	cfg, api, err := openRepo(c)
	if err != nil {
		return nil, "", err
	}
	info, err := api.projectInfo(ctx)
	if err != nil {
		return nil, "", err
	}
	langs := info.languages()
	if given := c.in.list("languages"); len(given) > 0 {
		if langs, err = chosenLanguages(given, info); err != nil {
			return nil, "", err
		}
	}
	plan, err := pullPlan(cfg, info, langs)
	if err != nil {
		return nil, "", err
	}
	root, err := openRepoRoot(cfg.Root)
	if err != nil {
		return nil, "", err
	}
	defer root.Close()
	state := loadPullState(root)
	sources := &sourceFiles{root: root, language: info.SourceLanguage, files: map[string]*sourceFile{}}
	po := pullOpts{status: c.in.str("status"), prune: c.in.boolean("prune")}
	results := make([]pulledFile, len(plan))
	var mu sync.Mutex // guards state.Files
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(pullParallel)
	for i, d := range plan {
		g.Go(func() error {
			r, st, err := api.pullFile(gctx, root, d, po, stateOf(&mu, state, d.rel), sources)
			if err != nil {
				return err
			}
			mu.Lock()
			state.Files[d.rel] = st
			mu.Unlock()
			results[i] = r
			return nil
		})
	}
	err = g.Wait()
	// What was written stays written: keep its ETag even when another file failed.
	if serr := savePullState(root, state); serr != nil && err == nil {
		err = serr
	}
	if err != nil {
		return nil, "", err
	}
	out := pullOut{Files: results}
	var lines []string
	for _, r := range results {
		out.Summary.Files++
		switch r.Result {
		case "created":
			out.Summary.Created++
			out.Summary.Written++
			lines = append(lines, "created "+r.Path)
		case "updated":
			out.Summary.Written++
			lines = append(lines, "updated "+r.Path)
		case "unchanged":
			out.Summary.Unchanged++
		case "not_modified":
			out.Summary.Unchanged++
			out.Summary.NotModified++
		}
	}
	s := out.Summary
	lines = append(lines, fmt.Sprintf("pull: %s, %d written (%d new), %d unchanged (%d not modified on the server)",
		files(s.Files), s.Written, s.Created, s.Unchanged, s.NotModified))
	return out, strings.Join(lines, "\n"), nil
}

func stateOf(mu *sync.Mutex, s *pullState, rel string) fileState {
	mu.Lock()
	defer mu.Unlock()
	return s.Files[rel]
}

// pullPlan lists the files to fetch: per entry of lokal.yaml, every namespace of the
// project its path names but those other entries name as theirs (or its fixed one) in
// every language of langs; a file of every language once per namespace; a path without a
// language placeholder in a one-language format holds the source language, and so does
// an entry's source: file. A language goes where the repository has its files (pt_BR/
// beside pt_BR/common.json), else where the placeholder spells it (values-pt-rBR), never
// where push could not read it back. A name the server sent that could lead out of the
// repository stops the plan before anything is fetched or written, and so does a file of
// the repository that an entry matches but cannot place (see fileSpec.scan).
func pullPlan(cfg *repoConfig, info projectInfo, langs []string) ([]download, error) {
	var out []download
	seen := map[string]download{}
	// A namespace that an entry names as its own (ios for a String Catalog) belongs to that
	// file, not to every {namespace} path beside it.
	fixed := map[string]bool{}
	for _, f := range cfg.Files {
		fixed[f.Namespace] = f.Namespace != ""
	}
	// The repository, opened for the first entry that spells a language: where its files
	// of each language already are.
	var root *repoRoot
	defer func() {
		if root != nil {
			root.Close()
		}
	}()
	for _, f := range cfg.Files {
		namespaces := []string{f.Namespace}
		if f.hasNamespace() {
			namespaces = slices.DeleteFunc(slices.Clone(info.Namespaces), func(ns string) bool { return fixed[ns] })
		}
		var fileLangs []string
		switch {
		case f.allLanguages():
			fileLangs = []string{"all"}
		case !f.hasLanguage():
			if slices.Contains(langs, info.SourceLanguage) {
				fileLangs = []string{info.SourceLanguage}
			}
		default:
			fileLangs = langs
		}
		if len(fileLangs) == 0 || len(namespaces) == 0 {
			continue
		}
		for _, ns := range namespaces {
			if f.hasNamespace() {
				if err := checkPathName("namespace", ns); err != nil {
					return nil, err
				}
			}
		}
		var w where
		if f.hasLanguage() {
			for _, l := range fileLangs {
				if err := checkPathName("language", l); err != nil {
					return nil, err
				}
			}
			if root == nil {
				var err error
				if root, err = openRepoRoot(cfg.Root); err != nil {
					return nil, err
				}
			}
			sc, err := f.scan(root, info.SourceLanguage)
			if err != nil {
				return nil, err
			}
			w = sc.where()
		}
		for _, ns := range namespaces {
			var source string
			if f.hasLanguage() {
				var err error
				if source, err = f.target(w, info.SourceLanguage, ns, info.SourceLanguage); err != nil {
					return nil, err
				}
			}
			for _, l := range fileLangs {
				if l == info.SourceLanguage && f.template() {
					continue // the extractor's file (xgettext writes the POT), not lokal's
				}
				if _, ok := w.files[[2]string{l, ns}]; l == info.SourceLanguage && f.codec.Bilingual && f.hasLanguage() && f.Source == "" && !ok {
					continue // the translations' files carry the source texts; push read them there
				}
				rel := expandParts(f.parts, "", ns)
				if f.hasLanguage() {
					var err error
					if rel, err = f.target(w, l, ns, info.SourceLanguage); err != nil {
						return nil, err
					}
				}
				if err := checkRepoPath(rel); err != nil {
					return nil, err
				}
				d := download{spec: f, rel: rel, language: l, namespace: ns}
				if l != info.SourceLanguage {
					d.source = source
				}
				if o, ok := seen[rel]; ok {
					return nil, fmt.Errorf("files[%d] (%s, %s) and files[%d] (%s, %s) both name %s", o.spec.index, o.language, o.namespace, f.index, l, ns, rel)
				}
				seen[rel] = d
				out = append(out, d)
			}
		}
	}
	return out, nil
}

// pullFile fetches one file, conditionally when the file still holds what the last pull
// left in it, merges the export into it and writes it when that changed it.
// pullOpts are pull's flags that shape each file.
type pullOpts struct {
	status string // the export's status= filter; "" for every translation
	// prune removes the entries of a file that the export lacks (formats.Options.Prune).
	prune bool
}

func (a *apiClient) pullFile(ctx context.Context, root *repoRoot, d download, po pullOpts, last fileState, sources *sourceFiles) (pulledFile, fileState, error) {
	r := pulledFile{Path: d.rel, Language: d.language, Namespace: d.namespace, Format: d.spec.Format}
	local, err := root.readFile(d.rel)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return r, last, fmt.Errorf("reading %s: %w", d.rel, err)
	}
	q := url.Values{"format": {d.spec.Format}}
	if d.spec.CSVCells != "" {
		q.Set("csv_cells", d.spec.CSVCells)
	}
	if po.status != "" {
		q.Set("status", po.status)
	}
	path := "/api/" + url.PathEscape(a.project) + namespacePath(d.language, d.namespace)
	id := a.base + path + "?" + q.Encode()
	if po.prune {
		id += "#prune" // a file last merged without pruning is fetched and merged again
	}
	hdr := map[string]string{}
	if exists && last.ETag != "" && last.URL == id && last.SHA256 == hash(local) {
		hdr["If-None-Match"] = last.ETag
	}
	res, err := a.do(ctx, http.MethodGet, path, q, hdr, nil, http.StatusOK, http.StatusNotModified)
	if err != nil {
		return r, last, fmt.Errorf("pulling %s: %w", d.rel, err)
	}
	if res.Status == http.StatusNotModified {
		r.Result = "not_modified"
		return r, last, nil
	}
	src, err := sources.of(d)
	if err != nil {
		return r, last, err
	}
	o := formats.Options{Language: d.language, SourceLanguage: sources.language, RawCells: d.spec.CSVCells == "raw", SourceOrder: src.order, Prune: po.prune}
	var out []byte
	if exists {
		out, err = formats.MergeFile(d.spec.Format, local, res.Body, o)
	} else {
		out, err = formats.MergeTemplate(d.spec.Format, src.data, res.Body, o)
	}
	if err != nil {
		return r, last, fmt.Errorf("pulling %s: %w", d.rel, err)
	}
	// The hash is of what is on disk after the merge: the next pull sends the ETag while
	// the file still holds it.
	st := fileState{URL: id, ETag: res.Header.Get("ETag"), SHA256: hash(out)}
	if exists && bytes.Equal(local, out) {
		r.Result = "unchanged"
		return r, st, nil
	}
	if err := root.writeAtomic(d.rel, out); err != nil {
		return r, last, fmt.Errorf("writing %s: %w", d.rel, err)
	}
	r.Result = "updated"
	if !exists {
		r.Result = "created"
	}
	return r, st, nil
}

// sourceFiles reads each local source-language file once for the files of its entry and
// namespace in other languages: its keys' order places new keys, and it is the template of
// a file the repository lacks.
type sourceFiles struct {
	root     *repoRoot
	language string // the project's source language
	mu       sync.Mutex
	files    map[string]*sourceFile
}

// sourceFile is a source-language file as the repository has it; data nil when it has none.
type sourceFile struct {
	once  sync.Once
	data  []byte
	order []string
	err   error
}

// of is the source-language file of d's entry and namespace; empty for a file in the
// source language itself or of every language, whose own order stands.
func (s *sourceFiles) of(d download) (*sourceFile, error) {
	if d.source == "" {
		return &sourceFile{}, nil
	}
	rel := d.source
	s.mu.Lock()
	f, ok := s.files[rel]
	if !ok {
		f = &sourceFile{}
		s.files[rel] = f
	}
	s.mu.Unlock()
	f.once.Do(func() {
		data, err := s.root.readFile(rel)
		if errors.Is(err, os.ErrNotExist) {
			return
		}
		if err != nil {
			f.err = fmt.Errorf("reading %s: %w", rel, err)
			return
		}
		file, err := formats.Decode(d.spec.Format, data, formats.Options{Language: s.language, SourceLanguage: s.language})
		if err != nil {
			f.err = fmt.Errorf("reading %s (the source-language file): %w", rel, err)
			return
		}
		f.data = data
		for _, e := range file.Entries {
			f.order = append(f.order, e.Key)
		}
	})
	return f, f.err
}

func hash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// loadPullState reads .lokal/state.json; a missing or unreadable one is empty: every
// file is then fetched in full, which is always correct.
func loadPullState(root *repoRoot) *pullState {
	s := &pullState{}
	if data, err := root.readFile(stateDir + "/state.json"); err == nil {
		_ = json.Unmarshal(data, s)
	}
	if s.Files == nil {
		s.Files = map[string]fileState{}
	}
	return s
}

// savePullState writes .lokal/state.json, creating .lokal/ with a .gitignore: the ETags
// are this checkout's cache, not something to commit.
func savePullState(root *repoRoot, s *pullState) error {
	if _, err := root.stat(stateDir); errors.Is(err, os.ErrNotExist) {
		if err := root.writeAtomic(stateDir+"/.gitignore", []byte("# lokal pull's cache of ETags\n*\n")); err != nil {
			return fmt.Errorf("writing %s: %w", stateDir+"/.gitignore", err)
		}
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	file := stateDir + "/state.json"
	if old, err := root.readFile(file); err == nil && bytes.Equal(old, data) {
		return nil // a pull that changed nothing writes nothing
	}
	if err := root.writeAtomic(file, data); err != nil {
		return fmt.Errorf("saving %s: %w", file, err)
	}
	return nil
}
