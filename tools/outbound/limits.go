package outbound

import (
	"errors"
	"fmt"
	"io"
)

// Caps on what lokal reads of an answer to an outbound call. A server a user points lokal at
// may answer without end; past a cap the call fails (it is never cut short and taken as
// valid), and the connection is closed rather than drained.
const (
	// MaxModelAnswer is a model's 2xx answer: a batch of ten strings is a few KiB, so
	// 8 MiB is generous even for very long values and verbose providers.
	MaxModelAnswer = 8 << 20
	// MaxErrorBody is a provider's error answer (4xx, 5xx): only a message is read from it.
	MaxErrorBody = 64 << 10
	// MaxHookAnswer is what a GitHub API, a deploy hook or a webhook receiver answers: lokal
	// needs its status and at most a short message.
	MaxHookAnswer = 64 << 10
)

// ErrTooLarge is the read error of a body past its cap.
var ErrTooLarge = errors.New("the answer is larger than lokal reads")

// TooLargeError says which cap an answer went past. It matches ErrTooLarge with errors.Is.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the answer is larger than %s, the most lokal reads of it", FormatSize(e.Limit))
}

func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// LimitBody returns body read through a cap of limit bytes: reading past it fails with a
// *TooLargeError, and closing it closes body (which ends the connection when unread).
func LimitBody(body io.ReadCloser, limit int64) io.ReadCloser {
	return &limitedBody{body: body, left: limit, limit: limit}
}

type limitedBody struct {
	body  io.ReadCloser
	left  int64
	limit int64
	err   error
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	if l.left <= 0 {
		// One byte more tells a body of exactly limit bytes from a longer one.
		var one [1]byte
		n, err := l.body.Read(one[:])
		if n > 0 {
			l.err = &TooLargeError{Limit: l.limit}
			return 0, l.err
		}
		return 0, err
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.body.Read(p)
	l.left -= int64(n)
	return n, err
}

func (l *limitedBody) Close() error { return l.body.Close() }

// ReadLimited reads all of body up to limit bytes; a longer body is a *TooLargeError.
func ReadLimited(body io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(body, limit+1))
	if int64(len(b)) > limit {
		return b[:limit], &TooLargeError{Limit: limit}
	}
	return b, err
}

// FormatSize writes a cap as people read it: 64 KiB, 8 MiB.
func FormatSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
