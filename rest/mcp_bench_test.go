package rest_test

// Benchmarks of the MCP gateway as a plain client sees it (issue 3): one JSON-RPC request
// per HTTP POST over a real connection, no initialize, Accept: application/json only.
// Besides ns/op they report the median (and 90th percentile) latency of one request:
//
//	go test -run '^$' -bench MCP -benchtime 2000x ./rest/
//	LOKAL_TEST_POSTGRES=postgres://... go test -run '^$' -bench MCP -benchtime 2000x ./rest/

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/rest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

// mcpBenchKeys is the size of the namespace get_translations renders.
const mcpBenchKeys = 1000

// mcpBenchServer is the API over a fresh database of one dialect behind a real HTTP
// server, holding storagetest's fixture: its project (en source, nb on) and read/write key.
type mcpBenchServer struct {
	url     string
	client  *http.Client
	project string
	auth    string
}

func mcpBenchNew(b *testing.B, dialect string) *mcpBenchServer {
	b.Helper()
	db, f := storagetest.MustOpenFixture(b, dialect)
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	cat := storagetest.Catalog(db, &tools.Options{BaseURL: "http://127.0.0.1", Logger: logger})
	hs := httptest.NewServer(rest.New(cat, &rest.Options{Logger: logger, Health: db.Ping}))
	b.Cleanup(hs.Close)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	b.Cleanup(client.CloseIdleConnections)
	return &mcpBenchServer{url: hs.URL, client: client, project: f.Project.ID, auth: "Token token=" + f.RW}
}

// sync declares n generated keys in namespace ns through endpoint 3.
func (s *mcpBenchServer) sync(b *testing.B, ns string, n int) {
	b.Helper()
	m := make(map[string]string, n)
	for i := range n {
		m[fmt.Sprintf("section_%d.element_%d.label", i/100, i%100)] =
			fmt.Sprintf("Review the <strong>%d</strong> settings of %%{name} before you continue (%d).", i, i%7)
	}
	body, err := json.Marshal(map[string]any{"translations": m})
	if err != nil {
		b.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPut, s.url+"/api/sync/"+s.project+"/latest/en/"+ns, bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", s.auth)
	req.Header.Set("Content-Type", "application/json")
	res, err := s.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		b.Fatalf("sync: %d %s", res.StatusCode, truncated(data))
	}
}

// post sends one JSON-RPC request and returns the answer's body.
func (s *mcpBenchServer) post(b *testing.B, body []byte) []byte {
	req, err := http.NewRequest(http.MethodPost, s.url+"/api/"+s.project+"/mcp", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", s.auth)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/json")
	res, err := s.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		b.Fatalf("status %d: %s", res.StatusCode, truncated(data))
	}
	return data
}

// mcpBenchRun times each POST of body and reports the median and 90th percentile.
func mcpBenchRun(b *testing.B, s *mcpBenchServer, body []byte) {
	b.Helper()
	var durations []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		s.post(b, body)
		durations = append(durations, time.Since(start))
	}
	slices.Sort(durations)
	if n := len(durations); n > 0 {
		b.ReportMetric(float64(durations[n/2].Nanoseconds()), "ns/median")
		b.ReportMetric(float64(durations[n*9/10].Nanoseconds()), "ns/p90")
	}
}

// BenchmarkMCPToolsList is tools/list on the project endpoint without initialize.
func BenchmarkMCPToolsList(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		s := mcpBenchNew(b, dialect)
		var rpc struct {
			Result struct {
				Tools []json.RawMessage `json:"tools"`
			} `json:"result"`
		}
		if err := json.Unmarshal(s.post(b, body), &rpc); err != nil || len(rpc.Result.Tools) != len(mcpAllTools) {
			b.Fatalf("tools/list gave %d tools (%v)", len(rpc.Result.Tools), err)
		}
		mcpBenchRun(b, s, body)
	})
}

// BenchmarkMCPGetTranslations is get_translations (json) of a 1,000-key namespace.
func BenchmarkMCPGetTranslations(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_translations",` +
		`"arguments":{"language":"en","format":"json","namespace_key":"bench"}}}`)
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		s := mcpBenchNew(b, dialect)
		s.sync(b, "bench", mcpBenchKeys)
		var rpc struct {
			Result struct {
				IsError           bool    `json:"isError"`
				StructuredContent mcpFile `json:"structuredContent"`
			} `json:"result"`
		}
		data := s.post(b, body)
		if err := json.Unmarshal(data, &rpc); err != nil || rpc.Result.IsError || rpc.Result.StructuredContent.Count != mcpBenchKeys {
			b.Fatalf("get_translations: count %d (%v): %s", rpc.Result.StructuredContent.Count, err, truncated(data))
		}
		b.SetBytes(int64(len(data)))
		mcpBenchRun(b, s, body)
	})
}
