package storage

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// CacheStats reports how many cached reads this process answered from memory (hits) and
// how many had to build, or wait for, the response (misses), since it started.
func (db *DB) CacheStats() (hits, misses uint64) {
	return db.cache.hits.Load(), db.cache.misses.Load()
}

// PendingJobs counts background jobs waiting to run: not yet claimed, or released to be
// retried. Jobs being run are not counted.
func (db *DB) PendingJobs(ctx context.Context) (int, error) {
	n, err := db.r.NewSelect().Model((*jobRow)(nil)).Where("status = ?", jobPending).Count(ctx)
	if err != nil {
		return 0, fmt.Errorf("counting pending jobs: %w", err)
	}
	return int(n), nil
}

// statusCountRow is one (project, language) of the status counters: the row of language ""
// holds the project's visible keys with a source value, the others their language's
// non-empty rows by the source version they were made against.
type statusCountRow struct {
	bun.BaseModel `bun:"table:status_counts"`
	ProjectID     string `bun:"project_id,pk"`
	Language      string `bun:"language,pk"`
	KeyCount      int64  `bun:"key_count"`
	CurrentRows   int64  `bun:"current_rows"`
	BehindRows    int64  `bun:"behind_rows"`
	NullRows      int64  `bun:"null_rows"`
	ReviewRows    int64  `bun:"review_rows"` // of the current rows, those to review written by people
	AIRows        int64  `bun:"ai_rows"`     // of the current rows, the AI's drafts
}

// keyShare and rowShare are what a key and a translation row add to their project's status
// counts (their mark): the rule of LanguageCounts, row by row. A visible row with a source
// value is current (1 approved, -1 to review, -2 an AI draft to review), 2 behind or 3
// without a source version; an empty one, or a plural family lacking a form its language
// needs (incomplete), counts as missing (0), and is still on the stale list when behind (4)
// or without a version (5).
//
// A key's mark is its counted column. A row's is rowMark: its entry in translation_drift
// when it has one (the marks from 2 up, which the stale list reads by language there),
// else its counted column. A source change that puts a key's rows behind so adds narrow
// rows instead of rewriting its translations (see migrateDriftMarks).
const (
	keyShare = `CASE WHEN NOT k.hidden AND k.source_version > 0 THEN 1 ELSE 0 END`
	rowShare = `CASE WHEN k.hidden OR k.source_version <= 0 THEN 0
  WHEN t.value <> '' AND NOT t.incomplete THEN CASE WHEN t.source_version IS NULL THEN 3 WHEN t.source_version >= k.source_version THEN ` + currentShare + ` ELSE 2 END
  WHEN t.source_version IS NULL THEN 5 WHEN t.source_version < k.source_version THEN 4 ELSE 0 END`
	currentShare = `CASE WHEN t.status <> 'needs_review' THEN 1 WHEN t.updated_by LIKE 'ai:%' THEN -2 ELSE -1 END`
	// currentMarks are the marks of a current row.
	currentMarks = `(1, -1, -2)`
	// rowMark is the mark of row t, with driftJoin among the joins.
	rowMark   = `COALESCE(d.mark, t.counted)`
	driftJoin = `LEFT JOIN translation_drift AS d ON d.language = t.language AND d.key_id = t.key_id`
)

// newRowMark is the mark a row is inserted with: current, as most new rows are, by its
// status, so that a sync or an import of new rows is not followed by marking them again.
// CountKeys corrects the others.
func newRowMark(r *translationRow) int {
	switch {
	case r.Incomplete:
		return 0 // missing (CountKeys marks it 4 or 5 when it is also behind)
	case r.Status != model.StatusNeedsReview:
		return 1
	case strings.HasPrefix(r.UpdatedBy, "ai:"):
		return -2
	}
	return -1
}

// plus adds o's moves to d's.
func (d *statusDelta) plus(o statusDelta) {
	d.keys, d.current, d.behind = d.keys+o.keys, d.current+o.current, d.behind+o.behind
	d.null, d.review, d.ai = d.null+o.null, d.review+o.review, d.ai+o.ai
}

// countBatch is how many keys one statement of CountKeys reads: a maximal sync touches
// hundreds of thousands, and SQLite takes at most 32,766 parameters.
const countBatch = 10000

