package tools

import "context"

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
	return out, c.read(ctx, in.ProjectID, func(tx Tx, proj Project) error {
		if !proj.HasLanguage(in.TargetLang) || in.TargetLang == proj.SourceLanguage {
			return Errorf(CodeNotFound, "target_lang %q is not an enabled target language of this project", in.TargetLang)
		}
		if _, err := findNamespace(ctx, tx, proj, in.NamespaceKey); err != nil {
			return err
		}
		// Projects get an AI provider, and this server an AI client, with the AI issue;
		// until then there is nothing to translate with, and nothing is invented.
		return Errorf(CodeNotConfigured, "this project has no AI provider configured")
	})
}

// MaxAIKeys bounds one AI translation call.
const MaxAIKeys = 10
