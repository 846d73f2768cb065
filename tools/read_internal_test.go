package tools

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
)

// TestFlatFileAsMarshalFlat: the patched rendering of endpoint 1 is byte for byte what
// marshalFlat makes of the same map, escapes included, so that a patched file and a file
// built whole (on this server or another) carry one ETag.
func TestFlatFileAsMarshalFlat(t *testing.T) {
	odd := []string{"<b>&</b>", "\u2028\u2029", "\x00\x1f\b\f\n\r\t", "\"\\/", "\xff\xfe", "é 日本", ""}
	rng := rand.New(rand.NewPCG(1, 2))
	m := map[string]string{}
	f, err := newFlatFile(nil)
	if err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 200; round++ {
		var changed []string
		for i := rng.IntN(6); i >= 0; i-- {
			k := fmt.Sprintf("k%02d%s", rng.IntN(40), odd[rng.IntN(len(odd))])
			changed = append(changed, k)
			if rng.IntN(3) == 0 {
				delete(m, k)
			} else {
				m[k] = fmt.Sprintf("v%d%s", round, odd[rng.IntN(len(odd))])
			}
		}
		var rows []flatRow
		for _, k := range changed {
			if v, ok := m[k]; ok {
				rows = append(rows, flatRow{k, v})
			}
		}
		if f, err = f.patch(changed, rows); err != nil {
			t.Fatal(err)
		}
		want, err := marshalFlat(m)
		if err != nil {
			t.Fatal(err)
		}
		if string(f.body) != string(want) {
			t.Fatalf("round %d: patched\n%q\nmarshalFlat\n%q", round, f.body, want)
		}
		var all []flatRow
		for k, v := range m {
			all = append(all, flatRow{k, v})
		}
		sort.Slice(all, func(i, j int) bool { return all[i].key < all[j].key })
		whole, err := newFlatFile(all)
		if err != nil {
			t.Fatal(err)
		}
		if string(whole.body) != string(want) {
			t.Fatalf("round %d: built\n%q\nmarshalFlat\n%q", round, whole.body, want)
		}
	}
}
