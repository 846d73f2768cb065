package storage

import (
	"context"
	"fmt"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/secrets"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerSealedHookURLs(m *migrate.Migrations, box *secrets.Box) {
	m.MustRegister(func(ctx context.Context, db *bun.DB) error { return migrateSealedHookURLs(ctx, db, box) }, noDown)
}

type projectHookV1 struct {
	bun.BaseModel `bun:"table:projects"`
	ID            string `bun:"id,pk"`
	DeployURL     string `bun:"deploy_url,notnull"`
}

// migrateSealedHookURLs seals the deploy hook URLs stored in plain text: whoever has one can
// start builds, so it is kept as the deploy token is. Sealed values start with "v1:", URLs
// with their scheme. Without a key the upgrade stops here, naming what to set, rather than
// leaving the URLs readable.
func migrateSealedHookURLs(ctx context.Context, db *bun.DB, box *secrets.Box) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var rows []projectHookV1
		if err := tx.NewSelect().Model(&rows).Column("id", "deploy_url").Where("deploy_url <> ''").
			Where("deploy_url NOT LIKE ?", "v1:%").Scan(ctx); err != nil {
			return fmt.Errorf("reading deploy hook URLs: %w", err)
		}
		for _, r := range rows {
			sealed, err := box.Seal(r.DeployURL, model.DeployHookPurpose(r.ID))
			if err != nil {
				return fmt.Errorf("encrypting the deploy hook URL of project %s: %w", r.ID, err)
			}
			if _, err := tx.NewUpdate().Model((*projectHookV1)(nil)).Set("deploy_url = ?", sealed).Where("id = ?", r.ID).
				Exec(ctx); err != nil {
				return fmt.Errorf("storing the encrypted deploy hook URL of project %s: %w", r.ID, err)
			}
		}
		return nil
	})
}
