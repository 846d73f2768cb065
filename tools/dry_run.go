package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// A dry run (an import's preview) is the write's own apply run in a read transaction: it
// decides what to write through the same code as the write, from what it reads, and the
// writes it would make are dropped by dryTx. It takes no write transaction, so that on a
// store with one writer for every project (SQLite) a preview of a big file holds up no
// one's writes, and it needs no more than the right to read.

// dryRun runs w.apply in a read transaction through dryTx; w has passed write's gate.
func (c *Catalog) dryRun(ctx context.Context, w write) error {
	return c.store.View(ctx, func(tx model.Tx) error {
		proj, err := c.openProject(ctx, tx, w.project)
		if err != nil {
			return err
		}
		_, err = w.apply(ctx, &dryTx{Tx: tx}, proj)
		return err
	})
}

// dryTx is a read transaction that takes the writes an apply makes and drops them. What a
// write hands back is made up as the database would: a new namespace or key gets an id of
// its own, below zero, which no row has. Reads see what is stored, not the dropped writes:
// an apply that reads back what it wrote earlier in the same transaction must know it
// itself (as an import knows the keys its sync created, OverwriteIn.fresh). A write no
// method here takes reaches the read transaction, which refuses it: PostgreSQL's are
// read-only, SQLite's readers query_only; the dry run tests run on both databases.
type dryTx struct {
	model.Tx
	lastID int64
}

func (t *dryTx) id() int64 { t.lastID--; return t.lastID }

func (t *dryTx) CreateNamespace(_ context.Context, projectID, key string) (model.Namespace, error) {
	return model.Namespace{ID: t.id(), ProjectID: projectID, Key: key}, nil
}

func (t *dryTx) InsertKeys(_ context.Context, keys []model.NewKey) ([]int64, error) {
	ids := make([]int64, len(keys))
	for i := range ids {
		ids[i] = t.id()
	}
	return ids, nil
}

func (t *dryTx) SetHidden(context.Context, []int64, bool) error { return nil }

func (t *dryTx) SourceChanged(context.Context, []int64) error { return nil }

func (t *dryTx) SetKeyDescriptions(context.Context, map[int64]string) error { return nil }

func (t *dryTx) SetEntryMeta(_ context.Context, _ model.Namespace, _, _ string, meta map[string]string) (int, error) {
	return len(meta), nil
}

func (t *dryTx) SetFileMeta(context.Context, model.Namespace, string, string, string) error {
	return nil
}

func (t *dryTx) WriteTranslations(context.Context, []model.TranslationWrite) error { return nil }
