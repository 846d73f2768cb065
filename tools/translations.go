package tools

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/model"
)

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
		return out, model.Errorf(model.CodeInvalid, "format must be one of %s", strings.Join(formats.Formats, ", "))
	}
	var rows []model.ProjectTranslation
	var sources map[int64]string
	var po []formats.Entry
	err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		if err := proj.RequireLanguage(in.Language); err != nil {
			return err
		}
		if in.NamespaceKey != "" && !contains(proj.Namespaces, in.NamespaceKey) {
			return errNoNamespace(in.NamespaceKey)
		}
		var err error
		if out.Format == "po" {
			po, err = poEntries(ctx, tx, proj, in.Language, in.NamespaceKey)
			return err
		}
		if rows, err = tx.ProjectTranslations(ctx, proj.ID, in.Language); err != nil {
			return err
		}
		sources = map[int64]string{}
		if out.Format == "strings" {
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
	if out.Format == "po" {
		all = po
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
		return out, model.Errorf(model.CodeInternal, "rendering %s: %v", out.Format, err)
	}
	out.Content = string(body)
	return out, nil
}

// poEntries are the entries of a gettext catalog: every visible key of the namespace (all
// of them when namespace is ""), translated or not, since a PO file is also the
// translator's worklist: an untranslated key has an empty msgstr, and a translation made
// against an older source text is flagged fuzzy. Only rows known to be behind count as
// stale here (not rows with no recorded source version): msgfmt drops fuzzy entries, and
// a translation of unknown age should not vanish from the compiled catalog.
func poEntries(ctx context.Context, tx model.Tx, proj model.Project, language, namespace string) ([]formats.Entry, error) {
	names := proj.Namespaces
	if namespace != "" {
		names = []string{namespace}
	}
	var out []formats.Entry
	for _, name := range names {
		ns, err := findNamespace(ctx, tx, proj, name)
		if err != nil {
			return nil, err
		}
		keys, err := tx.Keys(ctx, ns, proj.SourceLanguage, language)
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			if k.Hidden {
				continue
			}
			e := formats.Entry{Key: k.Key}
			if namespace == "" {
				e.Key = name + "." + k.Key
			}
			if k.Source != nil {
				e.Source = k.Source.Value
			}
			if k.Value != nil {
				e.Value = k.Value.Value
				e.Stale = e.Value != "" && isStale(language, proj.SourceLanguage, k.Value.SourceVersion, k.SourceVersion, false)
			}
			out = append(out, e)
		}
	}
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

// RowState is one language's row as the tools report it.
type RowState struct {
	Language       string `json:"language"`
	Value          string `json:"value"`
	Status         string `json:"status"`
	DoNotTranslate bool   `json:"do_not_translate"`
	LanguageLocked bool   `json:"language_locked"`
}

func rowState(r model.TranslationState) RowState {
	return RowState{Language: r.Language, Value: r.Value, Status: r.Status, DoNotTranslate: r.DoNotTranslate, LanguageLocked: r.LanguageLocked}
}

// TranslationView is one language's row of a key.
type TranslationView struct {
	RowState
	Stale         bool            `json:"stale"`
	SourceVersion *int64          `json:"source_version"`
	UpdatedBy     string          `json:"updated_by"`
	UpdatedAt     string          `json:"updated_at"`
	Comments      []model.Comment `json:"comments"`
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
	err := c.store.View(ctx, func(tx model.Tx) error {
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
			v := viewOf(r, key.SourceVersion, proj.SourceLanguage)
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

func viewOf(r model.TranslationState, keyVersion int64, sourceLanguage string) TranslationView {
	return TranslationView{RowState: rowState(r), Stale: isStale(r.Language, sourceLanguage, r.SourceVersion, keyVersion, true), SourceVersion: r.SourceVersion,
		UpdatedBy: r.UpdatedBy, UpdatedAt: r.UpdatedAt.UTC().Format("2006-01-02T15:04:05Z07:00"), Comments: []model.Comment{}}
}

func commentsIn(all []model.Comment, lang string) []model.Comment {
	out := []model.Comment{}
	for _, c := range all {
		if c.Language == lang {
			out = append(out, c)
		}
	}
	return out
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

// SearchTranslations pages through translation rows of visible keys in a stable order.
func (c *Catalog) SearchTranslations(ctx context.Context, in SearchIn) (SearchOut, error) {
	out := SearchOut{Rows: []SearchRow{}}
	if err := c.begin(ctx, in.ProjectID, false); err != nil {
		return out, err
	}
	if in.Offset < 0 {
		return out, model.Errorf(model.CodeInvalid, "offset must not be negative")
	}
	if in.Status != "" {
		if err := checkStatus(in.Status); err != nil {
			return out, err
		}
	}
	for _, f := range []struct{ name, value string }{{"key_contains", in.KeyContains}, {"value_contains", in.ValueContains}, {"language", in.Language}} {
		if err := checkFilter(f.name, f.value); err != nil {
			return out, err
		}
	}
	err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		rows, err := tx.Search(ctx, model.SearchFilter{ProjectID: proj.ID, KeyContains: in.KeyContains, ValueContains: in.ValueContains,
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
				Stale: isStale(r.Row.Language, proj.SourceLanguage, r.Row.SourceVersion, r.SourceVersion, true)})
		}
		return nil
	})
	return out, err
}
