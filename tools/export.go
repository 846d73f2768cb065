package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/model"
)

// ExportIn asks for one namespace as a file of a format (endpoint 1 with format=).
type ExportIn struct {
	NamespaceRef
	Format string
	// Status "approved" leaves AI drafts (needs_review rows) out; "" includes them, as
	// endpoint 1 does.
	Status string
	// CSVCells "raw" writes a CSV file's cells without the formula guard (rawCells).
	CSVCells string
}

// ExportFile is a rendered file with its media type.
type ExportFile struct {
	*model.File
	ContentType string
}

// ExportNamespace renders one namespace in one language (or, for a format that holds
// several, every language: "all") through the format's codec, from the project's cache of
// files, which every write to the project clears (an import that changes only what a file
// says beyond its values too: ChangeFileMeta). Hidden keys are left out; a key without a
// value in the language is in a bilingual file with an empty target and absent from the
// others. The ETag is the body's, told apart by format and status, so that a client that
// keeps one per file never gets a 304 for another.
func (c *Catalog) ExportNamespace(ctx context.Context, in ExportIn) (ExportFile, error) {
	if err := c.gate(ctx, model.OpExport, on{project: in.ProjectID}); err != nil {
		return ExportFile{}, err
	}
	codec, ok := formats.Lookup(in.Format)
	if !ok {
		return ExportFile{}, model.Errorf(model.CodeInvalid, "format must be one of %s", strings.Join(formats.Names(), ", "))
	}
	if in.Status != "" && in.Status != model.StatusApproved {
		return ExportFile{}, model.Errorf(model.CodeInvalid, "status must be approved (AI drafts left out) or absent")
	}
	if in.Language == formats.AllLanguages && !codec.Multilingual {
		return ExportFile{}, model.Errorf(model.CodeInvalid, "language all is for formats that hold several languages (xcstrings, csv), not %s", codec.Name)
	}
	raw, err := rawCells(codec, in.CSVCells)
	if err != nil {
		return ExportFile{}, err
	}
	if checkNamespace(in.Namespace) != nil {
		return ExportFile{}, errNoNamespace(in.Namespace)
	}
	variant := in.Status
	if raw {
		variant += "\x00raw"
	}
	name := "fmt\x00" + codec.Name + "\x00" + variant + "\x00" + in.Namespace + "\x00" + in.Language
	var f *model.File
	if st, ok := c.store.(stateStore); ok {
		f, err = c.cachedExport(ctx, st, codec, in, raw, name)
	} else {
		f, err = c.store.Cached(ctx, in.ProjectID, name, func(ctx context.Context) ([]byte, error) {
			return c.renderNamespace(ctx, nil, codec, in, raw)
		})
	}
	if err != nil {
		return ExportFile{}, err
	}
	tagged := *f
	sum := sha256.Sum256([]byte(codec.Name + "\x00" + variant + "\x00" + f.ETag))
	tagged.ETag = `"` + hex.EncodeToString(sum[:16]) + `"`
	return ExportFile{File: &tagged, ContentType: codec.ContentType}, nil
}

// cachedExport returns the file from the project's cache of files, which every write
// clears, or fills it through the queue of cold fills (exportFills): from the namespace's
// keys, which survive writes and are patched by the keys a write touched, so that a
// fill after a write costs the encoding.
func (c *Catalog) cachedExport(ctx context.Context, st stateStore, codec *formats.Codec, in ExportIn, raw bool, name string) (*model.File, error) {
	f, gen := st.CachedFile(in.ProjectID, name)
	if f != nil {
		return f, nil
	}
	// A fill that began before a write this request follows would answer without it: the
	// generation tells them apart.
	key := in.ProjectID + "\x00" + name + "\x00" + strconv.FormatUint(gen, 10)
	return c.exports.do(ctx, key, in.ProjectID+"\x00"+codec.Name, func(ctx context.Context) (*model.File, error) {
		body, err := c.renderNamespace(ctx, st, codec, in, raw)
		if err != nil {
			return nil, err
		}
		return st.StoreFile(in.ProjectID, name, gen, body), nil
	})
}

