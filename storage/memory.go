package storage

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/lokal-dev/lokal/tools/model"
)

// memoryRanked bounds how many source rows the trigram index ranks before they are joined
// and filtered (workspace, an approved translation): what a suggestion costs is the
// index's answer for the text (PostgreSQL: pg_trgm's similarity over the GIN index;
// SQLite: the FTS5 trigram table's rows holding any of the text's longest words, ranked
// by bm25) plus at most this many row lookups, never a walk of the projects' rows. The
// ranking is over the server's rows of the source language: on a server of many
// workspaces a workspace's own matches can be crowded out of it, never the other way in.
const memoryRanked = 500

// memoryWords bounds the words of the text the index is asked for.
const memoryWords = 8

// memoryJoin keeps the source rows s of the workspace's active projects whose key has an
// approved translation tr made against the key's current source text.
const memoryJoin = ` JOIN translation_keys AS k ON k.id = s.key_id
JOIN namespaces AS n ON n.id = k.namespace_id
JOIN projects AS p ON p.id = n.project_id
JOIN translations AS tr ON tr.key_id = s.key_id AND tr.language = ?
WHERE p.workspace_id = ? AND p.id IN (?) AND p.active AND s.language = ? AND NOT k.hidden AND s.key_id <> ?
  AND tr.status = ? AND tr.value <> '' AND tr.source_version = k.source_version`

const memoryColumns = `SELECT p.id AS project_id, p.title AS project_title, n.key AS namespace, k.key AS key, s.value AS source, tr.value AS value FROM `

func (t *tx) MemoryCandidates(ctx context.Context, f model.MemoryFilter) ([]model.MemoryCandidate, error) {
	if f.Limit <= 0 || len(f.ProjectIDs) == 0 || utf8.RuneCountInString(f.Text) < 3 {
		return nil, nil // trigrams cannot find a text under three characters
	}
	args := []any{f.Language, f.WorkspaceID, bun.In(f.ProjectIDs), f.SourceLanguage, f.ExcludeKeyID, model.StatusApproved}
	var out []model.MemoryCandidate
	if t.db.postgres {
		if !t.hasIndex(ctx, "translations_value_trgm") {
			return nil, nil
		}
		// % is pg_trgm's similarity operator (at least pg_trgm.similarity_threshold, 0.3),
		// which the GIN index on LOWER(value) answers; the exact rows have similarity 1.
		text := strings.ToLower(f.Text)
		q := memoryColumns + `(SELECT id, key_id, language, value FROM translations WHERE language = ? AND LOWER(value) % ? ORDER BY similarity(LOWER(value), ?) DESC LIMIT ?) AS s` +
			memoryJoin + ` ORDER BY similarity(LOWER(s.value), ?) DESC, tr.id DESC LIMIT ?`
		err := t.tx.NewRaw(q, append(append([]any{f.SourceLanguage, text, text, memoryRanked}, args...), text, f.Limit)...).Scan(ctx, &out)
		return out, mapError(err)
	}
	// SQLite: the rows holding the whole text first (the exact ones are among them), then
	// the rows the FTS5 trigram table ranks best for any of the text's trigrams.
	exact := memoryColumns + `(SELECT t.id, t.key_id, t.language, t.value FROM translations_trgm AS g JOIN translations AS t ON t.id = g.rowid
WHERE translations_trgm MATCH ? AND t.value = ? AND t.language = ? LIMIT ?) AS s` + memoryJoin + ` ORDER BY tr.id DESC LIMIT ?`
	if err := t.tx.NewRaw(exact, append(append([]any{ftsPhrase(f.Text), f.Text, f.SourceLanguage, memoryRanked}, args...), f.Limit)...).Scan(ctx, &out); err != nil {
		return nil, mapError(err)
	}
	fuzzy := memoryColumns + `(SELECT t.id, t.key_id, t.language, t.value FROM translations_trgm AS g JOIN translations AS t ON t.id = g.rowid
WHERE translations_trgm MATCH ? AND t.language = ? ORDER BY g.rank LIMIT ?) AS s` + memoryJoin + ` LIMIT ?`
	var more []model.MemoryCandidate
	if err := t.tx.NewRaw(fuzzy, append(append([]any{anyWord(f.Text), f.SourceLanguage, memoryRanked}, args...), f.Limit)...).Scan(ctx, &more); err != nil {
		return nil, mapError(err)
	}
	return append(out, more...), nil
}

// anyWord is an FTS5 query for rows holding any of s's words of three or more characters
// (at most memoryWords of them, the longest first): a phrase of the trigram table, so a
// row must hold the whole word, which few rows do for all but the commonest words.
func anyWord(s string) string {
	seen := map[string]bool{}
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		if utf8.RuneCountInString(w) >= 3 && !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return ftsPhrase(s) // a text of short words: rows holding it whole
	}
	slices.SortStableFunc(words, func(a, b string) int { return utf8.RuneCountInString(b) - utf8.RuneCountInString(a) })
	words = words[:min(len(words), memoryWords)]
	for i, w := range words {
		words[i] = ftsPhrase(w)
	}
	return strings.Join(words, " OR ")
}
