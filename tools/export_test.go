package tools

import (
	"time"

	"context"

	"github.com/lokal-dev/lokal/tools/checkup"
	"github.com/lokal-dev/lokal/tools/model"
)

// SetBulkChunks makes c chunk writes that create more than threshold keys, size keys a
// chunk, and call after (when not nil) once each chunk committed, with the write's context.
func SetBulkChunks(c *Catalog, threshold, size int, after func(ctx context.Context, chunk int)) {
	c.bulk.set, c.bulk.threshold, c.bulk.batch, c.bulk.slice, c.bulk.afterChunk = true, threshold, size, 0, after
}

// TalliedKeys is how many created keys c's counters hook added without reading them.
func TalliedKeys(c *Catalog) int64 { return c.tallied.Load() }

// SetCheckupChunks makes c's checkups analyse size keys a chunk and call after (when not
// nil) once each chunk committed, with the checkup's context and the chunks so far.
func SetCheckupChunks(c *Catalog, size int, after func(ctx context.Context, chunks int)) {
	c.checkup.chunk, c.checkup.afterChunk = size, after
}

// SetCheckupYielding makes c's checkups call yielding when a chunk starts waiting for a
// chunked write in flight.
func SetCheckupYielding(c *Catalog, yielding func(ctx context.Context)) {
	c.checkup.yielding = yielding
}

// SetQACheckMax makes c's QA filter check at most n rows a page on the request.
func SetQACheckMax(c *Catalog, n int) { c.qa.checkMax = n }

// CheckupReference is what a checkup of the whole project in one pass finds: every visible
// key read in one snapshot and analysed at once, as checkups were before they kept their
// findings between reports. Tests compare the incremental checkups with it.
func CheckupReference(ctx context.Context, c *Catalog, projectID string) ([]checkup.Finding, checkup.Summary, error) {
	var in checkup.Input
	err := c.read(ctx, projectID, func(tx model.Tx, proj model.Project) error {
		rows, err := tx.ProjectTranslations(ctx, proj.ID, "")
		if err != nil {
			return err
		}
		gl, err := tx.Glossary(ctx, proj.ID)
		if err != nil {
			return err
		}
		dnt, err := tx.DoNotTranslateTerms(ctx, proj.ID)
		if err != nil {
			return err
		}
		in = newCheckupConfig(proj, c.ProjectSyntax(ctx, tx, proj), gl, dnt).in
		index := map[int64]int{}
		for _, r := range rows {
			i, ok := index[r.KeyID]
			if !ok {
				i = len(in.Keys)
				index[r.KeyID] = i
				in.Keys = append(in.Keys, checkup.Key{Namespace: r.Namespace, Key: r.Key, Translations: map[string]checkup.Translation{}})
			}
			if r.Row.Language == proj.SourceLanguage {
				in.Keys[i].Source = r.Row.Value
				continue
			}
			in.Keys[i].Translations[r.Row.Language] = checkup.Translation{Value: r.Row.Value,
				Stale: isStale(r.Row.Language, proj.SourceLanguage, r.Row.SourceVersion, r.SourceVersion, true), DoNotTranslate: r.Row.DoNotTranslate}
		}
		return nil
	})
	if err != nil {
		return nil, checkup.Summary{}, err
	}
	f, s := checkup.Analyze(in)
	return f, s, nil
}

// SetSyntaxRecountPause spaces c's background recounts of a project's syntax by pause at
// least (0: only by as long as the last one took).
func SetSyntaxRecountPause(c *Catalog, pause time.Duration) {
	c.recounts.mu.Lock()
	defer c.recounts.mu.Unlock()
	c.recounts.pause, c.recounts.paused = pause, true
}

// WaitSyntaxRecounts waits until c stores or recounts no project's syntax in the
// background: every recount the writes so far asked for landed or gave up.
func WaitSyntaxRecounts(c *Catalog) { c.syntaxWork.Wait() }

// HoldSyntaxRecounts makes the background recounts c starts wait until release is called,
// so that a test can read what the writes left before a recount lands.
func HoldSyntaxRecounts(c *Catalog) (release func()) {
	ch := make(chan struct{})
	c.recounts.mu.Lock()
	c.recounts.hold = ch
	c.recounts.mu.Unlock()
	return func() {
		c.recounts.mu.Lock()
		c.recounts.hold = nil
		c.recounts.mu.Unlock()
		close(ch)
	}
}

// SetExportFills makes c run at most slots cold export fills at once and keep at most
// queued waiting, and call onFill (when not nil) as each fill starts, with how many run;
// before c's first export.
func SetExportFills(c *Catalog, slots, queued int, onFill func(file string, running int64)) {
	c.exports.slots = make(chan struct{}, slots)
	c.exports.maxQueued, c.exports.onFill = queued, onFill
}

// ExportWaiters is how many requests wait on c's export fills.
func ExportWaiters(c *Catalog) int {
	c.exports.init()
	c.exports.mu.Lock()
	defer c.exports.mu.Unlock()
	n := 0
	for _, f := range c.exports.flights {
		n += f.refs
	}
	return n
}

// AdmitAt is the gate's admission of op on a project ("" for none) in language, as the
// operations pass it, for the table's walk (gate_table_test.go).
func AdmitAt(c *Catalog, ctx context.Context, op model.Operation, projectID, language string) error {
	return c.admit(ctx, op, on{project: projectID, language: language})
}
