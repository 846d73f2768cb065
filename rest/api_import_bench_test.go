package rest_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/formats"
)

// BenchmarkImportPO10k imports a 10,000-key PO file of the source language into a new
// namespace, and BenchmarkExportPO10k renders one from a cold cache (the goal:
// under a second each on SQLite).
func BenchmarkImportPO10k(b *testing.B) { benchFile(b, "po", 10000, false) }
func BenchmarkExportPO10k(b *testing.B) { benchFile(b, "po", 10000, true) }

func benchFile(b *testing.B, format string, n int, export bool) {
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		s := benchNewServer(b, dialect)
		f := &formats.File{SourceLanguage: "en", Languages: []string{"en"}}
		for i := 0; i < n; i++ {
			v := benchValue(i)
			f.Entries = append(f.Entries, formats.Entry{Key: benchKey(i), Source: v, Values: map[string]formats.Value{"en": {Text: v}}})
		}
		body, err := formats.Encode(format, f, formats.Options{Language: "en", SourceLanguage: "en"})
		if err != nil {
			b.Skipf("%s cannot be written: %v", format, err)
		}
		put := func(ns string) {
			req := httptest.NewRequest(http.MethodPut, "/api/import/"+s.project+"/latest/en/"+ns+"?format="+format, bytes.NewReader(body))
			req.Header.Set("Authorization", s.auth)
			rec := httptest.NewRecorder()
			s.handler.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("import %s: %d %s", ns, rec.Code, benchTruncate(rec.Body.String()))
			}
		}
		get := func(ns string) {
			req := httptest.NewRequest(http.MethodGet, s.readPath(ns)+"?format="+format, nil)
			req.Header.Set("Authorization", s.auth)
			rec := httptest.NewRecorder()
			s.handler.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("export %s: %d %s", ns, rec.Code, benchTruncate(rec.Body.String()))
			}
		}
		if export {
			put("file")
		}
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if !export {
				put(fmt.Sprintf("file_%d", i))
				continue
			}
			b.StopTimer()
			put(fmt.Sprintf("touch_%d", i)) // a write to the project clears its cached files
			b.StartTimer()
			get("file")
		}
	})
}
