package tools

import (
	"context"
	"strings"
	"unicode/utf8"
)

// EnableLanguageIn names the language to turn on.
type EnableLanguageIn struct {
	ProjectArg
	Language string `json:"language" jsonschema:"a supported language code, not the source language"`
}

// EnableLanguageOut reports the project's languages after the change.
type EnableLanguageOut struct {
	Language         string   `json:"language"`
	AlreadyEnabled   bool     `json:"already_enabled"`
	EnabledLanguages []string `json:"enabled_languages"`
}

// EnableLanguage turns a supported language on for the project.
func (c *Catalog) EnableLanguage(ctx context.Context, in EnableLanguageIn) (EnableLanguageOut, error) {
	var out EnableLanguageOut
	if err := c.begin(ctx, in.ProjectID, true); err != nil {
		return out, err
	}
	l, ok := LookupLanguage(in.Language)
	if !ok {
		return out, Errorf(CodeInvalid, "language %q is not supported", in.Language)
	}
	out.Language = l.Code
	err := c.store.Update(ctx, in.ProjectID, func(tx Tx) error {
		proj, err := c.loadProject(ctx, tx, in.ProjectID)
		if err != nil {
			return err
		}
		if l.Code == proj.SourceLanguage {
			return Errorf(CodeInvalid, "%s is the project's source language", l.Code)
		}
		if proj.HasLanguage(l.Code) {
			out.AlreadyEnabled = true
			out.EnabledLanguages = proj.EnabledLanguages
			return nil
		}
		if err := tx.SetLanguage(ctx, proj.ID, Language{Code: l.Code, Enabled: true, Editable: true, AutoTranslate: true}); err != nil {
			return err
		}
		out.EnabledLanguages = append(proj.EnabledLanguages, l.Code)
		return c.afterWrite(ctx, tx, proj.ID)
	})
	return out, err
}

// RegisterIn is register_source_strings' input.
type RegisterIn struct {
	ProjectArg
	NamespaceKey string            `json:"namespace_key" jsonschema:"namespace to register into; created if new"`
	Strings      map[string]string `json:"strings" jsonschema:"map of key to source text"`
}

// RegisterOut lists the keys created and the ones that existed already.
type RegisterOut struct {
	Created []string `json:"created"`
	Skipped []string `json:"skipped"`
}

// RegisterSourceStrings creates the keys the namespace lacks with their source text.
func (c *Catalog) RegisterSourceStrings(ctx context.Context, in RegisterIn) (RegisterOut, error) {
	out := RegisterOut{Created: []string{}, Skipped: []string{}}
	if err := c.begin(ctx, in.ProjectID, true); err != nil {
		return out, err
	}
	if len(in.Strings) == 0 {
		return out, Errorf(CodeInvalid, "strings must name at least one key")
	}
	if err := checkEntries(in.Strings); err != nil {
		return out, err
	}
	err := c.store.Update(ctx, in.ProjectID, func(tx Tx) error {
		proj, ns, err := c.writeScope(ctx, tx, NamespaceRef{ProjectID: in.ProjectID, Namespace: in.NamespaceKey}, true)
		if err != nil {
			return err
		}
		out.Created, out.Skipped, err = c.addMissingKeys(ctx, tx, proj, ns, in.Strings)
		return err
	})
	return out, err
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
	if err := c.begin(ctx, in.ProjectID, true); err != nil {
		return out, err
	}
	if err := checkKey(in.TranslationKey); err != nil {
		return out, err
	}
	if err := checkValue(in.TranslationKey, in.SourceValue); err != nil {
		return out, err
	}
	err := c.store.Update(ctx, in.ProjectID, func(tx Tx) error {
		proj, ns, err := c.writeScope(ctx, tx, NamespaceRef{ProjectID: in.ProjectID, Namespace: in.NamespaceKey}, true)
		if err != nil {
			return err
		}
		if _, err := tx.KeyByName(ctx, ns, in.TranslationKey); err == nil {
			return Errorf(CodeConflict, "key %q already exists in namespace %q", in.TranslationKey, in.NamespaceKey)
		} else if !IsNotFound(err) {
			return err
		}
		if err := c.createKeys(ctx, tx, proj, ns, proj.SourceLanguage, []string{in.TranslationKey},
			map[string]string{in.TranslationKey: in.SourceValue}); err != nil {
			return err
		}
		return c.afterWrite(ctx, tx, proj.ID)
	})
	return out, err
}

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

