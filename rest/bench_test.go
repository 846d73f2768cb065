package rest_test

// Benchmarks of the build-time API as a client sees it (issue 2, "make bench"):
//
//	go test -run '^$' -bench . ./rest/                       # SQLite (and PostgreSQL if set)
//	LOKAL_TEST_POSTGRES=postgres://... go test -run '^$' -bench Sync ./rest/
//	go test -run '^$' -bench 'ReadNamespace$/handler' -cpuprofile cpu.out ./rest/
//
// Every identifier here starts with "bench": other test files of this package are written
// alongside.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/public"
	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/rest/app"
	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

// benchReadKeys is the size of the namespace endpoint 1 serves in the read benchmarks.
const benchReadKeys = 1000

// benchSettle is longer than storagetest's poll interval (50ms).
const benchSettle = 300 * time.Millisecond

var (
	benchVerbs = [...]string{"Choose", "Enter", "Review", "Confirm", "Update", "Select", "Check", "Share"}
	benchAdjs  = [...]string{"billing", "shipping", "primary", "default", "current", "preferred", "backup", "team"}
	benchNouns = [...]string{"address", "account", "settings", "password", "language", "invoice", "profile", "schedule"}
	benchEnds  = [...]string{"before you continue", "to finish this step", "for the whole team", "when you are ready"}
)

// benchKey and benchValue give the i-th key of a generated namespace: key names like
// section_N.element_M.label and sentences of about 50 to 60 bytes, one in 16 with markup and
// one in 16 with a placeholder. .ci/bench generates the same entries with awk.
func benchKey(i int) string {
	return fmt.Sprintf("section_%d.element_%d.label", i/100, i%100)
}

func benchValue(i int) string {
	noun := benchNouns[(i/64)%8]
	switch i % 16 {
	case 0:
		noun = "<strong>" + noun + "</strong>"
	case 8:
		noun += " {{count}}"
	}
	return fmt.Sprintf("%s the %s %s %d %s.", benchVerbs[i%8], benchAdjs[(i/8)%8], noun, i, benchEnds[(i/512)%4])
}

// benchBody is the JSON body of a full sync of n new keys.
func benchBody(tb testing.TB, n int) []byte {
	tb.Helper()
	m := make(map[string]string, n)
	for i := 0; i < n; i++ {
		m[benchKey(i)] = benchValue(i)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"translations": m}); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// benchServer is the API handler over a fresh database of one dialect holding storagetest's
// fixture: its project (source language en) and read/write API key. Request logs are formatted as in
// production and thrown away.
type benchServer struct {
	handler http.Handler
	project string
	auth    string // the Authorization header value
}

func benchNewServer(tb testing.TB, dialect string) *benchServer {
	tb.Helper()
	db, f := storagetest.MustOpenFixture(tb, dialect)
	logger := slog.New(httpx.NewJSONLog(io.Discard, nil))
	cat := storagetest.Catalog(db, &tools.Options{BaseURL: "http://127.0.0.1", Logger: logger})
	h := rest.New(cat, &rest.Options{Logger: logger, Health: db.Ping})
	return &benchServer{handler: h, project: f.Project.ID, auth: "Token token=" + f.RW}
}

