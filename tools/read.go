package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// currentStore answers a patched file's cache hit without its name built or the functions
// that would build it (storage.DB.CurrentPatch): the name is kind\x00group\x00sub.
type currentStore interface {
	CurrentPatch(projectID, group, kind, sub string) *model.File
}

// NamespaceRef names one namespace in one language of a project.
type NamespaceRef struct {
	ProjectID string `json:"project_id"`
	Language  string `json:"language"`
	Namespace string `json:"namespace_key"`
}

// patchingStore caches a namespace's file so that a write of a few keys is applied by
// re-reading those keys alone (storage.DB.CachedPatch).
type patchingStore interface {
	CachedPatch(ctx context.Context, projectID, group, name string,
		build func(context.Context) (any, []byte, error),
		patch func(ctx context.Context, state any, keys []string) (any, []byte, error)) (*model.File, error)
}

// ReadNamespace returns the flat map of one namespace in one language (spec endpoint 1),
// pre-serialized with its ETag. Hidden keys are not served; in a target language every key
// with a value is, approved or draft, and keys without one are absent so clients fall back.
// A value held back because it would break an app (valueSyntax) is not: the row's last value
// that passed is served in its place, or the key is absent.
func (c *Catalog) ReadNamespace(ctx context.Context, ref NamespaceRef) (*model.File, error) {
	if err := c.gate(ctx, model.OpReadNamespace, on{project: ref.ProjectID}); err != nil {
		return nil, err
	}
	if checkNamespace(ref.Namespace) != nil {
		return nil, errNoNamespace(ref.Namespace)
	}
	if cs, ok := c.store.(currentStore); ok {
		if f := cs.CurrentPatch(ref.ProjectID, ref.Namespace, "ns", ref.Language); f != nil {
			return f, nil
		}
	}
	name := "ns\x00" + ref.Namespace + "\x00" + ref.Language
	ps, ok := c.store.(patchingStore)
	if !ok {
		return c.store.Cached(ctx, ref.ProjectID, name, func(ctx context.Context) ([]byte, error) {
			_, body, err := c.buildFlat(ctx, ref, nil, nil)
			return body, err
		})
	}
	return ps.CachedPatch(ctx, ref.ProjectID, ref.Namespace, name,
		func(ctx context.Context) (any, []byte, error) {
			f, body, err := c.buildFlat(ctx, ref, nil, nil)
			return f, body, err
		},
		func(ctx context.Context, state any, keys []string) (any, []byte, error) {
			f, body, err := c.buildFlat(ctx, ref, state.(*flatFile), keys)
			return f, body, err
		})
}

