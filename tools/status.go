package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// SetStatusIn is set_translation_status' input.
type SetStatusIn struct {
	RowRef
	Status string `json:"status" jsonschema:"approved or needs_review"`
}

// SetTranslationStatus moves a row between needs_review and approved; the text is unchanged.
func (c *Catalog) SetTranslationStatus(ctx context.Context, in SetStatusIn) (RowOut, error) {
	var out RowOut
	err := c.write(ctx, write{op: model.OpSetTranslationStatus, project: in.ProjectID, lang: in.Language, more: approving(in.Status),
		validate: func() error { return checkStatus(in.Status) },
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			ns, key, cur, err := loadRow(ctx, tx, proj, in.RowRef)
			if err != nil {
				return nil, err
			}
			if cur == nil {
				return nil, model.Errorf(model.CodeNotFound, "%q has no %s translation", in.TranslationKey, in.Language)
			}
			w := model.TranslationWrite{ID: cur.ID, KeyID: key.ID, Key: key.Key, Language: cur.Language, Value: cur.Value, Status: in.Status,
				DoNotTranslate: cur.DoNotTranslate, LanguageLocked: cur.LanguageLocked, SourceVersion: cur.SourceVersion, Change: model.ChangeStatusChanged}
			out = rowOut(in.RowRef, w, model.PrincipalFrom(ctx).Actor())
			if cur.Status == in.Status {
				out.UpdatedBy = cur.UpdatedBy
				return nil, nil
			}
			return writeRow(ctx, tx, ns, &w)
		}})
	return out, err
}

// checkStatus accepts the two statuses a translation can have.
func checkStatus(s string) error {
	if s != model.StatusApproved && s != model.StatusNeedsReview {
		return model.Errorf(model.CodeInvalid, "status must be needs_review or approved")
	}
	return nil
}

// statusOrDefault is the status rule of writes: a write that names no status lands as
// needs_review; only approved is asked for explicitly.
func statusOrDefault(s string) (string, error) {
	if s == "" {
		return model.StatusNeedsReview, nil
	}
	return s, checkStatus(s)
}