// statusDelta is how one (project, language) of status_counts moves.
type statusDelta struct{ keys, current, behind, null, review, ai int64 }

func (d *statusDelta) add(share int, n int64) {
	switch share {
	case 1:
		d.current += n
	case -1:
		d.current += n
		d.review += n
	case -2:
		d.current += n
		d.ai += n
	case 2:
		d.behind += n
	case 3:
		d.null += n
	}
}

// CountKeys compares each row's recorded share with the one its key and value give now,
// moves the counters (its namespace's and its project's) by the difference and records the
// new share where it moved, so a write pays for the keys it touched only, and a new row
// that is current (stored marked so) is counted without being written again. The database
// compares and sums: a sync of 50,000 new keys sends no row back.
func (t *tx) CountKeys(ctx context.Context, touched model.TouchedKeys) error {
	deltas := map[countsAt]*statusDelta{}
	at := func(project string, namespace int64, language string) *statusDelta {
		d := deltas[countsAt{project, namespace, language}]
		if d == nil {
			d = &statusDelta{}
			deltas[countsAt{project, namespace, language}] = d
		}
		return d
	}
	// In id order a batch is often one run of ids (the keys a write created), which the
	// statements read as a range of the indexes instead of looking up each id of a list.
	sorted := slices.Clone(touched.IDs)
	slices.Sort(sorted)
	for start := 0; start < len(sorted); start += countBatch {
		ids := sorted[start:min(len(sorted), start+countBatch)]
		list, arg := t.idList(ids)
		keyIn, rowIn, batch := "k.id IN "+list, "t.key_id IN "+list, []any{arg}
		if ids[len(ids)-1]-ids[0] == int64(len(ids)-1) {
			keyIn, rowIn, batch = "k.id BETWEEN ? AND ?", "t.key_id BETWEEN ? AND ?", []any{ids[0], ids[len(ids)-1]}
		}
		// What the batch's keys and rows counted as before this write: nothing for what it
		// created, else their mark.
		var created []int64
		newRows := map[string][]int64{}
		for _, id := range ids {
			if touched.New[id] {
				created = append(created, id)
			}
			for _, l := range touched.NewRows[id] {
				newRows[l] = append(newRows[l], id)
			}
		}
		keyWas, rowWas := "k.counted", rowMark
		var keyArgs, rowArgs []any
		switch {
		case len(created) == len(ids):
			// A batch of new keys (a sync's): nothing of it counted yet.
			keyWas, rowWas = "0", "0"
		case len(created) > 0 || len(newRows) > 0:
			if len(created) > 0 {
				keyWas, keyArgs = "CASE WHEN k.id IN (?) THEN 0 ELSE k.counted END", []any{bun.In(created)}
			}
			rowWas = "CASE"
			if len(created) > 0 {
				rowWas += " WHEN t.key_id IN (?) THEN 0"
				rowArgs = append(rowArgs, bun.In(created))
			}
			for l, kids := range newRows {
				rowWas += " WHEN t.language = ? AND t.key_id IN (?) THEN 0"
				rowArgs = append(rowArgs, l, bun.In(kids))
			}
			rowWas += " ELSE " + rowMark + " END"
		}
		// One pass over the keys and one over their rows find what moved: the counters by
		// was -> now, the marks where mark <> now (most often nowhere).
		var keys []struct {
			ProjectID      string `bun:"project_id"`
			NamespaceID    int64  `bun:"namespace_id"`
			Mark, Was, Now int
			N              int64
		}
		if err := t.tx.NewRaw(`SELECT n.project_id, k.namespace_id, k.counted AS mark, `+keyWas+` AS was, `+keyShare+` AS now, COUNT(*) AS n
FROM translation_keys AS k JOIN namespaces AS n ON n.id = k.namespace_id
WHERE `+keyIn+` AND (k.counted <> `+keyShare+` OR `+keyWas+` <> `+keyShare+`)
GROUP BY n.project_id, k.namespace_id, k.counted, `+groupBy(keyWas)+keyShare, slices.Concat(keyArgs, batch, keyArgs, keyArgs)...).Scan(ctx, &keys); err != nil {
			return fmt.Errorf("counting keys: %w", err)
		}
		markKeys := false
		for _, r := range keys {
			at(r.ProjectID, r.NamespaceID, "").keys += int64(r.Now-r.Was) * r.N
			markKeys = markKeys || r.Mark != r.Now
		}
		var rows []struct {
			ProjectID      string `bun:"project_id"`
			NamespaceID    int64  `bun:"namespace_id"`
			Language       string
			Mark, Was, Now int
			N              int64
		}
		if err := t.tx.NewRaw(`SELECT n.project_id, k.namespace_id, t.language, `+rowMark+` AS mark, `+rowWas+` AS was, `+rowShare+` AS now, COUNT(*) AS n
FROM translations AS t
JOIN translation_keys AS k ON k.id = t.key_id
JOIN namespaces AS n ON n.id = k.namespace_id
`+driftJoin+`
WHERE `+rowIn+` AND (`+rowMark+` <> `+rowShare+` OR `+rowWas+` <> `+rowShare+`)
GROUP BY n.project_id, k.namespace_id, t.language, `+rowMark+`, `+groupBy(rowWas)+rowShare, slices.Concat(rowArgs, batch, rowArgs, rowArgs)...).Scan(ctx, &rows); err != nil {
			return fmt.Errorf("counting translations: %w", err)
		}
		var moves rowMoves
		for _, r := range rows {
			d := at(r.ProjectID, r.NamespaceID, r.Language)
			d.add(r.Was, -r.N)
			d.add(r.Now, r.N)
			moves.add(r.Mark, r.Now)
		}
		if markKeys {
			if err := t.markKeys(ctx, keyIn, batch...); err != nil {
				return err
			}
		}
		if moves != (rowMoves{}) {
			if err := t.markRows(ctx, moves, rowIn, batch...); err != nil {
				return err
			}
		}
	}
	if err := t.tallied(ctx, touched.Tallied, at); err != nil {
		return err
	}
	// The project's counters are the sums of its namespaces'.
	projects := map[[2]string]*statusDelta{}
	var namespaces []countsAt
	for c, d := range deltas {
		if *d == (statusDelta{}) {
			continue
		}
		namespaces = append(namespaces, c)
		p := projects[[2]string{c.project, c.language}]
		if p == nil {
			p = &statusDelta{}
			projects[[2]string{c.project, c.language}] = p
		}
		p.plus(*d)
	}
	// Each in one order, so that two writes moving the same rows wait for each other
	// instead of deadlocking.
	for _, pl := range slices.SortedFunc(maps.Keys(projects), func(a, b [2]string) int {
		return cmp.Or(strings.Compare(a[0], b[0]), strings.Compare(a[1], b[1]))
	}) {
		d := projects[pl]
		if *d == (statusDelta{}) {
			continue
		}
		if _, err := t.tx.NewRaw(`INSERT INTO status_counts AS c (project_id, language, key_count, current_rows, behind_rows, null_rows, review_rows, ai_rows)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (project_id, language) DO UPDATE SET `+addCounts, pl[0], pl[1], d.keys, d.current, d.behind, d.null, d.review, d.ai).Exec(ctx); err != nil {
			return fmt.Errorf("moving status counts: %w", err)
		}
	}
	slices.SortFunc(namespaces, func(a, b countsAt) int {
		return cmp.Or(cmp.Compare(a.namespace, b.namespace), strings.Compare(a.language, b.language))
	})
	for start := 0; start < len(namespaces); start += countRowsBatch {
		var values []string
		var args []any
		for _, c := range namespaces[start:min(len(namespaces), start+countRowsBatch)] {
			d := deltas[c]
			values = append(values, "(?, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, c.namespace, c.language, d.keys, d.current, d.behind, d.null, d.review, d.ai)
		}
		if _, err := t.tx.NewRaw(`INSERT INTO namespace_counts AS c (namespace_id, language, key_count, current_rows, behind_rows, null_rows, review_rows, ai_rows)
VALUES `+strings.Join(values, ", ")+`
ON CONFLICT (namespace_id, language) DO UPDATE SET `+addCounts, args...).Exec(ctx); err != nil {
			return fmt.Errorf("moving namespace counts: %w", err)
		}
	}
	return nil
}

// countsAt is one row of namespace_counts and the project it counts in.
type countsAt struct {
	project   string
	namespace int64
	language  string
}

// countRowsBatch is how many rows of namespace_counts one statement moves (8 parameters
// each; SQLite takes at most 32,766).
const countRowsBatch = 1000

// addCounts adds an upsert's excluded counters to the stored ones.
const addCounts = `key_count = c.key_count + excluded.key_count,
  current_rows = c.current_rows + excluded.current_rows, behind_rows = c.behind_rows + excluded.behind_rows,
  null_rows = c.null_rows + excluded.null_rows, review_rows = c.review_rows + excluded.review_rows,
  ai_rows = c.ai_rows + excluded.ai_rows`

// tallied adds the keys a write counted without reading them: each namespace's id is
// looked up by name, one statement per project.
func (t *tx) tallied(ctx context.Context, tallied []model.TalliedKeys, at func(string, int64, string) *statusDelta) error {
	names := map[string][]string{}
	for _, tk := range tallied {
		names[tk.Project] = append(names[tk.Project], tk.Namespace)
	}
	ids := map[[2]string]int64{}
	for project, ns := range names {
		var rows []namespaceRow
		if err := t.tx.NewSelect().Model(&rows).Column("id", "key").Where("project_id = ?", project).
			Where("key IN (?)", bun.In(ns)).Scan(ctx); err != nil {
			return fmt.Errorf("reading tallied namespaces: %w", err)
		}
		for _, r := range rows {
			ids[[2]string{project, r.Key}] = r.ID
		}
	}
	for _, tk := range tallied {
		id, ok := ids[[2]string{tk.Project, tk.Namespace}]
		if !ok {
			return fmt.Errorf("tallied keys in namespace %q of project %s, which does not exist", tk.Namespace, tk.Project)
		}
		at(tk.Project, id, "").keys += tk.Keys
		at(tk.Project, id, tk.Language).current += tk.Keys
	}
	return nil
}

// markKeys and markRows record the current share of the keys and rows where matches.
func (t *tx) markKeys(ctx context.Context, where string, args ...any) error {
	q := `UPDATE translation_keys AS k SET counted = ` + keyShare + ` WHERE ` + where + ` AND k.counted <> ` + keyShare
	res, err := t.tx.NewRaw(q, args...).Exec(ctx)
	if err != nil {
		return fmt.Errorf("marking counted keys: %w", err)
	}
	t.updated(res)
	return nil
}

// updated counts the rows an UPDATE of translations or translation_keys rewrote: unless
// PostgreSQL updated them in place, each went into the trigram indexes again.
func (t *tx) updated(res sql.Result) {
	if n, err := res.RowsAffected(); err == nil {
		t.indexed += int(n)
	}
}

// rowMoves says which statements of markRows may change something: each reads the rows
// again, and a source change only ever needs the first.
type rowMoves struct {
	drift   bool // a row's mark moves to one from 2 up, into translation_drift
	undrift bool // a row's mark moves from translation_drift to below 2
	counted bool // a row's mark moves to one below 2, into its counted column
}

func (m *rowMoves) add(mark, now int) {
	switch {
	case mark == now:
	case now >= 2:
		m.drift = true
	default:
		m.counted = true
		m.undrift = m.undrift || mark >= 2
	}
}

func (t *tx) markRows(ctx context.Context, moves rowMoves, where string, args ...any) error {
	// Marks from 2 up go to translation_drift, the others to the row itself (rowMark).
	rows := `FROM translations AS t JOIN translation_keys AS k ON k.id = t.key_id ` + driftJoin + ` WHERE ` + where
	if moves.drift {
		if _, err := t.tx.NewRaw(`INSERT INTO translation_drift (language, key_id, mark)
SELECT t.language, t.key_id, `+rowShare+` `+rows+` AND `+rowShare+` >= 2 AND `+rowMark+` <> `+rowShare+`
ON CONFLICT (language, key_id) DO UPDATE SET mark = excluded.mark`, args...).Exec(ctx); err != nil {
			return fmt.Errorf("marking drifted translations: %w", err)
		}
	}
	if moves.undrift {
		if _, err := t.tx.NewRaw(`DELETE FROM translation_drift WHERE (language, key_id) IN (SELECT t.language, t.key_id `+rows+`
  AND d.mark IS NOT NULL AND `+rowShare+` < 2)`, args...).Exec(ctx); err != nil {
			return fmt.Errorf("unmarking drifted translations: %w", err)
		}
	}
	if moves.counted {
		q := `UPDATE translations AS t SET counted = ` + rowShare + `
FROM translation_keys AS k WHERE k.id = t.key_id AND ` + where + ` AND ` + rowShare + ` < 2 AND t.counted <> ` + rowShare
		res, err := t.tx.NewRaw(q, args...).Exec(ctx)
		if err != nil {
			return fmt.Errorf("marking counted translations: %w", err)
		}
		t.updated(res)
	}
	return nil
}

// groupBy is a GROUP BY term for expr and a comma, or nothing for the constant 0, which
// SQL would read as a column position.
func groupBy(expr string) string {
	if expr == "0" {
		return ""
	}
	return expr + ", "
}

func (t *tx) StatusCounts(ctx context.Context, p model.Project) ([]model.LanguageCounts, error) {
	var rows []statusCountRow
	if err := t.tx.NewSelect().Model(&rows).Where("project_id = ?", p.ID).Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	var total int
	byLang := map[string]statusCountRow{}
	for _, r := range rows {
		if r.Language == "" {
			total = int(r.KeyCount)
		}
		byLang[r.Language] = r
	}
	out := make([]model.LanguageCounts, 0, len(p.EnabledLanguages))
	for _, code := range p.EnabledLanguages {
		r := byLang[code]
		out = append(out, model.LanguageCounts{Language: code, Total: total,
			Current: int(r.CurrentRows), Behind: int(r.BehindRows), NullVersion: int(r.NullRows),
			ToReview: int(r.ReviewRows), AIDrafts: int(r.AIRows)})
	}
	return out, nil
}

// Recount marks every key and row of the project with its share again and rebuilds the
// project's counters, per namespace and in all, from the marks: the repair when counters
// and rows disagree.
func (t *tx) Recount(ctx context.Context, projectID string) error {
	nsIn := `(SELECT id FROM namespaces WHERE project_id = ?)`
	in := `k.namespace_id IN ` + nsIn
	if err := t.markKeys(ctx, in, projectID); err != nil {
		return err
	}
	if err := t.markRows(ctx, rowMoves{true, true, true}, in, projectID); err != nil {
		return err
	}
	if _, err := t.tx.NewDelete().Model((*statusCountRow)(nil)).Where("project_id = ?", projectID).Exec(ctx); err != nil {
		return fmt.Errorf("dropping status counts: %w", err)
	}
	if _, err := t.tx.NewRaw(`DELETE FROM namespace_counts WHERE namespace_id IN `+nsIn, projectID).Exec(ctx); err != nil {
		return fmt.Errorf("dropping namespace counts: %w", err)
	}
	if _, err := t.tx.NewRaw(`INSERT INTO namespace_counts (namespace_id, language, key_count, current_rows, behind_rows, null_rows, review_rows, ai_rows)
SELECT k.namespace_id, '', COUNT(*), 0, 0, 0, 0, 0 FROM translation_keys AS k WHERE k.counted = 1 AND `+in+` GROUP BY k.namespace_id`, projectID).Exec(ctx); err != nil {
		return fmt.Errorf("counting keys: %w", err)
	}
	if _, err := t.tx.NewRaw(`INSERT INTO namespace_counts (namespace_id, language, key_count, current_rows, behind_rows, null_rows, review_rows, ai_rows)
SELECT k.namespace_id, t.language, 0,
  SUM(CASE WHEN `+rowMark+` IN `+currentMarks+` THEN 1 ELSE 0 END),
  SUM(CASE WHEN `+rowMark+` = 2 THEN 1 ELSE 0 END),
  SUM(CASE WHEN `+rowMark+` = 3 THEN 1 ELSE 0 END),
  SUM(CASE WHEN `+rowMark+` = -1 THEN 1 ELSE 0 END),
  SUM(CASE WHEN `+rowMark+` = -2 THEN 1 ELSE 0 END)
FROM translations AS t JOIN translation_keys AS k ON k.id = t.key_id `+driftJoin+`
WHERE `+rowMark+` BETWEEN -2 AND 3 AND `+rowMark+` <> 0 AND `+in+` GROUP BY k.namespace_id, t.language`, projectID).Exec(ctx); err != nil {
		return fmt.Errorf("counting translations: %w", err)
	}
	// The project's counters are the sums of its namespaces', and hold the keys' row
	// even when there are none.
	if _, err := t.tx.NewRaw(`INSERT INTO status_counts (project_id, language, key_count, current_rows, behind_rows, null_rows, review_rows, ai_rows)
SELECT ?, c.language, SUM(c.key_count), SUM(c.current_rows), SUM(c.behind_rows), SUM(c.null_rows), SUM(c.review_rows), SUM(c.ai_rows)
FROM namespace_counts AS c WHERE c.namespace_id IN `+nsIn+` GROUP BY c.language`, projectID, projectID).Exec(ctx); err != nil {
		return fmt.Errorf("summing status counts: %w", err)
	}
	if _, err := t.tx.NewRaw(`INSERT INTO status_counts (project_id, language, key_count, current_rows, behind_rows, null_rows, review_rows, ai_rows)
VALUES (?, '', 0, 0, 0, 0, 0, 0) ON CONFLICT (project_id, language) DO NOTHING`, projectID).Exec(ctx); err != nil {
		return fmt.Errorf("counting keys: %w", err)
	}
	return nil
}

// namespaceCounts reads the project's counters of language "" (the keys) and of language
// per namespace, by name, in name order; a namespace without counters has zeros.
func (t *tx) namespaceCounts(ctx context.Context, projectID, language string) ([]model.NamespaceProgress, error) {
	var rows []struct {
		Namespace                                                   string
		Keys, CurrentRows, BehindRows, NullRows, ReviewRows, AIRows int64
	}
	if err := t.tx.NewRaw(`SELECT n.key AS namespace, COALESCE(k.key_count, 0) AS keys, COALESCE(c.current_rows, 0) AS current_rows,
  COALESCE(c.behind_rows, 0) AS behind_rows, COALESCE(c.null_rows, 0) AS null_rows, COALESCE(c.review_rows, 0) AS review_rows,
  COALESCE(c.ai_rows, 0) AS ai_rows
FROM namespaces AS n
LEFT JOIN namespace_counts AS k ON k.namespace_id = n.id AND k.language = ''
LEFT JOIN namespace_counts AS c ON c.namespace_id = n.id AND c.language = ?
WHERE n.project_id = ? ORDER BY n.key`, language, projectID).Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.NamespaceProgress, len(rows))
	for i, r := range rows {
		out[i] = model.NamespaceProgress{Namespace: r.Namespace, LanguageCounts: model.LanguageCounts{Language: language,
			Total: int(r.Keys), Current: int(r.CurrentRows), Behind: int(r.BehindRows), NullVersion: int(r.NullRows),
			ToReview: int(r.ReviewRows), AIDrafts: int(r.AIRows)}}
	}
	return out, nil
}

