package main

// lokal push: the repository's source-language files (and, with --languages, its
// translations) sent through the import endpoint. It never hides a key unless
// --hide-missing asks for a full sync, and never deletes.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/message"
)

var (
	configFlag   = opt("config", "FILE", "the lokal.yaml to use; default the first found from the current directory upward")
	keyStdinFlag = boolean("key-stdin", "read the API key from stdin instead of LOKAL_API_KEY")
)

func pushPullCommands() []*command {
	return []*command{
		{name: "push", args: "[--dry-run] [--languages L1,L2|all] [--hide-missing]",
			synopsis: "upload the repository's translation files named in lokal.yaml",
			about: "Sends the source-language files (and, with --languages, those translations) to the server\n" +
				"named in lokal.yaml through its import endpoint, creating keys and updating texts; prints\n" +
				"per file the language and namespace it went to and what was created, updated and left\n" +
				"unchanged, and the files it found and did not send, with why. A file a path matches whose\n" +
				"name holds no language is an error naming it (see languages: and ignore: in lokal.yaml).\n" +
				"Keys missing from the files are kept unless --hide-missing, which then hides them (nothing\n" +
				"is ever deleted). The key comes from LOKAL_API_KEY or, with --key-stdin, from stdin.",
			flags: []flagDef{
				boolean("dry-run", "change nothing; print what would be created, updated (and hidden)"),
				list("languages", "L1,L2|all", "also push the translation files of these languages; all: of every language the repository has (a file of a language the project lacks is then an error)"),
				boolean("hide-missing", "after the imports, hide the keys of each pushed namespace that its source files no longer have"),
				configFlag, keyStdinFlag,
			},
			json: true, run: runPush},
		{name: "pull", args: "[--status approved] [--languages L1,L2] [--prune]",
			synopsis: "merge the project's translations into the files named in lokal.yaml",
			about: "Merges the server's export of every language and namespace the paths of lokal.yaml name\n" +
				"into the repository's files: untouched entries keep their bytes, a changed value rewrites\n" +
				"its own lines, a new key goes where the source-language file has it (in a translation's\n" +
				"file, with its translation), and an entry the export lacks stays (--prune removes it).\n" +
				"A file is written, atomically, only when that changed it; a missing one follows the\n" +
				"source-language file; a gettext template (.pot) is never written. A file that does not\n" +
				"read stops pull with its name and line. A language is written where the repository\n" +
				"keeps its files, else as the path's placeholder spells it ({language} pt-BR, {locale}\n" +
				"pt_BR, {android} values-pt-rBR, {apple} pt-BR), the source into source: if given. ETags\n" +
				"kept in .lokal/ at the repository root make an unchanged file cost one conditional\n" +
				"request. The key comes from LOKAL_API_KEY or, with --key-stdin, from stdin; a read-only\n" +
				"key is enough.",
			flags: []flagDef{
				opt("status", "approved", "approved leaves AI drafts out; default every translation"),
				list("languages", "L1,L2", "only these languages; default the source and every enabled language"),
				boolean("prune", "remove the entries of each file that the server's export lacks; default they stay as the file has them"),
				configFlag, keyStdinFlag,
			},
			json: true, run: runPull},
	}
}

// pushedFile is one upload and the server's answer.
type pushedFile struct {
	Path      string                `json:"path"`
	Language  string                `json:"language"`
	Namespace string                `json:"namespace"`
	Format    string                `json:"format"`
	Summary   tools.ImportSummary   `json:"summary"`
	Created   []string              `json:"created"`
	Updated   []string              `json:"updated"`
	NotFound  []string              `json:"not_found"`
	Warnings  []tools.ImportWarning `json:"warnings"`
}

// hiddenNamespace is what --hide-missing hid (or, with --dry-run, would hide).
type hiddenNamespace struct {
	Namespace string   `json:"namespace"`
	Hidden    []string `json:"hidden"`
	Unhidden  []string `json:"unhidden"`
}

type pushTotals struct {
	Files     int `json:"files"`
	Created   int `json:"created"`
	Updated   int `json:"updated"`
	Unchanged int `json:"unchanged"`
	NotFound  int `json:"not_found"`
	Hidden    int `json:"hidden"`
	Warnings  int `json:"warnings"`
}

