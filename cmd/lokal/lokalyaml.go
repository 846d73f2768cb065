package main

// lokal.yaml: the repository's description for push and pull (which server and project,
// and where its translation files live), and the path patterns it names files with.

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

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
	// Languages is the top-level languages: map, which every entry's own extends.
	Languages map[string]string
	// Root is the directory that holds lokal.yaml: file paths and .lokal/ are relative to it.
	Root string
	file string // lokal.yaml's path, for errors
}

// fileSpec is one entry of files:.
type fileSpec struct {
	// Path is slash-separated, relative to Root, with {namespace} and one language
	// placeholder ({language}, {locale}, {android} or {apple}).
	Path      string
	Format    string
	Namespace string // the fixed namespace when Path has no {namespace}
	// CSVCells is csv_cells, the server's option for a csv file's cells: "raw" reads
	// and writes them without the formula guard.
	CSVCells string
	// Spelling is Path's language placeholder, "" when it has none.
	Spelling spelling
	// Source is source:, the file of the source language when its name holds no language
	// (Messages.properties, po/app.pot, Base.lproj/Localizable.strings): Path's own file in
	// the source language is then neither pushed nor pulled.
	Source string
	// Languages maps a lokal language to the language its files name instead (nb: no), as
	// a tag that the placeholder spells (values-no for {android}): the top-level map with
	// the entry's own over it.
	Languages map[string]string
	// Ignore are path.Match patterns of files the path matches that hold no language.
	Ignore             []string
	parts, sourceParts []part
	codec              *formats.Codec
	index              int
}

func (f fileSpec) hasLanguage() bool  { return f.Spelling != "" }
func (f fileSpec) hasNamespace() bool { return strings.Contains(f.Path, "{namespace}") }

// template: the source: file is a gettext template (.pot), which the extractor writes;
// pull fills the languages' files from it and never writes it.
func (f fileSpec) template() bool { return f.Format == "po" && strings.HasSuffix(f.Source, ".pot") }

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
		case "languages":
			cfg.Languages, err = languageMap(v, "languages")
		default:
			err = fmt.Errorf("line %d: unknown field %q (want server, project, languages, files)", k.Line, k.Value)
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
		f, err := parseFileSpec(i, n, cfg.Languages)
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

func parseFileSpec(i int, n *yaml.Node, top map[string]string) (fileSpec, error) {
	f := fileSpec{index: i}
	if n.Kind != yaml.MappingNode {
		return f, fmt.Errorf("line %d: files[%d] must be a mapping with path and format", n.Line, i)
	}
	var own map[string]string
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
		case "source":
			f.Source, err = scalar(v, f.field("source"))
		case "languages":
			own, err = languageMap(v, f.field("languages"))
		case "ignore":
			f.Ignore, err = patternList(v, f.field("ignore"))
		default:
			err = fmt.Errorf("line %d: %s: unknown field %q (want path, format, namespace, source, languages, ignore, csv_cells)", k.Line, fmt.Sprintf("files[%d]", i), k.Value)
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
	if err := f.checkPattern("path", f.Path, true); err != nil {
		return f, err
	}
	f.parts = splitPattern(f.Path)
	for _, p := range f.parts {
		if p.ph && p.text != "namespace" {
			f.Spelling = spelling(p.text)
		}
	}
	switch {
	case f.hasNamespace() && f.Namespace != "":
		return f, fmt.Errorf("%s: give either {namespace} in the path or a fixed namespace, not both", f.field("namespace"))
	case !f.hasNamespace() && f.Namespace == "":
		return f, fmt.Errorf("%s is missing: the path %q has no {namespace}, so name the namespace its keys go to", f.field("namespace"), f.Path)
	case f.Namespace != "" && strings.ContainsAny(f.Namespace, "/?#%"):
		return f, fmt.Errorf("%s %q: not a namespace key", f.field("namespace"), f.Namespace)
	}
	if f.Source != "" {
		switch {
		case !f.hasLanguage():
			return f, fmt.Errorf("%s: the path %q names no language, so its files are the source already", f.field("source"), f.Path)
		case c.Multilingual:
			return f, fmt.Errorf("%s: a %s file holds every language; it has no separate source file", f.field("source"), c.Name)
		}
		if err := f.checkPattern("source", f.Source, false); err != nil {
			return f, err
		}
		if strings.Contains(f.Source, "{namespace}") != f.hasNamespace() {
			return f, fmt.Errorf("%s %q: give {namespace} in both path and source, or in neither", f.field("source"), f.Source)
		}
		f.sourceParts = splitPattern(f.Source)
	}
	if (own != nil || f.Ignore != nil) && !f.hasLanguage() {
		return f, fmt.Errorf("%s: the path %q names no language, so there is nothing to map or leave out", f.field("languages"), f.Path)
	}
	f.Languages = maps.Clone(top)
	if f.Languages == nil {
		f.Languages = map[string]string{}
	}
	maps.Copy(f.Languages, own)
	if f.hasLanguage() {
		named := map[string]string{}
		for _, l := range slices.Sorted(maps.Keys(f.Languages)) {
			text := f.Spelling.write(f.Languages[l], false)
			if other, ok := named[text]; ok {
				return f, fmt.Errorf("%s: %s and %s are both named %s", f.field("languages"), other, l, text)
			}
			named[text] = l
		}
	}
	return f, nil
}

