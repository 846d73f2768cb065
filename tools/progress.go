package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// ProgressIn names the project and, for its namespaces' progress, a target language.
type ProgressIn struct {
	ProjectArg
	Language string `json:"lang,omitempty"`
}

// LanguageProgress is how far one language is, in categories that add up to Total: every
// visible key with a source value is in exactly one. AI drafts are their own category,
// never counted as translated until someone approves them.
type LanguageProgress struct {
	Language    string `json:"language"`
	Namespace   string `json:"namespace,omitempty"` // in ProgressOut.Namespaces
	Total       int    `json:"total"`
	Approved    int    `json:"approved"`     // current, approved
	AIDrafts    int    `json:"ai_drafts"`    // current, needs_review, written by the AI
	NeedsReview int    `json:"needs_review"` // current, needs_review, written by people
	Stale       int    `json:"stale"`        // made against an older source value, or none
	Missing     int    `json:"missing"`      // no value, or an empty one
	// HeldBack counts, apart from the categories, the rows whose value is held back from
	// readers because it would break an app (valueSyntax): they get the previous value, or
	// the source text.
	HeldBack int `json:"held_back"`
}

// Percent is n as a whole percentage of Total, rounded down (0 for an empty project).
func (p LanguageProgress) Percent(n int) int {
	if p.Total == 0 {
		return 0
	}
	return n * 100 / p.Total
}

// ProgressOut is every target language's progress, in the project's language order.
type ProgressOut struct {
	ProjectID      string             `json:"project_id"`
	SourceLanguage string             `json:"source_language"`
	Languages      []LanguageProgress `json:"languages"`
	// Namespaces is ProgressIn.Language's progress per namespace, when asked for.
	Namespaces []LanguageProgress `json:"namespaces,omitempty"`
}

// GetProgress reports each target language's progress from the status counters the write
// path keeps (CountsHook), so a project of any size answers at the cost of one small read;
// the namespaces of one language are read from the namespaces' counters, kept the same way.
// Anyone who may read the project may read it.
func (c *Catalog) GetProgress(ctx context.Context, in ProgressIn) (ProgressOut, error) {
	out := ProgressOut{ProjectID: in.ProjectID, Languages: []LanguageProgress{}}
	if err := c.gate(ctx, model.OpProgress, on{project: in.ProjectID}); err != nil {
		return out, err
	}
	err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		counts, err := tx.StatusCounts(ctx, proj)
		if err != nil {
			return err
		}
		out.SourceLanguage = proj.SourceLanguage
		// Held rows are few and in a partial index (translations_held): counted on the read.
		held, err := tx.HeldCounts(ctx, proj.ID, "")
		if err != nil {
			return err
		}
		byLang := map[string]int{}
		for _, h := range held {
			byLang[h.Language] += h.Count
		}
		for _, n := range counts {
			if n.Language == proj.SourceLanguage {
				continue
			}
			p := progressOf(n)
			p.HeldBack = byLang[n.Language]
			out.Languages = append(out.Languages, p)
		}
		if in.Language == "" {
			return nil
		}
		if err := proj.RequireLanguage(in.Language); err != nil {
			return err
		}
		if in.Language == proj.SourceLanguage {
			return model.Errorf(model.CodeInvalid, "%s is the project's source language: it has no progress", in.Language)
		}
		per, err := tx.NamespaceProgress(ctx, proj.ID, in.Language)
		if err != nil {
			return err
		}
		out.Namespaces = make([]LanguageProgress, 0, len(per))
		for _, n := range per {
			p := progressOf(n.LanguageCounts)
			p.Namespace = n.Namespace
			for _, h := range held {
				if h.Namespace == n.Namespace && h.Language == in.Language {
					p.HeldBack = h.Count
				}
			}
			out.Namespaces = append(out.Namespaces, p)
		}
		return nil
	})
	return out, err
}

// progressOf splits a target language's counts: stale and missing as languageStats counts
// them, the current rows by review state.
func progressOf(n model.LanguageCounts) LanguageProgress {
	p := LanguageProgress{Language: n.Language, Total: n.Total, AIDrafts: n.AIDrafts, NeedsReview: n.ToReview,
		Approved: max(0, n.Current-n.AIDrafts-n.ToReview), Stale: n.Behind + n.NullVersion}
	p.Missing = max(0, n.Total-n.Current-n.Behind-n.NullVersion)
	return p
}