type pushOut struct {
	DryRun      bool              `json:"dry_run"`
	Files       []pushedFile      `json:"files"`
	NotPushed   []notPushed       `json:"not_pushed"`
	HideMissing []hiddenNamespace `json:"hide_missing"`
	Summary     pushTotals        `json:"summary"`
}

// notPushed is a file push found and did not send, and why.
type notPushed struct {
	Path      string `json:"path"`
	Language  string `json:"language"`
	Namespace string `json:"namespace"`
	Reason    string `json:"reason"`
}

// upload is one file to send in one language.
type upload struct {
	spec      fileSpec
	rel       string
	language  string // the language the file is imported as
	namespace string
}

func runPush(ctx context.Context, c *call) (any, string, error) {
	cfg, api, err := openRepo(c)
	if err != nil {
		return nil, "", err
	}
	info, err := api.projectInfo(ctx)
	if err != nil {
		return nil, "", err
	}
	pl := pushLanguages{info: info, project: cfg.Project}
	if given := c.in.list("languages"); slices.Equal(given, []string{"all"}) {
		pl.langs, pl.every = info.languages(), true
	} else if pl.langs, err = chosenLanguagesOf(cfg.Project, given, info); err != nil {
		return nil, "", err
	}
	root, err := openRepoRoot(cfg.Root)
	if err != nil {
		return nil, "", err
	}
	defer root.Close()
	uploads, skipped, err := pushPlan(cfg, root, pl)
	if err != nil {
		return nil, "", err
	}
	dry := c.in.boolean("dry-run")
	out := pushOut{DryRun: dry, Files: []pushedFile{}, NotPushed: skipped, HideMissing: []hiddenNamespace{}}
	// One at a time: writes run against the server's write budget, and the translations
	// must follow the source files that create their keys.
	for _, u := range uploads {
		f, err := api.importFile(ctx, root, u, info.SourceLanguage, dry)
		if err != nil {
			return nil, "", err
		}
		out.Files = append(out.Files, f)
	}
	if c.in.boolean("hide-missing") {
		if out.HideMissing, err = api.hideMissing(ctx, root, uploads, info.SourceLanguage, dry); err != nil {
			return nil, "", err
		}
	}
	for _, f := range out.Files {
		out.Summary.Files++
		out.Summary.Created += f.Summary.Created
		out.Summary.Updated += f.Summary.Updated
		out.Summary.Unchanged += f.Summary.Unchanged
		out.Summary.NotFound += f.Summary.NotFound
		out.Summary.Warnings += len(f.Warnings)
	}
	for _, h := range out.HideMissing {
		out.Summary.Hidden += len(h.Hidden)
	}
	return out, pushText(out, c.in.boolean("hide-missing")), nil
}

// chosenLanguages checks --languages against the project: the source and enabled ones.
func chosenLanguages(given []string, info projectInfo) ([]string, error) {
	return chosenLanguagesOf("", given, info)
}

