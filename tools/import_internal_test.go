package tools

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/model"
)

// importFileOf is a file of n tiny keys in format, as the attack sent them.
func importFileOf(t testing.TB, format string, n int) []byte {
	t.Helper()
	if format == "json" {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"k%d":"v%d"`, i, i%1000)
		}
		b.WriteString("}")
		return []byte(b.String())
	}
	f := &formats.File{SourceLanguage: "en", Languages: []string{"en"}}
	for i := range n {
		v := fmt.Sprintf("v%d", i%1000)
		f.Entries = append(f.Entries, formats.Entry{Key: fmt.Sprintf("k%d", i), Source: v, Values: map[string]formats.Value{"en": {Text: v}}})
	}
	data, err := formats.Encode(format, f, formats.Options{Language: "en", SourceLanguage: "en"})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestImportPlanAllocation: reading a file into an import's plan holds at most ten times
// the file's size (the heap after a collection with the plan alive), and allocates at most
// 25 times it in all (the maps' growth is the rest), counted by the runtime's counters
// around the decode and the plan: a file is never held as a whole tree or a slice of
// entries beside the plan. Before the stream it allocated 31 times the file's size, 150 MB
// of it decoded entries.
func TestImportPlanAllocation(t *testing.T) {
	proj := model.Project{SourceLanguage: "en"}
	for _, tt := range []struct {
		format string
		n      int
		live   float64 // times the file's size
		total  float64
	}{
		{"json", 300000, 10, 25},
	} {
		codec, _ := formats.Lookup(tt.format)
		data := importFileOf(t, tt.format, tt.n)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		plan, err := planImport(codec, data, formats.Options{Language: "en", SourceLanguage: "en"}, proj, "en")
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		var held runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&held)
		live := float64(held.HeapAlloc-before.HeapAlloc) / float64(len(data))
		if plan.incoming != tt.n {
			t.Fatalf("%s: %d keys planned, want %d", tt.format, plan.incoming, tt.n)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		ratio := float64(alloc) / float64(len(data))
		t.Logf("%s: %d keys, %d bytes: %.1fx held, %.1f MB allocated, %.1fx", tt.format, tt.n, len(data), live, float64(alloc)/1e6, ratio)
		if live > tt.live {
			t.Errorf("%s: the plan of a %d-byte file holds %.1fx its size; the bound is %.0fx", tt.format, len(data), live, tt.live)
		}
		if ratio > tt.total {
			t.Errorf("%s: reading a %d-byte file allocated %d bytes, %.1fx its size; the bound is %.0fx", tt.format, len(data), alloc, ratio, tt.total)
		}
		runtime.KeepAlive(plan)
	}
}
