package tools

import "context"

// SetBulkChunks makes c chunk writes that create more than threshold keys, size keys a
// chunk, and call after (when not nil) once each chunk committed, with the write's context.
func SetBulkChunks(c *Catalog, threshold, size int, after func(ctx context.Context, chunk int)) {
	c.bulk.set, c.bulk.threshold, c.bulk.batch, c.bulk.slice, c.bulk.afterChunk = true, threshold, size, 0, after
}
