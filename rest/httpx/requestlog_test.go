package httpx

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestJSONLogRequestLine: the request line JSONLog writes itself is byte for byte the line
// slog's JSON handler writes for the same request, escapes and durations included.
func TestJSONLogRequestLine(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 7, 18, 30, 1, 123456789, time.UTC)
	paths := []string{"/api/p1/latest/en/common", "/api/q\"uo\\te/<b>&amp;</b>", "/ctl\x00\x1f\t\n\r",
		"/bad\xffutf8\xc3", "/sep\u2028\u2029", "/ünïcode/日本語", ""}
	durations := []time.Duration{0, 999 * time.Nanosecond, time.Microsecond, 42 * time.Microsecond,
		100 * time.Microsecond, 1500 * time.Microsecond, 12 * time.Millisecond, 1234567 * time.Microsecond,
		25 * time.Second, -3 * time.Microsecond}
	for _, path := range paths {
		for _, d := range durations {
			line := &RequestLine{Time: at, Method: "GET", Path: path, Status: 200, Bytes: 61234, Duration: d, IP: "::1"}
			var want, got bytes.Buffer
			LogRequest(context.Background(), slog.NewJSONHandler(&want, nil), line)
			LogRequest(context.Background(), NewJSONLog(&got, nil), line)
			if got.String() != want.String() {
				t.Errorf("path %q, %v:\n got %s\nwant %s", path, d, got.String(), want.String())
			}
		}
	}
}

// TestAppendMillis: durations in milliseconds as encoding/json writes the float.
func TestAppendMillis(t *testing.T) {
	t.Parallel()
	for us := int64(-2000); us < 200000; us += 7 {
		want, _ := json.Marshal(float64(us) / 1000)
		if got := appendMillis(nil, us); string(got) != string(want) {
			t.Fatalf("%d µs: %s, want %s", us, got, want)
		}
	}
}

// TestJSONLogOptions: options that change what the JSON handler writes (replaced
// attributes, sources) apply to the request line too, and the level is the handler's.
func TestJSONLogOptions(t *testing.T) {
	t.Parallel()
	line := &RequestLine{Time: time.Now(), Method: "GET", Path: "/x", Status: 200, Duration: time.Millisecond, IP: "127.0.0.1"}
	var buf bytes.Buffer
	h := NewJSONLog(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == "ip" {
			a.Value = slog.StringValue("hidden")
		}
		return a
	}})
	LogRequest(context.Background(), h, line)
	if !strings.Contains(buf.String(), `"ip":"hidden"`) {
		t.Errorf("ReplaceAttr not applied: %s", buf.String())
	}
	quiet := NewJSONLog(&buf, &slog.HandlerOptions{Level: slog.LevelWarn})
	if quiet.Enabled(context.Background(), slog.LevelInfo) {
		t.Errorf("a warn-level JSONLog takes info records")
	}
}

// TestJSONLogLinesWhole: request lines and the handler's other records, written from many
// goroutines, each arrive whole.
func TestJSONLogLinesWhole(t *testing.T) {
	t.Parallel()
	var buf lockedBuffer
	h := NewJSONLog(&buf, nil)
	logger := slog.New(h)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 200 {
				if i%2 == 0 {
					LogRequest(context.Background(), h, &RequestLine{Time: time.Now(), Method: "GET", Path: "/p", Status: 200, IP: "127.0.0.1"})
				} else {
					logger.Info("other", "n", i)
				}
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.b.String(), "\n"), "\n")
	if len(lines) != 1600 {
		t.Fatalf("%d lines, want 1600", len(lines))
	}
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Fatalf("line %q is not JSON", l)
		}
	}
}

// lockedBuffer takes concurrent writes whole, as NewJSONLog asks of its writer.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// TestJSONLogAllocs: the request line allocates nothing.
func TestJSONLogAllocs(t *testing.T) {
	h := NewJSONLog(discard{}, nil)
	line := &RequestLine{Time: time.Now(), Method: "GET", Path: "/api/p/latest/en/common", Status: 200, Bytes: 60000,
		Duration: 42 * time.Microsecond, IP: "127.0.0.1"}
	if n := testing.AllocsPerRun(1000, func() { LogRequest(context.Background(), h, line) }); n != 0 {
		t.Errorf("%v allocations per request line, want 0", n)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
