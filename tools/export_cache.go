package tools

import (
	"context"
	"slices"

	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/model"
)

// fileKeys is a namespace's keys in one language as its files show them (FileKeys: with
// their descriptions), sorted bytewise. It is cached per namespace and language, shared by
// every format and status, and patched by the keys a write touched (the store's
// CachedState), so that an export after a write re-reads those keys alone and encodes.
type fileKeys struct {
	keys []model.KeyState
}

// stateStore keeps a builder's state per namespace file and patches it by changed keys
// (storage.DB.CachedState), and plain files the caller builds and coalesces itself
// (CachedFile, StoreFile).
type stateStore interface {
	CachedState(ctx context.Context, projectID, group, name string,
		build func(context.Context) (any, error),
		patch func(ctx context.Context, state any, keys []string) (any, error)) (any, error)
	CachedFile(projectID, name string) (*model.File, uint64)
	StoreFile(projectID, name string, gen uint64, body []byte) *model.File
}

// namespaceKeys returns ns's keys in language from the cache, read whole on the first
// call and patched by the changed keys after.
func (c *Catalog) namespaceKeys(ctx context.Context, st stateStore, tx model.Tx, proj model.Project, ns model.Namespace, language string) (*fileKeys, error) {
	read := func(old *fileKeys, only []string) (*fileKeys, error) {
		keys, err := tx.FileKeys(ctx, ns, proj.SourceLanguage, language, only...)
		if err != nil {
			return nil, err
		}
		if old == nil {
			return &fileKeys{keys: keys}, nil
		}
		return old.patch(only, keys), nil
	}
	v, err := st.CachedState(ctx, proj.ID, ns.Key, "keys\x00"+ns.Key+"\x00"+language,
		func(context.Context) (any, error) { return read(nil, nil) },
		func(_ context.Context, state any, keys []string) (any, error) { return read(state.(*fileKeys), keys) })
	if err != nil {
		return nil, err
	}
	return v.(*fileKeys), nil
}

// patch returns a new fileKeys: f with the keys in changed replaced by fresh (sorted), or
// removed when fresh lacks them. f is shared and stays as it is.
func (f *fileKeys) patch(changed []string, fresh []model.KeyState) *fileKeys {
	changed = slices.Clone(changed)
	slices.Sort(changed)
	changed = slices.Compact(changed)
	out := make([]model.KeyState, 0, len(f.keys)+len(fresh))
	i, j := 0, 0
	for i < len(f.keys) || j < len(fresh) {
		switch {
		case j == len(fresh) || (i < len(f.keys) && f.keys[i].Key < fresh[j].Key):
			if _, gone := slices.BinarySearch(changed, f.keys[i].Key); !gone {
				out = append(out, f.keys[i])
			}
			i++
		default:
			if i < len(f.keys) && f.keys[i].Key == fresh[j].Key {
				i++
			}
			out = append(out, fresh[j])
			j++
		}
	}
	return &fileKeys{keys: out}
}

// readFileKeys reads ns's keys in language, for a store without CachedState.
func readFileKeys(ctx context.Context, tx model.Tx, proj model.Project, ns model.Namespace, language string) (*fileKeys, error) {
	keys, err := tx.FileKeys(ctx, ns, proj.SourceLanguage, language)
	return &fileKeys{keys: keys}, err
}

// entries are the entries of a file of codec in language l that f's keys make (fileEntry),
// in key order.
func (f *fileKeys) entries(codec *formats.Codec, l, source string, approvedOnly bool) []formats.Entry {
	out := make([]formats.Entry, 0, len(f.keys))
	for _, k := range f.keys {
		e, ok := fileEntry(codec, k, l, source, approvedOnly)
		if !ok {
			continue
		}
		e.Comment = k.Description
		out = append(out, e)
	}
	return out
}

// mergeEntries merges two lists of entries in key order: a key in both keeps a's entry,
// with b's values added (a file of several languages, read one language at a time).
func mergeEntries(a, b []formats.Entry) []formats.Entry {
	if len(a) == 0 {
		return b
	}
	out := make([]formats.Entry, 0, max(len(a), len(b)))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i].Key < b[j].Key):
			out = append(out, a[i])
			i++
		case i == len(a) || b[j].Key < a[i].Key:
			out = append(out, b[j])
			j++
		default:
			for lang, v := range b[j].Values {
				a[i].Values[lang] = v
			}
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}
