package rest

import (
	"math"
	"sync"
	"time"
)

// limiter is a token bucket per key: Burst requests at once, refilled at Burst per Window.
// It lives in this process; several instances each apply it to the requests they serve.
type limiter struct {
	burst  float64
	rate   float64 // tokens per second
	now    func() time.Time
	mu     sync.Mutex
	bucket map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(burst int, window time.Duration) *limiter {
	return &limiter{burst: float64(burst), rate: float64(burst) / window.Seconds(), now: time.Now, bucket: map[string]*bucket{}}
}

// allow takes one token for key; when none is left it says how long until one is.
func (l *limiter) allow(key string) (bool, time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket[key]
	if b == nil {
		if len(l.bucket) >= 100000 {
			l.prune(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.bucket[key] = b
	}
	b.tokens = math.Min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
	return false, wait
}

// prune drops buckets that have refilled: they hold nothing a new bucket would not.
func (l *limiter) prune(now time.Time) {
	for k, b := range l.bucket {
		if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
			delete(l.bucket, k)
		}
	}
}
