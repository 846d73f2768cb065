package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// keyToucher is a store that can tell other caches which keys a write changed, so that
// cached namespace files are patched rather than rebuilt (storage.tx.TouchKeys).
type keyToucher interface {
	TouchKeys(ctx context.Context, projectID string, namespaces map[string][]string) error
}

// maxTouchedKeys bounds the keys named per namespace; a bigger write rebuilds the
// namespace whole, as cheap by then as reading that many keys.
const maxTouchedKeys = 1000

// CacheHook moves the revision of every project a write changed, in the write's
// transaction, so that every cache of the project, in this process or another, drops what
// the change made old: the keys a write changed when the store can name them, the whole
// project for a change of its settings or languages. A write that changed nothing (AI
// usage alone) keeps the caches.
func CacheHook() WriteHook {
	return func(ctx context.Context, tx model.Tx, ev model.WriteEvent) error {
		if len(ev.Changes) == 0 {
			return nil
		}
		kt, byKey := tx.(keyToucher)
		type touch struct {
			whole bool
			keys  map[string][]string // namespace → keys; nil for the whole namespace
		}
		touched := map[string]*touch{}
		var order []string
		for ch := range ev.All() {
			id := ch.ProjectID
			if id == "" {
				id = ev.ProjectID
			}
			if id == "" {
				continue
			}
			t := touched[id]
			if t == nil {
				t = &touch{keys: map[string][]string{}}
				touched[id] = t
				order = append(order, id)
			}
			switch {
			case t.whole || !byKey:
			case filesOnly(ch.Kind):
			case !keyChange(ch.Kind) || ch.Namespace == "":
				t.whole = true
			case ch.Key == "":
				t.keys[ch.Namespace] = nil
			default:
				keys, seen := t.keys[ch.Namespace]
				if seen && keys == nil {
					break
				}
				if len(keys) >= maxTouchedKeys {
					t.keys[ch.Namespace] = nil
					break
				}
				t.keys[ch.Namespace] = append(keys, ch.Key)
			}
		}
		for _, id := range order {
			t := touched[id]
			var err error
			if t.whole || !byKey {
				err = tx.Touch(ctx, id)
			} else {
				err = kt.TouchKeys(ctx, id, t.keys)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
}

// keyChange reports a change confined to the keys it names: a namespace's file changes at
// most at those keys.
func keyChange(k model.ChangeKind) bool {
	switch k {
	case model.ChangeKeyCreated, model.ChangeKeyHidden, model.ChangeKeyUnhidden,
		model.ChangeValueCreated, model.ChangeValueUpdated, model.ChangeValueRefreshed,
		model.ChangeStatusChanged, model.ChangeFlagChanged, model.ChangeCommentAdded,
		model.ChangeKeysRemoved:
		return true
	}
	return false
}

// filesOnly reports a change that no namespace file shows (terminology; what translation
// files say beyond values, which only the exports of a format show), only the project's
// other cached files.
func filesOnly(k model.ChangeKind) bool {
	switch k {
	case model.ChangeGlossaryAdded, model.ChangeTermAdded, model.ChangeSubstitution,
		model.ChangeGlossaryRemoved, model.ChangeTermRemoved, model.ChangeSubstitutionRemoved,
		model.ChangeFileMeta:
		return true
	}
	return false
}