// sync PUTs body to endpoint 3 for namespace ns and checks that every key was created.
func (s *benchServer) sync(tb testing.TB, ns string, body []byte, want int) {
	tb.Helper()
	req := httptest.NewRequest(http.MethodPut, "/api/sync/"+s.project+"/latest/en/"+ns, bytes.NewReader(body))
	req.Header.Set("Authorization", s.auth)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.handler.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		tb.Fatalf("sync %s: %d %s", ns, rec.Code, benchTruncate(rec.Body.String()))
	}
	var out struct {
		Summary struct {
			Created int `json:"created"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		tb.Fatalf("sync %s: %v", ns, err)
	}
	if out.Summary.Created != want {
		tb.Fatalf("sync %s created %d keys, want %d", ns, out.Summary.Created, want)
	}
}

func (s *benchServer) readPath(ns string) string {
	return "/api/" + s.project + "/latest/en/" + ns
}

// etag fetches ns once and returns its ETag and body size.
func (s *benchServer) etag(tb testing.TB, ns string) (string, int) {
	tb.Helper()
	req := httptest.NewRequest(http.MethodGet, s.readPath(ns), nil)
	req.Header.Set("Authorization", s.auth)
	rec := httptest.NewRecorder()
	s.handler.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Header().Get("ETag") == "" {
		tb.Fatalf("GET %s: %d, ETag %q: %s", ns, rec.Code, rec.Header().Get("ETag"), benchTruncate(rec.Body.String()))
	}
	return rec.Header().Get("ETag"), rec.Body.Len()
}

func benchTruncate(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// benchWriter is a ResponseWriter that counts and drops the body, so the handler's own cost
// is what is measured.
type benchWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *benchWriter) Header() http.Header { return w.h }
func (w *benchWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *benchWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.n += len(p)
	return len(p), nil
}

func (w *benchWriter) reset() {
	clear(w.h)
	w.status, w.n = 0, 0
}

// benchRead runs endpoint 1 in parallel for a 1,000-key namespace, with extra headers, and
// expects status. Sub-benchmarks: "handler" calls the handler directly (the server's own
// cost, what to profile); "http" goes through net/http on loopback with keep-alive
// connections (client cost included, in this process).
func benchRead(b *testing.B, header http.Header, status int) {
	s := benchNewServer(b, "sqlite")
	s.sync(b, "common", benchBody(b, benchReadKeys), benchReadKeys)
	// The store's watcher drops the project's cache once more when its poll sees the
	// write's own revision; wait for that before warming the cache.
	time.Sleep(benchSettle)
	etag, size := s.etag(b, "common")
	if header.Get("If-None-Match") == "{etag}" {
		header = header.Clone()
		header.Set("If-None-Match", etag)
	}
	header.Set("Authorization", s.auth)

	b.Run("handler", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			req := httptest.NewRequest(http.MethodGet, s.readPath("common"), nil)
			req.Header = header.Clone()
			w := &benchWriter{h: http.Header{}}
			for pb.Next() {
				w.reset()
				s.handler.ServeHTTP(w, req)
				if w.status != status {
					b.Errorf("status %d, want %d", w.status, status)
					return
				}
			}
		})
		if status == http.StatusOK {
			b.SetBytes(int64(size))
		}
	})

	b.Run("http", func(b *testing.B) {
		srv := httptest.NewServer(s.handler)
		defer srv.Close()
		tr := &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, DisableCompression: true}
		defer tr.CloseIdleConnections()
		client := &http.Client{Transport: tr}
		url := srv.URL + s.readPath("common")
		b.SetParallelism(16) // 16 x GOMAXPROCS clients, like wrk's connections
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				req, err := http.NewRequest(http.MethodGet, url, nil)
				if err != nil {
					b.Error(err)
					return
				}
				req.Header = header.Clone()
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != status {
					b.Errorf("status %d, want %d", resp.StatusCode, status)
					return
				}
			}
		})
		if status == http.StatusOK {
			b.SetBytes(int64(size))
		}
	})
}

// BenchmarkReadNamespace is endpoint 1 for a 1,000-key namespace served from the cache,
// uncompressed (what wrk asks for).
func BenchmarkReadNamespace(b *testing.B) {
	benchRead(b, http.Header{}, http.StatusOK)
}

// BenchmarkReadNamespaceGzip is endpoint 1 with Accept-Encoding: gzip (what browsers send).
func BenchmarkReadNamespaceGzip(b *testing.B) {
	benchRead(b, http.Header{"Accept-Encoding": {"gzip, deflate, br"}}, http.StatusOK)
}

// BenchmarkReadNamespace304 is endpoint 1 with If-None-Match of the current ETag.
func BenchmarkReadNamespace304(b *testing.B) {
	benchRead(b, http.Header{"If-None-Match": {"{etag}"}}, http.StatusNotModified)
}

// benchSync times a full sync of n new keys into a fresh namespace per iteration, through
// the handler (body decoding, validation, storage, the 200 body), on each dialect.
func benchSync(b *testing.B, n int) {
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		s := benchNewServer(b, dialect)
		body := benchBody(b, n)
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			s.sync(b, fmt.Sprintf("sync_%d", i), body, n)
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "keys/s")
	})
}

// BenchmarkSync10k is a full sync of 10,000 new keys.
func BenchmarkSync10k(b *testing.B) { benchSync(b, 10000) }

// BenchmarkSync50k is a full sync of 50,000 new keys (about 4 MB, under the 5 MB cap).
func BenchmarkSync50k(b *testing.B) { benchSync(b, 50000) }

// TestBenchBodySize keeps the generated 50,000-key body under the 5 MB cap and the values
// in the 40 to 80 byte range the benchmarks claim.
func TestBenchBodySize(t *testing.T) {
	t.Parallel()
	if body := benchBody(t, 50000); len(body) >= rest.MaxBody {
		t.Fatalf("50,000-key body is %d bytes, over the %d cap", len(body), rest.MaxBody)
	}
	for i := 0; i < 50000; i++ {
		if v := benchValue(i); len(v) < 40 || len(v) > 80 || strings.ContainsAny(v, ":&\\") {
			t.Fatalf("value %d is %q (%d bytes)", i, v, len(v))
		}
	}
}

// BenchmarkReadCeiling is endpoint 1 against the Go ceiling, in one run on loopback: a
// 1,000-key namespace served by the handler `lokal serve` builds (JSON request logs, metrics,
// the public routes and the editor mounted, the body guard), and by a bare net/http handler
// writing the very bytes and headers endpoint 1 sent. Both get the same keep-alive load
// (benchCeilingConns connections sending the same request, wrk's way: a raw client, so that
// the client's own cost does not hide the server's), in short interleaved rounds. Figures:
// requests per second of each, endpoint1/bare (the median of the rounds' ratios), and the
// process's CPU per request of each (the client included, the same for both: the
// difference is what endpoint 1 adds).
//
//	go test -run '^$' -bench ReadCeiling -benchtime 1x -count 3 ./rest/
func BenchmarkReadCeiling(b *testing.B) {
	// lokal serve's collector setting (cmd/lokal), for both targets of this process.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	s := benchServe(b)
	h := s.handler
	lokal := httptest.NewServer(h)
	defer lokal.Close()

	// What endpoint 1 answers, headers and body, for the bare handler to repeat.
	req, _ := http.NewRequest(http.MethodGet, lokal.URL+s.readPath("common"), nil)
	req.Header.Set("Authorization", s.auth)
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		b.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("GET endpoint 1: %d %v", resp.StatusCode, err)
	}
	header := resp.Header.Clone()
	header.Del("Date") // net/http writes its own, for both
	bareHandler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for k, v := range header {
			h[k] = v
		}
		w.WriteHeader(http.StatusOK)
		w.Write(body)
	})
	bare := httptest.NewServer(bareHandler)
	defer bare.Close()

	targets := []struct{ name, addr string }{
		{"bare", strings.TrimPrefix(bare.URL, "http://")},
		{"endpoint1", strings.TrimPrefix(lokal.URL, "http://")},
	}
	raw := "GET " + s.readPath("common") + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + s.auth + "\r\n\r\n"
	var reqs, cpu [2]float64
	var secs float64
	var ratios []float64
	b.ResetTimer()
	for i := range b.N * benchCeilingRounds {
		var n [2]int64
		for j := range targets {
			t := (i + j) % 2 // each target goes first in every other round
			var c time.Duration
			n[t], c = benchLoad(b, targets[t].addr, raw, len(body))
			reqs[t] += float64(n[t])
			cpu[t] += c.Seconds()
		}
		secs += benchCeilingRound.Seconds()
		ratios = append(ratios, float64(n[1])/float64(n[0]))
	}
	b.StopTimer()
	for t, tg := range targets {
		b.ReportMetric(reqs[t]/secs, tg.name+"_req/s")
		b.ReportMetric(cpu[t]/reqs[t]*1e6, tg.name+"_cpu_us/req")
	}
	// The handlers alone, called in turn on one goroutine with a writer that drops the
	// body: what each costs beyond net/http and the network, steadier than the rounds.
	direct := httptest.NewRequest(http.MethodGet, s.readPath("common"), nil)
	direct.Header.Set("Authorization", s.auth)
	direct.RemoteAddr = "127.0.0.1:40000"
	var handlerCPU [2]time.Duration
	for range 10 {
		handlerCPU[0] += benchDirect(b, bareHandler, direct)
		handlerCPU[1] += benchDirect(b, h, direct)
	}
	for t, tg := range targets {
		b.ReportMetric(float64(handlerCPU[t].Nanoseconds())/10/benchDirectCalls/1e3, tg.name+"_handler_us")
	}
	// The median of the rounds' ratios: a neighbour's burst on a shared machine skews the
	// rounds it falls in, not the figure.
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "endpoint1/bare")
}

// benchServe is the handler `lokal serve` builds (JSON request logs, metrics, the public
// routes and the editor mounted, the body guard) over a SQLite fixture whose namespace
// "common" holds benchReadKeys keys and is cached.
func benchServe(b *testing.B) *benchServer {
	// No poll of the revisions during the benchmark: nothing else writes, and the poll's
	// late look at the setup's own write would drop the cache (benchRead waits it out).
	dsn, f := storagetest.FixtureDSN(b, "sqlite")
	db := storagetest.MustOpen(b, dsn, &storage.Options{PollInterval: time.Hour})
	logger := slog.New(httpx.NewJSONLog(io.Discard, nil)) // as cmd/lokal's
	metrics := rest.NewMetrics()
	cat := storagetest.Catalog(db, &tools.Options{BaseURL: "http://127.0.0.1", Logger: logger,
		Limiter: db.Limiter(nil), OnRefused: metrics.Refused})
	h := rest.New(cat, &rest.Options{Logger: logger, Health: db.Ping, Metrics: metrics, BodyTimeout: 20 * time.Second,
		Public: public.Mount(cat, &public.Options{Logger: logger})})
	h = app.Mount(h, app.New(cat, &app.Options{Logger: logger, ClientIP: app.ClientIPFrom(nil), BodyTimeout: 20 * time.Second}))
	s := &benchServer{handler: h, project: f.Project.ID, auth: "Token token=" + f.RW}
	s.sync(b, "common", benchBody(b, benchReadKeys), benchReadKeys)
	s.etag(b, "common") // fills the cache
	return s
}

// BenchmarkReadCeilingHandler is a cached endpoint 1 request through the handler `lokal
// serve` builds, called on one goroutine with a writer that drops the body: ns/op and
// allocs/op of the cached read path, and the one to profile.
//
//	go test -run '^$' -bench ReadCeilingHandler -cpuprofile cpu.out -memprofile mem.out ./rest/
func BenchmarkReadCeilingHandler(b *testing.B) {
	s := benchServe(b)
	req := httptest.NewRequest(http.MethodGet, s.readPath("common"), nil)
	req.Header.Set("Authorization", s.auth)
	req.RemoteAddr = "127.0.0.1:40000"
	w := &benchWriter{h: http.Header{}}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		w.reset()
		s.handler.ServeHTTP(w, req)
		if w.status != http.StatusOK {
			b.Fatalf("status %d", w.status)
		}
	}
}

const (
	benchCeilingConns  = 64
	benchCeilingRound  = 250 * time.Millisecond
	benchCeilingRounds = 15
)

// benchLoad sends raw on benchCeilingConns keep-alive connections to addr for one round,
// expecting 200 with a body of size bytes, and returns the answers counted and the CPU time
// the process spent meanwhile.
func benchLoad(b *testing.B, addr, raw string, size int) (int64, time.Duration) {
	var n atomic.Int64
	var wg sync.WaitGroup
	stop := time.Now().Add(benchCeilingRound)
	cpu0 := benchCPU()
	for range benchCeilingConns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				b.Error(err)
				return
			}
			defer conn.Close()
			r := bufio.NewReaderSize(conn, 64<<10)
			for time.Now().Before(stop) {
				if _, err := io.WriteString(conn, raw); err != nil {
					b.Error(err)
					return
				}
				if err := benchReadAnswer(r, size); err != nil {
					b.Error(err)
					return
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	return n.Load(), benchCPU() - cpu0
}

// benchReadAnswer reads one HTTP/1.1 answer with Content-Length and checks that it is a 200
// of size bytes.
func benchReadAnswer(r *bufio.Reader, size int) error {
	line, err := r.ReadSlice('\n')
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(line, []byte("HTTP/1.1 200 ")) {
		return fmt.Errorf("answer %q", line)
	}
	length := -1
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			return err
		}
		if len(line) <= 2 {
			break
		}
		if k, v, ok := bytes.Cut(line, []byte(":")); ok && strings.EqualFold(string(k), "Content-Length") {
			length, _ = strconv.Atoi(string(bytes.TrimSpace(v)))
		}
	}
	if length != size {
		return fmt.Errorf("Content-Length %d, want %d", length, size)
	}
	_, err = r.Discard(length)
	return err
}

const benchDirectCalls = 2000

// benchDirect calls h benchDirectCalls times with req and returns the CPU time the process
// spent meanwhile.
func benchDirect(b *testing.B, h http.Handler, req *http.Request) time.Duration {
	w := &benchWriter{h: http.Header{}}
	cpu0 := benchCPU()
	for range benchDirectCalls {
		w.reset()
		h.ServeHTTP(w, req)
		if w.status != http.StatusOK {
			b.Fatalf("status %d", w.status)
		}
	}
	return benchCPU() - cpu0
}

// benchCPU is the CPU time (user and system) this process has spent.
func benchCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
