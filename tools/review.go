package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/model"
)

// AddCommentIn is add_comment's input.
type AddCommentIn struct {
	RowRef
	Body string `json:"body" jsonschema:"the comment text"`
}

// AddComment attaches a comment to one language's row of a key; a signed-in reviewer
// comments on the project's editable languages only (reviewer).
func (c *Catalog) AddComment(ctx context.Context, in AddCommentIn) (model.Comment, error) {
	return c.addComment(ctx, model.OpAddComment, in)
}

// CommentRow is AddComment from the editor (comment_row).
func (c *Catalog) CommentRow(ctx context.Context, in AddCommentIn) (model.Comment, error) {
	return c.addComment(ctx, model.OpCommentRow, in)
}

func (c *Catalog) addComment(ctx context.Context, op model.Operation, in AddCommentIn) (model.Comment, error) {
	var out model.Comment
	if err := c.reviewer(ctx, op, in.ProjectID, in.Language); err != nil {
		return out, err
	}
	var body string
	err := c.write(ctx, write{op: op, project: in.ProjectID, lang: in.Language,
		validate: func() (err error) {
			body, err = checkText("body", in.Body, MaxCommentBytes)
			return err
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			ns, key, _, err := loadRow(ctx, tx, proj, in.RowRef)
			if err != nil {
				return nil, err
			}
			if out, err = tx.AddComment(ctx, key.ID, model.Comment{Language: in.Language, Body: body}); err != nil {
				return nil, err
			}
			return []model.Change{{Kind: model.ChangeCommentAdded, Namespace: ns.Key, Key: key.Key, KeyID: key.ID, Language: in.Language}}, nil
		}})
	return out, err
}

// FlagIn is flag_translation's input.
type FlagIn struct {
	RowRef
	Flag  string `json:"flag" jsonschema:"do_not_translate or language_locked"`
	Value bool   `json:"value" jsonschema:"true sets the flag, false clears it"`
}

// FlagTranslation sets or clears a flag on one language's row. Setting do_not_translate on
// a language with no value yet stores the source text verbatim, which is what the flag
// means. A signed-in reviewer flags the project's editable languages only (reviewer).
func (c *Catalog) FlagTranslation(ctx context.Context, in FlagIn) (RowOut, error) {
	return c.flagTranslation(ctx, model.OpFlagTranslation, in)
}

// FlagRow is FlagTranslation from the editor (flag_row).
func (c *Catalog) FlagRow(ctx context.Context, in FlagIn) (RowOut, error) {
	return c.flagTranslation(ctx, model.OpFlagRow, in)
}

func (c *Catalog) flagTranslation(ctx context.Context, op model.Operation, in FlagIn) (RowOut, error) {
	var out RowOut
	if err := c.reviewer(ctx, op, in.ProjectID, in.Language); err != nil {
		return out, err
	}
	err := c.write(ctx, write{op: op, project: in.ProjectID, lang: in.Language,
		validate: func() error {
			if in.Flag != model.FlagDoNotTranslate && in.Flag != model.FlagLanguageLocked {
				return model.Errorf(model.CodeInvalid, "flag must be do_not_translate or language_locked")
			}
			return nil
		},
		apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
			ns, key, cur, err := loadRow(ctx, tx, proj, in.RowRef)
			if err != nil {
				return nil, err
			}
			var w model.TranslationWrite
			switch {
			case cur != nil:
				w = model.TranslationWrite{ID: cur.ID, KeyID: key.ID, Key: key.Key, Language: cur.Language, Value: cur.Value, Status: cur.Status,
					DoNotTranslate: cur.DoNotTranslate, LanguageLocked: cur.LanguageLocked, SourceVersion: cur.SourceVersion, Change: model.ChangeFlagChanged}
			case in.Flag == model.FlagDoNotTranslate && in.Value:
				src, err := sourceValue(ctx, tx, proj, key)
				if err != nil {
					return nil, err
				}
				w = model.TranslationWrite{KeyID: key.ID, Key: key.Key, Language: in.Language, Value: src, Status: model.StatusNeedsReview,
					SourceVersion: versionPtr(key.SourceVersion), Change: model.ChangeValueCreated}
			default:
				return nil, model.Errorf(model.CodeNotFound, "%q has no %s translation to flag", in.TranslationKey, in.Language)
			}
			if in.Flag == model.FlagDoNotTranslate {
				w.DoNotTranslate = in.Value
			} else {
				w.LanguageLocked = in.Value
			}
			out = rowOut(in.RowRef, w, model.PrincipalFrom(ctx).Actor())
			if cur != nil && cur.DoNotTranslate == w.DoNotTranslate && cur.LanguageLocked == w.LanguageLocked {
				out.UpdatedBy = cur.UpdatedBy
				return nil, nil
			}
			return writeRow(ctx, tx, ns, &w)
		}})
	return out, err
}

// MaxCommentBytes bounds one comment.
const MaxCommentBytes = 10000
