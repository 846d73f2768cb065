package rest

import (
	"sync"
	"time"
)

// limiter allows at most n requests per key in any sliding window: it keeps the times of the
// last n requests, so the (n+1)th inside the window is refused and Retry-After says when the
// oldest leaves it. It lives in this process; several instances each apply it.
type limiter struct {
	n      int
	window time.Duration
	now    func() time.Time
	mu     sync.Mutex
	keys   map[string]*ring
}

type ring struct {
	times []time.Time // the last n request times, oldest at next
	next  int
}

func newLimiter(n int, window time.Duration) *limiter {
	return &limiter{n: n, window: window, now: time.Now, keys: map[string]*ring{}}
}

// allow records a request for key, or refuses it and says how long until one is allowed.
func (l *limiter) allow(key string) (bool, time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.keys[key]
	if r == nil {
		if len(l.keys) >= 100000 {
			l.prune(now)
		}
		r = &ring{times: make([]time.Time, 0, min(l.n, 16))}
		l.keys[key] = r
	}
	if len(r.times) < l.n {
		r.times = append(r.times, now)
		return true, 0
	}
	oldest := r.times[r.next]
	if wait := oldest.Add(l.window).Sub(now); wait > 0 {
		return false, wait
	}
	r.times[r.next] = now
	r.next = (r.next + 1) % l.n
	return true, 0
}

// prune drops keys whose newest request left the window: they hold nothing.
func (l *limiter) prune(now time.Time) {
	for k, r := range l.keys {
		newest := r.times[(r.next+len(r.times)-1)%len(r.times)]
		if now.Sub(newest) >= l.window {
			delete(l.keys, k)
		}
	}
}