func rowOut(in RowRef, w TranslationWrite, actor string) RowOut {
	return RowOut{NamespaceKey: in.NamespaceKey, TranslationKey: in.TranslationKey, UpdatedBy: actor,
		RowState: RowState{Language: w.Language, Value: w.Value, Status: w.Status, DoNotTranslate: w.DoNotTranslate, LanguageLocked: w.LanguageLocked}}
}

// writeRow stores one row and schedules what a write sets off.
func (c *Catalog) writeRow(ctx context.Context, tx Tx, projectID string, w TranslationWrite) error {
	if err := tx.WriteTranslations(ctx, []TranslationWrite{w}); err != nil {
		return err
	}
	return c.afterWrite(ctx, tx, projectID)
}

func checkStatus(s string) error {
	if s != StatusApproved && s != StatusNeedsReview {
		return Errorf(CodeInvalid, "status must be needs_review or approved")
	}
	return nil
}

// loadRow resolves a RowRef for a write: the language must be on, the key must exist.
func (c *Catalog) loadRow(ctx context.Context, tx Tx, in RowRef) (Project, KeyRecord, *TranslationState, error) {
	proj, _, key, err := c.loadKey(ctx, tx, in.KeyRef)
	if err != nil {
		return Project{}, KeyRecord{}, nil, err
	}
	if err := proj.requireLanguage(in.Language); err != nil {
		return Project{}, KeyRecord{}, nil, err
	}
	rows, err := tx.KeyTranslations(ctx, key.ID)
	if err != nil {
		return Project{}, KeyRecord{}, nil, err
	}
	for i := range rows {
		if rows[i].Language == in.Language {
			return proj, key, &rows[i], nil
		}
	}
	return proj, key, nil, nil
}

// UpdateTranslation sets one language's value of a key, attributed to the token's owner.
// It lands as needs_review unless approved is asked for; a language-locked row is refused.
// Changing the source language's value makes the key's translations stale.
func (c *Catalog) UpdateTranslation(ctx context.Context, in UpdateTranslationIn) (RowOut, error) {
	var out RowOut
	if err := c.begin(ctx, in.ProjectID, true); err != nil {
		return out, err
	}
	if in.Status == "" {
		in.Status = StatusNeedsReview
	}
	if err := checkStatus(in.Status); err != nil {
		return out, err
	}
	if err := checkValue(in.TranslationKey, in.Value); err != nil {
		return out, err
	}
	err := c.store.Update(ctx, in.ProjectID, func(tx Tx) error {
		proj, key, cur, err := c.loadRow(ctx, tx, in.RowRef)
		if err != nil {
			return err
		}
		if cur != nil && cur.LanguageLocked {
			return Errorf(CodeConflict, "the %s value of %q is language_locked; clear the flag first", in.Language, in.TranslationKey)
		}
		w := TranslationWrite{KeyID: key.ID, Language: in.Language, Value: in.Value, Status: in.Status,
			SourceVersion: versionPtr(key.SourceVersion), Change: "created"}
		if cur != nil {
			w.ID, w.DoNotTranslate, w.Change = cur.ID, cur.DoNotTranslate, "value"
		}
		if in.Language == proj.SourceLanguage && (cur == nil || cur.Value != in.Value) {
			next := key.SourceVersion + 1
			w.SourceVersion = &next
			if err := tx.SourceChanged(ctx, []int64{key.ID}); err != nil {
				return err
			}
		}
		out = rowOut(in.RowRef, w, PrincipalFrom(ctx).Actor())
		return c.writeRow(ctx, tx, proj.ID, w)
	})
	return out, err
}

// SetStatusIn is set_translation_status' input.
type SetStatusIn struct {
	RowRef
	Status string `json:"status" jsonschema:"approved or needs_review"`
}

// SetTranslationStatus moves a row between needs_review and approved; the text is unchanged.
func (c *Catalog) SetTranslationStatus(ctx context.Context, in SetStatusIn) (RowOut, error) {
	var out RowOut
	if err := c.begin(ctx, in.ProjectID, true); err != nil {
		return out, err
	}
	if err := checkStatus(in.Status); err != nil {
		return out, err
	}
	err := c.store.Update(ctx, in.ProjectID, func(tx Tx) error {
		proj, key, cur, err := c.loadRow(ctx, tx, in.RowRef)
		if err != nil {
			return err
		}
		if cur == nil {
			return Errorf(CodeNotFound, "%q has no %s translation", in.TranslationKey, in.Language)
		}
		w := TranslationWrite{ID: cur.ID, KeyID: key.ID, Language: cur.Language, Value: cur.Value, Status: in.Status,
			DoNotTranslate: cur.DoNotTranslate, LanguageLocked: cur.LanguageLocked, SourceVersion: cur.SourceVersion, Change: "status"}
		out = rowOut(in.RowRef, w, PrincipalFrom(ctx).Actor())
		if cur.Status == in.Status {
			out.UpdatedBy = cur.UpdatedBy
			return nil
		}
		return c.writeRow(ctx, tx, proj.ID, w)
	})
	return out, err
}

