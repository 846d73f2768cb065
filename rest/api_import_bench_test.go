package rest_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/formats"
)

// BenchmarkImportPO10k imports a 10,000-key PO file of the source language into a new
// namespace, and BenchmarkExportPO10k renders one from a cold cache (the goal:
// under a second each on SQLite).
func BenchmarkImportPO10k(b *testing.B) { benchFile(b, "po", "en", 10000, false) }
func BenchmarkExportPO10k(b *testing.B) { benchFile(b, "po", "en", 10000, true) }

// BenchmarkImportXCStrings10k imports a 10,000-key String Catalog in two languages (en and
// nb, one nb value in 16 a plural) with language all, and BenchmarkExportXCStrings10k renders
// it back from a cold cache. Two, because Xcode's layout spends about 180 bytes on each
// localization: 10,000 keys in three languages are over the 5 MB body cap even with
// 10-byte values.
func BenchmarkImportXCStrings10k(b *testing.B) {
	benchFile(b, "xcstrings", formats.AllLanguages, 10000, false)
}
func BenchmarkExportXCStrings10k(b *testing.B) {
	benchFile(b, "xcstrings", formats.AllLanguages, 10000, true)
}

// benchFileOf is the file of n generated keys the file benchmarks import: the source texts
// of benchValue and, for language all, shorter nb values.
func benchFileOf(language string, n int) *formats.File {
	langs := []string{"en"}
	if language == formats.AllLanguages {
		langs = []string{"en", "nb"}
	}
	f := &formats.File{SourceLanguage: "en", Languages: langs}
	for i := 0; i < n; i++ {
		v := benchValue(i)
		e := formats.Entry{Key: benchKey(i), Source: v, Values: map[string]formats.Value{"en": {Text: v, State: formats.StateTranslated}}}
		for _, l := range langs[1:] {
			t := fmt.Sprintf("%s %s %d.", l, benchNouns[(i/64)%8], i)
			if i%16 == 8 {
				t = fmt.Sprintf("{count, plural, one {# %s fil %d} other {# %s filer %d}}", l, i, l, i)
			}
			e.Values[l] = formats.Value{Text: t, State: formats.StateTranslated}
		}
		f.Entries = append(f.Entries, e)
	}
	return f
}

func benchFile(b *testing.B, format, language string, n int, export bool) {
	storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
		s := benchNewServer(b, dialect)
		body, err := formats.Encode(format, benchFileOf(language, n), formats.Options{Language: language, SourceLanguage: "en"})
		if err != nil {
			b.Skipf("%s cannot be written: %v", format, err)
		}
		put := func(ns string) {
			req := httptest.NewRequest(http.MethodPut, "/api/import/"+s.project+"/latest/"+language+"/"+ns+"?format="+format, bytes.NewReader(body))
			req.Header.Set("Authorization", s.auth)
			rec := httptest.NewRecorder()
			s.handler.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("import %s: %d %s", ns, rec.Code, benchTruncate(rec.Body.String()))
			}
			if want := fmt.Sprintf(`"created":%d,`, n); !strings.Contains(rec.Body.String(), want) {
				b.Fatalf("import %s: %s, want %s", ns, benchTruncate(rec.Body.String()), want)
			}
		}
		get := func(ns string) {
			req := httptest.NewRequest(http.MethodGet, "/api/"+s.project+"/latest/"+language+"/"+ns+"?format="+format, nil)
			req.Header.Set("Authorization", s.auth)
			rec := httptest.NewRecorder()
			s.handler.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Fatalf("export %s: %d %s", ns, rec.Code, benchTruncate(rec.Body.String()))
			}
		}
		touch := benchBody(b, 1)
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
			s.sync(b, fmt.Sprintf("touch_%d", i), touch, 1) // a write to the project clears its cached files
			b.StartTimer()
			get("file")
		}
	})
}

// BenchmarkImportJSON300k is the issue 34 attack's file through the import endpoint: a
// 4.7 MB JSON file of 300,000 tiny keys of the source language into a new namespace, as a
// dry run and as a real import.
func BenchmarkImportJSON300k(b *testing.B) {
	var body bytes.Buffer
	body.WriteString("{")
	for i := range 300000 {
		if i > 0 {
			body.WriteString(",")
		}
		fmt.Fprintf(&body, `"k%d":"v%d"`, i, i%100)
	}
	body.WriteString("}")
	for _, dry := range []bool{true, false} {
		name := "real"
		if dry {
			name = "dry"
		}
		b.Run(name, func(b *testing.B) {
			storagetest.ForEachDialect(b, func(b *testing.B, dialect string) {
				s := benchNewServer(b, dialect)
				b.SetBytes(int64(body.Len()))
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					q := "?format=json"
					if dry {
						q += "&dry_run=true"
					}
					req := httptest.NewRequest(http.MethodPut, "/api/import/"+s.project+"/latest/en/file_"+fmt.Sprint(i)+q, bytes.NewReader(body.Bytes()))
					req.Header.Set("Authorization", s.auth)
					rec := httptest.NewRecorder()
					s.handler.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"created":300000,`) {
						b.Fatalf("import: %d %s", rec.Code, benchTruncate(rec.Body.String()))
					}
				}
			})
		})
	}
}
