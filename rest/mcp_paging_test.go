package rest_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"
)

// mcpFilePage is a get_translations answer with its cursor.
type mcpFilePage struct {
	mcpFile
	NextOffset *string `json:"next_offset"`
}

// TestMCPSearchCursorAcrossWrites: keys added, hidden and values changed between two pages
// neither skip nor repeat a row that was there all along; hidden keys ahead of the cursor
// drop out, and the old numeric offset still counts rows.
func TestMCPSearchCursorAcrossWrites(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		en := map[string]string{}
		for i := range 120 {
			en[fmt.Sprintf("row.%03d", i)] = fmt.Sprintf("Text %03d", i)
		}
		s.mcpSeed(t, "cursor", en, nil)
		m := s.mcpProject(t, tokenAuth(s.rw))
		hide := map[string]bool{}
		for i := 0; i < 120; i += 7 {
			hide[fmt.Sprintf("row.%03d", i)] = true
		}
		seen, firstPage := map[string]int{}, map[string]bool{}
		var offset any // absent on the first call
		for page := 0; ; page++ {
			if page > 10 {
				t.Fatalf("next_offset does not end")
			}
			args := map[string]any{"language": "en"}
			if offset != nil {
				args["offset"] = offset
			}
			out := mcpOK[mcpSearch](t, m, "search_translations", args)
			for _, r := range out.Rows {
				seen[r.TranslationKey]++
			}
			if page == 0 {
				for k := range seen {
					firstPage[k] = true
				}
				// Between the first and second page: new keys, hidden keys on both sides of
				// the cursor, and every remaining value rewritten.
				kept := map[string]string{}
				for k, v := range en {
					if !hide[k] {
						kept[k] = v + " changed"
					}
				}
				for i := range 30 {
					kept[fmt.Sprintf("new.%03d", i)] = "New"
					kept[fmt.Sprintf("a.%03d", i)] = "New too"
				}
				body := map[string]any{"translations": kept, "preserve_source_values": false}
				s.call(t, "PUT", s.syncPath("en", "cursor"), tokenAuth(s.rw), body).wantStatus(t, 200)
			}
			if out.NextOffset == nil {
				break
			}
			offset = *out.NextOffset
		}
		for k := range en {
			switch n := seen[k]; {
			case n > 1:
				t.Errorf("%s given %d times", k, n)
			case n == 0 && !hide[k]:
				t.Errorf("%s skipped", k)
			case n > 0 && hide[k] && !firstPage[k]:
				t.Errorf("%s found after it was hidden", k)
			}
		}
		for k, n := range seen {
			if n > 1 {
				t.Errorf("%s given %d times", k, n)
			}
		}

		t.Run("the numeric offset counts rows", func(t *testing.T) {
			all := mcpOK[mcpSearch](t, m, "search_translations", map[string]any{"language": "en", "value_contains": "changed"})
			skip := mcpOK[mcpSearch](t, m, "search_translations", map[string]any{"language": "en", "value_contains": "changed", "offset": 10})
			if len(all.Rows) != 50 || len(skip.Rows) != 50 || skip.Rows[0] != all.Rows[10] {
				t.Errorf("offset 10 starts at %+v, want the 11th row %+v", skip.Rows[0], all.Rows[10])
			}
		})
		t.Run("a cursor of another tool or garbage is refused", func(t *testing.T) {
			file := mcpOK[mcpFilePage](t, m, "get_translations", map[string]any{"language": "en"})
			if file.NextOffset != nil {
				t.Fatalf("a small project came in pages: %q", *file.NextOffset)
			}
			for _, bad := range []any{"nonsense", "czE6eDpuYg", 1.5, true, map[string]any{}} {
				mcpErr(t, m, "search_translations", map[string]any{"offset": bad}, "invalid")
			}
			mcpErr(t, m, "get_translations", map[string]any{"language": "en", "offset": "czE6MTk6bmI"}, "invalid")
		})
	})
}

// TestMCPGetTranslationsPages: a project over a page's size comes in pages that together
// hold every key exactly once, in every format, for the whole project and for one
// namespace; keys added between pages repeat nothing.
func TestMCPGetTranslationsPages(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		// About 6 MB of text over two namespaces: a page holds about 4 MB.
		big := strings.Repeat("x", 25_000)
		want := map[string]string{}
		for _, ns := range []string{"alpha", "beta"} {
			for chunk := range 2 {
				en := map[string]string{}
				for i := range 60 {
					k := fmt.Sprintf("key.%d.%02d", chunk, i)
					en[k] = fmt.Sprintf("%s %s %s", ns, k, big)
					want[ns+"."+k] = en[k]
				}
				s.mcpSeed(t, ns, en, nil)
			}
		}
		want["beta.small"] = "Small"
		s.mcpSeed(t, "beta", map[string]string{"small": "Small"}, nil)
		m := s.mcpProject(t, tokenAuth(s.ro))
		for _, tc := range []struct{ format, namespace string }{{"json", ""}, {"po", ""}, {"yml", ""}, {"strings", "beta"}} {
			t.Run(tc.format+" "+tc.namespace, func(t *testing.T) {
				got := map[string]string{}
				pages := 0
				var offset string
				for {
					if pages > 20 {
						t.Fatalf("next_offset does not end")
					}
					args := map[string]any{"language": "en", "format": tc.format}
					if tc.namespace != "" {
						args["namespace_key"] = tc.namespace
					}
					if offset != "" {
						args["offset"] = offset
					}
					f := mcpOK[mcpFilePage](t, m, "get_translations", args)
					pages++
					if len(f.Content) > 5<<20 {
						t.Errorf("page %d has %d bytes", pages, len(f.Content))
					}
					var page map[string]string
					if tc.format == "json" {
						var byNS map[string]map[string]string
						if err := json.Unmarshal([]byte(f.Content), &byNS); err != nil {
							t.Fatal(err)
						}
						page = map[string]string{}
						for ns, kv := range byNS {
							for k, v := range kv {
								page[ns+"."+k] = v
							}
						}
					} else {
						page, _ = mcpReadFile(t, tc.format, "en", f.Content)
					}
					if f.Count != len(page) {
						t.Errorf("page %d: count %d, %d entries", pages, f.Count, len(page))
					}
					for k, v := range page {
						if tc.namespace != "" {
							k = tc.namespace + "." + k
						}
						if _, dup := got[k]; dup {
							t.Errorf("%s on two pages", k)
						}
						got[k] = v
					}
					if pages == 1 {
						// Added while paging: after every key there was, so in a later page.
						s.mcpSeed(t, "alpha", map[string]string{fmt.Sprintf("late.%s", tc.format): "Late"}, nil)
						s.mcpSeed(t, "beta", map[string]string{fmt.Sprintf("late.%s", tc.format): "Late"}, nil)
					}
					if f.NextOffset == nil {
						break
					}
					offset = *f.NextOffset
				}
				if pages < 2 {
					t.Errorf("%d pages, want several", pages)
				}
				w := map[string]string{}
				for k, v := range want {
					if tc.namespace == "" || strings.HasPrefix(k, tc.namespace+".") {
						w[k] = v
					}
				}
				for k := range got {
					if strings.Contains(k, ".late.") {
						delete(got, k)
					}
				}
				if !maps.Equal(got, w) {
					t.Errorf("pages hold %d keys, want %d", len(got), len(w))
				}
			})
		}
	})
}
