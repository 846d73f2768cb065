package storage

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerSyntaxState(m *migrate.Migrations) { m.MustRegister(migrateSyntaxState, noDown) }

// syntaxStateRow20261125200001 is the project_syntax table as this release made it: the
// syntax detected in a project's source values, kept by the write path (tools.keepSyntax)
// so that a save does not make the next read scan every value again.
type syntaxStateRow20261125200001 struct {
	bun.BaseModel `bun:"table:project_syntax"`
	ProjectID     string `bun:"project_id,pk,type:varchar(36)"`
	Syntax        string `bun:"syntax,notnull,default:''"`
	Gen           int64  `bun:"gen,notnull,default:0"`
	Valid         bool   `bun:"valid,notnull,default:false"`
}

// migrateSyntaxState adds the table; every project starts without a row, which reads as
// not yet detected.
func migrateSyntaxState(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return createTables(ctx, tx, []table{{model: (*syntaxStateRow20261125200001)(nil),
			fks: []string{`("project_id") REFERENCES "projects" ("id")`}}})
	})
}
