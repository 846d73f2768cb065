package storage

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/lokal-dev/lokal/tools/model"
)

// memoryRanked bounds how many source rows one candidate query of MemoryCandidates
// returns: what a suggestion costs is the trigram index's answer for a few of the text's
// rarest words (PostgreSQL: pg_trgm's GIN index on LOWER(value); SQLite: the FTS5 trigram
// table) plus at most this many joined rows, never a ranking or a walk of the projects'
// rows. Ranking every row like the text by pg_trgm similarity (or FTS5's bm25) took 7-17 s
// at a million keys of templated UI text, where most rows share most words.
const memoryRanked = 500

// memoryWords bounds the words of the text the index is asked for.
const memoryWords = 3

// memoryJoin keeps the source rows s of the workspace's active projects whose key has an
// approved translation tr made against the key's current source text.
const memoryJoin = ` JOIN translation_keys AS k ON k.id = s.key_id
JOIN namespaces AS n ON n.id = k.namespace_id
JOIN projects AS p ON p.id = n.project_id
JOIN translations AS tr ON tr.key_id = s.key_id AND tr.language = ?
WHERE p.workspace_id = ? AND p.id IN (?) AND p.active AND s.language = ? AND NOT k.hidden AND s.key_id <> ?
  AND tr.status = ? AND tr.value <> '' AND tr.source_version = k.source_version`

const memoryColumns = `SELECT p.id AS project_id, p.title AS project_title, n.key AS namespace, k.key AS key, s.value AS source, tr.value AS value FROM `

// MemoryCandidates returns the rows holding the text itself, then the rows holding each of
// its rarest words in turn (memoryTerms) until it has memoryRanked (or f.Limit) of them;
// the catalogue scores them. Rows are found by the words a text shares with few others: a
// source text like the row's shares its rare words, and common ones name half the table.
// A text with no word of three letters ("OK?", "<b>x</b>") gets its exact rows only.
func (t *tx) MemoryCandidates(ctx context.Context, f model.MemoryFilter) ([]model.MemoryCandidate, error) {
	if f.Limit <= 0 || len(f.ProjectIDs) == 0 || utf8.RuneCountInString(f.Text) < 3 {
		return nil, nil // trigrams cannot find a text under three characters
	}
	if t.db.postgres && !t.hasIndex(ctx, "translations_value_trgm") {
		return nil, nil
	}
	lo, hi, err := t.idRangeWhere(ctx, "n.project_id IN (?)", bun.In(f.ProjectIDs))
	if err != nil || hi == 0 {
		return nil, err
	}
	sample, err := t.textSample(ctx, lo, hi, true, []string{f.SourceLanguage})
	if err != nil {
		return nil, err
	}
	words := memoryTerms(f.Words, sample)
	args := []any{f.Language, f.WorkspaceID, bun.In(f.ProjectIDs), f.SourceLanguage, f.ExcludeKeyID, model.StatusApproved}
	limit := min(f.Limit, memoryRanked)
	var out []model.MemoryCandidate
	from, fromArgs := t.memoryRows(f.SourceLanguage, memoryProbe(words, f.Text), f.Text)
	q := memoryColumns + from + memoryJoin + ` LIMIT ?`
	if err := t.tx.NewRaw(q, slices.Concat(fromArgs, args, []any{limit})...).Scan(ctx, &out); err != nil {
		return nil, mapError(err)
	}
	for _, w := range words {
		var more []model.MemoryCandidate
		from, fromArgs := t.memoryRows(f.SourceLanguage, w, "")
		if err := t.tx.NewRaw(memoryColumns+from+memoryJoin+` LIMIT ?`, slices.Concat(fromArgs, args, []any{limit})...).Scan(ctx, &more); err != nil {
			return nil, mapError(err)
		}
		if out = append(out, more...); len(out) >= limit {
			break
		}
	}
	return out, nil
}

// memoryScan bounds the rows holding a word that one lookup reads before they are joined
// and filtered: a word held by half the table costs this many rows, not half the table.
const memoryScan = 5000

