package storage

import (
	"context"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// The review queue in key order: namespace by namespace in name order, each read in
// keys_namespace_key from the cursor on, so a page is an index range scan and a write
// between pages neither skips nor repeats a row. Per namespace, a filter reads in one of
// two shapes (ReviewRows' comment has them): a walk of the keys in order, each joined to its
// rows, when most keys pass or the namespace's counters say at least 1 in reviewDense does;
// otherwise a drive from the few rows the filter's index holds (translations_review,
// translations_ai_drafts, translation_drift, the commented keys, the trigram candidates)
// within the namespace's key ids, sorted by key: at most a few thousand rows. A walk and
// the trigram candidates read their keys through keysInOrder, which the page's LIMIT stops.

// reviewDense is the share of a namespace's keys from which a walk finds a page sooner
// than a drive sorts them; reviewDriveMax the rows a drive always may sort.
const (
	reviewDense    = 100
	reviewDriveMax = 2000
)

// reviewOrder is the ORDER BY of key order in a namespace and the condition "after key"
// that bounds it, both answered from keys_namespace_key.
func (t *tx) reviewOrder() (order, after string, args func(string) []any) {
	if !t.db.postgres {
		return "k.key", "k.key > ?", func(k string) []any { return []any{k} }
	}
	const p = `substr(k.key, 1, 200) COLLATE "C"`
	const q = `substr(?, 1, 200) COLLATE "C"`
	return p + `, k.key COLLATE "C"`,
		p + " >= " + q + " AND (" + p + " > " + q + ` OR k.key COLLATE "C" > ? COLLATE "C")`,
		func(k string) []any { return []any{k, k, k} }
}

// ReviewQueueRows reads a page of the queue in key order (model.Tx).
func (t *tx) ReviewQueueRows(ctx context.Context, f model.ReviewFilter) (_ []model.ReviewRow, stop model.ReviewCursor, _ error) {
	var nss []namespaceRow
	q := t.tx.NewSelect().Model(&nss).Column("id", "key").Where("project_id = ?", f.ProjectID)
	if f.Namespace != "" {
		q = q.Where("key = ?", f.Namespace)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, stop, mapError(err)
	}
	slices.SortFunc(nss, func(a, b namespaceRow) int { return strings.Compare(a.Key, b.Key) })
	out := []model.ReviewRow{}
	ids := make([]int64, len(nss))
	for i, n := range nss {
		ids[i] = n.ID
	}
	lo, hi, err := t.idRange(ctx, ids)
	if err != nil || hi == 0 {
		return out, stop, err
	}
	// Text the trigram indexes narrow is looked for among the keys they name.
	var textKeys []int64
	textIndexed, narrowed := false, false
	if f.Text != "" {
		if textKeys, textIndexed, narrowed, err = t.textCandidates(ctx, f.Text, []string{f.SourceLanguage, f.Language}, lo, hi); err != nil {
			return nil, stop, err
		}
		if narrowed && len(textKeys) == 0 {
			return out, stop, nil
		}
	}
	var counts map[string]model.LanguageCounts
	if f.Stale || f.AIDrafts || f.Status == model.StatusNeedsReview || f.Missing {
		if counts, err = t.NamespaceRowCounts(ctx, f.ProjectID, f.Language); err != nil {
			return nil, stop, err
		}
	}
	window := f.Window
	for _, ns := range nss {
		if ns.Key < f.After.Namespace {
			continue
		}
		after := ""
		if ns.Key == f.After.Namespace {
			after = f.After.Key
		}
		c, counted := counts[ns.Key]
		if f.Missing && counted && c.Total-c.Current-c.Behind-c.NullVersion <= 0 {
			continue // the counters say nothing is missing here
		}
		// Held-back rows are few (translations_held holds only them): always a drive.
		drive := narrowed || f.HasComments || f.Held
		if f.Stale || f.AIDrafts || f.Status == model.StatusNeedsReview {
			// At most this many rows pass: the stale ones may have any status.
			most := c.Behind + c.NullVersion
			if !f.Stale {
				most += c.AIDrafts
				if !f.AIDrafts {
					most += c.ToReview
				}
			}
			drive = most <= max(reviewDriveMax, c.Total/reviewDense)
		}
		// A walk reads at most the window's keys; where the window ends is looked up only
		// when the page is not full by then, since finding it reads the whole window.
		walkWindow := int64(0)
		if !drive {
			walkWindow = window
		}
		room := 0
		if f.Limit > 0 {
			room = f.Limit - len(out)
		}
		rows, err := t.reviewNamespace(ctx, f, ns, after, walkWindow, drive, narrowed, textIndexed, textKeys, room)
		if err != nil {
			return nil, stop, err
		}
		out = append(out, rows...)
		if f.Limit > 0 && len(out) >= f.Limit {
			return out, model.ReviewCursor{}, nil
		}
		if walkWindow > 0 {
			end, n, err := t.keysAfter(ctx, ns.ID, after, window)
			if err != nil {
				return nil, stop, err
			}
			if n >= window {
				return out, model.ReviewCursor{Namespace: ns.Key, Key: end}, nil
			}
			window -= n
		}
	}
	return out, model.ReviewCursor{}, nil
}

// keysAfter finds, in namespace ns's key order after key after, the n-th key (n =
// window) or, when there are fewer, how many there are.
func (t *tx) keysAfter(ctx context.Context, nsID int64, after string, window int64) (end string, n int64, _ error) {
	order, cond, args := t.reviewOrder()
	var keys []string
	if err := t.tx.NewRaw("SELECT k.key FROM translation_keys AS k WHERE k.namespace_id = ? AND "+cond+" ORDER BY "+order+" LIMIT 1 OFFSET ?",
		append(append([]any{nsID}, args(after)...), window-1)...).Scan(ctx, &keys); err != nil {
		return "", 0, mapError(err)
	}
	if len(keys) == 1 {
		return keys[0], window, nil
	}
	if err := t.tx.NewRaw("SELECT COUNT(*) FROM translation_keys AS k WHERE k.namespace_id = ? AND "+cond,
		append([]any{nsID}, args(after)...)...).Scan(ctx, &n); err != nil {
		return "", 0, mapError(err)
	}
	return "", n, nil
}

// keysInOrder is the keys a page looks at, as a subquery k in key order whose rows the
// joins to the keys' values read as they go, so that they stop at a full page: the first
// window keys of namespace nsID after key after (a walk, from keys_namespace_key), or of
// those among ids (the candidates of a text search, sorted before any is joined). ordered
// is the ORDER BY of k's rows: on PostgreSQL its terms are k's columns, which tells the
// planner they come sorted.
func (t *tx) keysInOrder(nsID int64, after string, window int64, ids []int64) (from, ordered string, args []any) {
	order, cond, keyArgs := t.reviewOrder()
	cols, ordered := "k.id, k.key, k.namespace_id, k.hidden, k.source_version", "k.key"
	if t.db.postgres {
		cols += `, substr(k.key, 1, 200) COLLATE "C" AS key_prefix, k.key COLLATE "C" AS key_c`
		ordered = "k.key_prefix, k.key_c"
	}
	where := "k.namespace_id = ? AND " + cond
	args = append([]any{nsID}, keyArgs(after)...)
	if ids != nil {
		// + keeps SQLite to the candidates in the primary key, not the namespace's keys.
		where = "k.id IN (?) AND +" + where
		args = append([]any{bun.In(ids)}, args...)
	}
	from = "(SELECT " + cols + " FROM translation_keys AS k WHERE " + where + " ORDER BY " + order + " LIMIT ?) AS k"
	return from, ordered, append(args, window)
}

// reviewNamespace reads up to limit rows of namespace ns after key after, in key order; a
// walk (not drive) reads only the window keys after it when window > 0.
func (t *tx) reviewNamespace(ctx context.Context, f model.ReviewFilter, ns namespaceRow, after string, window int64, drive, narrowed, textIndexed bool,
	textKeys []int64, limit int) ([]model.ReviewRow, error) {
	order, afterCond, keyArgs := t.reviewOrder()
	keys := "translation_keys AS k"
	var keysArgs []any
	windowed := !drive && window > 0
	// A walk's window, or the candidates of a text search (a drive by key), are read in
	// key order from keysInOrder.
	keyed := windowed || (narrowed && !f.HasComments)
	switch {
	case windowed:
		keys, order, keysArgs = t.keysInOrder(ns.ID, after, window, nil)
	case keyed:
		// The LIMIT (at most every candidate) keeps SQLite from flattening the subquery
		// into the joins, which would sort after joining every candidate.
		keys, order, keysArgs = t.keysInOrder(ns.ID, after, int64(len(textKeys)), textKeys)
	}
	id := "k.id"
	var from string
	var args []any
	byRows := drive && !narrowed && !f.HasComments // from the filter's partial index or drift marks
	switch {
	case byRows || (drive && f.HasComments):
		from, args, id = t.reviewDrive(f, byRows)
	case t.db.postgres && f.Text != "" && !textIndexed && !windowed:
		from, args = scanPG, []any{f.SourceLanguage, f.Language}
	case t.db.postgres:
		from, args = keys+walkRowsPG, append(keysArgs, f.SourceLanguage, f.Language)
	default:
		from, args = keys+walkRowsSQLite, append(keysArgs, f.Language)
	}
	args = append([]any{f.Language}, args...)
	where := []string{"NOT k.hidden", "s.value <> ''"}
	w, a := t.reviewJoins(f, byRows, drive && f.HasComments)
	where, args = append(where, w...), append(args, a...)
	switch {
	case keyed:
		// The namespace, the cursor and the candidates are keysInOrder's.
	case drive:
		// The rows are found by key id; the namespace's ids lie between lo and hi.
		lo, hi, err := t.idRange(ctx, []int64{ns.ID})
		if err != nil || hi == 0 {
			return nil, err
		}
		// + keeps SQLite from walking keys_namespace_key, which would be the walk.
		where = append(where, "+k.namespace_id = ?", id+" BETWEEN ? AND ?")
		args = append(args, ns.ID, lo, hi)
		if narrowed {
			where = append(where, id+" IN (?)")
			args = append(args, bun.In(textKeys))
		}
	default:
		where = append(where, "k.namespace_id = ?")
		args = append(args, ns.ID)
	}
	if !keyed {
		where = append(where, afterCond)
		args = append(args, keyArgs(after)...)
	}
	w, a = t.reviewConditions(f, !drive, f.HasComments && !drive)
	where, args = append(where, w...), append(args, a...)
	if drive && !keyed && !t.db.postgres {
		order = "+" + order // sorted after the drive, never walked
	}
	query := "SELECT " + reviewColumns + "\nFROM " + from + "\nWHERE " + strings.Join(where, " AND ") + "\nORDER BY " + order
	if limit > 0 {
		query += " LIMIT ?"
		args = append(args, limit)
	}
	var rows []reviewRow
	if err := t.tx.NewRaw(query, args...).Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.ReviewRow, len(rows))
	for i, r := range rows {
		out[i] = r.row(ns.Key, f)
	}
	return out, nil
}