// chosenLanguagesOf is chosenLanguages with the project's id for the advice on adding a
// language.
func chosenLanguagesOf(project string, given []string, info projectInfo) ([]string, error) {
	have := info.languages()
	var out []string
	for _, l := range given {
		if !slices.Contains(have, l) {
			return nil, fmt.Errorf("--languages: %w", noLanguage(l, info, project))
		}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out, nil
}

// noLanguage is the error for a language the project lacks, saying how to add it.
func noLanguage(l string, info projectInfo, project string) error {
	if project == "" {
		project = "ID"
	}
	enabled := append(info.languages()[1:], l) // the source is always on
	return fmt.Errorf("the project has no language %q (it has %s): add it first, in the editor's project settings or with `lokal project set --project %s --languages %s` on the server",
		l, strings.Join(info.languages(), ", "), project, strings.Join(enabled, ","))
}

// pushLanguages are the languages a push sends.
type pushLanguages struct {
	info  projectInfo
	langs []string // the translations asked for (--languages)
	// every is --languages all: every translation the repository has, and a file of a
	// language the project lacks is an error.
	every   bool
	project string
}

// pushPlan lists the uploads: every source file first (they create the keys), then the
// translations asked for, in lokal.yaml's order and by path, with the files found and not
// sent (a translation not asked for, a language the project lacks, a file in the source
// language that source: stands in for) and why. It reads nothing outside root: a language
// name the server sent that could lead out, or a file whose symbolic link does, is an
// error naming it; so is a file the path matches whose name holds no language.
func pushPlan(cfg *repoConfig, root *repoRoot, pl pushLanguages) ([]upload, []notPushed, error) {
	source, have := pl.info.SourceLanguage, pl.info.languages()
	for _, l := range append([]string{source}, pl.langs...) {
		if err := checkPathName("language", l); err != nil {
			return nil, nil, err
		}
	}
	var src, tr []upload
	skipped := []notPushed{}
	seen := map[string]int{} // rel+language -> spec index
	add := func(list *[]upload, u upload) error {
		k := u.rel + "\x00" + u.language
		if i, ok := seen[k]; ok {
			return fmt.Errorf("files[%d] and files[%d] both name %s", i, u.spec.index, u.rel)
		}
		seen[k] = u.spec.index
		*list = append(*list, u)
		return nil
	}
	for _, f := range cfg.Files {
		sc, err := f.scan(root, source)
		if err != nil {
			return nil, nil, err
		}
		var srcFiles []placed
		for _, p := range sc.files {
			if p.Language == source {
				srcFiles = append(srcFiles, p)
			}
		}
		if f.codec.Bilingual && f.Source == "" {
			// A bilingual file carries its source texts (Xcode's ru.xliff, Angular's
			// messages.ru.xlf): a namespace with no file of the source language takes them
			// from its first translation's file.
			srcFiles = append(srcFiles, sourcesFromTranslations(sc.files, srcFiles)...)
		}
		if len(srcFiles) == 0 {
			named := fmt.Sprintf("%s %q", f.field("path"), f.Path)
			if f.Source != "" {
				named = fmt.Sprintf("%s %q", f.field("source"), f.Source)
			}
			return nil, nil, fmt.Errorf("%s names no file for the source language %s under %s", named, source, cfg.Root)
		}
		for _, p := range srcFiles {
			if err := add(&src, upload{spec: f, rel: p.Rel, language: source, namespace: p.Namespace}); err != nil {
				return nil, nil, err
			}
		}
		for _, p := range sc.shadowed {
			skipped = append(skipped, notPushed{Path: p.Rel, Language: p.Language, Namespace: p.Namespace,
				Reason: fmt.Sprintf("the source language's file is %s (%s)", expandParts(f.sourceParts, "", p.Namespace), f.field("source"))})
		}
		if f.allLanguages() {
			// One file holds every language: send it again for each one asked for.
			for _, l := range pl.langs {
				if l == source {
					continue
				}
				for _, p := range srcFiles {
					if err := add(&tr, upload{spec: f, rel: p.Rel, language: l, namespace: p.Namespace}); err != nil {
						return nil, nil, err
					}
				}
			}
			continue
		}
		for _, p := range sc.files {
			switch {
			case p.Language == source:
			case slices.Contains(pl.langs, p.Language):
				if err := add(&tr, upload{spec: f, rel: p.Rel, language: p.Language, namespace: p.Namespace}); err != nil {
					return nil, nil, err
				}
			case !slices.Contains(have, p.Language):
				why := noLanguage(p.Language, pl.info, pl.project)
				if pl.every {
					return nil, nil, fmt.Errorf("%s is in %s: %w", p.Rel, p.Language, why)
				}
				skipped = append(skipped, notPushed{Path: p.Rel, Language: p.Language, Namespace: p.Namespace, Reason: why.Error()})
			default:
				skipped = append(skipped, notPushed{Path: p.Rel, Language: p.Language, Namespace: p.Namespace, Reason: notAsked})
			}
		}
	}
	return append(src, tr...), skipped, nil
}

// sourcesFromTranslations are, for each namespace of files that has no file in srcFiles,
// its first file by language: a bilingual file whose sources stand for the source
// language's file.
func sourcesFromTranslations(files, srcFiles []placed) []placed {
	has := map[string]bool{}
	for _, p := range srcFiles {
		has[p.Namespace] = true
	}
	var out []placed
	for _, p := range slices.SortedFunc(slices.Values(files), func(a, b placed) int { return strings.Compare(a.Language, b.Language) }) {
		if !has[p.Namespace] {
			has[p.Namespace] = true
			out = append(out, p)
		}
	}
	return out
}

// notAsked is why a translation is not pushed without --languages naming it.
const notAsked = "a translation, sent with --languages"

// importFile sends one file through the import endpoint.
func (a *apiClient) importFile(ctx context.Context, root *repoRoot, u upload, source string, dry bool) (pushedFile, error) {
	out := pushedFile{Path: u.rel, Language: u.language, Namespace: u.namespace, Format: u.spec.Format}
	data, err := root.readFile(u.rel)
	if err != nil {
		return out, fmt.Errorf("reading %s: %w", u.rel, err)
	}
	q := url.Values{"format": {u.spec.Format}}
	if u.spec.CSVCells != "" {
		q.Set("csv_cells", u.spec.CSVCells)
	}
	if u.language == source {
		// The repository is where source texts are written: a changed text updates the key.
		q.Set("preserve_source_values", "false")
	}
	if dry {
		q.Set("dry_run", "true")
	}
	res, err := a.do(ctx, http.MethodPut, "/api/import/"+url.PathEscape(a.project)+namespacePath(u.language, u.namespace), q,
		map[string]string{"Content-Type": contentType(u.spec)}, data, http.StatusOK)
	if err != nil {
		return out, fmt.Errorf("pushing %s: %w", u.rel, err)
	}
	var ans tools.ImportOut // the endpoint answers the catalogue's import result
	if err := json.Unmarshal(res.Body, &ans); err != nil {
		return out, fmt.Errorf("pushing %s: the server's answer is not the import summary: %w", u.rel, err)
	}
	out.Summary, out.Created, out.Updated, out.NotFound, out.Warnings = ans.Summary, nonNil(ans.Created), nonNil(ans.Updated), nonNil(ans.NotFound), ans.Warnings
	if out.Warnings == nil {
		out.Warnings = []tools.ImportWarning{}
	}
	return out, nil
}

func contentType(f fileSpec) string {
	if f.codec.ContentType != "" {
		return f.codec.ContentType
	}
	return "application/octet-stream"
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// hideMissing runs a full sync of every namespace a source file was pushed to, with the
// keys of all its source files: the server hides the keys they no longer have. With dry,
// it reads the namespace instead and reports what the sync would hide.
func (a *apiClient) hideMissing(ctx context.Context, root *repoRoot, uploads []upload, source string, dry bool) ([]hiddenNamespace, error) {
	keys := map[string]map[string]string{}
	var order []string
	for _, u := range uploads {
		if u.language != source {
			continue
		}
		data, err := root.readFile(u.rel)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", u.rel, err)
		}
		f, err := formats.Decode(u.spec.Format, data, formats.Options{Language: source, SourceLanguage: source, RawCells: u.spec.CSVCells == "raw"})
		if err != nil {
			return nil, fmt.Errorf("--hide-missing: reading the keys of %s: %w", u.rel, err)
		}
		m := keys[u.namespace]
		if m == nil {
			m = map[string]string{}
			keys[u.namespace] = m
			order = append(order, u.namespace)
		}
		for _, e := range f.Entries {
			v := e.Values[source].Text
			if v == "" {
				v = e.Source
			}
			m[e.Key] = v
		}
	}
	slices.Sort(order)
	out := []hiddenNamespace{}
	for _, ns := range order {
		h := hiddenNamespace{Namespace: ns, Hidden: []string{}, Unhidden: []string{}}
		path := namespacePath(source, ns)
		if dry {
			res, err := a.do(ctx, http.MethodGet, "/api/"+url.PathEscape(a.project)+path, nil, nil, nil, http.StatusOK, http.StatusNotFound)
			if err != nil {
				return nil, fmt.Errorf("--hide-missing: reading namespace %s: %w", ns, err)
			}
			if res.Status == http.StatusOK {
				var have map[string]any
				if err := json.Unmarshal(res.Body, &have); err != nil {
					return nil, fmt.Errorf("--hide-missing: reading namespace %s: %w", ns, err)
				}
				for k := range have {
					if _, ok := keys[ns][k]; ok {
						continue
					}
					// Endpoint 1 serves a plural family as its suffix keys; the file's
					// codec read them as the family's one key.
					if base, _, _, fam := message.SplitPluralKey(k); fam {
						if _, ok := keys[ns][base]; ok {
							continue
						}
					}
					h.Hidden = append(h.Hidden, k)
				}
				slices.Sort(h.Hidden)
			}
			out = append(out, h)
			continue
		}
		body, err := json.Marshal(map[string]any{"translations": keys[ns], "preserve_source_values": true})
		if err != nil {
			return nil, err
		}
		res, err := a.do(ctx, http.MethodPut, "/api/sync/"+url.PathEscape(a.project)+path, nil,
			map[string]string{"Content-Type": "application/json"}, body, http.StatusOK)
		if err != nil {
			return nil, fmt.Errorf("--hide-missing: syncing namespace %s: %w", ns, err)
		}
		var ans struct {
			Hidden   []string `json:"hidden"`
			Unhidden []string `json:"unhidden"`
		}
		if err := json.Unmarshal(res.Body, &ans); err != nil {
			return nil, fmt.Errorf("--hide-missing: syncing namespace %s: the answer is not a sync summary: %w", ns, err)
		}
		h.Hidden, h.Unhidden = nonNil(ans.Hidden), nonNil(ans.Unhidden)
		out = append(out, h)
	}
	return out, nil
}

func pushText(out pushOut, hide bool) string {
	var b strings.Builder
	for _, f := range out.Files {
		s := f.Summary
		fmt.Fprintf(&b, "%s (%s, %s): %d created, %d updated, %d unchanged", f.Path, f.Language, f.Namespace, s.Created, s.Updated, s.Unchanged)
		if s.NotFound > 0 {
			fmt.Fprintf(&b, ", %d not in the project", s.NotFound)
		}
		switch n := len(f.Warnings); {
		case n == 1:
			b.WriteString(", 1 warning")
		case n > 1:
			fmt.Fprintf(&b, ", %d warnings", n)
		}
		b.WriteString("\n")
		if out.DryRun {
			for _, k := range f.Created {
				fmt.Fprintf(&b, "  + %s\n", k)
			}
			for _, k := range f.Updated {
				fmt.Fprintf(&b, "  ~ %s\n", k)
			}
			for _, k := range f.NotFound {
				fmt.Fprintf(&b, "  ? %s (not in the project)\n", k)
			}
		}
		for _, w := range f.Warnings {
			fmt.Fprintf(&b, "  ! %s: %s\n", w.Key, oneLine(w.Message))
		}
	}
	// Translations not asked for in one line (a push of the source files finds them all);
	// every other file not sent in a line of its own with why.
	var later []string
	langs := map[string]bool{}
	for _, n := range out.NotPushed {
		if n.Reason == notAsked {
			later = append(later, n.Path)
			langs[n.Language] = true
			continue
		}
		fmt.Fprintf(&b, "%s (%s, %s): not pushed: %s\n", n.Path, n.Language, n.Namespace, n.Reason)
	}
	if len(later) > 0 {
		ls := slices.Sorted(maps.Keys(langs))
		fmt.Fprintf(&b, "%s of %s not pushed: translations go with --languages %s (or --languages all)\n", files(len(later)), strings.Join(ls, ", "), strings.Join(ls, ","))
	}
	for _, h := range out.HideMissing {
		verb := "hidden"
		if out.DryRun {
			verb = "would hide"
		}
		fmt.Fprintf(&b, "namespace %s: %s %d keys", h.Namespace, verb, len(h.Hidden))
		if len(h.Unhidden) > 0 {
			fmt.Fprintf(&b, ", unhid %d", len(h.Unhidden))
		}
		b.WriteString("\n")
		for _, k := range h.Hidden {
			fmt.Fprintf(&b, "  - %s\n", k)
		}
	}
	s := out.Summary
	fmt.Fprintf(&b, "push: %s, %d created, %d updated, %d unchanged", files(s.Files), s.Created, s.Updated, s.Unchanged)
	if s.NotFound > 0 {
		fmt.Fprintf(&b, ", %d not in the project", s.NotFound)
	}
	switch {
	case hide && out.DryRun:
		fmt.Fprintf(&b, ", %d to hide", s.Hidden)
	case hide:
		fmt.Fprintf(&b, ", %d hidden", s.Hidden)
	}
	if out.DryRun {
		b.WriteString(" (dry run: nothing was changed)")
	}
	return b.String()
}

// files is "1 file" or "n files".
func files(n int) string {
	if n == 1 {
		return "1 file"
	}
	return fmt.Sprintf("%d files", n)
}
