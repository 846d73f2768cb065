package tools

import (
	"cmp"
	"context"
	"slices"

	"github.com/lokal-dev/lokal/tools/model"
)

// KeyRef names one key of a namespace.
type KeyRef struct {
	ProjectArg
	NamespaceKey   string `json:"namespace_key" jsonschema:"the namespace, e.g. common"`
	TranslationKey string `json:"translation_key" jsonschema:"the dot-separated key, e.g. checkout.pay_button"`
}

// openNamespace checks the language (when given) and returns the namespace of proj; create
// makes a missing namespace instead of answering not_found.
func openNamespace(ctx context.Context, tx model.Tx, proj model.Project, language, name string, create bool) (model.Namespace, error) {
	if language != "" {
		if err := proj.RequireLanguage(language); err != nil {
			return model.Namespace{}, err
		}
	}
	if !create {
		return findNamespace(ctx, tx, proj, name)
	}
	if err := checkNamespace(name); err != nil {
		return model.Namespace{}, err
	}
	ns, err := tx.Namespace(ctx, proj.ID, name)
	if model.IsNotFound(err) {
		return tx.CreateNamespace(ctx, proj.ID, name)
	}
	return ns, err
}

// findNamespace looks a namespace up by a name a caller sent: a name no namespace can have
// is not found without asking the database.
func findNamespace(ctx context.Context, tx model.Tx, proj model.Project, name string) (model.Namespace, error) {
	if checkNamespace(name) != nil {
		return model.Namespace{}, errNoNamespace(name)
	}
	ns, err := tx.Namespace(ctx, proj.ID, name)
	if model.IsNotFound(err) {
		return model.Namespace{}, errNoNamespace(name)
	}
	return ns, err
}

// findKey resolves a KeyRef in proj.
func findKey(ctx context.Context, tx model.Tx, proj model.Project, in KeyRef) (model.Namespace, model.KeyRecord, error) {
	if in.NamespaceKey == "" || in.TranslationKey == "" {
		return model.Namespace{}, model.KeyRecord{}, model.Errorf(model.CodeInvalid, "namespace_key and translation_key are required")
	}
	ns, err := findNamespace(ctx, tx, proj, in.NamespaceKey)
	if err != nil {
		return model.Namespace{}, model.KeyRecord{}, err
	}
	if checkKey(in.TranslationKey) != nil {
		return model.Namespace{}, model.KeyRecord{}, model.Errorf(model.CodeNotFound, "key %q not found", model.Truncate(in.TranslationKey, 40))
	}
	key, err := tx.KeyByName(ctx, ns, in.TranslationKey)
	if model.IsNotFound(err) {
		// files.count_few names a form of the plural family files.count (families.go).
		if fk, ok, ferr := familyKeyOf(ctx, tx, proj, ns, in.TranslationKey); ferr != nil || ok {
			return ns, fk, ferr
		}
	}
	return ns, key, err
}

// loadKey resolves a KeyRef for a read.
func (c *Catalog) loadKey(ctx context.Context, tx model.Tx, in KeyRef) (model.Project, model.Namespace, model.KeyRecord, error) {
	proj, err := c.loadProject(ctx, tx, in.ProjectID)
	if err != nil {
		return model.Project{}, model.Namespace{}, model.KeyRecord{}, err
	}
	ns, key, err := findKey(ctx, tx, proj, in)
	return proj, ns, key, err
}

func versionPtr(v int64) *int64 {
	if v == 0 {
		return nil
	}
	return &v
}

