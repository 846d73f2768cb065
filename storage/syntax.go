package storage

import (
	"context"
	"strings"
)

// ValuesContaining returns the distinct values in language of the project's visible keys
// that contain any of anyOf (case as given), filtered by the database so that only those
// rows leave it.
func (t *tx) ValuesContaining(ctx context.Context, projectID, language string, anyOf []string) ([]string, error) {
	out := []string{}
	if len(anyOf) == 0 {
		return out, nil
	}
	esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	var like []string
	var args []any
	for _, s := range anyOf {
		like = append(like, `t.value LIKE ? ESCAPE '\'`)
		args = append(args, "%"+esc.Replace(s)+"%")
	}
	err := t.tx.NewSelect().TableExpr("translations AS t").ColumnExpr("DISTINCT t.value").
		Join("JOIN translation_keys AS k ON k.id = t.key_id").
		Join("JOIN namespaces AS n ON n.id = k.namespace_id").
		Where("n.project_id = ?", projectID).Where("t.language = ?", language).Where("NOT k.hidden").
		Where("("+strings.Join(like, " OR ")+")", args...).Scan(ctx, &out)
	return out, mapError(err)
}