// renderNamespace reads the namespace in the languages asked for and encodes it: the keys
// from st's cache when st is not nil.
func (c *Catalog) renderNamespace(ctx context.Context, st stateStore, codec *formats.Codec, in ExportIn, raw bool) ([]byte, error) {
	var file *formats.File
	var opts formats.Options
	err := c.store.View(ctx, func(tx model.Tx) error {
		proj, err := tx.Project(ctx, in.ProjectID)
		if err != nil {
			return err
		}
		langs := []string{in.Language}
		if in.Language == formats.AllLanguages {
			langs = append([]string{proj.SourceLanguage}, proj.EnabledLanguages...)
			langs = slices.Compact(langs)
		} else if err := proj.RequireLanguage(in.Language); err != nil {
			return err
		}
		ns, err := tx.Namespace(ctx, proj.ID, in.Namespace)
		if model.IsNotFound(err) {
			return errNoNamespace(in.Namespace)
		}
		if err != nil {
			return err
		}
		file = &formats.File{SourceLanguage: proj.SourceLanguage, Languages: fileLanguages(codec, proj.SourceLanguage, langs)}
		opts = formats.Options{Language: in.Language, SourceLanguage: proj.SourceLanguage, RawCells: raw}
		approved := in.Status == model.StatusApproved
		for _, l := range langs {
			var keys *fileKeys
			if st != nil {
				keys, err = c.namespaceKeys(ctx, st, tx, proj, ns, l)
			} else {
				keys, err = readFileKeys(ctx, tx, proj, ns, l)
			}
			if err != nil {
				return err
			}
			file.Entries = mergeEntries(file.Entries, keys.entries(codec, l, proj.SourceLanguage, approved))
		}
		// What the imported files said beyond values goes back into the file (filemeta.go).
		return attachMeta(ctx, tx, ns, codec.Name, in.Language, proj.SourceLanguage, file)
	})
	if err != nil {
		return nil, err
	}
	body, err := codec.Encode(file, opts)
	if err != nil {
		return nil, model.Errorf(model.CodeUnprocessable, "%s files cannot be written: %v", codec.Name, err)
	}
	return body, nil
}

// fileLanguages are the languages a file of codec holds: a bilingual multi-language file
// carries the source language beside the one asked for.
func fileLanguages(codec *formats.Codec, source string, langs []string) []string {
	if codec.Multilingual && len(langs) == 1 && langs[0] != source {
		return []string{source, langs[0]}
	}
	return langs
}

// valueState is what a file says of k's value in language l: stale when it was made
// against an older source text (only rows known to be behind: one of unknown age is not
// marked, so that msgfmt does not drop it), needs_review when it is a draft, else
// translated. The formats write the first two as their "not final" mark (PO fuzzy, XLIFF
// needs-review-translation, xcstrings needs_review or stale), which import reads back as
// needs_review.
func valueState(k model.KeyState, l, source string) formats.State {
	switch v := k.Value; {
	case v == nil || l == source:
		return formats.StateTranslated
	case isStale(l, source, v.SourceVersion, k.SourceVersion, false):
		return formats.StateStale
	case v.Status == model.StatusNeedsReview:
		return formats.StateNeedsReview
	}
	return formats.StateTranslated
}

// fileEntry is key k's entry in a file of codec in language l, and whether the file has
// it: a bilingual file has every visible key with a source text (the target empty when
// untranslated), a monolingual one the keys with a value in l (in the source language,
// every key with a source row, its text empty or not). approvedOnly leaves
// needs_review values out.
func fileEntry(codec *formats.Codec, k model.KeyState, l, source string, approvedOnly bool) (formats.Entry, bool) {
	if k.Hidden {
		return formats.Entry{}, false
	}
	e := formats.Entry{Key: k.Key, Values: map[string]formats.Value{}}
	k.Value = servedRow(k.Value) // a held-back value is never written to a file
	if v := k.Value; codec.SourceFallback && v != nil && v.DoNotTranslate && l != source && k.Source != nil && v.Value == k.Source.Value {
		// The source text lokal copied into a key not to translate: where the platform
		// falls back to the source file, a translation file leaves such a key out (Android
		// lint refuses a translatable="false" string in values-nb; Xcode writes no
		// localization for shouldTranslate false). Rails reads no fallback: its typed
		// values (nil, symbols) stay in every language.
		k.Value = nil
	}
	if k.Source != nil {
		e.DoNotTranslate = k.Source.DoNotTranslate
		if codec.Bilingual {
			e.Source = k.Source.Value
			e.Values[source] = formats.Value{Text: k.Source.Value, State: formats.StateTranslated}
		}
	}
	// An empty source text is the file's empty string (Rails' '', a .properties "key=", an empty
	// array item), written back as one: an app reading the file would fail on the missing
	// key. An empty translation is no translation.
	if v := k.Value; v != nil && (v.Value != "" || l == source) && !(approvedOnly && v.Status != model.StatusApproved) {
		e.Values[l] = formats.Value{Text: v.Value, State: valueState(k, l, source)}
	}
	if _, has := e.Values[l]; !has && !(codec.Bilingual && k.Source != nil) {
		return formats.Entry{}, false
	}
	return e, true
}