// createKeys inserts keys with their values in language: in the source language the value
// is the source (version 1); in a target language it is that language's translation and the
// key has no source yet. Keys the chunks of a chunked write already inserted (bulk.go) are
// only reported, exactly as if they were inserted here.
func createKeys(ctx context.Context, tx model.Tx, proj model.Project, ns model.Namespace, language string, keys []string, values map[string]string) ([]model.Change, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	isSource := language == proj.SourceLanguage
	var version int64
	if isSource {
		version = 1
	}
	ids := make([]int64, len(keys))
	done := make([]bool, len(keys)) // staged: rows written by a chunk
	created, _ := ctx.Value(createdKey{}).(*createdRows)
	newKeys := make([]model.NewKey, 0, len(keys))
	var at []int // the index in keys of each of newKeys
	for i, k := range keys {
		if ids[i], done[i] = stagedID(ctx, ns.ID, k); done[i] {
			continue
		}
		newKeys = append(newKeys, model.NewKey{NamespaceID: ns.ID, Key: k, SourceVersion: version})
		at = append(at, i)
	}
	if len(newKeys) > 0 {
		inserted, err := tx.InsertKeys(ctx, newKeys)
		if err != nil {
			return nil, err
		}
		for j, id := range inserted {
			ids[at[j]] = id
		}
	}
	changes := make([]model.Change, 0, 2*len(keys))
	writes := make([]model.TranslationWrite, 0, len(keys))
	var sourceValues []string
	if isSource {
		sourceValues = make([]string, len(keys))
	}
	n := 0 // writes[:n] are the rows to insert here, the staged ones follow
	for i, k := range keys {
		changes = append(changes, model.Change{Kind: model.ChangeKeyCreated, Namespace: ns.Key, Key: k, KeyID: ids[i], Language: language})
		v := values[k]
		if isSource {
			sourceValues[i] = v
		}
		if v == "" && !isSource {
			continue
		}
		writes = append(writes, model.TranslationWrite{KeyID: ids[i], Key: k, Language: language, Value: v, Status: model.StatusApproved,
			SourceVersion: versionPtr(version), Change: model.ChangeValueCreated})
		if !done[i] {
			writes[n], writes[len(writes)-1] = writes[len(writes)-1], writes[n]
			n++
			if isSource && v != "" {
				created.add(ids[i], language)
			}
		}
	}
	// In key id order the rows append to the (key_id, ...) indexes of translations and
	// history instead of splitting their pages all over: a third less time writing the rows
	// of a worst-case body.
	slices.SortFunc(writes[:n], func(a, b model.TranslationWrite) int { return cmp.Compare(a.KeyID, b.KeyID) })
	if err := tx.WriteTranslations(ctx, writes[:n]); err != nil {
		return nil, err
	}
	if isSource {
		created.addSource(ids, sourceValues)
	}
	return append(changes, rowChanges(ns.Key, writes)...), nil
}

// AddKeyIn is add_key's input.
type AddKeyIn struct {
	KeyRef
	SourceValue string `json:"source_value" jsonschema:"the text in the source language"`
}

// KeyOut names a key that was written.
type KeyOut struct {
	NamespaceKey   string `json:"namespace_key"`
	TranslationKey string `json:"translation_key"`
}

// AddKey creates one key with its source value; an existing key is a conflict.
func (c *Catalog) AddKey(ctx context.Context, in AddKeyIn) (KeyOut, error) {
	out := KeyOut{NamespaceKey: in.NamespaceKey, TranslationKey: in.TranslationKey}
	return out, c.write(ctx, write{op: model.OpAddKey, project: in.ProjectID,
		validate: func() error {
			if err := checkKey(in.TranslationKey); err != nil {
				return err
			}
			return model.GateValue(in.TranslationKey, in.SourceValue)
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			ns, err := openNamespace(ctx, tx, proj, "", in.NamespaceKey, true)
			if err != nil {
				return nil, err
			}
			if _, err := tx.KeyByName(ctx, ns, in.TranslationKey); err == nil {
				return nil, model.Errorf(model.CodeConflict, "key %q already exists in namespace %q", in.TranslationKey, in.NamespaceKey)
			} else if !model.IsNotFound(err) {
				return nil, err
			}
			return createKeys(ctx, tx, proj, ns, proj.SourceLanguage, []string{in.TranslationKey},
				map[string]string{in.TranslationKey: in.SourceValue})
		}})
}

// indexKeys maps key names to their states.
func indexKeys(keys []model.KeyState) map[string]*model.KeyState {
	m := make(map[string]*model.KeyState, len(keys))
	for i := range keys {
		m[keys[i].Key] = &keys[i]
	}
	return m
}
