package storage

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"golang.org/x/sync/singleflight"
)

// cache holds pre-serialized response bodies per project. Plain files (Cached) are dropped
// together whenever the project changes; a generation number keeps a build that raced with
// a write from storing bytes that are already old. Grouped files (CachedPatch: a namespace
// in each language) survive changes to other namespaces and learn the keys a change
// touched, so that the next read re-reads those keys alone.
//
// Every change applied to the cache takes a sequence number. A read that starts at
// sequence s is answered only by a file that reflects every change numbered s or less:
// a write that returned before the read began is in the answer (changes of this process
// are applied before Update returns; other processes' when the revision poll sees them).
type cache struct {
	mu       sync.RWMutex
	projects map[string]*projectFiles
	group    singleflight.Group
	seq      atomic.Uint64 // written under mu

	hits, misses atomic.Uint64 // for the metrics: answers without and with a build
}

type projectFiles struct {
	gen    uint64
	files  map[string]*model.File
	groups map[string]map[string]*patchEntry // group (namespace) → name → entry
}

// patchEntry is a grouped file and what changed since it was made. An entry without a
// file is a build under way: changes that arrive meanwhile are recorded on it all the same.
type patchEntry struct {
	file    *model.File
	state   any               // the builder's own form of the file, handed back to patch
	upTo    uint64            // file reflects every change numbered upTo or less
	pending map[string]uint64 // changed keys → the newest change that named them
	whole   uint64            // the newest change that needs a whole rebuild; 0 for none
	zipping bool              // a goroutine is compressing the newest file
}

func (e *patchEntry) current(start uint64) bool {
	return e.file != nil && (start <= e.upTo || (len(e.pending) == 0 && e.whole == 0))
}

// changeSet is what a write changed in one project, as far as cached files care.
type changeSet struct {
	project    bool                // every file of the project
	namespaces map[string][]string // namespace → changed keys; nil for the whole namespace
}

// maxChangedKeys bounds the keys a change names per namespace; past it the namespace is
// rebuilt whole, which then costs about as much as reading that many keys.
const maxChangedKeys = 1000

func (cs *changeSet) merge(o changeSet) {
	if o.project {
		cs.project = true
	}
	for ns, keys := range o.namespaces {
		cs.addKeys(ns, keys)
	}
}

func (cs *changeSet) addKeys(ns string, keys []string) {
	if cs.namespaces == nil {
		cs.namespaces = map[string][]string{}
	}
	old, seen := cs.namespaces[ns]
	switch {
	case seen && old == nil:
	case keys == nil || len(old)+len(keys) > maxChangedKeys:
		cs.namespaces[ns] = nil
	default:
		cs.namespaces[ns] = append(old, keys...)
	}
}

func newCache() *cache { return &cache{projects: map[string]*projectFiles{}} }

// project returns the project's files, creating them; mu is held.
func (c *cache) project(projectID string) *projectFiles {
	p := c.projects[projectID]
	if p == nil {
		p = &projectFiles{files: map[string]*model.File{}, groups: map[string]map[string]*patchEntry{}}
		c.projects[projectID] = p
	}
	return p
}

func (c *cache) get(projectID, name string) (*model.File, uint64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	p := c.projects[projectID]
	if p == nil {
		return nil, 0
	}
	return p.files[name], p.gen
}

func (c *cache) put(projectID, name string, gen uint64, f *model.File) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.project(projectID)
	if p.gen != gen {
		return
	}
	p.files[name] = f
}

// invalidate drops every file of the project.
func (c *cache) invalidate(projectID string) { c.apply(projectID, changeSet{project: true}) }

// apply records a change: plain files go, grouped files of the changed namespaces learn
// the keys to re-read.
func (c *cache) apply(projectID string, cs changeSet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	seq := c.seq.Add(1)
	p := c.project(projectID)
	p.gen++
	clear(p.files)
	if cs.project {
		clear(p.groups)
		return
	}
	for ns, keys := range cs.namespaces {
		for _, e := range p.groups[ns] {
			if keys == nil {
				e.whole = seq
				continue
			}
			for _, k := range keys {
				e.pending[k] = seq
			}
			if len(e.pending) > maxChangedKeys {
				// A file nobody reads while its namespace is written keeps no list.
				e.whole = seq
				clear(e.pending)
			}
		}
	}
}

