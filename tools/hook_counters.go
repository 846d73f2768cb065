package tools

import (
	"context"
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
			if _, ok := tallied.ids[ch.KeyID]; ch.KeyID == 0 || ok {
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
		if len(tallied.ids) > 0 {
			// The counters are kept per namespace too: one tally per namespace.
			byNamespace := map[string]int64{}
			for _, ns := range tallied.ids {
				byNamespace[ns]++
			}
			for ns, n := range byNamespace {
				keys.Tallied = append(keys.Tallied, model.TalliedKeys{Project: ev.ProjectID, Namespace: ns, Language: tallied.language, Keys: n})
			}
			if cr, _ := ctx.Value(createdKey{}).(*createdRows); cr != nil {
				cr.tallied.Add(int64(len(tallied.ids)))
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

// addSource records source values createKeys wrote: ids[i] got values[i].
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
// with their namespace's name.
type tally struct {
	language string
	ids      map[int64]string
}

// talliedKeys picks the keys of a write whose counts the hook knows without reading them
// (a maximal sync's hundreds of thousands): keys it created in the source language with a
// non-empty value, in its own transaction (createdRows) or in the chunks of a chunked
// write whose snapshot still holds (staged.currentRow), which the write touched no other
// way. Their stored marks already say what they count: a visible key, a current row.
func talliedKeys(ctx context.Context, ev model.WriteEvent) tally {
	var in func(id int64) bool
	var language string
	if st, _ := ctx.Value(stagedKey{}).(*staged); st != nil && st.current && st.source && len(st.keyIDs) > 0 {
		language, in = st.language, st.currentRow
	}
	if cr, _ := ctx.Value(createdKey{}).(*createdRows); cr != nil && len(cr.ids) > 0 && (in == nil || cr.language == language) {
		made := make(map[int64]bool, len(cr.ids))
		for _, id := range cr.ids {
			made[id] = true
		}
		prev := in
		language, in = cr.language, func(id int64) bool { return made[id] || (prev != nil && prev(id)) }
	}
	if in == nil {
		return tally{}
	}
	out := map[int64]string{}
	other := map[int64]bool{}
	for ch := range ev.All() {
		if !in(ch.KeyID) || (ch.ProjectID != "" && ch.ProjectID != ev.ProjectID) {
			continue
		}
		switch {
		case ch.Namespace == "" || out[ch.KeyID] != "" && out[ch.KeyID] != ch.Namespace:
			// The namespace the counters need is not known without reading the key.
			other[ch.KeyID] = true
			continue
		case ch.Kind == model.ChangeKeyCreated && ch.Language == language:
		case ch.Kind == model.ChangeValueCreated && ch.Language == language:
		default:
			other[ch.KeyID] = true
			continue
		}
		out[ch.KeyID] = ch.Namespace
	}
	for id := range other {
		delete(out, id)
	}
	return tally{language: language, ids: out}
}
