package storage

import (
	"context"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// valuesBatch is how many keys one statement of ValuesContaining reads.
const valuesBatch = 5000

// ValuesContaining returns the distinct values in language of the project's visible keys
// that contain any of anyOf (case as given), filtered by the database so that only those
// rows leave it.
//
// It reads the keys' ids first, then their values by id in batches, instead of one join:
// right after a big import, before the planner's statistics catch up, PostgreSQL priced
// the join for empty tables and ran it as a nested loop over every pair of rows (minutes
// at 20,000 keys). Lookups by id cost the same whatever the statistics say.
func (t *tx) ValuesContaining(ctx context.Context, projectID, language string, anyOf []string) ([]string, error) {
	out := []string{}
	if len(anyOf) == 0 {
		return out, nil
	}
	var ids []int64
	if err := t.tx.NewSelect().TableExpr("translation_keys AS k").Column("k.id").
		Join("JOIN namespaces AS n ON n.id = k.namespace_id").
		Where("n.project_id = ?", projectID).Where("NOT k.hidden").
		OrderExpr("k.id").Scan(ctx, &ids); err != nil {
		return out, mapError(err)
	}
	return t.ValuesOfKeys(ctx, language, ids, anyOf)
}

// syntaxStateRow is a project's detected syntax (project_syntax). Gen moves with every
// write that makes a detection under way old, so that its result is stored only if no
// such write came between its read and its store.
type syntaxStateRow struct {
	bun.BaseModel `bun:"table:project_syntax"`
	ProjectID     string `bun:"project_id,pk"`
	Syntax        string `bun:"syntax"`
	Gen           int64  `bun:"gen"`
	Valid         bool   `bun:"valid"`
	Stale         bool   `bun:"stale"`
}

// SyntaxState implements model.SyntaxTx; a project without a row has Gen 0 and is not valid.
func (t *tx) SyntaxState(ctx context.Context, projectID string) (model.SyntaxState, error) {
	var r syntaxStateRow
	err := t.tx.NewSelect().Model(&r).Where("project_id = ?", projectID).Scan(ctx)
	if err != nil {
		if err = mapError(err); model.IsNotFound(err) {
			return model.SyntaxState{}, nil
		}
		return model.SyntaxState{}, err
	}
	return model.SyntaxState{Syntax: r.Syntax, Gen: r.Gen, Valid: r.Valid, Stale: r.Stale}, nil
}

// SetSyntaxState implements model.SyntaxTx: the write path's own update, unconditional.
func (t *tx) SetSyntaxState(ctx context.Context, projectID string, s model.SyntaxState) error {
	_, err := t.tx.NewRaw(`INSERT INTO project_syntax (project_id, syntax, gen, valid, stale) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (project_id) DO UPDATE SET syntax = excluded.syntax, gen = excluded.gen, valid = excluded.valid, stale = excluded.stale`,
		projectID, s.Syntax, s.Gen, s.Valid, s.Stale).Exec(ctx)
	return mapError(err)
}

// SyntaxWanted implements model.SyntaxTx.
func (t *tx) SyntaxWanted(ctx context.Context) ([]string, error) {
	ids := []string{}
	err := t.tx.NewRaw(`SELECT p.id FROM projects AS p LEFT JOIN project_syntax AS s ON s.project_id = p.id
WHERE s.project_id IS NULL OR NOT s.valid OR s.stale ORDER BY p.id`).Scan(ctx, &ids)
	return ids, mapError(err)
}

// StoreDetectedSyntax implements model.SyntaxTx: a detection that read the rows at gen is
// stored only if the state is still that gen and wants one (not valid, or stale).
func (t *tx) StoreDetectedSyntax(ctx context.Context, projectID, syntax string, gen int64) (bool, error) {
	var res interface{ RowsAffected() (int64, error) }
	var err error
	if gen == 0 {
		res, err = t.tx.NewRaw(`INSERT INTO project_syntax (project_id, syntax, gen, valid, stale) VALUES (?, ?, 0, ?, ?)
ON CONFLICT (project_id) DO NOTHING`, projectID, syntax, true, false).Exec(ctx)
	} else {
		res, err = t.tx.NewRaw(`UPDATE project_syntax SET syntax = ?, valid = ?, stale = ? WHERE project_id = ? AND gen = ? AND (NOT valid OR stale)`,
			syntax, true, false, projectID, gen).Exec(ctx)
	}
	if err != nil {
		return false, mapError(err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ValuesOfKeys returns the distinct values in language of the visible keys among keyIDs
// that contain any of anyOf: what a write added to a project's source values.
func (t *tx) ValuesOfKeys(ctx context.Context, language string, keyIDs []int64, anyOf []string) ([]string, error) {
	out := []string{}
	if len(anyOf) == 0 || len(keyIDs) == 0 {
		return out, nil
	}
	// strpos/instr, not LIKE '%{%': a pattern under three characters cannot use the
	// trigram index, yet PostgreSQL's planner may pick it for LIKE and read the whole index.
	find := "instr(t.value, ?) > 0"
	if t.db.postgres {
		find = "strpos(t.value, ?) > 0"
	}
	conds := make([]string, 0, len(anyOf))
	args := make([]any, 0, len(anyOf))
	for _, s := range anyOf {
		conds = append(conds, find)
		args = append(args, s)
	}
	seen := map[string]bool{}
	for start := 0; start < len(keyIDs); start += valuesBatch {
		var vals []string
		err := t.tx.NewSelect().TableExpr("translations AS t").Column("t.value").
			Join("JOIN translation_keys AS k ON k.id = t.key_id").
			Where("t.key_id IN (?)", bun.In(keyIDs[start:min(len(keyIDs), start+valuesBatch)])).
			Where("t.language = ?", language).Where("NOT k.hidden").
			Where("("+strings.Join(conds, " OR ")+")", args...).Scan(ctx, &vals)
		if err != nil {
			return out, mapError(err)
		}
		for _, v := range vals {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out, nil
}
