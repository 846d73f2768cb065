package reqbody

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// ReadAll reads r's body whole, refusing one over limit bytes with too_large; other
// failures are [Err]'s.
func ReadAll(r *http.Request, limit int64) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	buf := NewBuffer(r.ContentLength, limit)
	if _, err := buf.ReadFrom(io.LimitReader(r.Body, limit+1)); err != nil {
		return nil, Err(err)
	}
	if int64(buf.Len()) > limit {
		return nil, tooLarge(limit)
	}
	return buf.Bytes(), nil
}

// NewBuffer is the buffer a body of declared length n (-1 when unknown) is read into,
// under limit: room for the declared length and one more read, since ReadFrom grows a
// buffer (doubling it) whenever fewer than MinRead bytes are free, even for the read that
// only finds EOF, and a 5 MB import's body held 10 MB.
func NewBuffer(n, limit int64) *bytes.Buffer {
	if n < 0 || n > limit {
		n = 0
	}
	return bytes.NewBuffer(make([]byte, 0, n+bytes.MinRead))
}

func tooLarge(limit int64) error {
	return model.Errorf(model.CodeTooLarge, "body is over %d bytes", limit)
}

// Err is the catalogue's error for a failed body read: a body that did not arrive in time
// is timeout, one over a cap too_large, and one cut short or with broken framing (chunk
// sizes, trailers, fewer bytes than its Content-Length) invalid: the client's fault, never
// an internal error. A catalogue error passes through.
func Err(err error) error {
	return errOf(err, 0)
}

func errOf(err error, timeout time.Duration) error {
	var te *model.Error
	if err == nil || errors.As(err, &te) {
		return err
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return tooLarge(tooBig.Limit)
	}
	var netErr interface{ Timeout() bool }
	if errors.As(err, &netErr) && netErr.Timeout() {
		within := ""
		if timeout > 0 {
			within = fmt.Sprintf(" within %s", timeout)
		}
		return model.Errorf(model.CodeTimeout, "the request body did not arrive%s", within)
	}
	if errors.Is(err, http.ErrBodyReadAfterClose) {
		return err // a handler's bug, not the client's
	}
	return model.Errorf(model.CodeInvalid, "the request body was cut short or its framing is broken")
}
