package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// StaleIn asks for the stale translations of a namespace (spec endpoint 5).
type StaleIn struct {
	ProjectID   string `json:"project_id"`
	Namespace   string `json:"namespace_key"`
	Language    string `json:"lang"`
	IncludeNull bool   `json:"include_null"`
}

// StaleOut is the 200 body of spec endpoint 5.
type StaleOut struct {
	Lang      string   `json:"lang"`
	StaleKeys []string `json:"stale_keys"`
}

// ListStale lists visible keys whose translation in Language was made against an older
// source value; rows with no recorded source version count when IncludeNull is set.
func (c *Catalog) ListStale(ctx context.Context, in StaleIn) (StaleOut, error) {
	out := StaleOut{Lang: in.Language, StaleKeys: []string{}}
	if err := c.gate(ctx, model.OpStale, on{project: in.ProjectID}); err != nil {
		return out, err
	}
	if in.Language == "" {
		return out, model.Errorf(model.CodeInvalid, "query parameter lang is required")
	}
	err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		if err := proj.RequireLanguage(in.Language); err != nil {
			return err
		}
		ns, err := findNamespace(ctx, tx, proj, in.Namespace)
		if err != nil {
			return err
		}
		if in.Language == proj.SourceLanguage {
			return nil
		}
		// The rows' marks apply isStale (storage's rowShare), kept by CountsHook.
		keys, err := tx.StaleKeys(ctx, ns, in.Language, in.IncludeNull)
		if err != nil {
			return err
		}
		if len(keys) > 0 && c.ProjectSyntax(ctx, tx, proj).Has(message.I18next) {
			// A stale family is listed as the suffix keys the language is served.
			if keys, err = familyServedNames(ctx, tx, proj, ns, in.Language, keys); err != nil {
				return err
			}
		}
		if len(keys) > 0 {
			out.StaleKeys = keys
		}
		return nil
	})
	return out, err
}

// isStale is the staleness rule: a translation is stale when it was made against an older
// source value than the key's. A row with no recorded source version counts when
// includeNull is set and the key has a source. The source language is never stale.
func isStale(language, sourceLanguage string, rowVersion *int64, keyVersion int64, includeNull bool) bool {
	if language == sourceLanguage {
		return false
	}
	if rowVersion == nil {
		return includeNull && keyVersion > 0
	}
	return *rowVersion < keyVersion
}

// confirms is the rule of confirming a translation: writing a row's own value again over a
// stale row makes it current with the key's source (the text stays; the row is stamped with
// the source version it now stands for). Overwrite with the same value and the editor's
// Approve of an unchanged row both confirm through it; over a current row the same value
// changes nothing.
func confirms(language, sourceLanguage string, cur *model.TranslationState, value string, keyVersion int64) bool {
	return cur != nil && cur.Value == value && isStale(language, sourceLanguage, cur.SourceVersion, keyVersion, true)
}

// languageStats applies the staleness rule to counts.
func languageStats(sourceLanguage string, counts []model.LanguageCounts) []LanguageStats {
	out := make([]LanguageStats, 0, len(counts))
	for _, n := range counts {
		s := LanguageStats{Language: n.Language, Total: n.Total, Translated: n.Current + n.Behind + n.NullVersion}
		behind := int64(0)
		if isStale(n.Language, sourceLanguage, &behind, 1, true) {
			s.Drifted += n.Behind
		}
		if isStale(n.Language, sourceLanguage, nil, 1, true) {
			s.Drifted += n.NullVersion
		}
		s.Missing = max(0, s.Total-s.Translated)
		out = append(out, s)
	}
	return out
}
