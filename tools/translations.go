package tools

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/model"
)

// GetTranslationsIn selects a language, a format and optionally one namespace.
type GetTranslationsIn struct {
	ProjectArg
	Language     string `json:"language" jsonschema:"language code; must be enabled for the project"`
	Format       string `json:"format,omitempty" jsonschema:"json (default), i18next, po, xliff, xliff2, android, strings, stringsdict, xcstrings, arb, yaml (or yml), properties or csv"`
	NamespaceKey string `json:"namespace_key,omitempty" jsonschema:"one namespace; default the whole project"`
	Offset       string `json:"offset,omitempty" jsonschema:"where to continue: the next_offset of the previous call with the same language, format and namespace_key; absent for the first page"`
	CSVCells     string `json:"csv_cells,omitempty" jsonschema:"csv only: guarded (default; cells a spreadsheet would run as a formula start with ') or raw"`
}

// GetTranslationsOut carries the rendered file, or one page of it.
type GetTranslationsOut struct {
	Language     string  `json:"language"`
	Format       string  `json:"format"`
	NamespaceKey string  `json:"namespace_key,omitempty"`
	Count        int     `json:"count"`
	ContentType  string  `json:"content_type"`
	Content      string  `json:"content"`
	NextOffset   *string `json:"next_offset"`
}

// Text is the file itself.
func (o GetTranslationsOut) Text() string { return o.Content }

// exportFormats are the formats get_translations writes as it always did, from rows; every
// other format is written from entries by its codec.
var exportFormats = []string{"json", "yml", "po", "strings"}

