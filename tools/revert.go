package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// RevertRowIn puts back the value of one entry of a row's history; Version is the row's
// version the reviewer saw, as for SaveRow.
type RevertRowIn struct {
	RowRef
	HistoryID int64
	Version   string
}

// revertDepth is how far back in a row's history a revert reaches: the editor shows the
// newest 50 entries.
const revertDepth = 200

// RevertRow is update_translation with a value from the row's history, under the editor's
// rules (editable languages, the version check, locked rows refused): one write through the
// write path, which every hook sees as a value change, recorded in the history as
// value_reverted. The value comes back against the source text it was written for, so it
// is stale when the source changed since; it comes back approved only when it was
// approved, has no QA findings now and the reviewer may approve, needs_review otherwise.
func (c *Catalog) RevertRow(ctx context.Context, in RevertRowIn) (ReviewItem, error) {
	var out ReviewItem
	err := c.write(ctx, write{op: model.OpRevertRow, project: in.ProjectID, lang: in.Language,
		validate: func() error {
			if in.Version == "" {
				return model.Errorf(model.CodeInvalid, "version is required")
			}
			if in.HistoryID <= 0 {
				return model.Errorf(model.CodeInvalid, "history entry is required")
			}
			return nil
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			if err := canEdit(ctx, proj, in.Language); err != nil {
				return nil, err
			}
			if in.Language == proj.SourceLanguage {
				return nil, model.Errorf(model.CodeInvalid, "the editor reviews translations; change source texts where they are written")
			}
			ns, key, cur, err := loadRow(ctx, tx, proj, in.RowRef)
			if err != nil {
				return nil, err
			}
			if rowVersion(cur) != in.Version {
				return nil, errChanged(ctx, tx, proj, in.TranslationKey, cur)
			}
			if cur != nil && cur.LanguageLocked {
				return nil, model.Errorf(model.CodeConflict, "the %s value of %q is language_locked; clear the flag first", in.Language, in.TranslationKey)
			}
			hist, err := tx.RowHistory(ctx, key.ID, in.Language, revertDepth)
			if err != nil {
				return nil, err
			}
			var e *model.HistoryEntry
			for i := range hist {
				if hist[i].ID == in.HistoryID {
					e = &hist[i]
				}
			}
			switch {
			case e == nil:
				return nil, model.Errorf(model.CodeNotFound, "%q has no such history entry in %s", in.TranslationKey, in.Language)
			case e.Value == "":
				return nil, model.Errorf(model.CodeInvalid, "that entry has no text; clear the row instead")
			case cur != nil && cur.Value == e.Value:
				return nil, model.Errorf(model.CodeInvalid, "%q already has that text", in.TranslationKey)
			}
			if err := model.GateValue(in.TranslationKey, e.Value); err != nil {
				return nil, err
			}
			status := model.StatusNeedsReview
			r, err := c.rightsIn(ctx, tx, proj, in.Language)
			if err != nil {
				return nil, err
			}
			if e.Status == model.StatusApproved && r&model.RightApprove != 0 {
				src, err := sourceValue(ctx, tx, proj, key)
				if err != nil && !model.IsNotFound(err) {
					return nil, err
				}
				t, err := c.loadTerms(ctx, tx, proj)
				if err != nil {
					return nil, err
				}
				if len(checkRow(proj, t, ns.Key, key.Key, in.Language, src, e.Value, cur != nil && cur.DoNotTranslate)) == 0 {
					status = model.StatusApproved
				}
			}
			sv := e.SourceVersion
			if sv == nil {
				sv = versionPtr(key.SourceVersion)
			}
			w := model.TranslationWrite{KeyID: key.ID, Key: key.Key, Language: in.Language, Value: e.Value, Status: status,
				SourceVersion: sv, Change: model.ChangeValueCreated, HistoryChange: model.HistoryReverted}
			if cur != nil {
				w.ID, w.DoNotTranslate, w.Change = cur.ID, cur.DoNotTranslate, model.ChangeValueUpdated
			}
			return writeRow(ctx, tx, ns, &w)
		}})
	if err != nil {
		return out, err
	}
	d, err := c.RowDetails(ctx, in.RowRef)
	return d.Item, err
}
