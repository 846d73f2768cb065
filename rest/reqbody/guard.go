package reqbody

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Guard reads every request body of next under timeout, counted from the handler's first
// read of it. An answer sent before the body was read to its end (the handler refused the
// request first, the body was too large, it timed out or arrived broken) closes the
// connection: what is left of the body must not be read as the next request, and reading
// it first would let a trickling client hold the answer back. timeout must be above 0.
func Guard(next http.Handler, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		if _, guarded := r.Body.(*body); guarded {
			next.ServeHTTP(w, r)
			return
		}
		b := &body{rc: r.Body, w: w, ctl: http.NewResponseController(w), header: w.Header(), timeout: timeout}
		// Set now, so that an answer written before the body is finished, or by net/http
		// once the handler returns, closes the connection; taken back at the body's end.
		b.header.Set("Connection", "close")
		// A copy: net/http looks at its own request's body to decide how to close.
		guarded := *r
		guarded.Body = b
		defer b.finish()
		next.ServeHTTP(w, &guarded)
	})
}

// body is a request body read under the guard's rules.
type body struct {
	rc      io.ReadCloser
	w       http.ResponseWriter
	ctl     *http.ResponseController
	header  http.Header
	timeout time.Duration

	mu      sync.Mutex // the state below; never held while reading
	started bool
	done    bool  // read to its end
	err     error // what ended it early
}

func (b *body) Read(p []byte) (int, error) {
	b.mu.Lock()
	if b.err != nil || b.done {
		err := b.err
		if err == nil {
			err = io.EOF
		}
		b.mu.Unlock()
		return 0, err
	}
	if !b.started {
		b.started = true
		// A recorder cannot take deadlines; a server's connection can.
		_ = b.ctl.SetReadDeadline(time.Now().Add(b.timeout))
	}
	b.mu.Unlock()

	n, err := b.rc.Read(p)
	switch {
	case err == io.EOF:
		b.mu.Lock()
		b.done = true
		b.mu.Unlock()
		// No deadline once the body is in: net/http's read that watches for the client
		// leaving would otherwise end the request's context when it passes.
		_ = b.ctl.SetReadDeadline(time.Time{})
		if b.header.Get("Connection") == "close" {
			b.header.Del("Connection")
		}
	case err != nil:
		err = errOf(err, b.timeout)
		b.mu.Lock()
		b.err = err
		b.mu.Unlock()
		b.stop()
	}
	return n, err
}

// Close leaves an unfinished body unread: net/http's Close would read on to find its end.
func (b *body) Close() error {
	b.mu.Lock()
	done := b.done
	b.mu.Unlock()
	if !done {
		b.stop()
	}
	return b.rc.Close()
}

// finish runs when the handler is done: a body it did not read to its end is not read
// further by anyone.
func (b *body) finish() {
	b.mu.Lock()
	done := b.done
	b.mu.Unlock()
	if !done {
		b.stop()
	}
}

// stop makes the answer close the connection and every further read of it fail at once,
// never wait.
func (b *body) stop() {
	b.header.Set("Connection", "close")
	_ = b.ctl.SetReadDeadline(time.Now())
	// net/http closes the connection the way it does past a MaxBytesReader's limit: it
	// half-closes and waits a little before closing, so that the client reads the answer
	// before the unread rest of its body makes the connection reset.
	_, _ = http.MaxBytesReader(b.w, io.NopCloser(strings.NewReader("x")), 0).Read(make([]byte, 1))
}
