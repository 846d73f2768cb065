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
func createKeys(ctx context.Context, tx model.Tx, proj model.Project, ns model.Namespace, language string, keys []string, values writeValues) ([]model.Change, error) {
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
	// Indexes are int32 and their lists made to size: a maximal write's lists of them
	// grown by append were most of what it held beside its values.
	fresh := 0
	for i, k := range keys {
		if ids[i], done[i] = stagedID(ctx, ns.ID, k); !done[i] {
			fresh++
		}
	}
	at := make([]int32, 0, fresh) // the indexes in keys of the keys to insert here
	for i := range keys {
		if !done[i] {
			at = append(at, int32(i))
		}
	}
	// A piece at a time: PostgreSQL's one statement of 300,000 keys held their hashes and
	// text arrays all at once, more than the file's size twice over.
	newKeys := make([]model.NewKey, 0, min(len(at), createPiece))
	for len(at) > 0 {
		piece := at[:min(len(at), createPiece)]
		at = at[len(piece):]
		newKeys = newKeys[:0]
		for _, i := range piece {
			newKeys = append(newKeys, model.NewKey{NamespaceID: ns.ID, Key: keys[i], SourceVersion: version})
		}
		inserted, err := tx.InsertKeys(ctx, newKeys)
		if err != nil {
			return nil, err
		}
		for j, id := range inserted {
			ids[piece[j]] = id
		}
	}
	// The changes name the keys in batches, and the rows are written a piece at a time:
	// a record per new key, kept until the hooks ran, was most of a big import's memory.
	batch := &model.KeyBatch{Keys: keys, IDs: ids}
	changes := []model.Change{{Kind: model.ChangeKeyCreated, Namespace: ns.Key, Language: language, Batch: batch}}
	rows := batch // the keys that get a row: in a target language, those with a value
	if !isSource {
		rows = &model.KeyBatch{}
	}
	order := make([]int32, 0, fresh) // indexes in keys of the rows to insert here; the staged ones are written
	if isSource && created != nil {
		created.ids = slices.Grow(created.ids, fresh)
	}
	for i, k := range keys {
		v, _ := values.value(k)
		if v == "" && !isSource {
			continue
		}
		if rows != batch {
			rows.Keys, rows.IDs = append(rows.Keys, k), append(rows.IDs, ids[i])
		}
		if !done[i] {
			order = append(order, int32(i))
			if isSource && v != "" {
				created.add(ids[i], language)
			}
		}
	}
	if len(rows.Keys) > 0 {
		changes = append(changes, model.Change{Kind: model.ChangeValueCreated, Namespace: ns.Key, Language: language,
			Status: model.StatusApproved, Batch: rows})
	}
	// In key id order the rows append to the (key_id, ...) indexes of translations and
	// history instead of splitting their pages all over: a third less time writing the rows
	// of a worst-case body.
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(ids[a], ids[b]) })
	sv := versionPtr(version)
	writes := make([]model.TranslationWrite, 0, min(len(order), createPiece))
	for len(order) > 0 {
		piece := order[:min(len(order), createPiece)]
		order = order[len(piece):]
		writes = writes[:0]
		for _, i := range piece {
			v, _ := values.value(keys[i])
			writes = append(writes, model.TranslationWrite{KeyID: ids[i], Key: keys[i], Language: language, Value: v,
				Status: model.StatusApproved, SourceVersion: sv, Change: model.ChangeValueCreated})
		}
		if err := tx.WriteTranslations(ctx, writes); err != nil {
			return nil, err
		}
	}
	if isSource && created != nil {
		// Only the values with a piece of syntax are evidence: a list of them all was a
		// string header a key more at the write's peak.
		var some []string
		for _, k := range keys {
			if v, _ := values.value(k); hasSyntaxNeedle(v) {
				some = append(some, v)
			}
		}
		created.addSource(ids, some)
	}
	return changes, nil
}

// createPiece is how many rows createKeys hands the store at a time: a piece's rows, with
// the store's copy of them and its statement's arrays, are held at once (about 600 bytes
// a row on PostgreSQL; 2,048 were three times a 20,000-key JSON file's size).
const createPiece = 512

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
				valueMap{in.TranslationKey: in.SourceValue})
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
