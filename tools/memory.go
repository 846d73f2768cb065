package tools

import (
	"context"
	"slices"
	"strings"
	"unicode"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// Translation memory: what the workspace's approved rows say for source texts like a
// row's own. The store's trigram index picks the candidates (storage bounds how many it
// ranks); the catalogue scores them here on the texts with their syntax masked, so that
// "Hello {name}" and "Hello {user}" are the same sentence.

// MemorySuggestion is one approved translation of a source text like the row's.
type MemorySuggestion struct {
	Value   string `json:"value"`
	Source  string `json:"source"`
	Score   int    `json:"score"` // 0-100; 100 only for the same source text
	Exact   bool   `json:"exact"`
	Project string `json:"project"` // the project's title
	Key     string `json:"key"`     // namespace:key
}

// Memory limits: how many suggestions a row gets, the least score shown, and how many
// runes of a text are compared (a longer text is compared by its start).
const (
	MemoryLimit    = 5
	MemoryMinScore = 50
	memoryRunes    = 300
	memoryFetch    = 200
)

// MemorySuggestions returns, best first, the approved translations into the row's
// language of source texts like the row's, from the active projects of the workspace with
// the same source language that the asker may read; the row's own key is left out.
func (c *Catalog) MemorySuggestions(ctx context.Context, in RowRef) ([]MemorySuggestion, error) {
	out := []MemorySuggestion{}
	if err := c.gate(ctx, model.OpMemoryRow, on{project: in.ProjectID}); err != nil {
		return out, err
	}
	err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		if in.Language == proj.SourceLanguage {
			return model.Errorf(model.CodeInvalid, "%s is the source language", in.Language)
		}
		_, key, _, err := loadRow(ctx, tx, proj, in)
		if err != nil {
			return err
		}
		src, err := sourceValue(ctx, tx, proj, key)
		if err != nil || src == "" {
			if model.IsNotFound(err) {
				err = nil
			}
			return err
		}
		// Only projects the asker may read: a role on one project shows nothing of another.
		projects, err := tx.Projects(ctx, proj.WorkspaceID)
		if err != nil {
			return err
		}
		var ids []string
		for _, p := range projects {
			if p.SourceLanguage != proj.SourceLanguage {
				continue
			}
			if r, err := c.rightsIn(ctx, tx, p, ""); err != nil {
				return err
			} else if r&model.RightRead != 0 {
				ids = append(ids, p.ID)
			}
		}
		syn := c.ProjectSyntax(ctx, tx, proj)
		words := strings.FieldsFunc(masked(src, syn), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		cands, err := tx.MemoryCandidates(ctx, model.MemoryFilter{WorkspaceID: proj.WorkspaceID, ProjectIDs: ids, SourceLanguage: proj.SourceLanguage,
			Language: in.Language, Text: src, Words: words, ExcludeKeyID: key.ID, Limit: memoryFetch})
		if err != nil {
			return err
		}
		mine := maskedRunes(src, syn)
		seen := map[string]bool{}
		for _, cd := range cands {
			if seen[cd.Value] {
				continue
			}
			seen[cd.Value] = true
			s := MemorySuggestion{Value: cd.Value, Source: cd.Source, Project: cd.ProjectTitle, Key: cd.Namespace + ":" + cd.Key, Exact: cd.Source == src}
			if s.Exact {
				s.Score = 100
			} else if s.Score = similarity(mine, maskedRunes(cd.Source, syn)); s.Score < MemoryMinScore {
				continue
			}
			out = append(out, s)
		}
		slices.SortStableFunc(out, func(a, b MemorySuggestion) int { return b.Score - a.Score })
		if len(out) > MemoryLimit {
			out = out[:MemoryLimit]
		}
		return nil
	})
	return out, err
}

// masked is value with each piece of syntax (message.Spans) replaced by one placeholder
// rune: the words left are the text's own, not a placeholder's name.
func masked(value string, syn message.Syntax) string {
	m := message.Parse(value, syn)
	var b strings.Builder
	at := 0
	for _, sp := range message.Spans(m) {
		b.WriteString(value[at:sp.Start])
		b.WriteRune('\uFFFC')
		at = sp.End
	}
	b.WriteString(value[at:])
	return b.String()
}

// maskedRunes is masked, case folded, cut to memoryRunes.
func maskedRunes(value string, syn message.Syntax) []rune {
	r := []rune(strings.ToLower(masked(value, syn)))
	return r[:min(len(r), memoryRunes)]
}

// similarity is 100 less the edit distance between a and b in percent of the longer,
// at most 99: 100 is kept for the same source text.
func similarity(a, b []rune) int {
	n := max(len(a), len(b))
	if n == 0 {
		return 99
	}
	if min(len(a), len(b))*2 < n {
		return 0 // over half the runes would have to change
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return min(99, 100-prev[len(b)]*100/n)
}