// AddCommentIn is add_comment's input.
type AddCommentIn struct {
	RowRef
	Body string `json:"body" jsonschema:"the comment text"`
}

// MaxCommentBytes bounds one comment.
const MaxCommentBytes = 10000

// AddComment attaches a comment to one language's row of a key.
func (c *Catalog) AddComment(ctx context.Context, in AddCommentIn) (Comment, error) {
	var out Comment
	if err := c.begin(ctx, in.ProjectID, true); err != nil {
		return out, err
	}
	body := strings.TrimSpace(in.Body)
	if body == "" || len(body) > MaxCommentBytes || !utf8.ValidString(body) || strings.ContainsRune(body, 0) {
		return out, Errorf(CodeInvalid, "body must be 1 to %d bytes of text", MaxCommentBytes)
	}
	err := c.store.Update(ctx, in.ProjectID, func(tx Tx) error {
		proj, _, key, err := c.loadKey(ctx, tx, in.KeyRef)
		if err != nil {
			return err
		}
		if err := proj.requireLanguage(in.Language); err != nil {
			return err
		}
		out, err = tx.AddComment(ctx, key.ID, Comment{Language: in.Language, Body: body})
		return err
	})
	return out, err
}

// FlagIn is flag_translation's input.
type FlagIn struct {
	RowRef
	Flag  string `json:"flag" jsonschema:"do_not_translate or language_locked"`
	Value bool   `json:"value" jsonschema:"true sets the flag, false clears it"`
}

// FlagTranslation sets or clears a flag on one language's row. Setting do_not_translate on
// a language with no value yet stores the source text verbatim, which is what the flag means.
func (c *Catalog) FlagTranslation(ctx context.Context, in FlagIn) (RowOut, error) {
	var out RowOut
	if err := c.begin(ctx, in.ProjectID, true); err != nil {
		return out, err
	}
	if in.Flag != FlagDoNotTranslate && in.Flag != FlagLanguageLocked {
		return out, Errorf(CodeInvalid, "flag must be do_not_translate or language_locked")
	}
	err := c.store.Update(ctx, in.ProjectID, func(tx Tx) error {
		proj, key, cur, err := c.loadRow(ctx, tx, in.RowRef)
		if err != nil {
			return err
		}
		var w TranslationWrite
		switch {
		case cur != nil:
			w = TranslationWrite{ID: cur.ID, KeyID: key.ID, Language: cur.Language, Value: cur.Value, Status: cur.Status,
				DoNotTranslate: cur.DoNotTranslate, LanguageLocked: cur.LanguageLocked, SourceVersion: cur.SourceVersion, Change: "flag"}
		case in.Flag == FlagDoNotTranslate && in.Value:
			src, err := c.sourceRow(ctx, tx, proj, key)
			if err != nil {
				return err
			}
			w = TranslationWrite{KeyID: key.ID, Language: in.Language, Value: src, Status: StatusNeedsReview,
				SourceVersion: versionPtr(key.SourceVersion), Change: "created"}
		default:
			return Errorf(CodeNotFound, "%q has no %s translation to flag", in.TranslationKey, in.Language)
		}
		if in.Flag == FlagDoNotTranslate {
			w.DoNotTranslate = in.Value
		} else {
			w.LanguageLocked = in.Value
		}
		out = rowOut(in.RowRef, w, PrincipalFrom(ctx).Actor())
		if cur != nil && cur.DoNotTranslate == w.DoNotTranslate && cur.LanguageLocked == w.LanguageLocked {
			out.UpdatedBy = cur.UpdatedBy
			return nil
		}
		return c.writeRow(ctx, tx, proj.ID, w)
	})
	return out, err
}

func (c *Catalog) sourceRow(ctx context.Context, tx Tx, proj Project, key KeyRecord) (string, error) {
	rows, err := tx.KeyTranslations(ctx, key.ID)
	if err != nil {
		return "", err
	}
	for _, r := range rows {
		if r.Language == proj.SourceLanguage {
			return r.Value, nil
		}
	}
	return "", Errorf(CodeNotFound, "%q has no source value to keep verbatim", key.Key)
}

