package storage

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// SetSearchCandidates changes how many rows a substring index may name before Search
// walks instead, so that tests reach both ways with a few rows; it returns the undo.
func SetSearchCandidates(n int) func() {
	old := searchCandidates.Swap(int64(n))
	return func() { searchCandidates.Store(old) }
}

// IndexTrigrams is the write path's bulk indexing of rows inserted by hand (SQLite has no
// insert triggers): the keys' names when keys, else the translations' values.
func IndexTrigrams(ctx context.Context, mtx model.Tx, keys bool, ids []int64) error {
	t := mtx.(*tx)
	if keys {
		return t.indexTrigrams(ctx, "translation_keys_trgm", "translation_keys", "key", ids)
	}
	return t.indexTrigrams(ctx, "translations_trgm", "translations", "value", ids)
}

// SetSearchScan changes how many key ids one Search reads for a short substring; it
// returns the undo.
func SetSearchScan(n int) func() {
	old := searchScan.Swap(int64(n))
	return func() { searchScan.Store(old) }
}