// checkPattern checks a path pattern of lokal.yaml: a plain slash-separated path inside
// the repository whose placeholders are {namespace} and, where language is true, one
// language spelling.
func (f fileSpec) checkPattern(field, p string, language bool) error {
	if strings.Contains(p, `\`) || path.IsAbs(p) || filepath.IsAbs(p) || slices.Contains(strings.Split(p, "/"), "..") {
		return fmt.Errorf("%s %q: give a slash-separated path inside the repository", f.field(field), p)
	}
	if path.Clean(p) != p {
		return fmt.Errorf("%s %q: give the path in its plain form (%s)", f.field(field), p, path.Clean(p))
	}
	want := "{namespace}"
	if language {
		want = "{language}, {locale}, {android}, {apple} or {namespace}"
	}
	var lang spelling
	for _, ph := range pathVar.FindAllString(p, -1) {
		name := ph[1 : len(ph)-1]
		s := spelling(name)
		switch {
		case name == "namespace":
		case !language || !slices.Contains(spellings, s):
			return fmt.Errorf("%s %q: unknown placeholder %s (want %s)", f.field(field), p, ph, want)
		case lang != "" && lang != s:
			return fmt.Errorf("%s %q: spell the language one way, {%s} or {%s}", f.field(field), p, lang, s)
		default:
			lang = s
		}
	}
	if strings.ContainsAny(pathVar.ReplaceAllString(p, ""), "{}*?[") {
		return fmt.Errorf("%s %q: braces and glob characters are not allowed outside the placeholders", f.field(field), p)
	}
	if strings.Contains(p, "}{") {
		return fmt.Errorf("%s %q: placeholders must be separated by text", f.field(field), p)
	}
	if lang == spellAndroid {
		// The folder's whole name: values for the source language, values-de for German.
		for _, seg := range strings.Split(p, "/") {
			if strings.Contains(seg, "{android}") && seg != "{android}" {
				return fmt.Errorf("%s %q: {android} is a whole folder name (values, values-de, values-pt-rBR), such as res/{android}/strings.xml", f.field(field), p)
			}
		}
	}
	return nil
}

// languageMap reads a languages: map: a lokal language (any BCP 47 tag, stored in its
// canonical form) to the language its files name instead, as a tag (nb: no, pt-BR: pt).
func languageMap(n *yaml.Node, field string) (map[string]string, error) {
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: %s must be a mapping from a lokal language to the name its files use, such as {nb: no, pt-BR: pt}", n.Line, field)
	}
	out := map[string]string{}
	for j := 0; j+1 < len(n.Content); j += 2 {
		k, v := n.Content[j], n.Content[j+1]
		l, err := parseLanguage(k.Value)
		if err != nil {
			return nil, fmt.Errorf("line %d: %s: %v", k.Line, field, err)
		}
		if _, dup := out[l]; dup {
			return nil, fmt.Errorf("line %d: %s: %s given twice", k.Line, field, l)
		}
		name, err := scalar(v, field+"."+k.Value)
		if err != nil {
			return nil, err
		}
		if name == "" || strings.ContainsAny(name, "/\\{}*?[:") || strings.HasPrefix(name, ".") || strings.IndexFunc(name, unicode.IsControl) >= 0 {
			return nil, fmt.Errorf("line %d: %s.%s %q: give the language as the file names spell it, such as no or pt_BR", v.Line, field, k.Value, name)
		}
		out[l] = name
	}
	return out, nil
}

// patternList reads ignore:, a list of path.Match patterns relative to the root.
func patternList(n *yaml.Node, field string) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("line %d: %s must be a list of paths, such as [res/values-night/strings.xml]", n.Line, field)
	}
	var out []string
	for i, e := range n.Content {
		p, err := scalar(e, fmt.Sprintf("%s[%d]", field, i))
		if err != nil {
			return nil, err
		}
		if _, err := path.Match(p, ""); err != nil || p == "" {
			return nil, fmt.Errorf("line %d: %s[%d] %q is not a path pattern", e.Line, field, i, p)
		}
		out = append(out, p)
	}
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
