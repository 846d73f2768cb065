package tools

import (
	"context"
	"sort"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
)

// SyncIn is the body of spec endpoint 3.
type SyncIn struct {
	NamespaceRef
	Translations         map[string]string `json:"translations"`
	DynamicKeyPrefixes   []string          `json:"dynamic_key_prefixes"`
	PreserveSourceValues *bool             `json:"preserve_source_values"`
	Partial              bool              `json:"partial"`
	// families, when set, is the request with its plural families gathered (families.go).
	families *familyRequest
	// values, when set, are Translations as an import's sorted pairs (Translations nil).
	values writeValues
}

// entries are in's values.
func (in SyncIn) entries() writeValues {
	if in.values != nil {
		return in.values
	}
	return valueMap(in.Translations)
}

// SyncSummary counts what a sync did.
type SyncSummary struct {
	TotalIncoming      int `json:"total_incoming"`
	Created            int `json:"created"`
	Hidden             int `json:"hidden"`
	Unhidden           int `json:"unhidden"`
	SourceValueChanged int `json:"source_value_changed"`
	Unchanged          int `json:"unchanged"`
	// Filled counts existing keys whose empty row in a target language took the sent value.
	Filled int `json:"filled"`
}

// SyncOut is the 200 body of spec endpoint 3.
type SyncOut struct {
	Summary            SyncSummary `json:"summary"`
	Created            []string    `json:"created"`
	Unhidden           []string    `json:"unhidden"`
	Hidden             []string    `json:"hidden"`
	SourceValueChanged []string    `json:"source_value_changed"`
	Filled             []string    `json:"filled"`
	// Warnings name plural forms sent that the language does not have (not stored).
	Warnings []string `json:"warnings,omitempty"`
}

// Sync declares the full key set of a namespace (spec endpoint 3). Keys sent are created or
// unhidden; in the source language, keys not sent are hidden unless the sync is partial or
// they match a dynamic prefix; nothing is deleted. With preserve_source_values false a
// changed source value is overwritten, which makes its translations stale and clears their
// language locks. In a target language the values become that language's translations of
// the keys that have none yet, and nothing is hidden.
//
// On SQLite a sync that creates thousands of keys commits them in chunks before the sync
// itself, so other projects' writes are not held up: until it finishes, a reader whose
// cache is cold may see some of the new keys. A sync that fails takes them out again.
func (c *Catalog) Sync(ctx context.Context, in SyncIn) (SyncOut, error) {
	out := SyncOut{Created: []string{}, Unhidden: []string{}, Hidden: []string{}, SourceValueChanged: []string{}, Filled: []string{}}
	preserve := in.PreserveSourceValues == nil || *in.PreserveSourceValues
	incoming := len(in.Translations)
	if fam := c.gatherRequest(ctx, in.ProjectID, in.Namespace, in.Language, in.Translations); fam != nil {
		in.Translations, in.families = fam.values, fam
	}
	err := c.write(ctx, write{op: model.OpSync, project: in.ProjectID,
		bulk:     &bulkCreate{namespace: in.Namespace, create: true, language: in.Language, values: valueMap(in.Translations)},
		validate: func() error { return checkEntries(valueMap(in.Translations)) },
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			ns, err := openNamespace(ctx, tx, proj, in.Language, in.Namespace, true)
			if err != nil {
				return nil, err
			}
			return syncNamespace(ctx, tx, proj, ns, in, preserve, &out)
		}})
	if err != nil {
		return SyncOut{}, err
	}
	if fam := in.families; fam != nil {
		out.Created, out.Unhidden = fam.requestNames(out.Created), fam.requestNames(out.Unhidden)
		out.SourceValueChanged, out.Filled = fam.requestNames(out.SourceValueChanged), fam.requestNames(out.Filled)
		out.Warnings = fam.warnings(in.Language)
	}
	out.Summary.TotalIncoming = incoming
	out.Summary.Created = len(out.Created)
	out.Summary.Hidden = len(out.Hidden)
	out.Summary.Unhidden = len(out.Unhidden)
	out.Summary.SourceValueChanged = len(out.SourceValueChanged)
	out.Summary.Filled = len(out.Filled)
	return out, nil
}

