package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// CountsHook keeps the status counters (get_project_status) current in the write's
// transaction: it hands the store every key whose rows a write touched, and the store
// moves the counters by what those rows now add compared with what they added before.
// A source change makes the key's other languages behind, so a key counts whole.
// Writes that touch no key (settings, terminology, a language turned on) change no count:
// counters are kept for every language with rows, enabled or not.
func CountsHook() WriteHook {
	return func(ctx context.Context, tx model.Tx, ev model.WriteEvent) error {
		keys := model.TouchedKeys{New: map[int64]bool{}, NewRows: map[int64][]string{}}
		seen := map[int64]bool{}
		tallied := talliedKeys(ctx, ev)
		for _, ch := range ev.Changes {
			if ch.KeyID == 0 || tallied[ch.KeyID] {
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
		if len(tallied) > 0 {
			st := ctx.Value(stagedKey{}).(*staged)
			keys.Tallied = []model.TalliedKeys{{Project: ev.ProjectID, Language: st.language, Keys: int64(len(tallied))}}
		}
		if len(keys.IDs) == 0 && len(keys.Tallied) == 0 {
			return nil
		}
		return tx.CountKeys(ctx, keys)
	}
}

// talliedKeys picks the keys of a chunked write whose counts the hook knows without
// reading them (a maximal sync's hundreds of thousands): keys its chunks created in the
// source language with a non-empty value (staged.current rows), which the write touched
// no other way. Their stored marks already say what they count: a visible key, a current
// row.
func talliedKeys(ctx context.Context, ev model.WriteEvent) map[int64]bool {
	st, _ := ctx.Value(stagedKey{}).(*staged)
	if st == nil || !st.current || len(st.currentRows) == 0 {
		return nil
	}
	out := make(map[int64]bool, len(st.currentRows))
	other := map[int64]bool{}
	for _, ch := range ev.Changes {
		if !st.currentRows[ch.KeyID] || (ch.ProjectID != "" && ch.ProjectID != ev.ProjectID) {
			continue
		}
		switch {
		case ch.Kind == model.ChangeKeyCreated && ch.Language == st.language:
		case ch.Kind == model.ChangeValueCreated && ch.Language == st.language:
		default:
			other[ch.KeyID] = true
			continue
		}
		out[ch.KeyID] = true
	}
	for id := range other {
		delete(out, id)
	}
	return out
}
