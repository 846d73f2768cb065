package tools

import (
	"context"
	"slices"
	"sync/atomic"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// CountsHook keeps the status counters (get_project_status, and per namespace the
// editor's project pages) current in the write's transaction: it hands the store every key
// whose rows a write touched, and the store moves the counters by what those rows now add
// compared with what they added before.
// A source change makes the key's other languages behind, so a key counts whole.
// Writes that touch no key (settings, terminology, a language turned on) change no count:
// counters are kept for every language with rows, enabled or not.
func CountsHook() WriteHook {
	return func(ctx context.Context, tx model.Tx, ev model.WriteEvent) error {
		keys := model.TouchedKeys{New: map[int64]bool{}, NewRows: map[int64][]string{}}
		seen := map[int64]bool{}
		tallied := talliedKeys(ctx, ev)
		for ch := range ev.All() {
			if ch.KeyID == 0 || tallied.has(ch.KeyID) {
				continue
			}
			switch ch.Kind {
			case model.ChangeKeyCreated:
				keys.New[ch.KeyID] = true
			case model.ChangeValueCreated:
				keys.NewRows[ch.KeyID] = append(keys.NewRows[ch.KeyID], ch.Language)
			}
			if !seen[ch.KeyID] {
				seen[ch.KeyID] = true
				keys.IDs = append(keys.IDs, ch.KeyID)
			}
		}
		if tallied.n > 0 {
			// The counters are kept per namespace too: one tally per namespace.
			for ns, n := range tallied.byNamespace() {
				keys.Tallied = append(keys.Tallied, model.TalliedKeys{Project: ev.ProjectID, Namespace: ns, Language: tallied.language, Keys: n})
			}
			if cr, _ := ctx.Value(createdKey{}).(*createdRows); cr != nil {
				cr.tallied.Add(int64(tallied.n))
			}
		}
		if len(keys.IDs) == 0 && len(keys.Tallied) == 0 {
			return nil
		}
		return tx.CountKeys(ctx, keys)
	}
}

// createdRows are the keys the write's transaction created in the source language with a
// non-empty value (createKeys): each a visible key with one current row, stored marked so.
// Catalog.write hands it to the operation and the hooks through the context.
type createdRows struct {
	language string
	ids      []int64
	tallied  *atomic.Int64 // the catalogue's count of tallied keys (tests)
	// sourceIDs are the keys createKeys gave a source value, the staged ones too, and
	// syntax the evidence of those values, read from memory: keepSyntax need not read
	// them back (a maximal sync's hundreds of thousands).
	sourceIDs []int64
	syntax    message.SyntaxEvidence
}

type createdKey struct{}

// reset empties cr for another attempt of the write's transaction.
func (cr *createdRows) reset() { cr.ids, cr.sourceIDs, cr.syntax = nil, nil, message.SyntaxEvidence{} }

// addSource records the source values createKeys wrote, ids the keys it gave one, and
// values those of them with syntax in them (hasSyntaxNeedle).
func (cr *createdRows) addSource(ids []int64, values []string) {
	if cr != nil {
		cr.sourceIDs = append(cr.sourceIDs, ids...)
		cr.syntax = cr.syntax.Merge(syntaxEvidence(values))
	}
}

func (cr *createdRows) add(id int64, language string) {
	if cr != nil {
		cr.language, cr.ids = language, append(cr.ids, id)
	}
}

// tally is the set of keys whose counts the counters hook knows without reading them,
// with their namespace's name: a byte of state per candidate key (the staged keys, then
// the keys createdRows made), not a map of them (a maximal sync's hundreds of thousands).
type tally struct {
	language string
	st       *staged
	made     []int64  // createdRows' keys, sorted
	state    []uint8  // per candidate: 0 unseen, tallyOther, else 1 + an index in names
	names    []string // the namespaces of the keys tallied
	n        int      // candidates tallied
}

const tallyOther = 255 // a candidate the write touched another way

// at is id's index among t's candidates, or -1.
func (t *tally) at(id int64) int {
	if t.st != nil {
		if i := t.st.index(id); i >= 0 && t.st.currentRow(id) {
			return i
		}
	}
	if i, ok := slices.BinarySearch(t.made, id); ok {
		return len(t.state) - len(t.made) + i
	}
	return -1
}

// has reports whether the hook knows id's counts.
func (t *tally) has(id int64) bool {
	if t.n == 0 {
		return false
	}
	i := t.at(id)
	return i >= 0 && t.state[i] != 0 && t.state[i] != tallyOther
}

// byNamespace counts the keys tallied in each namespace.
func (t *tally) byNamespace() map[string]int64 {
	out := map[string]int64{}
	for _, s := range t.state {
		if s != 0 && s != tallyOther {
			out[t.names[s-1]]++
		}
	}
	return out
}

// talliedKeys picks the keys of a write whose counts the hook knows without reading them
// (a maximal sync's hundreds of thousands): keys it created in the source language with a
// non-empty value, in its own transaction (createdRows) or in the chunks of a chunked
// write whose snapshot still holds (staged.currentRow), which the write touched no other
// way. Their stored marks already say what they count: a visible key, a current row.
func talliedKeys(ctx context.Context, ev model.WriteEvent) *tally {
	t := &tally{}
	if st, _ := ctx.Value(stagedKey{}).(*staged); st != nil && st.current && st.source && len(st.keyIDs) > 0 {
		t.language, t.st = st.language, st
	}
	if cr, _ := ctx.Value(createdKey{}).(*createdRows); cr != nil && len(cr.ids) > 0 && (t.st == nil || cr.language == t.language) {
		t.language, t.made = cr.language, slices.Clone(cr.ids)
		slices.Sort(t.made)
	}
	if t.st == nil && t.made == nil {
		return t
	}
	n := len(t.made)
	if t.st != nil {
		n += len(t.st.keyIDs)
	}
	t.state = make([]uint8, n)
	for ch := range ev.All() {
		if ch.ProjectID != "" && ch.ProjectID != ev.ProjectID {
			continue
		}
		i := t.at(ch.KeyID)
		if i < 0 || t.state[i] == tallyOther {
			continue
		}
		qualifies := ch.Namespace != "" && ch.Language == t.language &&
			(ch.Kind == model.ChangeKeyCreated || ch.Kind == model.ChangeValueCreated)
		if s := t.state[i]; !qualifies || s != 0 && t.names[s-1] != ch.Namespace {
			// The namespace the counters need is not known without reading the key.
			t.state[i] = tallyOther
			continue
		}
		if t.state[i] == 0 {
			j := slices.Index(t.names, ch.Namespace)
			if j < 0 {
				if len(t.names) == tallyOther-1 {
					t.state[i] = tallyOther // read, as a key of any other namespace
					continue
				}
				t.names, j = append(t.names, ch.Namespace), len(t.names)
			}
			t.state[i] = uint8(j + 1)
		}
	}
	for _, s := range t.state {
		if s != 0 && s != tallyOther {
			t.n++
		}
	}
	return t
}
