package tools

import (
	"context"
	"encoding/json"
	"html"
	"strings"

	"github.com/lokal-dev/lokal/tools/formats"
)

// ProjectSummary is a project as list_projects shows it.
type ProjectSummary struct {
	ID               string   `json:"id"`
	Title            string   `json:"title"`
	SourceLanguage   string   `json:"source_language"`
	EnabledLanguages []string `json:"enabled_languages"`
	Namespaces       []string `json:"namespaces"`
}

// ListProjectsIn takes an optional project_id to narrow the list to one project.
type ListProjectsIn struct {
	ProjectID string `json:"project_id,omitempty" jsonschema:"optional: return only this project"`
}

// ListProjectsOut lists projects.
type ListProjectsOut struct {
	Projects []ProjectSummary `json:"projects"`
}

// ListProjects lists the projects the caller can reach: every active project of a workspace
// token's workspace, or the one project of a project token or endpoint.
func (c *Catalog) ListProjects(ctx context.Context, in ListProjectsIn) (ListProjectsOut, error) {
	out := ListProjectsOut{Projects: []ProjectSummary{}}
	if err := requireToken(ctx); err != nil {
		return out, err
	}
	p := PrincipalFrom(ctx)
	only := ProjectScope(ctx)
	if only == "" && p.Kind != KindWorkspace {
		only = p.ProjectID
	}
	if in.ProjectID != "" {
		if only != "" && in.ProjectID != only {
			return out, &Error{Code: CodeUnauthorized, Message: "token is not valid for this project"}
		}
		only = in.ProjectID
	}
	err := c.store.View(ctx, func(tx Tx) error {
		var projects []Project
		if only != "" {
			proj, err := c.loadProject(ctx, tx, only)
			if err != nil {
				return err
			}
			projects = []Project{proj}
		} else {
			var err error
			if projects, err = tx.Projects(ctx, p.WorkspaceID); err != nil {
				return err
			}
		}
		for _, proj := range projects {
			out.Projects = append(out.Projects, ProjectSummary{ID: proj.ID, Title: proj.Title, SourceLanguage: proj.SourceLanguage,
				EnabledLanguages: proj.EnabledLanguages, Namespaces: proj.Namespaces})
		}
		return nil
	})
	return out, err
}

// ProjectStatusIn names the project.
type ProjectStatusIn struct {
	ProjectArg
}

// ProjectStatusOut is get_project_status's answer.
type ProjectStatusOut struct {
	ProjectID        string          `json:"project_id"`
	Title            string          `json:"title"`
	SourceLanguage   string          `json:"source_language"`
	EnabledLanguages []string        `json:"enabled_languages"`
	Namespaces       []string        `json:"namespaces"`
	Languages        []LanguageStats `json:"languages"`
}

// GetProjectStatus reports how far each enabled language is translated.
func (c *Catalog) GetProjectStatus(ctx context.Context, in ProjectStatusIn) (ProjectStatusOut, error) {
	var out ProjectStatusOut
	if err := c.begin(ctx, in.ProjectID, false); err != nil {
		return out, err
	}
	err := c.store.View(ctx, func(tx Tx) error {
		proj, err := c.loadProject(ctx, tx, in.ProjectID)
		if err != nil {
			return err
		}
		stats, err := tx.LanguageStats(ctx, proj)
		if err != nil {
			return err
		}
		out = ProjectStatusOut{ProjectID: proj.ID, Title: proj.Title, SourceLanguage: proj.SourceLanguage,
			EnabledLanguages: proj.EnabledLanguages, Namespaces: proj.Namespaces, Languages: stats}
		return nil
	})
	return out, err
}

// EmbedSnippetIn names the project.
type EmbedSnippetIn struct {
	ProjectArg
}

// EmbedSnippetOut is the script tag to paste into a site's HTML head.
type EmbedSnippetOut struct {
	Snippet     string `json:"snippet"`
	ScriptURL   string `json:"script_url"`
	PublicToken string `json:"public_token"`
}

// Text is the tag itself, ready to paste.
func (o EmbedSnippetOut) Text() string { return o.Snippet + "\n" }

