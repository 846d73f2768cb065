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
		for _, ch := range ev.Changes {
			if ch.KeyID == 0 {
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
		if len(keys.IDs) == 0 {
			return nil
		}
		return tx.CountKeys(ctx, keys)
	}
}
