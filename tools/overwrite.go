package tools

import (
	"context"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// OverwriteIn is the body of spec endpoint 4.
type OverwriteIn struct {
	NamespaceRef
	Translations map[string]string `json:"translations"`
	// status is the status of values set in a target language ("" approved: the team's
	// own files); review names keys stored needs_review whatever it says (an import's
	// entries that the file marks not final).
	status string
	review map[string]bool
	// fresh names keys this same write created, in the source language and with no row in
	// any other: an import's overwrite knows them without reading them back.
	fresh map[string]int64
	// families, when set, is the request with its plural families gathered (families.go):
	// a family's forms sent replace those forms of the stored value, the others are kept.
	families *familyRequest
}

// OverwriteSummary counts what an overwrite did.
type OverwriteSummary struct {
	TotalIncoming int `json:"total_incoming"`
	Updated       int `json:"updated"`
	Refreshed     int `json:"refreshed"`
	Unchanged     int `json:"unchanged"`
	NotFound      int `json:"not_found"`
}

// OverwriteOut is the 200 body of spec endpoint 4.
type OverwriteOut struct {
	Summary   OverwriteSummary `json:"summary"`
	Updated   []string         `json:"updated"`
	Refreshed []string         `json:"refreshed"`
	Unchanged []string         `json:"unchanged"`
	NotFound  []string         `json:"not_found"`
	// Warnings name plural forms sent that the language does not have (not stored).
	Warnings []string `json:"warnings,omitempty"`
	// HeldBack are the values stored as drafts that readers are not served (valueSyntax).
	HeldBack []HeldKey `json:"held_back,omitempty"`
}

// HeldKey is a key whose value was stored but is held back from readers, and why.
type HeldKey struct {
	Key    string `json:"key"`
	Reason string `json:"reason"`
}

// Overwrite force-sets values of existing keys in one language (spec endpoint 4). A value
// sent unchanged while the source moved is stamped current (refreshed). Overwritten target
// values are approved: they are the team's own files. Unknown keys are reported, never made.
// A language_locked row keeps its value and is reported unchanged.
func (c *Catalog) Overwrite(ctx context.Context, in OverwriteIn) (OverwriteOut, error) {
	out := OverwriteOut{Updated: []string{}, Refreshed: []string{}, Unchanged: []string{}, NotFound: []string{}}
	incoming := len(in.Translations)
	if fam := c.gatherRequest(ctx, in.ProjectID, in.Namespace, in.Language, in.Translations); fam != nil {
		in.Translations, in.families = fam.values, fam
	}
	err := c.write(ctx, write{op: model.OpOverwrite, project: in.ProjectID, lang: in.Language,
		validate: func() error { return checkEntries(valueMap(in.Translations)) },
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			ns, err := openNamespace(ctx, tx, proj, in.Language, in.Namespace, false)
			if err != nil {
				return nil, err
			}
			return overwriteNamespace(ctx, tx, proj, ns, in, &out)
		}})
	if err != nil {
		return OverwriteOut{}, err
	}
	if fam := in.families; fam != nil {
		out.Updated, out.Refreshed = fam.requestNames(out.Updated), fam.requestNames(out.Refreshed)
		out.Unchanged, out.NotFound = fam.requestNames(out.Unchanged), fam.requestNames(out.NotFound)
		out.Warnings = fam.warnings(in.Language)
		var held []HeldKey
		for _, h := range out.HeldBack {
			for _, n := range fam.requestNames([]string{h.Key}) {
				held = append(held, HeldKey{Key: n, Reason: h.Reason})
			}
		}
		out.HeldBack = held
	}
	slices.SortFunc(out.HeldBack, func(a, b HeldKey) int { return strings.Compare(a.Key, b.Key) })
	out.Summary = OverwriteSummary{TotalIncoming: incoming, Updated: len(out.Updated),
		Refreshed: len(out.Refreshed), Unchanged: len(out.Unchanged), NotFound: len(out.NotFound)}
	return out, nil
}

