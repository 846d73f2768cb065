package main

// lokal.yaml: the repository's description for push and pull (which server and project,
// and where its translation files live), and the path patterns it names files with.

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools/formats"
	"go.yaml.in/yaml/v3"
)

const configName = "lokal.yaml"

// maxConfigSize bounds lokal.yaml: a description, not data.
const maxConfigSize = 1 << 20

// repoConfig is a parsed lokal.yaml.
type repoConfig struct {
	Server  string
	Project string
	Files   []fileSpec
	// Root is the directory that holds lokal.yaml: file paths and .lokal/ are relative to it.
	Root string
	file string // lokal.yaml's path, for errors
}

// fileSpec is one entry of files:.
type fileSpec struct {
	Path      string // slash-separated, relative to Root, with {language} and {namespace}
	Format    string
	Namespace string // the fixed namespace when Path has no {namespace}
	// CSVCells is csv_cells, the server's option for a csv file's cells: "raw" reads
	// and writes them without the formula guard.
	CSVCells string
	codec    *formats.Codec
	index    int
}

func (f fileSpec) hasLanguage() bool  { return strings.Contains(f.Path, "{language}") }
func (f fileSpec) hasNamespace() bool { return strings.Contains(f.Path, "{namespace}") }

// allLanguages: one file holds every language (an xcstrings or multi-language CSV file
// whose path names no language), fetched and sent with the language "all".
func (f fileSpec) allLanguages() bool { return f.codec.Multilingual && !f.hasLanguage() }

// field names the entry in errors the way the file spells it.
func (f fileSpec) field(name string) string { return fmt.Sprintf("files[%d].%s", f.index, name) }

// findConfig returns the path of lokal.yaml: given, or the first found from dir upward.
func findConfig(given, dir string) (string, error) {
	if given != "" {
		return filepath.Abs(given)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		p := filepath.Join(d, configName)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("no %s in %s or any directory above it (write one at the repository root, or name one with --config)", configName, dir)
		}
		d = up
	}
}

// loadConfig reads and checks lokal.yaml; an error names the field at fault.
func loadConfig(file string) (*repoConfig, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading the configuration: %w", err)
	}
	if len(data) > maxConfigSize {
		return nil, fmt.Errorf("%s: larger than %d bytes", file, maxConfigSize)
	}
	cfg, err := parseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	cfg.file = file
	cfg.Root = filepath.Dir(file)
	return cfg, nil
}

// parseConfig reads lokal.yaml from the node tree rather than into a struct, so that an
// error names the field as the file spells it (files[1].format), not a Go type.
func parseConfig(data []byte) (*repoConfig, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return nil, errors.New("empty; it needs server, project and files")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: want a mapping with server, project and files", root.Line)
	}
	cfg := &repoConfig{}
	var files *yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seen[k.Value] {
			return nil, fmt.Errorf("line %d: %s given twice", k.Line, k.Value)
		}
		seen[k.Value] = true
		var err error
		switch k.Value {
		case "server":
			cfg.Server, err = scalar(v, "server")
		case "project":
			cfg.Project, err = scalar(v, "project")
		case "files":
			files = v
		default:
			err = fmt.Errorf("line %d: unknown field %q (want server, project, files)", k.Line, k.Value)
		}
		if err != nil {
			return nil, err
		}
	}
	if err := checkServer(cfg.Server); err != nil {
		return nil, err
	}
	if cfg.Project == "" {
		return nil, errors.New("project is missing: the project's id, as `lokal project list` prints it")
	}
	if strings.ContainsAny(cfg.Project, "/?#% ") {
		return nil, fmt.Errorf("project %q is not a project id", cfg.Project)
	}
	if files == nil || files.Kind == yaml.ScalarNode && files.Tag == "!!null" {
		return nil, errors.New("files is missing: a list of {path, format} entries")
	}
	if files.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: files must be a list of {path, format} entries", files.Line)
	}
	if len(files.Content) == 0 {
		return nil, errors.New("files is empty: name at least one {path, format} entry")
	}
	for i, n := range files.Content {
		f, err := parseFileSpec(i, n)
		if err != nil {
			return nil, err
		}
		cfg.Files = append(cfg.Files, f)
	}
	return cfg, nil
}

func scalar(n *yaml.Node, field string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("line %d: %s must be a string", n.Line, field)
	}
	return strings.TrimSpace(n.Value), nil
}

func checkServer(s string) error {
	if s == "" {
		return errors.New("server is missing: the lokal server's URL, such as https://lokal.example.com")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("server %q is not an http or https URL such as https://lokal.example.com", s)
	}
	return nil
}

// pathVar finds a {name} variable of a lokal.yaml path pattern (a file path, not message
// text: translations are read through tools/message).
var pathVar = regexp.MustCompile(`\{[^{}/]*\}`)

