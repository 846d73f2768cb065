package tools

import (
	"context"

	"github.com/lokal-dev/lokal/tools/message"

	"github.com/lokal-dev/lokal/tools/model"
)

// SuggestAI asks the project's AI for one row, the way ai_translate_keys would (the same
// rules, glossary, syntax and budget), and returns the answer without storing it: the
// reviewer accepts it into the box and saves it like any typed text. Without an AI
// provider the error is CodeNotConfigured; a refused or failed answer is
// CodeUnprocessable with the model's reason.
func (c *Catalog) SuggestAI(ctx context.Context, in RowRef) (string, error) {
	if err := c.editable(ctx, model.OpSuggestRow, in.ProjectID, in.Language); err != nil {
		return "", err
	}
	o, err := c.aiTranslate(ctx, aiJob{op: model.OpSuggestRow, project: in.ProjectID, namespace: in.NamespaceKey,
		language: in.Language, keys: []string{in.TranslationKey}, tooMany: model.CodeInvalid, waiting: true, suggest: true})
	if err != nil {
		return "", err
	}
	k := in.TranslationKey
	if v, ok := o.translated[k]; ok {
		return v, nil
	}
	switch {
	case len(o.skippedMissingSource) > 0:
		return "", model.Errorf(model.CodeInvalid, "%q has no source text to translate", k)
	case len(o.skippedLocked) > 0:
		return "", model.Errorf(model.CodeConflict, "the %s value of %q is language_locked", in.Language, k)
	case o.reasons[k] != "":
		return "", model.Errorf(model.CodeUnprocessable, "the AI gave no usable suggestion: %s", o.reasons[k])
	case o.transient != nil:
		return "", model.Errorf(model.CodeUnavailable, "the AI provider did not answer: %s", model.ErrorMessage(o.transient))
	}
	return "", model.Errorf(model.CodeUnprocessable, "the AI gave no suggestion")
}

// SuggestAIFields is SuggestAI for a row edited as fields: the suggestion with the text of
// each of its fields (FormTexts), so that every form gets its own form's text.
func (c *Catalog) SuggestAIFields(ctx context.Context, in RowRef) (string, map[string]string, error) {
	v, err := c.SuggestAI(ctx, in)
	if err != nil {
		return "", nil, err
	}
	var syn message.Syntax
	if err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		syn = c.ProjectSyntax(ctx, tx, proj)
		return nil
	}); err != nil {
		return "", nil, err
	}
	return v, FormTexts(v, in.Language, syn), nil
}
