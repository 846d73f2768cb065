package storage

import (
	"context"
	"strings"

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
	// strpos/instr, not LIKE '%{%': a pattern under three characters cannot use the
	// trigram index, yet PostgreSQL's planner may pick it for LIKE and read the whole index.
	find := "instr(t.value, ?) > 0"
	if t.db.postgres {
		find = "strpos(t.value, ?) > 0"
	}
	var conds []string
	var args []any
	for _, s := range anyOf {
		conds = append(conds, find)
		args = append(args, s)
	}
	seen := map[string]bool{}
	for start := 0; start < len(ids); start += valuesBatch {
		var vals []string
		err := t.tx.NewSelect().TableExpr("translations AS t").Column("t.value").
			Where("t.key_id IN (?)", bun.In(ids[start:min(len(ids), start+valuesBatch)])).
			Where("t.language = ?", language).
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
