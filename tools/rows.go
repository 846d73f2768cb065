package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// RowRef names one language's row of a key.
type RowRef struct {
	KeyRef
	Language string `json:"language" jsonschema:"language code of the row"`
}

// UpdateTranslationIn is update_translation's input.
type UpdateTranslationIn struct {
	RowRef
	Value  string `json:"value" jsonschema:"the new text"`
	Status string `json:"status,omitempty" jsonschema:"needs_review (default) or approved"`
}

// RowOut is a row after a write.
type RowOut struct {
	NamespaceKey   string `json:"namespace_key"`
	TranslationKey string `json:"translation_key"`
	RowState
	UpdatedBy string `json:"updated_by"`
}

func rowOut(in RowRef, w model.TranslationWrite, actor string) RowOut {
	return RowOut{NamespaceKey: in.NamespaceKey, TranslationKey: in.TranslationKey, UpdatedBy: actor,
		RowState: RowState{Language: w.Language, Value: w.Value, Status: w.Status, DoNotTranslate: w.DoNotTranslate, LanguageLocked: w.LanguageLocked, Held: w.Held}}
}

// loadRow resolves a RowRef in proj: the language must be on, the key must exist. The row
// is nil while the language has no value.
func loadRow(ctx context.Context, tx model.Tx, proj model.Project, in RowRef) (model.Namespace, model.KeyRecord, *model.TranslationState, error) {
	if err := proj.RequireLanguage(in.Language); err != nil {
		return model.Namespace{}, model.KeyRecord{}, nil, err
	}
	ns, key, err := findKey(ctx, tx, proj, in.KeyRef)
	if err != nil {
		return model.Namespace{}, model.KeyRecord{}, nil, err
	}
	rows, err := tx.KeyTranslations(ctx, key.ID)
	if err != nil {
		return model.Namespace{}, model.KeyRecord{}, nil, err
	}
	for i := range rows {
		if rows[i].Language == in.Language {
			return ns, key, &rows[i], nil
		}
	}
	return ns, key, nil, nil
}

// UpdateTranslation sets one language's value of a key, attributed to the token's owner.
// It lands as needs_review unless approved is asked for; a language-locked row is refused.
// Changing the source language's value makes the key's translations stale.
func (c *Catalog) UpdateTranslation(ctx context.Context, in UpdateTranslationIn) (RowOut, error) {
	var out RowOut
	err := c.write(ctx, write{op: model.OpUpdateTranslation, project: in.ProjectID, lang: in.Language, more: approving(in.Status),
		validate: func() error {
			var err error
			if in.Status, err = statusOrDefault(in.Status); err != nil {
				return err
			}
			return model.GateValue(in.TranslationKey, in.Value)
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) (ch []model.Change, err error) {
			out, ch, err = c.applyUpdate(ctx, tx, proj, in, nil)
			return ch, err
		}})
	return out, err
}

// applyUpdate is update_translation's change of one row, for every operation that sets a
// value: check, when not nil, sees the current row (nil while missing) and its key first and
// may refuse. The same value over a stale row confirms it (confirms).
func (c *Catalog) applyUpdate(ctx context.Context, tx model.Tx, proj model.Project, in UpdateTranslationIn, check func(cur *model.TranslationState, key model.KeyRecord) error) (RowOut, []model.Change, error) {
	var out RowOut
	ns, key, cur, err := loadRow(ctx, tx, proj, in.RowRef)
	if err != nil {
		return out, nil, err
	}
	if check != nil {
		if err := check(cur, key); err != nil {
			return out, nil, err
		}
	}
	if cur != nil && cur.LanguageLocked {
		return out, nil, model.Errorf(model.CodeConflict, "the %s value of %q is language_locked; clear the flag first", in.Language, in.TranslationKey)
	}
	if key.Key != in.TranslationKey {
		// A suffix key of a plural family: the value is that one form of the family's.
		var curValue string
		if cur != nil {
			curValue = cur.Value
		}
		if in.Value, err = familyFormUpdate(in.Language, in.TranslationKey, in.Value, curValue); err != nil {
			return out, nil, err
		}
	}
	w := model.TranslationWrite{KeyID: key.ID, Key: key.Key, Language: in.Language, Value: in.Value, Status: in.Status,
		SourceVersion: versionPtr(key.SourceVersion), Change: model.ChangeValueCreated}
	if cur != nil {
		w.ID, w.DoNotTranslate, w.Change = cur.ID, cur.DoNotTranslate, model.ChangeValueUpdated
		if cur.Value == in.Value {
			w.Change = model.ChangeStatusChanged
			if cur.Status == in.Status && confirms(in.Language, proj.SourceLanguage, cur, in.Value, key.SourceVersion) {
				w.Change = model.ChangeValueRefreshed
			}
		}
	}
	if in.Language == proj.SourceLanguage && (cur == nil || cur.Value != in.Value) {
		next := key.SourceVersion + 1
		w.SourceVersion = &next
		if err := tx.SourceChanged(ctx, []int64{key.ID}); err != nil {
			return out, nil, err
		}
	}
	if in.Status == model.StatusApproved && in.Language != proj.SourceLanguage {
		// A value held back from readers has a blocking finding: it is never approved.
		held, err := c.heldReason(ctx, tx, proj, key.ID, key.Key, in.Language, in.Value)
		if err != nil {
			return out, nil, err
		}
		if held != "" {
			return out, nil, model.Errorf(model.CodeInvalidTranslation, "the %s value of %q cannot be approved: %s, so readers would see raw syntax; fix it first", in.Language, model.Truncate(in.TranslationKey, 40), held)
		}
	}
	ch, err := writeRow(ctx, tx, ns, &w)
	out = rowOut(in.RowRef, w, model.PrincipalFrom(ctx).Actor())
	return out, ch, err
}

// sourceValue is the key's value in the source language.
func sourceValue(ctx context.Context, tx model.Tx, proj model.Project, key model.KeyRecord) (string, error) {
	rows, err := tx.KeyTranslations(ctx, key.ID)
	if err != nil {
		return "", err
	}
	for _, r := range rows {
		if r.Language == proj.SourceLanguage {
			return r.Value, nil
		}
	}
	return "", model.Errorf(model.CodeNotFound, "%q has no source value to keep verbatim", key.Key)
}

// writeRow stores one row and reports it; w is left as stored (a held-back value is a
// draft: judgeWrites).
func writeRow(ctx context.Context, tx model.Tx, ns model.Namespace, w *model.TranslationWrite) ([]model.Change, error) {
	ws := []model.TranslationWrite{*w}
	if err := tx.WriteTranslations(ctx, ws); err != nil {
		return nil, err
	}
	*w = ws[0]
	return rowChanges(ns.Key, ws), nil
}