// syncNamespace applies a sync to ns and reports it in out. It reads only the keys sent,
// or the whole namespace when they are most of it; a full sync that did not read the
// whole namespace asks the database for the visible keys it did not send, usually none.
func syncNamespace(ctx context.Context, tx model.Tx, proj model.Project, ns model.Namespace, in SyncIn, preserve bool, out *SyncOut) ([]model.Change, error) {
	isSource := in.Language == proj.SourceLanguage
	values := in.entries()
	names := sortedNames(ctx, ns.ID, values)
	keys, all, err := syncKeys(ctx, tx, ns, proj.SourceLanguage, in.Language, names)
	if err != nil {
		return nil, err
	}
	existing := indexKeys(keys)
	// When every key is new (a big first sync or import), the list is names itself, not a
	// copy grown to twice its size.
	allNew := len(existing) == 0 && len(out.Created) == 0 && len(names) > 0
	if allNew {
		out.Created = names
	}
	var unhide, hide, changedIDs, sent []int64
	var writes []model.TranslationWrite
	var changes []model.Change
	for _, k := range names {
		v, _ := values.value(k)
		ks := existing[k]
		if ks == nil {
			if !allNew {
				out.Created = append(out.Created, k)
			}
			continue
		}
		sent = append(sent, ks.ID)
		touched := false
		if ks.Hidden {
			unhide = append(unhide, ks.ID)
			out.Unhidden = append(out.Unhidden, k)
			changes = append(changes, model.Change{Kind: model.ChangeKeyUnhidden, Namespace: ns.Key, Key: k, KeyID: ks.ID})
			touched = true
		}
		switch {
		case isSource && (ks.Source == nil || (!preserve && ks.Source.Value != v)):
			// A key first made in a target language gets its source from the first
			// source sync; otherwise only preserve_source_values=false overwrites.
			next := ks.SourceVersion + 1
			w := model.TranslationWrite{KeyID: ks.ID, Key: k, Language: proj.SourceLanguage, Value: v, Status: model.StatusApproved,
				SourceVersion: &next, Change: model.ChangeValueCreated}
			if ks.Source != nil {
				w.ID, w.DoNotTranslate, w.Change = ks.Source.ID, ks.Source.DoNotTranslate, model.ChangeValueUpdated
			}
			writes = append(writes, w)
			changedIDs = append(changedIDs, ks.ID)
			out.SourceValueChanged = append(out.SourceValueChanged, k)
			touched = true
		case !isSource && ks.Value == nil && v != "":
			writes = append(writes, model.TranslationWrite{KeyID: ks.ID, Key: k, Language: in.Language, Value: v,
				Status: model.StatusApproved, SourceVersion: versionPtr(ks.SourceVersion), Change: model.ChangeValueCreated})
			out.Filled = append(out.Filled, k)
			touched = true
		}
		if !touched {
			out.Summary.Unchanged++
		}
	}
	created, err := createKeys(ctx, tx, proj, ns, in.Language, out.Created, values)
	if err != nil {
		return nil, err
	}
	if in.families != nil && isSource {
		// Suffix keys stored separately before the project read families: their values
		// become the new family's, and the old keys are hidden.
		carried, old, err := carryFamilies(ctx, tx, proj, ns, in.families, created)
		if err != nil {
			return nil, err
		}
		writes = append(writes, carried...)
		for _, k := range old {
			hide = append(hide, k.ID)
			out.Hidden = append(out.Hidden, k.Key)
			changes = append(changes, model.Change{Kind: model.ChangeKeyHidden, Namespace: ns.Key, Key: k.Key, KeyID: k.ID})
		}
	}
	if err := tx.SetHidden(ctx, unhide, false); err != nil {
		return nil, err
	}
	if isSource && !in.Partial {
		absent, err := absentKeys(ctx, tx, ns, keys, all, values, sent, created)
		if err != nil {
			return nil, err
		}
		hidden := make(map[int64]bool, len(hide))
		for _, id := range hide {
			hidden[id] = true
		}
		for _, k := range absent {
			if hasPrefix(k.Key, in.DynamicKeyPrefixes) || hidden[k.ID] {
				continue
			}
			hide = append(hide, k.ID)
			out.Hidden = append(out.Hidden, k.Key)
			changes = append(changes, model.Change{Kind: model.ChangeKeyHidden, Namespace: ns.Key, Key: k.Key, KeyID: k.ID})
		}
	}
	if err := tx.SetHidden(ctx, hide, true); err != nil {
		return nil, err
	}
	if err := tx.SourceChanged(ctx, changedIDs); err != nil {
		return nil, err
	}
	if err := tx.WriteTranslations(ctx, writes); err != nil {
		return nil, err
	}
	if len(changes) == 0 {
		// The usual big sync only creates: a copy of its changes would be 100 bytes a key.
		changes = created
	} else {
		changes = append(changes, created...)
	}
	return append(changes, rowChanges(ns.Key, writes)...), nil
}

// absentKeys returns, ordered by key, the visible keys of ns a full sync did not send:
// picked from keys when they are all of the namespace's (all), else asked of the database.
// sent are the ids of the keys sent that existed, created the sync's new keys.
func absentKeys(ctx context.Context, tx model.Tx, ns model.Namespace, keys []model.KeyState, all bool, values writeValues, sent []int64, created []model.Change) ([]model.KeyRecord, error) {
	if all {
		var out []model.KeyRecord
		for _, k := range keys {
			if _, ok := values.value(k.Key); !ok && !k.Hidden {
				out = append(out, model.KeyRecord{ID: k.ID, NamespaceID: ns.ID, Key: k.Key})
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
		return out, nil
	}
	// Every key sent is visible now: the ones left visible are the ones to hide.
	for ch := range model.Expand(created) {
		if ch.Kind == model.ChangeKeyCreated {
			sent = append(sent, ch.KeyID)
		}
	}
	return tx.VisibleKeysExcept(ctx, ns, sent)
}

func hasPrefix(k string, prefixes []string) bool {
	for _, p := range prefixes {
		if p != "" && strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}