// buildFlat reads the namespace whole, or with old only the keys named, and renders it.
func (c *Catalog) buildFlat(ctx context.Context, ref NamespaceRef, old *flatFile, only []string) (*flatFile, []byte, error) {
	var f *flatFile
	err := c.store.View(ctx, func(tx model.Tx) error {
		proj, err := tx.Project(ctx, ref.ProjectID)
		if err != nil {
			return err
		}
		if err := proj.RequireLanguage(ref.Language); err != nil {
			return err
		}
		ns, err := tx.Namespace(ctx, ref.ProjectID, ref.Namespace)
		if err != nil {
			return err
		}
		// A plural family is served as the language's suffix keys (families.go); a patch
		// then renews every name a changed key may have been served under.
		families := c.ProjectSyntax(ctx, tx, proj).Has(message.I18next)
		read := only
		if families && old != nil && len(only) > 0 {
			// Every suffix name is renewed; of those, only the ones the file serves now
			// can be keys of their own with a value, so only they are read again.
			changed := make([]string, 0, 13*len(only))
			read = slices.Clone(only)
			for _, k := range only {
				for _, n := range familyNames(k) {
					changed = append(changed, n)
					if _, served := slices.BinarySearch(old.keys, n); served && n != k {
						read = append(read, n)
					}
				}
			}
			sort.Strings(read)
			read = slices.Compact(read)
			only = changed
		}
		var keys []model.KeyState
		if old == nil || len(read) > 0 {
			if keys, err = tx.Keys(ctx, ns, proj.SourceLanguage, ref.Language, read...); err != nil {
				return err
			}
		}
		rows := make([]flatRow, 0, len(keys))
		expanded := false
		add := func(key, value string) { rows = append(rows, flatRow{key, value}) }
		for _, k := range keys {
			if k.Hidden || k.Value == nil {
				continue
			}
			// A held-back value is never served: its row's last value that passed is.
			v, ok := k.Value.Served()
			if !ok {
				continue
			}
			if families && k.Source != nil && strings.HasPrefix(v, "{") {
				n := len(rows)
				expandRow(ref.Language, k.Key, k.Source.Value, v, add)
				expanded = expanded || len(rows) != n+1 || rows[n].key != k.Key
				continue
			}
			add(k.Key, v)
		}
		if expanded {
			sort.SliceStable(rows, func(i, j int) bool { return rows[i].key < rows[j].key })
			rows = uniqueRows(rows)
		}
		if old == nil {
			f, err = newFlatFile(rows)
		} else {
			f, err = old.patch(only, rows)
		}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return f, f.body, nil
}

type flatRow struct{ key, value string }

// uniqueRows keeps the first of rows (sorted) with one key: a plain key beside a family
// that serves the same name (files_one beside files, a key left from before the family)
// is served once, the key's own row first.
func uniqueRows(rows []flatRow) []flatRow {
	return slices.CompactFunc(rows, func(a, b flatRow) bool { return a.key == b.key })
}

// flatFile is a served flat map with the place of each key in it, so that a patch copies
// the unchanged entries' bytes instead of encoding 50,000 of them again.
type flatFile struct {
	body []byte
	keys []string // sorted bytewise, as encoding/json sorts a map's keys
	ends []int    // entry i is body[start(i):ends[i]]
}

func (f *flatFile) entry(i int) []byte {
	start := 1 // after '{'
	if i > 0 {
		start = f.ends[i-1] + 1 // after ','
	}
	return f.body[start:f.ends[i]]
}

// newFlatFile renders rows (sorted by key, keys unique) as marshalFlat renders the map.
func newFlatFile(rows []flatRow) (*flatFile, error) {
	w := newFlatWriter(len(rows), 0)
	for _, r := range rows {
		if err := w.add(r.key, r.value); err != nil {
			return nil, err
		}
	}
	return w.done(), nil
}

// patch returns the file with the keys in changed set to their rows, or removed when they
// have none.
func (f *flatFile) patch(changed []string, rows []flatRow) (*flatFile, error) {
	changed = slices.Clone(changed)
	sort.Strings(changed)
	changed = slices.Compact(changed)
	values := make(map[string]string, len(rows))
	for _, r := range rows {
		values[r.key] = r.value
	}
	w := newFlatWriter(len(f.keys)+len(rows), len(f.body))
	i, j := 0, 0
	for i < len(f.keys) || j < len(changed) {
		switch {
		case j == len(changed) || (i < len(f.keys) && f.keys[i] < changed[j]):
			w.copy(f.keys[i], f.entry(i))
			i++
		default:
			k := changed[j]
			if i < len(f.keys) && f.keys[i] == k {
				i++
			}
			if v, ok := values[k]; ok {
				if err := w.add(k, v); err != nil {
					return nil, err
				}
			}
			j++
		}
	}
	return w.done(), nil
}

type flatWriter struct {
	f   *flatFile
	buf bytes.Buffer // scratch for encoding/json, whose string escaping the body must match
	enc *json.Encoder
}

func newFlatWriter(n, size int) *flatWriter {
	w := &flatWriter{f: &flatFile{body: make([]byte, 0, size+2), keys: make([]string, 0, n), ends: make([]int, 0, n)}}
	w.enc = json.NewEncoder(&w.buf)
	w.enc.SetEscapeHTML(false)
	w.f.body = append(w.f.body, '{')
	return w
}

func (w *flatWriter) sep() {
	if len(w.f.keys) > 0 {
		w.f.body = append(w.f.body, ',')
	}
}

func (w *flatWriter) add(key, value string) error {
	w.buf.Reset()
	if err := w.enc.Encode(key); err != nil {
		return err
	}
	w.buf.Truncate(w.buf.Len() - 1) // Encode's newline
	w.buf.WriteByte(':')
	if err := w.enc.Encode(value); err != nil {
		return err
	}
	w.buf.Truncate(w.buf.Len() - 1)
	w.copy(key, w.buf.Bytes())
	return nil
}

func (w *flatWriter) copy(key string, entry []byte) {
	w.sep()
	w.f.body = append(w.f.body, entry...)
	w.f.keys = append(w.f.keys, key)
	w.f.ends = append(w.f.ends, len(w.f.body))
}

func (w *flatWriter) done() *flatFile {
	w.f.body = append(w.f.body, '}')
	return w.f
}

// marshalFlat renders a flat map with sorted keys and without HTML escaping: values carry
// markup, and clients read them verbatim.
func marshalFlat(m map[string]string) ([]byte, error) {
	b, err := encodeJSON(m, false)
	return bytes.TrimRight(b, "\n"), err
}
