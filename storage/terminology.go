package storage

import (
	"context"
	"database/sql"

	"github.com/lokal-dev/lokal/tools/model"
)

func (t *tx) Glossary(ctx context.Context, projectID string) ([]model.GlossaryPair, error) {
	var rows []glossaryRow
	if err := t.tx.NewSelect().Model(&rows).Where("project_id = ?", projectID).Order("id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.GlossaryPair, len(rows))
	for i, r := range rows {
		out[i] = model.GlossaryPair{ID: r.ID, SourceTerm: r.SourceTerm, TargetTerm: r.TargetTerm, Locale: r.Locale}
	}
	return out, nil
}

func (t *tx) AddGlossary(ctx context.Context, projectID string, g model.GlossaryPair) (model.GlossaryPair, error) {
	r := &glossaryRow{ProjectID: projectID, SourceTerm: g.SourceTerm, TargetTerm: g.TargetTerm, Locale: g.Locale,
		Actor: model.PrincipalFrom(ctx).Actor(), CreatedAt: now()}
	if _, err := t.tx.NewInsert().Model(r).Returning("id").Exec(ctx); err != nil {
		return model.GlossaryPair{}, mapError(err)
	}
	g.ID = r.ID
	return g, nil
}

func (t *tx) DoNotTranslateTerms(ctx context.Context, projectID string) ([]string, error) {
	var terms []string
	if err := t.tx.NewSelect().Model((*dntTermRow)(nil)).Column("term").Where("project_id = ?", projectID).Order("id").Scan(ctx, &terms); err != nil {
		return nil, mapError(err)
	}
	return terms, nil
}

func (t *tx) Substitutions(ctx context.Context, projectID string) ([]model.SubstitutionRule, error) {
	var rows []substitutionRow
	if err := t.tx.NewSelect().Model(&rows).Where("project_id = ?", projectID).Order("id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.SubstitutionRule, len(rows))
	for i, r := range rows {
		out[i] = model.SubstitutionRule{ID: r.ID, Locale: r.Locale, Pattern: r.Pattern, Replacement: r.Replacement}
	}
	return out, nil
}

func (t *tx) AddDoNotTranslate(ctx context.Context, projectID, term string) error {
	r := &dntTermRow{ProjectID: projectID, Term: term, Actor: model.PrincipalFrom(ctx).Actor(), CreatedAt: now()}
	if _, err := t.tx.NewInsert().Model(r).Exec(ctx); err != nil {
		return mapError(err)
	}
	return nil
}

func (t *tx) AddSubstitution(ctx context.Context, projectID string, s model.SubstitutionRule) (model.SubstitutionRule, error) {
	r := &substitutionRow{ProjectID: projectID, Locale: s.Locale, Pattern: s.Pattern, Replacement: s.Replacement,
		Actor: model.PrincipalFrom(ctx).Actor(), CreatedAt: now()}
	if _, err := t.tx.NewInsert().Model(r).Returning("id").Exec(ctx); err != nil {
		return model.SubstitutionRule{}, mapError(err)
	}
	s.ID = r.ID
	return s, nil
}

func (t *tx) RemoveGlossary(ctx context.Context, projectID string, id int64) error {
	res, err := t.tx.NewDelete().Model((*glossaryRow)(nil)).Where("project_id = ? AND id = ?", projectID, id).Exec(ctx)
	return removed(res, err, "glossary pair %d not found in this project", id)
}

func (t *tx) RemoveDoNotTranslate(ctx context.Context, projectID, term string) error {
	res, err := t.tx.NewDelete().Model((*dntTermRow)(nil)).Where("project_id = ? AND term = ?", projectID, term).Exec(ctx)
	return removed(res, err, "%q is not a do-not-translate term of this project", term)
}

func (t *tx) RemoveSubstitution(ctx context.Context, projectID string, id int64) error {
	res, err := t.tx.NewDelete().Model((*substitutionRow)(nil)).Where("project_id = ? AND id = ?", projectID, id).Exec(ctx)
	return removed(res, err, "substitution rule %d not found in this project", id)
}

// removed is the answer of a delete of one row: CodeNotFound when it deleted none.
func removed(res sql.Result, err error, format string, args ...any) error {
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return model.Errorf(model.CodeNotFound, format, args...)
	}
	return nil
}
