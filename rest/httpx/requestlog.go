package httpx

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// RequestLine is what the request log says of one answered request: never a header or a
// query, which may carry tokens.
type RequestLine struct {
	Time         time.Time // when the answer was done
	Method, Path string
	Status       int
	Bytes        int // of the body sent, 0 for none
	Duration     time.Duration
	IP           string // the client's, by Proxies.ClientIP
}

// LogRequest writes line at info level to h as the record "request" with the fields
// method, path, status, bytes, duration_ms (milliseconds, to the microsecond) and ip. A
// JSONLog writes it itself; any other handler gets a slog record. The caller checks
// h.Enabled first, and resolves the IP only then.
func LogRequest(ctx context.Context, h slog.Handler, line *RequestLine) {
	if j, ok := h.(*JSONLog); ok && j.direct {
		j.writeRequest(line)
		return
	}
	r := slog.NewRecord(line.Time, slog.LevelInfo, "request", 0)
	r.AddAttrs(slog.String("method", line.Method), slog.String("path", line.Path),
		slog.Int("status", line.Status), slog.Int("bytes", line.Bytes),
		slog.Float64("duration_ms", float64(line.Duration.Microseconds())/1000), slog.String("ip", line.IP))
	_ = h.Handle(ctx, r)
}

// JSONLog is slog's JSON handler that also writes the request line of every request
// itself, in the very bytes the JSON handler would write for LogRequest's record, without
// building one: through slog that line cost about a microsecond and several allocations
// on every read (the float went through encoding/json), more than the rest of a cached
// read's own work.
type JSONLog struct {
	slog.Handler
	w io.Writer
	// direct is false when the options change what the JSON handler writes (attributes
	// replaced, sources added): the request line then goes through it too.
	direct bool
}

// NewJSONLog is slog.NewJSONHandler(w, opts) with the request line written directly. w
// must take concurrent writes whole (os.Stderr, lokal serve's log buffer): the request
// lines do not pass the JSON handler's lock, which would be a second one on every request.
func NewJSONLog(w io.Writer, opts *slog.HandlerOptions) *JSONLog {
	direct := opts == nil || (opts.ReplaceAttr == nil && !opts.AddSource)
	return &JSONLog{Handler: slog.NewJSONHandler(w, opts), w: w, direct: direct}
}

var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func (j *JSONLog) writeRequest(line *RequestLine) {
	bp := lineBufs.Get().(*[]byte)
	b := append((*bp)[:0], `{"time":"`...)
	b = line.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","level":"INFO","msg":"request","method":"`...)
	b = appendJSONString(b, line.Method)
	b = append(b, `","path":"`...)
	b = appendJSONString(b, line.Path)
	b = append(b, `","status":`...)
	b = strconv.AppendInt(b, int64(line.Status), 10)
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, int64(line.Bytes), 10)
	b = append(b, `,"duration_ms":`...)
	b = appendMillis(b, line.Duration.Microseconds())
	b = append(b, `,"ip":"`...)
	b = appendJSONString(b, line.IP)
	b = append(b, "\"}\n"...)
	_, _ = j.w.Write(b)
	*bp = b
	if cap(b) <= 4<<10 {
		lineBufs.Put(bp)
	}
}

// appendMillis writes us microseconds as milliseconds the way encoding/json writes the
// float us/1000 (the shortest decimal: 0.042, 1.5, 12): at most three decimals, no
// trailing zeros.
func appendMillis(b []byte, us int64) []byte {
	if us < 0 {
		b = append(b, '-')
		us = -us
	}
	b = strconv.AppendInt(b, us/1000, 10)
	frac := us % 1000
	if frac == 0 {
		return b
	}
	digits := [3]byte{byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
	n := 3
	for digits[n-1] == '0' {
		n--
	}
	b = append(b, '.')
	return append(b, digits[:n]...)
}

// appendJSONString escapes s as slog's JSON handler does (encoding/json's rules without
// HTML escaping): quotes, backslashes and control bytes escaped, invalid UTF-8 as
// \ufffd, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}