// GetEmbedSnippet builds the Embed script tag from the base URL and the workspace's public
// token: the script resolves the site's host to the project itself.
func (c *Catalog) GetEmbedSnippet(ctx context.Context, in EmbedSnippetIn) (EmbedSnippetOut, error) {
	var out EmbedSnippetOut
	if err := c.begin(ctx, in.ProjectID, false); err != nil {
		return out, err
	}
	err := c.store.View(ctx, func(tx Tx) error {
		proj, err := c.loadProject(ctx, tx, in.ProjectID)
		if err != nil {
			return err
		}
		w, err := tx.Workspace(ctx, proj.WorkspaceID)
		if err != nil {
			return err
		}
		base := strings.TrimRight(c.opts.BaseURL, "/")
		if base == "" {
			base = "http://127.0.0.1:8080"
		}
		out.ScriptURL = base + "/embed.js"
		out.PublicToken = w.PublicToken
		out.Snippet = `<script src="` + html.EscapeString(out.ScriptURL) + `" data-lokal-token="` + html.EscapeString(w.PublicToken) + `" defer></script>`
		return nil
	})
	return out, err
}

// GetTranslationsIn selects a language, a format and optionally one namespace.
type GetTranslationsIn struct {
	ProjectArg
	Language     string `json:"language" jsonschema:"language code; must be enabled for the project"`
	Format       string `json:"format,omitempty" jsonschema:"json (default), yml, po or strings"`
	NamespaceKey string `json:"namespace_key,omitempty" jsonschema:"one namespace; default the whole project"`
}

// GetTranslationsOut carries the rendered file.
type GetTranslationsOut struct {
	Language     string `json:"language"`
	Format       string `json:"format"`
	NamespaceKey string `json:"namespace_key,omitempty"`
	Count        int    `json:"count"`
	ContentType  string `json:"content_type"`
	Content      string `json:"content"`
}

// Text is the file itself.
func (o GetTranslationsOut) Text() string { return o.Content }

