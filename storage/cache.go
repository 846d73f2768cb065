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

// cache holds pre-serialized response bodies per project. A project's entries are dropped
// together when its revision moves; a generation number keeps a build that raced with a
// write from storing bytes that are already old.
type cache struct {
	mu       sync.RWMutex
	projects map[string]*projectFiles
	group    singleflight.Group

	hits, misses atomic.Uint64 // for the metrics: answers without and with a build
}

type projectFiles struct {
	gen   uint64
	files map[string]*model.File
}

func newCache() *cache { return &cache{projects: map[string]*projectFiles{}} }

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
	p := c.projects[projectID]
	if p == nil {
		if gen != 0 {
			return
		}
		p = &projectFiles{files: map[string]*model.File{}}
		c.projects[projectID] = p
	}
	if p.gen != gen {
		return
	}
	p.files[name] = f
}

func (c *cache) invalidate(projectID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.projects[projectID]
	if p == nil {
		p = &projectFiles{}
		c.projects[projectID] = p
	}
	p.gen++
	p.files = map[string]*model.File{}
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

// NewFile computes the gzip form and the strong ETag of body.
func NewFile(body []byte) *model.File {
	sum := sha256.Sum256(body)
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(body)
	zw.Close()
	return &model.File{Body: body, Gzip: buf.Bytes(), ETag: `"` + hex.EncodeToString(sum[:16]) + `"`, Stored: time.Now()}
}
