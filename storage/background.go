package storage

import "sync"

// background is the store's own work after a commit (statistics, WAL checkpoints). Close
// waits for it; work asked for once Close has begun is not started, since a write that
// was in flight when Close began may still commit and ask (WaitGroup.Add racing Wait).
type background struct {
	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup
}

// start runs fn in a goroutine unless the store is closing; it reports whether it did.
func (b *background) start(fn func()) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	b.wg.Go(fn)
	return true
}

// close stops new work and waits for what runs.
func (b *background) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.wg.Wait()
}
