package storage

import (
	"context"
	"fmt"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// A chunked write (tools, SQLite only) commits the keys it creates in several transactions
// before the one that makes the write visible. These methods let it check that nothing else
// wrote the project in the meantime, and take the staged rows out again when the write
// fails after some chunks committed.

var _ model.StagingTx = (*tx)(nil)

// ProjectRevision is the revision Touch last stamped on the project.
func (t *tx) ProjectRevision(ctx context.Context, projectID string) (int64, error) {
	var rev int64
	if err := t.tx.NewSelect().Model((*projectRow)(nil)).Column("revision").Where("id = ?", projectID).Scan(ctx, &rev); err != nil {
		return 0, notFound(err, "project %s", projectID)
	}
	return rev, nil
}

// RemoveStagedKeys is the rollback of a chunked write: it deletes the keys keyIDs that the
// write's chunks inserted, with their translation rows and history, and the namespace
// namespaceID (when not zero) once no key is left in it. The product never deletes user
// data; as far as the API is concerned these rows were never committed, since the write
// they belong to failed.
func (t *tx) RemoveStagedKeys(ctx context.Context, namespaceID int64, keyIDs []int64) error {
	for start := 0; start < len(keyIDs); start += batch {
		ids := bun.In(keyIDs[start:min(start+batch, len(keyIDs))])
		if _, err := t.tx.NewDelete().Model((*historyRow)(nil)).Where("key_id IN (?)", ids).Exec(ctx); err != nil {
			return fmt.Errorf("removing staged history: %w", mapError(err))
		}
		if _, err := t.tx.NewRaw("DELETE FROM translation_drift WHERE key_id IN (?)", ids).Exec(ctx); err != nil {
			return fmt.Errorf("removing staged drift marks: %w", mapError(err))
		}
		if _, err := t.tx.NewRaw("DELETE FROM entry_meta WHERE key_id IN (?)", ids).Exec(ctx); err != nil {
			return fmt.Errorf("removing staged entry metadata: %w", mapError(err))
		}
		if _, err := t.tx.NewRaw("DELETE FROM page_contexts WHERE key_id IN (?)", ids).Exec(ctx); err != nil {
			return fmt.Errorf("removing staged page contexts: %w", mapError(err))
		}
		if _, err := t.tx.NewDelete().Model((*translationRow)(nil)).Where("key_id IN (?)", ids).Exec(ctx); err != nil {
			return fmt.Errorf("removing staged translations: %w", mapError(err))
		}
		if _, err := t.tx.NewDelete().Model((*keyRow)(nil)).Where("id IN (?)", ids).Exec(ctx); err != nil {
			return fmt.Errorf("removing staged keys: %w", mapError(err))
		}
	}
	if namespaceID == 0 {
		return nil
	}
	// The staged keys were never counted (the write's last transaction tallies them), but
	// the namespace's counters go with it.
	empty := "NOT EXISTS (SELECT 1 FROM translation_keys WHERE namespace_id = ?)"
	if _, err := t.tx.NewRaw("DELETE FROM namespace_counts WHERE namespace_id = ? AND "+empty, namespaceID, namespaceID).Exec(ctx); err != nil {
		return fmt.Errorf("removing staged namespace's counters: %w", mapError(err))
	}
	if _, err := t.tx.NewRaw("DELETE FROM file_meta WHERE namespace_id = ? AND "+empty, namespaceID, namespaceID).Exec(ctx); err != nil {
		return fmt.Errorf("removing staged namespace's file metadata: %w", mapError(err))
	}
	if _, err := t.tx.NewDelete().Model((*namespaceRow)(nil)).Where("id = ?", namespaceID).
		Where(empty, namespaceID).Exec(ctx); err != nil {
		return fmt.Errorf("removing staged namespace: %w", mapError(err))
	}
	return nil
}
