package tools

import (
	"cmp"
	"context"
	"errors"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// Chunked writes. On SQLite every write of every project queues for one writer connection,
// so one write that creates the keys of a 5 MB body would hold all the others for its whole
// duration. There, a write that creates more than defaultBulkThreshold new keys first
// inserts them in chunk transactions (reporting no change, so no hook runs and caches
// keep serving the old state), letting other projects' writes take the writer in between,
// and then runs its operation in the main transaction as usual, which reports the staged keys as created and
// runs the hooks once with every change. If anything fails after chunks committed, the
// staged rows are removed again: the write applies completely or leaves nothing behind.
// Writes to one project in this process take turns for the whole of a write (bulkWrites.lock),
// so no other write of the project sees or touches the staged keys.

const (
	defaultBulkThreshold = 2000 // more new keys than this are written in chunks
	// A chunk transaction inserts batches of defaultBulkBatch keys (about 50 ms of the
	// writer) until another write waits for the writer or it has run defaultBulkSlice. So a
	// waiting write of this process waits about one batch; one of another process (which
	// this one cannot see) at most a slice. Each commit costs a WAL append and at times a
	// checkpoint: commits every 100 ms made the worst-case body 15-25% slower, every 0.5 s
	// no slower than one transaction.
	defaultBulkBatch = 1000
	defaultBulkSlice = 500 * time.Millisecond
	// bulkMinSlice is the least a chunk runs when others wait: a big write under a stream
	// of small ones still gets most of the writer (with 100 ms, the commits made the
	// worst-case body miss its budget).
	bulkMinSlice = 250 * time.Millisecond
	// bulkYield bounds how long a chunk waits for the writes that wait for the writer to
	// take it first: a waiting write takes it within microseconds of the commit.
	bulkYield = 50 * time.Millisecond
	// unstageTimeout bounds the removal of staged rows, which runs after the request's own
	// budget may have run out.
	unstageTimeout = time.Minute
)

// bulkCreate describes the keys a write will create, so that Catalog.write can stage them
// in chunks before the write's own transaction.
type bulkCreate struct {
	namespace string
	create    bool        // the operation makes the namespace when it is missing
	source    bool        // values are in the project's source language
	language  string      // otherwise, the language of values
	requires  string      // a language the operation checks is enabled first ("" none)
	values    writeValues // the keys the namespace lacks are created
}

// bulkWrites is a Catalog's state for chunked writes.
type bulkWrites struct {
	set              bool // tests set the fields below; otherwise the defaults apply
	threshold, batch int
	slice            time.Duration
	// afterChunk, when set (tests), is called after each chunk committed.
	afterChunk func(ctx context.Context, chunk int)

	mu    sync.Mutex
	locks map[string]*projectLock
}

type projectLock struct {
	ch   chan struct{} // holds one token while a write of the project runs
	refs int
}

// lock makes writes to project in this process take turns, waiting at most as long as ctx.
func (b *bulkWrites) lock(ctx context.Context, project string) (func(), error) {
	b.mu.Lock()
	if b.locks == nil {
		b.locks = map[string]*projectLock{}
	}
	l := b.locks[project]
	if l == nil {
		l = &projectLock{ch: make(chan struct{}, 1)}
		b.locks[project] = l
	}
	l.refs++
	b.mu.Unlock()
	release := func() {
		b.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(b.locks, project)
		}
		b.mu.Unlock()
	}
	select {
	case l.ch <- struct{}{}:
		return func() { <-l.ch; release() }, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}

// staged is what the chunks of a write committed, handed to the main transaction through
// its context.
type staged struct {
	nsID      int64
	createdNS bool             // the first chunk made the namespace
	language  string           // the language Keys was read in
	revision  int64            // the project's revision when snapshot was read
	snapshot  []model.KeyState // the keys of the write's values that existed
	// keys are the keys to stage, sorted; keyIDs[i] is the id of keys[i], for the
	// keys[:len(keyIDs)] the chunks committed. Slices, not maps: 8 bytes a staged key
	// instead of 100 (a 300,000-key import).
	keys   []string
	keyIDs []int64
	byID   []int32 // indexes in keyIDs in id order, when the ids did not come ascending
	// names are the keys of from (the write's values), sorted: the operation takes them
	// (sortedNames) instead of sorting a second copy. keys is names itself when every
	// key is new.
	names []string
	from  writeValues
	// values are the write's; in the source language (source), the staged keys with a
	// non-empty value have a visible key and a current row, which the counters hook adds
	// without reading (currentRow).
	values writeValues
	source bool

	// Set in the main transaction.
	current bool // no other write touched the project since snapshot
	used    int  // staged keys the operation reported as created
}

type stagedKey struct{}

func stagedIn(ctx context.Context, nsID int64) *staged {
	st, _ := ctx.Value(stagedKey{}).(*staged)
	if st == nil || st.nsID != nsID {
		return nil
	}
	return st
}

// namespaceKeys is tx.Keys of the keys only, as the namespace was before the write's
// staged chunks: the operations of a chunked write read their namespace through it. A
// write reads only the keys it names, so that its cost does not grow with the namespace.
func namespaceKeys(ctx context.Context, tx model.Tx, ns model.Namespace, sourceLanguage, language string, only []string) ([]model.KeyState, error) {
	if len(only) == 0 {
		return nil, nil // tx.Keys would read the whole namespace
	}
	st := stagedIn(ctx, ns.ID)
	if st == nil {
		return tx.Keys(ctx, ns, sourceLanguage, language, only...)
	}
	if st.current && st.language == language {
		// Reading the staged keys back would hold the writer for seconds.
		if len(st.snapshot) == 0 {
			return nil, nil
		}
		named := make(map[string]bool, len(only))
		for _, k := range only {
			named[k] = true
		}
		var out []model.KeyState
		for _, k := range st.snapshot {
			if named[k.Key] {
				out = append(out, k)
			}
		}
		return out, nil
	}
	keys, err := tx.Keys(ctx, ns, sourceLanguage, language, only...)
	if err != nil {
		return nil, err
	}
	out := keys[:0]
	for _, k := range keys {
		if st.index(k.ID) < 0 {
			out = append(out, k)
		}
	}
	return out, nil
}

// syncKeys is namespaceKeys for a sync (tx.SyncKeys): when all is true, keys also holds
// the namespace's keys not named in only. A chunked write reads its snapshot instead.
func syncKeys(ctx context.Context, tx model.Tx, ns model.Namespace, sourceLanguage, language string, only []string) (keys []model.KeyState, all bool, err error) {
	if stagedIn(ctx, ns.ID) != nil {
		keys, err = namespaceKeys(ctx, tx, ns, sourceLanguage, language, only)
		return keys, false, err
	}
	return tx.SyncKeys(ctx, ns, sourceLanguage, language, only)
}

// sortedNames is values.names(), the staged write's own when it sorted the same map.
func sortedNames(ctx context.Context, nsID int64, values writeValues) []string {
	m, ok := values.(valueMap)
	if !ok {
		return values.names()
	}
	if st := stagedIn(ctx, nsID); st != nil && len(st.names) == len(m) && len(m) > 0 {
		if from, ok := st.from.(valueMap); ok && reflect.ValueOf(from).UnsafePointer() == reflect.ValueOf(m).UnsafePointer() {
			return st.names
		}
	}
	return m.names()
}

// stagedID returns the id of key when a chunk of the write already created it.
func stagedID(ctx context.Context, nsID int64, key string) (int64, bool) {
	st := stagedIn(ctx, nsID)
	if st == nil {
		return 0, false
	}
	i, ok := slices.BinarySearch(st.keys[:len(st.keyIDs)], key)
	if !ok {
		return 0, false
	}
	st.used++
	return st.keyIDs[i], true
}

// index returns the index in keyIDs of a staged key's id, or -1.
func (st *staged) index(id int64) int {
	if st.byID == nil {
		i, ok := slices.BinarySearch(st.keyIDs, id)
		if !ok {
			return -1
		}
		return i
	}
	j, ok := slices.BinarySearchFunc(st.byID, id, func(i int32, id int64) int { return cmp.Compare(st.keyIDs[i], id) })
	if !ok {
		return -1
	}
	return int(st.byID[j])
}

// currentRow reports a staged key made in the source language with a non-empty value.
func (st *staged) currentRow(id int64) bool {
	if !st.source {
		return false
	}
	i := st.index(id)
	if i < 0 {
		return false
	}
	v, _ := st.values.value(st.keys[i])
	return v != ""
}

func (c *Catalog) chunking() bool {
	cs, ok := c.store.(model.ChunkedStore)
	return ok && cs.ChunkWrites()
}

func (c *Catalog) bulkLimits() (threshold, batch int, slice time.Duration) {
	if c.bulk.set {
		return c.bulk.threshold, c.bulk.batch, c.bulk.slice
	}
	return defaultBulkThreshold, defaultBulkBatch, defaultBulkSlice
}

// stage inserts the keys b creates in chunk transactions when they are more than the
// threshold; for a write of more keys than that which creates fewer, it returns the
// snapshot alone. It returns nil when the write is not worth chunking or its checks will
// fail in the main transaction anyway. On error the committed chunks are already removed.
func (c *Catalog) stage(ctx context.Context, op model.Operation, project string, b *bulkCreate) (*staged, error) {
	threshold, batch, slice := c.bulkLimits()
	if b.values.count() <= threshold {
		return nil, nil
	}
	names := b.values.names() // sorted once: a maximal body has 360,000
	st := &staged{names: names, from: b.values}
	var proj model.Project
	var ns model.Namespace
	skip := errors.New("not chunked")
	err := c.store.View(ctx, func(tx model.Tx) error {
		stx, ok := tx.(model.StagingTx)
		if !ok {
			return skip
		}
		var err error
		if proj, err = c.loadProject(ctx, tx, project); err != nil {
			return skip
		}
		st.language = b.language
		if b.source {
			st.language = proj.SourceLanguage
		}
		if st.language == "" || proj.RequireLanguage(st.language) != nil || (b.requires != "" && proj.RequireLanguage(b.requires) != nil) ||
			checkNamespace(b.namespace) != nil {
			return skip
		}
		if st.revision, err = stx.ProjectRevision(ctx, project); err != nil {
			return err
		}
		ns, err = tx.Namespace(ctx, proj.ID, b.namespace)
		switch {
		case model.IsNotFound(err) && b.create:
			return nil
		case err != nil:
			return skip
		}
		st.nsID = ns.ID
		st.snapshot, err = tx.Keys(ctx, ns, proj.SourceLanguage, st.language, names...)
		return err
	})
	switch {
	case errors.Is(err, skip):
		return nil, nil
	case err != nil:
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, nil // the main transaction meets it again and answers it
	}
	have := make(map[string]bool, len(st.snapshot))
	for _, k := range st.snapshot {
		have[k.Key] = true
	}
	fresh := names
	if len(have) > 0 {
		fresh = nil
		for _, k := range names {
			if !have[k] {
				fresh = append(fresh, k)
			}
		}
	}
	if len(fresh) <= threshold {
		if st.nsID == 0 {
			return nil, nil
		}
		// Nothing to stage, but the snapshot stands for the namespace in the main
		// transaction if no other write comes between: read outside the writer, it
		// spares the writer the longest read of the write.
		return st, nil
	}
	st.keys, st.keyIDs = fresh, make([]int64, 0, len(fresh))
	st.values, st.source = b.values, st.language == proj.SourceLanguage
	cs := c.store.(model.ChunkedStore)
	waiting := cs.WritersWaiting
	for start, n := 0, 0; start < len(fresh); n++ {
		var ids []int64 // of fresh[start:], in order
		createdNS := false
		// A chunk reports no change: the main transaction reports its keys as created and
		// the hooks run once there, so no hook (nor cache refresh) runs for a chunk.
		err := c.transact(ctx, model.WriteEvent{Op: op, ProjectID: project}, func(tx model.Tx) ([]model.Change, []model.UsageRecord, error) {
			ids, createdNS = nil, false
			if st.nsID == 0 {
				var err error
				ns, err = tx.Namespace(ctx, proj.ID, b.namespace)
				if model.IsNotFound(err) {
					ns, err = tx.CreateNamespace(ctx, proj.ID, b.namespace)
					createdNS = true
				}
				if err != nil {
					return nil, nil, err
				}
			}
			began := time.Now()
			for i := start; i < len(fresh); {
				part := fresh[i:min(i+batch, len(fresh))]
				changes, err := createKeys(ctx, tx, proj, ns, st.language, part, b.values)
				if err != nil {
					return nil, nil, err
				}
				for ch := range model.Expand(changes) {
					if ch.Kind == model.ChangeKeyCreated {
						ids = append(ids, ch.KeyID)
					}
				}
				i += len(part)
				if ran := time.Since(began); ran >= slice || (ran >= min(slice, bulkMinSlice) && waiting()) {
					break
				}
			}
			return nil, nil, nil
		})
		if err != nil {
			c.unstage(ctx, project, st)
			return nil, err
		}
		start += len(ids)
		st.nsID, st.createdNS = ns.ID, st.createdNS || createdNS
		st.keyIDs = append(st.keyIDs, ids...)
		if c.bulk.afterChunk != nil {
			c.bulk.afterChunk(ctx, n)
		}
		if start < len(fresh) {
			cs.YieldToWriters(bulkYield)
		}
	}
	if !slices.IsSorted(st.keyIDs) {
		st.byID = make([]int32, len(st.keyIDs))
		for i := range st.byID {
			st.byID[i] = int32(i)
		}
		slices.SortFunc(st.byID, func(a, b int32) int { return cmp.Compare(st.keyIDs[a], st.keyIDs[b]) })
	}
	return st, nil
}

// check runs first in the main transaction of a chunked write: the snapshot of the
// namespace stands for it only when no other write touched the project since it was read.
func (st *staged) check(ctx context.Context, tx model.Tx, project string) error {
	st.used = 0
	stx, ok := tx.(model.StagingTx)
	if !ok {
		return errors.New("checking staged keys: the store's transaction cannot stage")
	}
	rev, err := stx.ProjectRevision(ctx, project)
	st.current = err == nil && rev == st.revision
	return err
}

// done runs after the operation in the main transaction: every staged key must have been
// reported as created, or the write would leave keys nobody was told about.
func (st *staged) done() error {
	if st.used != len(st.keyIDs) {
		return errors.New("chunked write: the operation did not take every staged key")
	}
	return nil
}

// unstage removes what the chunks of st committed, newest first, in transactions of a
// batch of keys each (a chunk's deletes in one would hold the writer for seconds), even
// when ctx is done. A failure is logged; the caller returns the error that made the write
// fail.
func (c *Catalog) unstage(ctx context.Context, project string, st *staged) {
	ids := st.keyIDs
	if len(ids) == 0 {
		return
	}
	_, batch, _ := c.bulkLimits()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), unstageTimeout)
	defer cancel()
	for end := len(ids); end > 0; end -= batch {
		start := max(0, end-batch)
		// The last transaction reports the keys gone, so that the cache hook moves the
		// project's revision: a reader with a cold cache may have cached the staged keys.
		last := start == 0
		err := c.transact(ctx, model.WriteEvent{Op: model.OpRemoveStagedKeys, ProjectID: project}, func(tx model.Tx) ([]model.Change, []model.UsageRecord, error) {
			stx, ok := tx.(model.StagingTx)
			if !ok {
				return nil, nil, errors.New("the store's transaction cannot remove staged keys")
			}
			var nsID int64
			if last && st.createdNS {
				nsID = st.nsID
			}
			if err := stx.RemoveStagedKeys(ctx, nsID, ids[start:end]); err != nil || !last {
				return nil, nil, err
			}
			return []model.Change{{Kind: model.ChangeKeysRemoved}}, nil, nil
		})
		if err != nil {
			c.opts.Logger.Error("removing the staged keys of a failed chunked write", "project", project, "err", err)
			return
		}
	}
}

// withStaged hands st to the main transaction's operation.
func withStaged(ctx context.Context, st *staged) context.Context {
	return context.WithValue(ctx, stagedKey{}, st)
}