// memoryRows is a FROM clause naming as s the source rows in language that hold word, at
// most memoryScan of them, found through the trigram index (with exact, only those whose
// text is exact), and its arguments. The lookup is a subquery with its own LIMIT so that
// the planner cannot turn it around: PostgreSQL, misjudging a project's namespaces, walked
// its million keys to check each one's source row instead (0.8 s).
func (t *tx) memoryRows(language, word, exact string) (string, []any) {
	cond, args := ``, []any{}
	if exact != "" {
		cond, args = ` AND t.value = ?`, []any{exact}
	}
	if t.db.postgres {
		rows, rowsArgs := pgTrigramRows("translations_trgm", "translations AS t", "t.value", []string{word})
		return `(SELECT t.id, t.key_id, t.language, t.value FROM ` + rows + ` JOIN translations AS t ON t.id = g.rowid
WHERE t.language = ? AND LOWER(t.value) LIKE ? ESCAPE '\'` + cond + ` LIMIT ?) AS s`, slices.Concat(rowsArgs, []any{language, likePattern(word)}, args, []any{memoryScan})
	}
	// The trigram table first, in rowid order: without ORDER BY rank FTS5 stops at the
	// LIMIT instead of ranking every row that holds the word.
	return `(SELECT t.id, t.key_id, t.language, t.value FROM translations_trgm AS g CROSS JOIN translations AS t ON t.id = g.rowid
WHERE translations_trgm MATCH ? AND t.language = ?` + cond + ` LIMIT ?) AS s`, slices.Concat([]any{ftsPhrase(word), language}, args, []any{memoryScan})
}

// memoryMatch finds an approved, current translation into target of a source row of the
// project whose text is text, among the rows holding text's rarest word (by sample): a
// lookup by the trigram index instead of a scan of the project's rows for the text (1.7 s
// at a million keys, for every batch of automatic translation). ok is false when there is
// none or text is too short for the index.
func (t *tx) memoryMatch(ctx context.Context, projectID, sourceLang, target, text string, sample []string) (value string, ok bool, err error) {
	if utf8.RuneCountInString(text) < 3 {
		return "", false, nil
	}
	words := memoryTerms(strings.FieldsFunc(text, func(r rune) bool { return !isWordRune(r) }), sample)
	from, fromArgs := t.memoryRows(sourceLang, memoryProbe(words, text), text)
	var values []string
	err = t.tx.NewRaw(`SELECT tr.value FROM `+from+`
JOIN translation_keys AS k ON k.id = s.key_id
JOIN namespaces AS n ON n.id = k.namespace_id
JOIN translations AS tr ON tr.key_id = s.key_id AND tr.language = ?
WHERE n.project_id = ? AND NOT k.hidden AND tr.status = ? AND tr.value <> '' AND tr.source_version = k.source_version
ORDER BY tr.id DESC LIMIT 1`, slices.Concat(fromArgs, []any{target, projectID, model.StatusApproved})...).Scan(ctx, &values)
	if err != nil || len(values) == 0 {
		return "", false, mapError(err)
	}
	return values[0], true, nil
}

// memoryProbe is what the index is asked for to find the rows whose text is exactly text:
// its rarest word, or the whole text (folded) when it has no word of three letters.
func memoryProbe(words []string, text string) string {
	if len(words) == 0 {
		return strings.ToLower(text)
	}
	return words[0]
}

// memoryTerms returns the words the index is asked for, rarest first: those of three or
// more characters (folded), ordered by how many texts of sample hold them and then
// longest first, at most memoryWords of them, and past the first only those that are not
// common (1 in termCommonShare of the sample); none when no word has three characters.
func memoryTerms(in []string, sample []string) []string {
	type word struct {
		w    string
		held int
	}
	seen := map[string]bool{}
	var words []word
	for _, w := range in {
		if w = strings.ToLower(w); utf8.RuneCountInString(w) < 3 || seen[w] {
			continue
		}
		seen[w] = true
		held := 0
		for _, t := range sample {
			if strings.Contains(t, w) {
				held++
			}
		}
		words = append(words, word{w, held})
	}
	slices.SortStableFunc(words, func(a, b word) int {
		if a.held != b.held {
			return a.held - b.held
		}
		return utf8.RuneCountInString(b.w) - utf8.RuneCountInString(a.w)
	})
	if len(words) == 0 {
		return nil
	}
	out := []string{words[0].w}
	for _, w := range words[1:min(len(words), memoryWords)] {
		if w.held*termCommonShare >= len(sample) {
			break // the index's answer for a common word costs 100-200 ms at a million rows
		}
		out = append(out, w.w)
	}
	return out
}