// Cached implements tools.Store.
func (db *DB) Cached(ctx context.Context, projectID, name string, build func(context.Context) ([]byte, error)) (*model.File, error) {
	if f, _ := db.cache.get(projectID, name); f != nil {
		db.cache.hits.Add(1)
		return f, nil
	}
	db.cache.misses.Add(1)
	v, err, _ := db.cache.group.Do(projectID+"\x00"+name, func() (any, error) {
		f, gen := db.cache.get(projectID, name)
		if f != nil {
			return f, nil
		}
		body, err := build(ctx)
		if err != nil {
			return nil, err
		}
		f = NewFile(body)
		db.cache.put(projectID, name, gen, f)
		return f, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*model.File), nil
}

type patched struct {
	file  *model.File
	state any
	upTo  uint64
}

// CachedPatch returns the file cached under (projectID, name) in group (a namespace). build
// makes it whole and returns it with the builder's own form of it (state); a change to
// keys of the group is applied on the next read by patch, which gets the previous state
// and the keys and reads only those; a change to the whole group or project rebuilds it.
// A read waits only for changes applied before it began; its ETag moves only with the
// bytes.
func (db *DB) CachedPatch(ctx context.Context, projectID, group, name string,
	build func(ctx context.Context) (state any, body []byte, err error),
	patch func(ctx context.Context, state any, keys []string) (any, []byte, error)) (*model.File, error) {
	r, err := db.cachedPatch(ctx, projectID, group, name, build, patch)
	return r.file, err
}

// CurrentPatch returns the grouped file that CachedPatch keeps under (projectID, group,
// kind+"\x00"+group+"\x00"+sub) when it answers a read beginning now, else nil (then
// CachedPatch): the hit of a cached read without the name built or the caller's build and
// patch functions made, three allocations of every endpoint-1 read before.
func (db *DB) CurrentPatch(projectID, group, kind, sub string) *model.File {
	c := db.cache
	start := c.seq.Load()
	var buf [128]byte
	name := append(append(append(append(append(buf[:0], kind...), 0), group...), 0), sub...)
	var f *model.File
	c.mu.RLock()
	if p := c.projects[projectID]; p != nil {
		if e := p.groups[group][string(name)]; e != nil && e.current(start) {
			f = e.file
		}
	}
	c.mu.RUnlock()
	if f != nil {
		c.hits.Add(1)
	}
	return f
}

// CachedState is CachedPatch for a state that is not served as it is (the keys of a
// namespace that the exports of every format are encoded from): it returns the state,
// which build and patch make without bytes. A state once returned is never changed:
// patch makes a new one.
func (db *DB) CachedState(ctx context.Context, projectID, group, name string,
	build func(ctx context.Context) (any, error),
	patch func(ctx context.Context, state any, keys []string) (any, error)) (any, error) {
	r, err := db.cachedPatch(ctx, projectID, group, name,
		func(ctx context.Context) (any, []byte, error) {
			st, err := build(ctx)
			return st, nil, err
		},
		func(ctx context.Context, state any, keys []string) (any, []byte, error) {
			st, err := patch(ctx, state, keys)
			return st, nil, err
		})
	return r.state, err
}

// CachedFile returns the plain file cached under (projectID, name), nil when there is
// none, and the generation to hand StoreFile: for a caller that builds and coalesces its
// files itself (the exports' queue of cold fills).
func (db *DB) CachedFile(projectID, name string) (*model.File, uint64) {
	f, gen := db.cache.get(projectID, name)
	if f != nil {
		db.cache.hits.Add(1)
	} else {
		db.cache.misses.Add(1)
	}
	return f, gen
}

// StoreFile makes body a file and caches it under (projectID, name) unless the project
// changed since CachedFile returned gen. Past lazyGzipAbove the gzip form is made at the
// fastest level: it is made again after every write, and on a 50,000-key export the
// default level took 150 ms, as long as encoding the file.
func (db *DB) StoreFile(projectID, name string, gen uint64, body []byte) *model.File {
	var f *model.File
	if len(body) > lazyGzipAbove {
		f = model.NewFile(body, gzipBytes(body, gzip.BestSpeed), etagOf(body), time.Now())
	} else {
		f = NewFile(body)
	}
	db.cache.put(projectID, name, gen, f)
	return f
}

func (db *DB) cachedPatch(ctx context.Context, projectID, group, name string,
	build func(ctx context.Context) (state any, body []byte, err error),
	patch func(ctx context.Context, state any, keys []string) (any, []byte, error)) (patched, error) {
	c := db.cache
	start := c.seq.Load()
	for {
		c.mu.RLock()
		var e *patchEntry
		if p := c.projects[projectID]; p != nil {
			e = p.groups[group][name]
		}
		if e != nil && e.current(start) {
			r := patched{file: e.file, state: e.state}
			c.mu.RUnlock()
			c.hits.Add(1)
			return r, nil
		}
		c.mu.RUnlock()
		c.misses.Add(1)
		v, err, _ := c.group.Do("patch\x00"+projectID+"\x00"+name, func() (any, error) {
			return db.refresh(ctx, projectID, group, name, build, patch)
		})
		if err != nil {
			return patched{}, err
		}
		// A refresh that began before this read may lack a change this read must see.
		if r := v.(patched); r.upTo >= start {
			return r, nil
		}
	}
}

// refresh brings one grouped file up to date; the singleflight group runs one at a time
// per file.
func (db *DB) refresh(ctx context.Context, projectID, group, name string,
	build func(context.Context) (any, []byte, error),
	patch func(context.Context, any, []string) (any, []byte, error)) (patched, error) {
	c := db.cache
	c.mu.Lock()
	p := c.project(projectID)
	if p.groups[group] == nil {
		p.groups[group] = map[string]*patchEntry{}
	}
	e := p.groups[group][name]
	if e == nil {
		e = &patchEntry{pending: map[string]uint64{}}
		p.groups[group][name] = e
	}
	// Every change numbered upTo or less was committed before this point, so the reads
	// below see it.
	upTo := c.seq.Load()
	old, state := e.file, e.state
	whole := old == nil || e.whole != 0
	var keys []string
	if !whole {
		keys = make([]string, 0, len(e.pending))
		for k := range e.pending {
			keys = append(keys, k)
		}
	}
	if !whole && len(keys) == 0 {
		// Another refresh brought the file up to date since this read looked.
		e.upTo = upTo
		c.mu.Unlock()
		return patched{old, state, upTo}, nil
	}
	c.mu.Unlock()

	var body []byte
	var err error
	if whole {
		state, body, err = build(ctx)
	} else {
		state, body, err = patch(ctx, state, keys)
	}
	if err != nil {
		c.mu.Lock()
		if e.file == nil && p.groups[group][name] == e {
			// Nothing to keep for a namespace that does not exist.
			delete(p.groups[group], name)
		}
		c.mu.Unlock()
		return patched{}, err
	}
	f := old
	if old == nil || !bytes.Equal(old.Body, body) {
		f = newFileLazy(body)
	}

	c.mu.Lock()
	if p := c.projects[projectID]; p == nil || p.groups[group][name] != e {
		// The whole project changed meanwhile: the answer is good for this read only.
		c.mu.Unlock()
		return patched{f, state, upTo}, nil
	}
	e.file, e.state, e.upTo = f, state, upTo
	for k, s := range e.pending {
		if s <= upTo {
			delete(e.pending, k)
		}
	}
	if e.whole <= upTo {
		e.whole = 0
	}
	zip := f.Gzip == nil && !e.zipping
	if zip {
		e.zipping = true
	}
	c.mu.Unlock()
	if zip {
		go c.compress(e)
	}
	return patched{f, state, upTo}, nil
}

// compress adds the gzip form to the entry's newest file, off the request path: until it
// is there, clients that accept gzip get the plain bytes, with the same ETag.
func (c *cache) compress(e *patchEntry) {
	for {
		c.mu.Lock()
		f := e.file
		if f.Gzip != nil {
			e.zipping = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		gz := gzipBytes(f.Body, gzip.DefaultCompression)
		c.mu.Lock()
		if e.file == f {
			e.file = model.NewFile(f.Body, gz, f.ETag, f.Stored)
		}
		c.mu.Unlock()
	}
}

// lazyGzipAbove is the body size past which the gzip form is made in the background: at
// 5 MB compression takes far longer than patching.
const lazyGzipAbove = 64 << 10

func newFileLazy(body []byte) *model.File {
	if len(body) <= lazyGzipAbove {
		return NewFile(body)
	}
	return model.NewFile(body, nil, etagOf(body), time.Now())
}

// NewFile computes the gzip form and the strong ETag of body. Past lazyGzipAbove the
// default level, as compress uses: on a 10,000-key PO export the best level took 4 times
// the CPU for a larger result.
func NewFile(body []byte) *model.File {
	level := gzip.BestCompression
	if len(body) > lazyGzipAbove {
		level = gzip.DefaultCompression
	}
	return model.NewFile(body, gzipBytes(body, level), etagOf(body), time.Now())
}

// etagOf hashes the bytes, so that every process serves one ETag for one body.
func etagOf(body []byte) string {
	sum := sha256.Sum256(body)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// gzipWriters are gzip writers by level, reused: a writer's tables and window are
// hundreds of KB, allocated anew for each of 13 concurrent cold exports before.
var gzipWriters sync.Map // level → *sync.Pool

func gzipBytes(body []byte, level int) []byte {
	p, ok := gzipWriters.Load(level)
	if !ok {
		p, _ = gzipWriters.LoadOrStore(level, &sync.Pool{New: func() any {
			zw, _ := gzip.NewWriterLevel(nil, level)
			return zw
		}})
	}
	pool := p.(*sync.Pool)
	zw := pool.Get().(*gzip.Writer)
	// Text compresses to about a quarter: one allocation instead of doubling from small.
	buf := bytes.NewBuffer(make([]byte, 0, len(body)/4+64))
	zw.Reset(buf)
	zw.Write(body)
	zw.Close()
	zw.Reset(nil)
	pool.Put(zw)
	return buf.Bytes()
}
