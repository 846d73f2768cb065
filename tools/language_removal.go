package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
)

// confirmRemoval refuses to take off a language that has translations unless the caller
// named it in confirmed: one click must not hide a language's work. Nothing is deleted
// either way (languageChanges only disables the row), which the refusal says. p is the
// project before the change, changed the language rows languageChanges is about to write.
func confirmRemoval(ctx context.Context, tx model.Tx, p model.Project, changed []model.Language, confirmed []string) error {
	var off []string
	for _, l := range changed {
		if !l.Enabled && p.HasLanguage(l.Code) && l.Code != p.SourceLanguage && !contains(confirmed, l.Code) {
			off = append(off, l.Code)
		}
	}
	if len(off) == 0 {
		return nil
	}
	counts, err := tx.StatusCounts(ctx, p)
	if err != nil {
		return err
	}
	var held, codes []string
	for _, s := range languageStats(p.SourceLanguage, counts) {
		if contains(off, s.Language) && s.Translated > 0 {
			codes = append(codes, s.Language)
			name, _ := LanguageName(s.Language)
			n := fmt.Sprintf("%d translations", s.Translated)
			if s.Translated == 1 {
				n = "1 translation"
			}
			held = append(held, name+" has "+n)
		}
	}
	if len(held) == 0 {
		return nil
	}
	return model.Errorf(model.CodeConflict, "%s: confirm the removal of %s; nothing is deleted, the translations are kept and come back if you add the language again",
		strings.Join(held, " and "), strings.Join(codes, ","))
}
