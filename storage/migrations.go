package storage

import (
	"context"
	"fmt"
	"strings"

	"github.com/lokal-dev/lokal/tools/secrets"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// migrations lists every schema change in version order. Each lives in a file named
// VERSION_name.go, registers itself from there (bun takes the migration's name from the
// registering file) and states exactly what it changes: the tables it creates are row
// structs frozen in that file as the release that shipped it had them, never the live
// rows of models.go. A database that an earlier release created ran that release's
// migrations and is brought forward by the later ones; testdata/releases holds one per
// release, and the tests check that each upgrade ends with a fresh database's schema.
func migrations(box *secrets.Box) *migrate.Migrations {
	m := migrate.NewMigrations()
	registerCore(m)
	registerCheckupsJobs(m)
	registerTokensHosts(m)
	registerRateEvents(m)
	registerHistoryKinds(m)
	registerAISettings(m)
	registerAutoTranslate(m)
	registerEmbed(m)
	registerWebhooksRedeploy(m)
	registerEditor(m)
	registerCheckupFindings(m)
	registerSealedHookURLs(m, box)
	registerProjectSyntax(m)
	registerOneSchema(m)
	registerCacheChanges(m)
	registerStatusCounts(m)
	registerSearchIndex(m)
	registerOpenFindings(m)
	registerBulkTrigram(m)
	registerSyncCosts(m)
	registerKeyDescriptions(m)
	registerRoles(m)
	registerInvitations(m)
	registerTokenNames(m)
	registerSyntaxState(m)
	registerProgressCounts(m)
	registerTrigramMerge(m)
	registerTrigramDeferred(m)
	registerSyntaxStale(m)
	registerCheckupStatistics(m)
	registerDriftMarks(m)
	registerUnusedWriteIndexes(m)
	registerNamespaceCounts(m)
	registerLanguageStatusIndex(m)
	registerConfirmedEmails(m)
	registerOperator(m)
	registerRedeployMessages(m)
	registerFamilyIncomplete(m)
	registerHeldValues(m)
	registerKeyOrder(m)
	registerFileMeta(m)
	registerTrigramMergeOff(m)
	registerOAuth(m)
	registerPageContexts(m)
	registerTrigramPendingLimit(m)
	registerStatementKeyChecks(m)
	registerSQLiteKeyIndex(m)
	registerTrigramSideTables(m)
	return m
}

func noDown(context.Context, *bun.DB) error { return fmt.Errorf("lokal never drops data") }

// table is a table a migration creates, from a row struct frozen in its file.
type table struct {
	model any
	fks   []string // e.g. `("project_id") REFERENCES "projects" ("id")`
}

func createTables(ctx context.Context, tx bun.Tx, tables []table) error {
	for _, t := range tables {
		q := tx.NewCreateTable().Model(t.model).IfNotExists()
		for _, fk := range t.fks {
			q = q.ForeignKey(fk)
		}
		if _, err := q.Exec(ctx); err != nil {
			return fmt.Errorf("creating table for %T: %w", t.model, err)
		}
	}
	return nil
}

// index is an index a migration creates. IF NOT EXISTS lets a migration run again on a
// database that kept some of its indexes (the migration tests take databases back).
type index struct {
	table, name string
	unique      bool
	cols        []string
}

func createIndexes(ctx context.Context, tx bun.Tx, ixs []index) error {
	for _, ix := range ixs {
		q := tx.NewCreateIndex().Table(ix.table).Index(ix.name).Column(ix.cols...).IfNotExists()
		if ix.unique {
			q = q.Unique()
		}
		if _, err := q.Exec(ctx); err != nil {
			return fmt.Errorf("creating index %s: %w", ix.name, err)
		}
	}
	return nil
}

// column is a column a migration adds: table, name and SQL definition. SQLite adds a
// NOT NULL column only with a default, so every such column has one.
type column struct{ table, name, def string }

func addColumns(ctx context.Context, tx bun.Tx, cols []column) error {
	for _, col := range cols {
		if _, err := tx.ExecContext(ctx, "ALTER TABLE "+col.table+" ADD COLUMN "+col.name+" "+col.def); err != nil {
			return fmt.Errorf("adding %s.%s: %w", col.table, col.name, err)
		}
	}
	return nil
}

// execAll runs statements in order.
func execAll(ctx context.Context, tx bun.Tx, stmts ...string) error {
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			first, _, _ := strings.Cut(s, "(")
			return fmt.Errorf("%s: %w", strings.TrimSpace(first), err)
		}
	}
	return nil
}
