package storage

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/model"
)

// memoryRanked bounds how many rows the trigram index ranks before they are joined and
// filtered (workspace, language, an approved translation): the rows most like the text
// across the whole server, so the cost of a suggestion is the index's postings for the
// text's trigrams plus this many row lookups, never a walk of the projects' rows.
const memoryRanked = 500

// memoryTrigrams bounds the trigrams of the text the index is asked for.
const memoryTrigrams = 32

// memoryJoin keeps the source rows s of the workspace's active projects whose key has an
// approved translation tr made against the key's current source text.
const memoryJoin = ` JOIN translation_keys AS k ON k.id = s.key_id
JOIN namespaces AS n ON n.id = k.namespace_id
JOIN projects AS p ON p.id = n.project_id
JOIN translations AS tr ON tr.key_id = s.key_id AND tr.language = ?
WHERE p.workspace_id = ? AND p.active AND s.language = ? AND NOT k.hidden AND s.key_id <> ?
  AND tr.status = ? AND tr.value <> '' AND tr.source_version = k.source_version`

const memoryColumns = `SELECT p.id AS project_id, p.title AS project_title, n.key AS namespace, k.key AS key, s.value AS source, tr.value AS value FROM `

func (t *tx) MemoryCandidates(ctx context.Context, f model.MemoryFilter) ([]model.MemoryCandidate, error) {
	if f.Limit <= 0 || utf8.RuneCountInString(f.Text) < 3 {
		return nil, nil // trigrams cannot find a text under three characters
	}
	args := []any{f.Language, f.WorkspaceID, f.SourceLanguage, f.ExcludeKeyID, model.StatusApproved}
	var out []model.MemoryCandidate
	if t.db.postgres {
		if !t.hasIndex(ctx, "translations_value_trgm") {
			return nil, nil
		}
		// % is pg_trgm's similarity operator (at least pg_trgm.similarity_threshold, 0.3),
		// which the GIN index on LOWER(value) answers; the exact rows have similarity 1.
		text := strings.ToLower(f.Text)
		q := memoryColumns + `(SELECT id, key_id, language, value FROM translations WHERE LOWER(value) % ? ORDER BY similarity(LOWER(value), ?) DESC LIMIT ?) AS s` +
			memoryJoin + ` ORDER BY similarity(LOWER(s.value), ?) DESC, tr.id DESC LIMIT ?`
		err := t.tx.NewRaw(q, append(append([]any{text, text, memoryRanked}, args...), text, f.Limit)...).Scan(ctx, &out)
		return out, mapError(err)
	}
	// SQLite: the rows holding the whole text first (the exact ones are among them), then
	// the rows the FTS5 trigram table ranks best for any of the text's trigrams.
	exact := memoryColumns + `(SELECT t.id, t.key_id, t.language, t.value FROM translations_trgm AS g JOIN translations AS t ON t.id = g.rowid
WHERE translations_trgm MATCH ? AND t.value = ? LIMIT ?) AS s` + memoryJoin + ` ORDER BY tr.id DESC LIMIT ?`
	if err := t.tx.NewRaw(exact, append(append([]any{ftsPhrase(f.Text), f.Text, memoryRanked}, args...), f.Limit)...).Scan(ctx, &out); err != nil {
		return nil, mapError(err)
	}
	fuzzy := memoryColumns + `(SELECT t.id, t.key_id, t.language, t.value FROM (SELECT rowid, rank FROM translations_trgm WHERE translations_trgm MATCH ? ORDER BY rank LIMIT ?) AS g
JOIN translations AS t ON t.id = g.rowid) AS s` + memoryJoin + ` LIMIT ?`
	var more []model.MemoryCandidate
	if err := t.tx.NewRaw(fuzzy, append(append([]any{anyTrigram(f.Text), memoryRanked}, args...), memoryRanked)...).Scan(ctx, &more); err != nil {
		return nil, mapError(err)
	}
	return append(out, more...), nil
}

// anyTrigram is an FTS5 query for rows holding any of s's trigrams (at most
// memoryTrigrams of them, spread over s).
func anyTrigram(s string) string {
	r := []rune(strings.ToLower(s))
	seen := map[string]bool{}
	var grams []string
	for i := 0; i+3 <= len(r); i++ {
		g := string(r[i : i+3])
		if !seen[g] {
			seen[g] = true
			grams = append(grams, g)
		}
	}
	if len(grams) > memoryTrigrams {
		step := float64(len(grams)) / memoryTrigrams
		picked := make([]string, 0, memoryTrigrams)
		for i := 0; i < memoryTrigrams; i++ {
			picked = append(picked, grams[int(float64(i)*step)])
		}
		grams = picked
	}
	for i, g := range grams {
		grams[i] = ftsPhrase(g)
	}
	return strings.Join(grams, " OR ")
}