// overwriteNamespace applies an overwrite to ns and reports it in out.
func overwriteNamespace(ctx context.Context, tx model.Tx, proj model.Project, ns model.Namespace, in OverwriteIn, out *OverwriteOut) ([]model.Change, error) {
	isSource := in.Language == proj.SourceLanguage
	names := sortedKeys(in.Translations)
	var keys []model.KeyState
	read := names
	if len(in.fresh) > 0 && !isSource {
		read = make([]string, 0, len(names))
		for _, k := range names {
			if id, ok := in.fresh[k]; ok {
				keys = append(keys, model.KeyState{ID: id, Key: k, SourceVersion: 1})
			} else {
				read = append(read, k)
			}
		}
	}
	if len(read) > 0 {
		// Only the keys sent: an overwrite costs what it names, not what the namespace holds.
		more, err := tx.Keys(ctx, ns, proj.SourceLanguage, in.Language, read...)
		if err != nil {
			return nil, err
		}
		keys = append(keys, more...)
	}
	existing := indexKeys(keys)
	var writes []model.TranslationWrite
	var changedIDs []int64
	for _, k := range names {
		v := in.Translations[k]
		ks := existing[k]
		if ks == nil {
			out.NotFound = append(out.NotFound, k)
			continue
		}
		cur := ks.Value
		if cur != nil && in.families.isFamily(k) {
			v = message.MergeFamily(cur.Value, v)
		}
		if cur != nil && cur.LanguageLocked && cur.Value != v {
			// A locked value must not be overwritten, not even by the team's files: it
			// stays as it is until someone clears the lock.
			out.Unchanged = append(out.Unchanged, k)
			continue
		}
		if isSource {
			if cur != nil && cur.Value == v {
				out.Unchanged = append(out.Unchanged, k)
				continue
			}
			next := ks.SourceVersion + 1
			w := model.TranslationWrite{KeyID: ks.ID, Key: k, Language: in.Language, Value: v, Status: model.StatusApproved, SourceVersion: &next, Change: model.ChangeValueCreated}
			if cur != nil {
				w.ID, w.DoNotTranslate, w.Change = cur.ID, cur.DoNotTranslate, model.ChangeValueUpdated
			}
			writes = append(writes, w)
			changedIDs = append(changedIDs, ks.ID)
			out.Updated = append(out.Updated, k)
			continue
		}
		w := model.TranslationWrite{KeyID: ks.ID, Key: k, Language: in.Language, Value: v, Status: in.statusOf(k),
			SourceVersion: versionPtr(ks.SourceVersion), Change: model.ChangeValueUpdated}
		switch {
		case cur == nil:
			w.Change = model.ChangeValueCreated
			out.Updated = append(out.Updated, k)
		case cur.Value != v:
			w.ID, w.DoNotTranslate, w.LanguageLocked = cur.ID, cur.DoNotTranslate, cur.LanguageLocked
			out.Updated = append(out.Updated, k)
		case confirms(in.Language, proj.SourceLanguage, cur, v, ks.SourceVersion) && !in.review[k]:
			// A file that marks the value not final (PO fuzzy) has not checked it against
			// the new source: it stays stale, so that pull then push changes nothing.
			w.ID, w.Status, w.DoNotTranslate, w.LanguageLocked = cur.ID, cur.Status, cur.DoNotTranslate, cur.LanguageLocked
			w.Change = model.ChangeValueRefreshed
			out.Refreshed = append(out.Refreshed, k)
		default:
			out.Unchanged = append(out.Unchanged, k)
			continue
		}
		writes = append(writes, w)
	}
	if err := tx.SourceChanged(ctx, changedIDs); err != nil {
		return nil, err
	}
	if err := tx.WriteTranslations(ctx, writes); err != nil {
		return nil, err
	}
	for _, w := range writes {
		if w.Held != "" {
			out.HeldBack = append(out.HeldBack, HeldKey{Key: w.Key, Reason: w.Held})
		}
	}
	return rowChanges(ns.Key, writes), nil
}

// statusOf is the status a target-language value of key k is stored with.
func (in OverwriteIn) statusOf(k string) string {
	if in.review[k] {
		return model.StatusNeedsReview
	}
	if in.status == "" {
		return model.StatusApproved
	}
	return in.status
}