func parseFileSpec(i int, n *yaml.Node) (fileSpec, error) {
	f := fileSpec{index: i}
	if n.Kind != yaml.MappingNode {
		return f, fmt.Errorf("line %d: files[%d] must be a mapping with path and format", n.Line, i)
	}
	for j := 0; j+1 < len(n.Content); j += 2 {
		k, v := n.Content[j], n.Content[j+1]
		var err error
		switch k.Value {
		case "path":
			f.Path, err = scalar(v, f.field("path"))
		case "format":
			f.Format, err = scalar(v, f.field("format"))
		case "namespace":
			f.Namespace, err = scalar(v, f.field("namespace"))
		case "csv_cells":
			f.CSVCells, err = scalar(v, f.field("csv_cells"))
		default:
			err = fmt.Errorf("line %d: %s: unknown field %q (want path, format, namespace, csv_cells)", k.Line, fmt.Sprintf("files[%d]", i), k.Value)
		}
		if err != nil {
			return f, err
		}
	}
	if f.Path == "" {
		return f, fmt.Errorf("%s is missing: where the files are, such as locales/{language}/{namespace}.json", f.field("path"))
	}
	if f.Format == "" {
		return f, fmt.Errorf("%s is missing (one of %s)", f.field("format"), strings.Join(formats.Names(), ", "))
	}
	c, ok := formats.Lookup(f.Format)
	if !ok {
		return f, fmt.Errorf("%s: unknown format %q (want one of %s)", f.field("format"), f.Format, strings.Join(formats.Names(), ", "))
	}
	f.codec, f.Format = c, c.Name
	if f.CSVCells != "" && (f.CSVCells != "guarded" && f.CSVCells != "raw" || c.Name != "csv") {
		return f, fmt.Errorf("%s %q: want guarded or raw, for a csv file", f.field("csv_cells"), f.CSVCells)
	}
	p := f.Path
	if strings.Contains(p, `\`) || path.IsAbs(p) || filepath.IsAbs(p) || slices.Contains(strings.Split(p, "/"), "..") {
		return f, fmt.Errorf("%s %q: give a slash-separated path inside the repository", f.field("path"), p)
	}
	if path.Clean(p) != p {
		return f, fmt.Errorf("%s %q: give the path in its plain form (%s)", f.field("path"), p, path.Clean(p))
	}
	for _, ph := range pathVar.FindAllString(p, -1) {
		if ph != "{language}" && ph != "{namespace}" {
			return f, fmt.Errorf("%s %q: unknown placeholder %s (want {language} or {namespace})", f.field("path"), p, ph)
		}
	}
	if strings.ContainsAny(pathVar.ReplaceAllString(p, ""), "{}*?[") {
		return f, fmt.Errorf("%s %q: braces and glob characters are not allowed outside {language} and {namespace}", f.field("path"), p)
	}
	if strings.Contains(p, "}{") {
		return f, fmt.Errorf("%s %q: placeholders must be separated by text", f.field("path"), p)
	}
	switch {
	case f.hasNamespace() && f.Namespace != "":
		return f, fmt.Errorf("%s: give either {namespace} in the path or a fixed namespace, not both", f.field("namespace"))
	case !f.hasNamespace() && f.Namespace == "":
		return f, fmt.Errorf("%s is missing: the path %q has no {namespace}, so name the namespace its keys go to", f.field("namespace"), p)
	case f.Namespace != "" && strings.ContainsAny(f.Namespace, "/?#%"):
		return f, fmt.Errorf("%s %q: not a namespace key", f.field("namespace"), f.Namespace)
	}
	return f, nil
}

// expand is the pattern with its placeholders filled in.
func (f fileSpec) expand(language, namespace string) string {
	r := strings.NewReplacer("{language}", language, "{namespace}", namespace)
	if namespace == "" {
		r = strings.NewReplacer("{language}", language)
	}
	return r.Replace(f.Path)
}

// matcher is a regexp of the pattern with the language fixed and {namespace} captured.
func (f fileSpec) matcher(language string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	rest := f.Path
	for rest != "" {
		loc := pathVar.FindStringIndex(rest)
		if loc == nil {
			b.WriteString(regexp.QuoteMeta(rest))
			break
		}
		b.WriteString(regexp.QuoteMeta(rest[:loc[0]]))
		switch rest[loc[0]:loc[1]] {
		case "{language}":
			b.WriteString(regexp.QuoteMeta(language))
		case "{namespace}":
			// Every {namespace} must be the same text: the first captures, the rest refer back
			// through the check in find.
			b.WriteString(`([^/]+)`)
		}
		rest = rest[loc[1]:]
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// found is one file of the repository that a pattern names.
type found struct {
	Rel       string // slash-separated, relative to the root
	Namespace string
}

// find lists the files of one language that f names under root, sorted by path. A pattern
// with {namespace} is globbed; without, the one path is checked. A file whose symbolic
// link (or a directory's on its way) leads outside root is an error naming it.
func (f fileSpec) find(root *repoRoot, language string) ([]found, error) {
	if !f.hasNamespace() {
		rel := f.expand(language, "")
		fi, err := root.stat(rel)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return nil, nil
		case err != nil:
			return nil, fmt.Errorf("%s: %w", rel, err)
		case fi.IsDir():
			return nil, fmt.Errorf("%s is a directory, not a file", rel)
		}
		return []found{{Rel: rel, Namespace: f.Namespace}}, nil
	}
	glob := strings.ReplaceAll(globEscape(f.expand(language, "\x00")), "\x00", "*")
	matches, err := filepath.Glob(filepath.Join(root.dir, filepath.FromSlash(glob)))
	if err != nil {
		return nil, err
	}
	re := f.matcher(language)
	var out []found
	for _, m := range matches {
		rel, err := filepath.Rel(root.dir, m)
		if err != nil {
			return nil, err
		}
		rel = filepath.ToSlash(rel)
		sub := re.FindStringSubmatch(rel)
		if sub == nil {
			continue
		}
		ns := sub[1]
		if slices.ContainsFunc(sub[1:], func(s string) bool { return s != ns }) {
			continue // {namespace} twice with different texts
		}
		fi, err := root.stat(rel)
		switch {
		case errors.Is(err, os.ErrNotExist):
			continue // a dangling link, or a file removed since the glob
		case err != nil:
			return nil, fmt.Errorf("%s: %w", rel, err)
		case fi.IsDir():
			continue
		}
		out = append(out, found{Rel: rel, Namespace: ns})
	}
	slices.SortFunc(out, func(a, b found) int { return strings.Compare(a.Rel, b.Rel) })
	return out, nil
}

// globEscape escapes filepath.Match's special characters (a language code never has them,
// but a directory name might).
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