// GetTranslations renders one language of one namespace, or of the whole project, in a
// format its ecosystem reads. A whole-project json is an object of namespaces; the other
// formats prefix each key with its namespace and a dot. A project over ExportPageKeys keys
// or ExportPageBytes of text comes in pages, each a complete file of its format holding
// some of the keys, walked by namespace and key id so that a page costs its own rows;
// next_offset continues, and is null on the last page.
func (c *Catalog) GetTranslations(ctx context.Context, in GetTranslationsIn) (GetTranslationsOut, error) {
	out := GetTranslationsOut{Language: in.Language, Format: in.Format, NamespaceKey: in.NamespaceKey}
	if out.Format == "" {
		out.Format = "json"
	}
	if err := c.gate(ctx, model.OpGetTranslations, on{project: in.ProjectID}); err != nil {
		return out, err
	}
	codec, ok := formats.Lookup(out.Format)
	if !ok {
		return out, model.Errorf(model.CodeInvalid, "format must be one of %s (or yml)", strings.Join(formats.Names(), ", "))
	}
	raw, err := rawCells(codec, in.CSVCells)
	if err != nil {
		return out, err
	}
	legacy := contains(exportFormats, out.Format)
	var entries []formats.Entry // the codec's entries, for the formats not legacy
	var source string
	var fileMeta map[string]string // what the namespace's file says of itself, when one namespace is exported
	from, err := decodeExportCursor(in.Offset)
	if err != nil {
		return out, err
	}
	byNamespace := map[string][]formats.Row{}
	var all []formats.Row
	err = c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		if err := proj.RequireLanguage(in.Language); err != nil {
			return err
		}
		source = proj.SourceLanguage
		names := slices.Sorted(slices.Values(proj.Namespaces))
		if in.NamespaceKey != "" {
			if !contains(proj.Namespaces, in.NamespaceKey) {
				return errNoNamespace(in.NamespaceKey)
			}
			names = []string{in.NamespaceKey}
		}
		if from.namespace != "" {
			i := slices.Index(names, from.namespace)
			if i < 0 {
				return errBadOffset
			}
			names = names[i:]
		}
		keys, size := 0, 0
		for i, name := range names {
			ns, err := findNamespace(ctx, tx, proj, name)
			if err != nil {
				return err
			}
			var after int64
			if i == 0 {
				after = from.afterKeyID
			}
			var notes map[int64]string
			var kept keptMeta
			if !legacy {
				if notes, err = tx.KeyDescriptions(ctx, ns); err != nil {
					return err
				}
				// The file's own meta only for a file of one namespace.
				if kept, err = readMeta(ctx, tx, ns, codec.Name, in.Language, proj.SourceLanguage, in.NamespaceKey != ""); err != nil {
					return err
				}
				fileMeta = kept.fileMeta()
			}
			// One more key than the page holds says whether another page follows.
			err = tx.KeyPage(ctx, ns, proj.SourceLanguage, in.Language, after, ExportPageKeys-keys+1, func(k model.KeyState) bool {
				if keys >= ExportPageKeys || size >= ExportPageBytes {
					next := exportCursor{namespace: name, afterKeyID: after}.encode()
					out.NextOffset = &next
					return false
				}
				after = k.ID
				keys++
				if !legacy {
					e, ok := fileEntry(codec, k, in.Language, proj.SourceLanguage, false)
					if ok {
						e.Comment = notes[k.ID]
						e.Meta = kept.entry(e.Key)
						if in.NamespaceKey == "" {
							e.Key = name + "." + e.Key
						}
						size += len(e.Key) + len(e.Source) + len(e.Values[in.Language].Text)
						entries = append(entries, e)
					}
					return true
				}
				e, ok := exportEntry(k, out.Format, in.Language, proj.SourceLanguage)
				if !ok {
					return true
				}
				size += len(e.Key) + len(e.Value) + len(e.Source)
				byNamespace[name] = append(byNamespace[name], e)
				if in.NamespaceKey == "" {
					e.Key = name + "." + e.Key
				}
				all = append(all, e)
				return true
			})
			if err != nil || out.NextOffset != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	out.Count = len(all)
	out.ContentType = codec.ContentType
	var body []byte
	if !legacy {
		out.Count = len(entries)
		slices.SortFunc(entries, func(a, b formats.Entry) int { return strings.Compare(a.Key, b.Key) })
		f := &formats.File{SourceLanguage: source, Languages: fileLanguages(codec, source, []string{in.Language}), Entries: entries, Meta: fileMeta}
		if body, err = codec.Encode(f, formats.Options{Language: in.Language, SourceLanguage: source, RawCells: raw}); err != nil {
			return out, model.Errorf(model.CodeUnprocessable, "%s files cannot be written: %v", codec.Name, err)
		}
		out.Content = string(body)
		return out, nil
	}
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

// exportEntry is a key's entry in a file of format, and whether the file has one. A gettext
// catalog lists every visible key, translated or not, since a PO file is also the
// translator's worklist: an untranslated key has an empty msgstr, and a translation made
// against an older source text, or a draft, is flagged fuzzy (valueState). The other
// formats hold the keys with a row in the language; strings also carries the source text.
func exportEntry(k model.KeyState, format, language, sourceLanguage string) (formats.Row, bool) {
	k.Value = servedRow(k.Value)
	e := formats.Row{Key: k.Key}
	if format == "po" {
		if k.Source != nil {
			e.Source = k.Source.Value
		}
		if k.Value != nil {
			e.Value = k.Value.Value
			st := valueState(k, language, sourceLanguage)
			e.Stale = e.Value != "" && st == formats.StateStale
			e.NeedsReview = e.Value != "" && st == formats.StateNeedsReview
		}
		return e, true
	}
	if k.Value == nil {
		return e, false
	}
	e.Value = k.Value.Value
	if format == "strings" && k.Source != nil {
		e.Source = k.Source.Value
	}
	return e, true
}

var errBadOffset = model.Errorf(model.CodeInvalid, "offset must be the next_offset of the previous call")

// exportCursor is where a get_translations page continues: after a key of a namespace.
type exportCursor struct {
	namespace  string
	afterKeyID int64
}

func (c exportCursor) encode() string {
	return base64.RawURLEncoding.EncodeToString([]byte("e1:" + strconv.FormatInt(c.afterKeyID, 10) + ":" + c.namespace))
}

func decodeExportCursor(s string) (exportCursor, error) {
	if s == "" {
		return exportCursor{}, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	parts := strings.SplitN(string(b), ":", 3)
	if err != nil || len(parts) != 3 || parts[0] != "e1" || parts[2] == "" {
		return exportCursor{}, errBadOffset
	}
	id, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || id < 0 {
		return exportCursor{}, errBadOffset
	}
	return exportCursor{namespace: parts[2], afterKeyID: id}, nil
}

// renderNamespaces is the whole-project json: { namespace: { key: value } }.
func renderNamespaces(language string, byNamespace map[string][]formats.Row) ([]byte, error) {
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
	// Held says why the value is held back from readers, who get the row's last value
	// that passed (or nothing): it would break an app.
	Held string `json:"held_back,omitempty"`
}

func rowState(r model.TranslationState) RowState {
	return RowState{Language: r.Language, Value: r.Value, Status: r.Status, DoNotTranslate: r.DoNotTranslate, LanguageLocked: r.LanguageLocked,
		Held: r.Held}
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
	if err := c.gate(ctx, model.OpGetTranslation, on{project: in.ProjectID}); err != nil {
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
	// Offset is a next_offset (a string), or a number of rows to skip as before cursors.
	Offset any `json:"offset,omitempty" jsonschema:"where to continue: the next_offset of the previous call, an opaque cursor that stays valid across writes; absent on the first call"`
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
	NextOffset *string     `json:"next_offset"`
	// Note says why a page holds fewer rows than it may while next_offset continues.
	Note string `json:"note,omitempty"`
}

// noteShortSearch is the Note of a page of a substring no index narrows: under three
// characters, a key name in too many keys while the other filters keep few of their rows,
// or a text common in the project but not in the language or status searched.
const noteShortSearch = "key_contains and value_contains that no index narrows (under three characters, a key_contains in many keys, a value_contains common in other languages) are looked for in part of the project per call: this page holds what that part had, maybe nothing; pass next_offset back as offset to search on."

// SearchTranslations pages through translation rows of visible keys in (key id, language)
// order. next_offset is a cursor naming the last row given, not a count, so rows written
// or hidden between two calls shift nothing: no row is skipped or given twice.
func (c *Catalog) SearchTranslations(ctx context.Context, in SearchIn) (SearchOut, error) {
	out := SearchOut{Rows: []SearchRow{}}
	if err := c.gate(ctx, model.OpSearchTranslations, on{project: in.ProjectID}); err != nil {
		return out, err
	}
	from, err := decodeSearchOffset(in.Offset)
	if err != nil {
		return out, err
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
	err = c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		f := from
		f.ProjectID, f.KeyContains, f.ValueContains, f.Language, f.Status, f.Limit = proj.ID, in.KeyContains, in.ValueContains, in.Language, in.Status, SearchPage+1
		rows, through, err := tx.Search(ctx, f)
		if err != nil {
			return err
		}
		if len(rows) > SearchPage {
			rows = rows[:SearchPage]
			last := rows[len(rows)-1]
			next := base64.RawURLEncoding.EncodeToString([]byte("s1:" + strconv.FormatInt(last.KeyID, 10) + ":" + last.Row.Language))
			out.NextOffset = &next
		} else if through > 0 {
			// After every language of key through: "~" sorts after any language tag.
			next := base64.RawURLEncoding.EncodeToString([]byte("s1:" + strconv.FormatInt(through, 10) + ":~"))
			out.NextOffset, out.Note = &next, noteShortSearch
		}
		for _, r := range rows {
			out.Rows = append(out.Rows, SearchRow{NamespaceKey: r.Namespace, TranslationKey: r.Key, RowState: rowState(r.Row),
				Stale: isStale(r.Row.Language, proj.SourceLanguage, r.Row.SourceVersion, r.SourceVersion, true)})
		}
		return nil
	})
	return out, err
}

// decodeSearchOffset reads a search's offset: a next_offset, or a count of rows to skip.
func decodeSearchOffset(v any) (model.SearchFilter, error) {
	var f model.SearchFilter
	switch o := v.(type) {
	case nil:
		return f, nil
	case float64:
		if o < 0 || o != math.Trunc(o) || o > math.MaxInt32 {
			return f, model.Errorf(model.CodeInvalid, "offset must not be negative")
		}
		f.Offset = int(o)
		return f, nil
	case string:
		if o == "" {
			return f, nil
		}
		b, err := base64.RawURLEncoding.DecodeString(o)
		parts := strings.SplitN(string(b), ":", 3)
		if err != nil || len(parts) != 3 || parts[0] != "s1" || parts[2] == "" {
			return f, errBadOffset
		}
		id, err := strconv.ParseInt(parts[1], 10, 64)
		if err != nil || id <= 0 {
			return f, errBadOffset
		}
		f.AfterKeyID, f.AfterLanguage = id, parts[2]
		return f, nil
	}
	return f, errBadOffset
}
