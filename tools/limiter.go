package tools

import (
	"context"
	"sync"
	"time"
)

// MemoryLimiter is a sliding-window Limiter in this process's memory: it keeps the times of
// the last n events per bucket, so the (n+1)th inside the window is refused. Its memory is
// bounded: past MaxBuckets buckets, those whose newest event left the window are dropped,
// and if none has, the oldest half is.
type MemoryLimiter struct {
	now        func() time.Time
	maxBuckets int
	mu         sync.Mutex
	buckets    map[string]*ring
}

type ring struct {
	times  []time.Time // the last n event times, oldest at next once full
	next   int
	window time.Duration
}

// NewMemoryLimiter returns a MemoryLimiter on clock now (time.Now when nil) holding at most
// maxBuckets buckets (100,000 when <= 0).
func NewMemoryLimiter(now func() time.Time, maxBuckets int) *MemoryLimiter {
	if now == nil {
		now = time.Now
	}
	if maxBuckets <= 0 {
		maxBuckets = 100000
	}
	return &MemoryLimiter{now: now, maxBuckets: maxBuckets, buckets: map[string]*ring{}}
}

// Take implements Limiter.
func (l *MemoryLimiter) Take(_ context.Context, bucket string, n int, window time.Duration) (bool, time.Duration, error) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.buckets[bucket]
	if r == nil {
		if len(l.buckets) >= l.maxBuckets {
			l.prune(now)
		}
		r = &ring{times: make([]time.Time, 0, min(n, 16)), window: window}
		l.buckets[bucket] = r
	}
	if len(r.times) < n {
		r.times = append(r.times, now)
		return true, 0, nil
	}
	oldest := r.times[r.next]
	if wait := oldest.Add(window).Sub(now); wait > 0 {
		return false, wait, nil
	}
	r.times[r.next] = now
	r.next = (r.next + 1) % n
	return true, 0, nil
}

// Count implements Limiter.
func (l *MemoryLimiter) Count(_ context.Context, bucket string, window time.Duration) (int, time.Time, error) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	n, newest := 0, time.Time{}
	if r := l.buckets[bucket]; r != nil {
		for _, t := range r.times {
			if t.Add(window).After(now) {
				n++
				if t.After(newest) {
					newest = t
				}
			}
		}
	}
	return n, newest, nil
}

// Clear implements Limiter.
func (l *MemoryLimiter) Clear(_ context.Context, bucket string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.buckets, bucket)
	return nil
}

// Len is how many buckets are held, for tests of the memory bound.
func (l *MemoryLimiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

func (l *MemoryLimiter) prune(now time.Time) {
	for k, r := range l.buckets {
		if now.Sub(r.newest()) >= r.window {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) < l.maxBuckets {
		return
	}
	// Every bucket is live (a flood of distinct keys): drop the half that was quiet longest.
	cut := now
	for _, r := range l.buckets {
		if t := r.newest(); t.Before(cut) {
			cut = t
		}
	}
	mid := cut.Add(now.Sub(cut) / 2)
	for k, r := range l.buckets {
		if !r.newest().After(mid) {
			delete(l.buckets, k)
		}
	}
}

func (r *ring) newest() time.Time {
	return r.times[(r.next+len(r.times)-1)%len(r.times)]
}
