package storage

import (
	"context"
	"fmt"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
)

func (t *tx) WriteTranslations(ctx context.Context, writes []model.TranslationWrite) error {
	ts := now()
	actor := model.PrincipalFrom(ctx).Actor()
	var inserts, updates []translationRow
	var hist []historyRow
	pending := map[int64]bool{} // rows in updates: one statement must not update a row twice
	flush := func() error {
		if len(updates) > 0 {
			if t.db.postgres {
				if err := t.updateTranslationsPostgres(ctx, updates, ts); err != nil {
					return err
				}
			} else if err := t.updateTranslationsSQLite(ctx, updates, ts); err != nil {
				return err
			}
			updates = updates[:0]
			clear(pending)
		}
		if len(inserts) > 0 {
			if t.db.postgres {
				if err := t.insertTranslationsPostgres(ctx, inserts, ts); err != nil {
					return err
				}
			} else if err := t.insertTranslationsSQLite(ctx, inserts, ts); err != nil {
				return err
			}
			for i := range inserts {
				r := &inserts[i]
				hist = append(hist, historyRow{TranslationID: r.ID, KeyID: r.KeyID, Language: r.Language, Change: string(model.ChangeValueCreated),
					Value: r.Value, Status: r.Status, DoNotTranslate: r.DoNotTranslate, LanguageLocked: r.LanguageLocked,
					SourceVersion: r.SourceVersion, Actor: actor, CreatedAt: ts})
			}
			inserts = inserts[:0]
		}
		if len(hist) > 0 {
			if t.db.postgres {
				if err := t.insertHistoryPostgres(ctx, hist); err != nil {
					return err
				}
			} else if err := t.insertHistorySQLite(ctx, hist); err != nil {
				return err
			}
			hist = hist[:0]
		}
		return nil
	}
	for _, w := range writes {
		if w.Status == "" || w.Change == "" {
			// The catalogue owns the status rule and names every change; a write without
			// them is a bug there, not something to guess here.
			return fmt.Errorf("writing translation of key %d: status and change are required", w.KeyID)
		}
		// The last line of the value gate: no door stores what it refuses, on either database.
		if err := model.GateValue(w.Key, w.Value); err != nil {
			return err
		}
		if w.ID != 0 && pending[w.ID] {
			if err := flush(); err != nil {
				return err
			}
		}
		row := translationRow{ID: w.ID, KeyID: w.KeyID, Language: w.Language, Value: w.Value, Status: w.Status,
			DoNotTranslate: w.DoNotTranslate, LanguageLocked: w.LanguageLocked, SourceVersion: w.SourceVersion,
			UpdatedBy: actor, CreatedAt: ts, UpdatedAt: ts}
		if w.ID == 0 {
			inserts = append(inserts, row)
		} else {
			updates = append(updates, row)
			pending[w.ID] = true
			hist = append(hist, historyRow{TranslationID: w.ID, KeyID: w.KeyID, Language: w.Language, Change: string(w.Change),
				Value: w.Value, Status: w.Status, DoNotTranslate: w.DoNotTranslate, LanguageLocked: w.LanguageLocked,
				SourceVersion: w.SourceVersion, Actor: actor, CreatedAt: ts})
		}
		if len(inserts) >= t.batch() || len(hist) >= t.batch() {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

func stateOf(r translationRow) model.TranslationState {
	return model.TranslationState{ID: r.ID, Language: r.Language, Value: r.Value, Status: r.Status, DoNotTranslate: r.DoNotTranslate,
		LanguageLocked: r.LanguageLocked, SourceVersion: r.SourceVersion, UpdatedBy: r.UpdatedBy, UpdatedAt: r.UpdatedAt}
}

func (t *tx) KeyTranslations(ctx context.Context, keyID int64) ([]model.TranslationState, error) {
	var rows []translationRow
	if err := t.tx.NewSelect().Model(&rows).Where("key_id = ?", keyID).Order("language").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.TranslationState, len(rows))
	for i, r := range rows {
		out[i] = stateOf(r)
	}
	return out, nil
}

type projectTranslationRow struct {
	Namespace     string `bun:"namespace"`
	Key           string `bun:"key"`
	KeyID         int64  `bun:"key_id"`
	SourceVersion int64  `bun:"key_version"`
	translationRow
}

func (t *tx) projectTranslations(ctx context.Context, f model.SearchFilter) ([]model.ProjectTranslation, error) {
	q := t.tx.NewSelect().TableExpr("translations AS t").
		ColumnExpr("n.key AS namespace, k.key AS key, k.id AS key_id, k.source_version AS key_version").
		ColumnExpr("t.id, t.language, t.value, t.status, t.do_not_translate, t.language_locked, t.source_version, t.updated_by, t.updated_at").
		Join("JOIN translation_keys AS k ON k.id = t.key_id").
		Join("JOIN namespaces AS n ON n.id = k.namespace_id").
		Where("n.project_id = ?", f.ProjectID).Where("NOT k.hidden")
	if f.Language != "" {
		q = q.Where("t.language = ?", f.Language)
	}
	if f.Status != "" {
		q = q.Where("t.status = ?", f.Status)
	}
	if f.KeyContains != "" {
		q = q.Where(t.db.lower()+`(k.key) LIKE ? ESCAPE '\'`, likePattern(f.KeyContains))
	}
	if f.ValueContains != "" {
		q = q.Where(t.db.lower()+`(t.value) LIKE ? ESCAPE '\'`, likePattern(f.ValueContains))
	}
	q = q.OrderExpr("n.key, k.key, t.language, t.id")
	if f.Limit > 0 {
		q = q.Limit(int64(f.Limit)).Offset(int64(f.Offset))
	}
	var rows []projectTranslationRow
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.ProjectTranslation, len(rows))
	for i, r := range rows {
		out[i] = model.ProjectTranslation{Namespace: r.Namespace, Key: r.Key, KeyID: r.KeyID, SourceVersion: r.SourceVersion, Row: stateOf(r.translationRow)}
	}
	return out, nil
}

// likePattern matches s anywhere, case-insensitively, with LIKE's wildcards escaped.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(s)) + "%"
}

func (t *tx) ProjectTranslations(ctx context.Context, projectID, language string) ([]model.ProjectTranslation, error) {
	return t.projectTranslations(ctx, model.SearchFilter{ProjectID: projectID, Language: language})
}

func (t *tx) Search(ctx context.Context, f model.SearchFilter) ([]model.ProjectTranslation, error) {
	return t.projectTranslations(ctx, f)
}