// NamespaceProgress implements model.CountsTx from the namespaces' counters.
func (t *tx) NamespaceProgress(ctx context.Context, projectID, language string) ([]model.NamespaceProgress, error) {
	all, err := t.namespaceCounts(ctx, projectID, language)
	if err != nil {
		return nil, err
	}
	out := make([]model.NamespaceProgress, 0, len(all))
	for _, n := range all {
		if n.Total > 0 {
			out = append(out, n)
		}
	}
	return out, nil
}

func (t *tx) NamespaceRowCounts(ctx context.Context, projectID, language string) (map[string]model.LanguageCounts, error) {
	all, err := t.namespaceCounts(ctx, projectID, language)
	if err != nil {
		return nil, err
	}
	out := make(map[string]model.LanguageCounts, len(all))
	for _, n := range all {
		out[n.Namespace] = n.LanguageCounts
	}
	return out, nil
}

// StaleKeys lists the visible keys of the namespace whose row in language was made against
// an older source value (with includeNull, or against none), bytewise sorted: the rows
// the stale list needs are the language's entries of translation_drift, whatever the
// namespace's size.
func (t *tx) StaleKeys(ctx context.Context, ns model.Namespace, language string, includeNull bool) ([]string, error) {
	shares := []int{2, 4}
	if includeNull {
		shares = append(shares, 3, 5)
	}
	var keys []string
	if err := t.tx.NewRaw(`SELECT k.key FROM translation_drift AS d CROSS JOIN translation_keys AS k
WHERE d.language = ? AND d.mark IN (?) AND k.id = d.key_id AND k.namespace_id = ?`, language, bun.In(shares), ns.ID).Scan(ctx, &keys); err != nil {
		return nil, mapError(err)
	}
	sort.Strings(keys)
	return keys, nil
}