// GlossaryIn is add_glossary_term's input.
type GlossaryIn struct {
	ProjectArg
	SourceTerm string `json:"source_term" jsonschema:"the term in the source language"`
	TargetTerm string `json:"target_term" jsonschema:"its fixed translation"`
	Locale     string `json:"locale,omitempty" jsonschema:"language code, or all (default)"`
}

// AddGlossaryTerm adds a fixed translation of a term for one locale or all.
func (c *Catalog) AddGlossaryTerm(ctx context.Context, in GlossaryIn) (GlossaryPair, error) {
	var out GlossaryPair
	if err := c.begin(ctx, in.ProjectID, true); err != nil {
		return out, err
	}
	g := GlossaryPair{SourceTerm: strings.TrimSpace(in.SourceTerm), TargetTerm: strings.TrimSpace(in.TargetTerm), Locale: in.Locale}
	if g.Locale == "" {
		g.Locale = "all"
	}
	if g.Locale != "all" {
		l, ok := LookupLanguage(g.Locale)
		if !ok {
			return out, Errorf(CodeInvalid, "locale must be a supported language code or all")
		}
		g.Locale = l.Code
	}
	for _, t := range []string{g.SourceTerm, g.TargetTerm} {
		if t == "" || len(t) > 500 || !utf8.ValidString(t) || strings.ContainsRune(t, 0) {
			return out, Errorf(CodeInvalid, "source_term and target_term must be 1 to 500 bytes of text")
		}
	}
	if err := checkValue(g.SourceTerm, g.TargetTerm); err != nil {
		return out, err
	}
	err := c.store.Update(ctx, in.ProjectID, func(tx Tx) error {
		proj, err := c.loadProject(ctx, tx, in.ProjectID)
		if err != nil {
			return err
		}
		existing, err := tx.Glossary(ctx, proj.ID)
		if err != nil {
			return err
		}
		for _, e := range existing {
			if e.SourceTerm == g.SourceTerm && e.TargetTerm == g.TargetTerm && e.Locale == g.Locale {
				return Errorf(CodeConflict, "the glossary already has %q → %q for %s", g.SourceTerm, g.TargetTerm, g.Locale)
			}
		}
		if out, err = tx.AddGlossary(ctx, proj.ID, g); err != nil {
			return err
		}
		return c.afterWrite(ctx, tx, proj.ID)
	})
	return out, err
}

// AITranslateIn is ai_translate_keys' input.
type AITranslateIn struct {
	ProjectArg
	NamespaceKey    string   `json:"namespace_key" jsonschema:"the namespace of the keys"`
	TranslationKeys []string `json:"translation_keys" jsonschema:"up to 10 keys"`
	TargetLang      string   `json:"target_lang" jsonschema:"language to translate into"`
}

// AITranslateOut reports what the AI did.
type AITranslateOut struct {
	Lang                 string            `json:"lang"`
	Translated           map[string]string `json:"translated"`
	SkippedApproved      []string          `json:"skipped_approved"`
	SkippedMissingSource []string          `json:"skipped_missing_source"`
	Failed               []string          `json:"failed"`
}

// MaxAIKeys bounds one AI translation call.
const MaxAIKeys = 10

// AITranslateKeys translates keys with the project's AI. Until the project has an AI
// provider configured it answers not_configured; it never invents a translation.
func (c *Catalog) AITranslateKeys(ctx context.Context, in AITranslateIn) (AITranslateOut, error) {
	out := AITranslateOut{Lang: in.TargetLang, Translated: map[string]string{}, SkippedApproved: []string{},
		SkippedMissingSource: []string{}, Failed: []string{}}
	if err := c.begin(ctx, in.ProjectID, true); err != nil {
		return out, err
	}
	if len(in.TranslationKeys) == 0 || len(in.TranslationKeys) > MaxAIKeys {
		return out, Errorf(CodeInvalid, "translation_keys must list 1 to %d keys", MaxAIKeys)
	}
	return out, c.store.View(ctx, func(tx Tx) error {
		proj, err := c.loadProject(ctx, tx, in.ProjectID)
		if err != nil {
			return err
		}
		if !proj.HasLanguage(in.TargetLang) || in.TargetLang == proj.SourceLanguage {
			return Errorf(CodeNotFound, "target_lang %q is not an enabled target language of this project", in.TargetLang)
		}
		if _, err := tx.Namespace(ctx, proj.ID, in.NamespaceKey); err != nil {
			return err
		}
		// Projects get an AI provider, and this server an AI client, with the AI issue;
		// until then there is nothing to translate with, and nothing is invented.
		return Errorf(CodeNotConfigured, "this project has no AI provider configured")
	})
}