// GetTranslations renders one language of one namespace, or of the whole project, in a
// format its ecosystem reads. A whole-project json is an object of namespaces; the other
// formats prefix each key with its namespace and a dot.
func (c *Catalog) GetTranslations(ctx context.Context, in GetTranslationsIn) (GetTranslationsOut, error) {
	out := GetTranslationsOut{Language: in.Language, Format: in.Format, NamespaceKey: in.NamespaceKey}
	if out.Format == "" {
		out.Format = "json"
	}
	if err := c.begin(ctx, in.ProjectID, false); err != nil {
		return out, err
	}
	if !contains(formats.Formats, out.Format) {
		return out, Errorf(CodeInvalid, "format must be one of %s", strings.Join(formats.Formats, ", "))
	}
	var rows []ProjectTranslation
	var sources map[int64]string
	err := c.store.View(ctx, func(tx Tx) error {
		proj, err := c.loadProject(ctx, tx, in.ProjectID)
		if err != nil {
			return err
		}
		if err := proj.requireLanguage(in.Language); err != nil {
			return err
		}
		if in.NamespaceKey != "" && !contains(proj.Namespaces, in.NamespaceKey) {
			return errNoNamespace(in.NamespaceKey)
		}
		if rows, err = tx.ProjectTranslations(ctx, proj.ID, in.Language); err != nil {
			return err
		}
		sources = map[int64]string{}
		if out.Format == "po" || out.Format == "strings" {
			src, err := tx.ProjectTranslations(ctx, proj.ID, proj.SourceLanguage)
			if err != nil {
				return err
			}
			for _, r := range src {
				sources[r.KeyID] = r.Row.Value
			}
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	byNamespace := map[string][]formats.Entry{}
	var all []formats.Entry
	for _, r := range rows {
		if in.NamespaceKey != "" && r.Namespace != in.NamespaceKey {
			continue
		}
		e := formats.Entry{Key: r.Key, Source: sources[r.KeyID], Value: r.Row.Value}
		byNamespace[r.Namespace] = append(byNamespace[r.Namespace], e)
		if in.NamespaceKey == "" {
			e.Key = r.Namespace + "." + r.Key
		}
		all = append(all, e)
	}
	out.Count = len(all)
	out.ContentType = formats.ContentType(out.Format)
	var body []byte
	if in.NamespaceKey == "" && out.Format == "json" {
		body, err = renderNamespaces(in.Language, byNamespace)
	} else {
		body, err = formats.Render(out.Format, in.Language, all)
	}
	if err != nil {
		return out, Errorf(CodeInternal, "rendering %s: %v", out.Format, err)
	}
	out.Content = string(body)
	return out, nil
}

// renderNamespaces is the whole-project json: { namespace: { key: value } }.
func renderNamespaces(language string, byNamespace map[string][]formats.Entry) ([]byte, error) {
	doc := map[string]json.RawMessage{}
	for ns, entries := range byNamespace {
		b, err := formats.Render("json", language, entries)
		if err != nil {
			return nil, err
		}
		doc[ns] = b
	}
	return encodeJSON(doc, true)
}

// KeyRef names one key of a namespace.
type KeyRef struct {
	ProjectArg
	NamespaceKey   string `json:"namespace_key" jsonschema:"the namespace, e.g. common"`
	TranslationKey string `json:"translation_key" jsonschema:"the dot-separated key, e.g. checkout.pay_button"`
}

// RowState is one language's row as the tools report it.
type RowState struct {
	Language       string `json:"language"`
	Value          string `json:"value"`
	Status         string `json:"status"`
	DoNotTranslate bool   `json:"do_not_translate"`
	LanguageLocked bool   `json:"language_locked"`
}

func rowState(r TranslationState) RowState {
	return RowState{Language: r.Language, Value: r.Value, Status: r.Status, DoNotTranslate: r.DoNotTranslate, LanguageLocked: r.LanguageLocked}
}

// TranslationView is one language's row of a key.
type TranslationView struct {
	RowState
	Stale         bool      `json:"stale"`
	SourceVersion *int64    `json:"source_version"`
	UpdatedBy     string    `json:"updated_by"`
	UpdatedAt     string    `json:"updated_at"`
	Comments      []Comment `json:"comments"`
}

// GetTranslationOut is one key across all languages.
type GetTranslationOut struct {
	NamespaceKey   string            `json:"namespace_key"`
	TranslationKey string            `json:"translation_key"`
	Hidden         bool              `json:"hidden"`
	SourceLanguage string            `json:"source_language"`
	SourceVersion  int64             `json:"source_version"`
	Translations   []TranslationView `json:"translations"`
}

// GetTranslation returns one key's values, statuses, flags and comments in every language.
func (c *Catalog) GetTranslation(ctx context.Context, in KeyRef) (GetTranslationOut, error) {
	out := GetTranslationOut{NamespaceKey: in.NamespaceKey, TranslationKey: in.TranslationKey, Translations: []TranslationView{}}
	if err := c.begin(ctx, in.ProjectID, false); err != nil {
		return out, err
	}
	err := c.store.View(ctx, func(tx Tx) error {
		proj, _, key, err := c.loadKey(ctx, tx, in)
		if err != nil {
			return err
		}
		out.Hidden, out.SourceVersion, out.SourceLanguage = key.Hidden, key.SourceVersion, proj.SourceLanguage
		rows, err := tx.KeyTranslations(ctx, key.ID)
		if err != nil {
			return err
		}
		comments, err := tx.Comments(ctx, key.ID)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, r := range rows {
			seen[r.Language] = true
			v := viewOf(r, key.SourceVersion, r.Language == proj.SourceLanguage)
			v.Comments = commentsIn(comments, r.Language)
			out.Translations = append(out.Translations, v)
		}
		// Comments on a language with no value yet still belong in the answer.
		for _, cm := range comments {
			if !seen[cm.Language] {
				seen[cm.Language] = true
				out.Translations = append(out.Translations, TranslationView{RowState: RowState{Language: cm.Language}, Comments: commentsIn(comments, cm.Language)})
			}
		}
		return nil
	})
	return out, err
}

func viewOf(r TranslationState, keyVersion int64, isSource bool) TranslationView {
	return TranslationView{RowState: rowState(r), Stale: !isSource && r.Stale(keyVersion, true), SourceVersion: r.SourceVersion,
		UpdatedBy: r.UpdatedBy, UpdatedAt: r.UpdatedAt.UTC().Format("2006-01-02T15:04:05Z07:00"), Comments: []Comment{}}
}

func commentsIn(all []Comment, lang string) []Comment {
	out := []Comment{}
	for _, c := range all {
		if c.Language == lang {
			out = append(out, c)
		}
	}
	return out
}

// loadKey resolves a KeyRef for a read or a write.
func (c *Catalog) loadKey(ctx context.Context, tx Tx, in KeyRef) (Project, Namespace, KeyRecord, error) {
	proj, err := c.loadProject(ctx, tx, in.ProjectID)
	if err != nil {
		return Project{}, Namespace{}, KeyRecord{}, err
	}
	if in.NamespaceKey == "" || in.TranslationKey == "" {
		return Project{}, Namespace{}, KeyRecord{}, Errorf(CodeInvalid, "namespace_key and translation_key are required")
	}
	ns, err := tx.Namespace(ctx, proj.ID, in.NamespaceKey)
	if err != nil {
		return Project{}, Namespace{}, KeyRecord{}, err
	}
	key, err := tx.KeyByName(ctx, ns, in.TranslationKey)
	if err != nil {
		return Project{}, Namespace{}, KeyRecord{}, err
	}
	return proj, ns, key, nil
}

// SearchIn filters translation rows.
type SearchIn struct {
	ProjectArg
	KeyContains   string `json:"key_contains,omitempty" jsonschema:"substring of the key, case-insensitive"`
	ValueContains string `json:"value_contains,omitempty" jsonschema:"substring of the value, case-insensitive"`
	Language      string `json:"language,omitempty" jsonschema:"only rows in this language"`
	Status        string `json:"status,omitempty" jsonschema:"needs_review or approved"`
	Offset        int    `json:"offset,omitempty" jsonschema:"where to continue: the next_offset of the previous call"`
}

// SearchRow is one translation row found.
type SearchRow struct {
	NamespaceKey   string `json:"namespace_key"`
	TranslationKey string `json:"translation_key"`
	RowState
	Stale bool `json:"stale"`
}

// SearchOut is one page of rows; NextOffset is null on the last page.
type SearchOut struct {
	Rows       []SearchRow `json:"rows"`
	NextOffset *int        `json:"next_offset"`
}

// SearchPage is how many rows search_translations returns at most.
const SearchPage = 50

// SearchTranslations pages through translation rows of visible keys in a stable order.
func (c *Catalog) SearchTranslations(ctx context.Context, in SearchIn) (SearchOut, error) {
	out := SearchOut{Rows: []SearchRow{}}
	if err := c.begin(ctx, in.ProjectID, false); err != nil {
		return out, err
	}
	if in.Offset < 0 {
		return out, Errorf(CodeInvalid, "offset must not be negative")
	}
	if in.Status != "" && in.Status != StatusApproved && in.Status != StatusNeedsReview {
		return out, Errorf(CodeInvalid, "status must be needs_review or approved")
	}
	err := c.store.View(ctx, func(tx Tx) error {
		proj, err := c.loadProject(ctx, tx, in.ProjectID)
		if err != nil {
			return err
		}
		rows, err := tx.Search(ctx, SearchFilter{ProjectID: proj.ID, KeyContains: in.KeyContains, ValueContains: in.ValueContains,
			Language: in.Language, Status: in.Status, Offset: in.Offset, Limit: SearchPage + 1})
		if err != nil {
			return err
		}
		if len(rows) > SearchPage {
			rows = rows[:SearchPage]
			next := in.Offset + SearchPage
			out.NextOffset = &next
		}
		for _, r := range rows {
			out.Rows = append(out.Rows, SearchRow{NamespaceKey: r.Namespace, TranslationKey: r.Key, RowState: rowState(r.Row),
				Stale: r.Row.Language != proj.SourceLanguage && r.Row.Stale(r.SourceVersion, true)})
		}
		return nil
	})
	return out, err
}

// TerminologyIn optionally narrows terminology to one locale.
type TerminologyIn struct {
	ProjectArg
	Locale string `json:"locale,omitempty" jsonschema:"language code; rules marked all are always included"`
}

// TerminologyOut lists the project's fixed terms and rules.
type TerminologyOut struct {
	Glossary       []GlossaryPair     `json:"glossary"`
	DoNotTranslate []string           `json:"do_not_translate"`
	Substitutions  []SubstitutionRule `json:"substitutions"`
}

// ListTerminology lists glossary pairs, do-not-translate terms and substitution rules.
func (c *Catalog) ListTerminology(ctx context.Context, in TerminologyIn) (TerminologyOut, error) {
	out := TerminologyOut{Glossary: []GlossaryPair{}, DoNotTranslate: []string{}, Substitutions: []SubstitutionRule{}}
	if err := c.begin(ctx, in.ProjectID, false); err != nil {
		return out, err
	}
	keep := func(locale string) bool {
		return in.Locale == "" || locale == "all" || strings.EqualFold(locale, in.Locale)
	}
	err := c.store.View(ctx, func(tx Tx) error {
		proj, err := c.loadProject(ctx, tx, in.ProjectID)
		if err != nil {
			return err
		}
		gl, err := tx.Glossary(ctx, proj.ID)
		if err != nil {
			return err
		}
		for _, g := range gl {
			if keep(g.Locale) {
				out.Glossary = append(out.Glossary, g)
			}
		}
		terms, err := tx.DoNotTranslateTerms(ctx, proj.ID)
		if err != nil {
			return err
		}
		out.DoNotTranslate = append(out.DoNotTranslate, terms...)
		subs, err := tx.Substitutions(ctx, proj.ID)
		if err != nil {
			return err
		}
		for _, s := range subs {
			if keep(s.Locale) {
				out.Substitutions = append(out.Substitutions, s)
			}
		}
		return nil
	})
	return out, err
}
