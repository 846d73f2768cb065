package storage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// passwordRow is a user's password hash (argon2id, encoded with its parameters and salt).
type passwordRow struct {
	bun.BaseModel `bun:"table:user_passwords"`
	UserID        string    `bun:"user_id,pk,type:varchar(36)"`
	Hash          string    `bun:"hash,notnull"`
	UpdatedAt     time.Time `bun:"updated_at,notnull"`
}

// sessionRow is a signed-in browser; Hash is a keyed hash of the cookie's token.
type sessionRow struct {
	bun.BaseModel `bun:"table:sessions"`
	Hash          string    `bun:"hash,pk"`
	UserID        string    `bun:"user_id,notnull,type:varchar(36)"`
	WorkspaceID   string    `bun:"workspace_id,notnull,type:varchar(36)"`
	CSRF          string    `bun:"csrf,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
	ExpiresAt     time.Time `bun:"expires_at,notnull"`
}

func (t *tx) SetPassword(ctx context.Context, userID, hash string) error {
	if _, err := t.User(ctx, userID); err != nil {
		return err
	}
	if _, err := t.tx.NewInsert().Model(&passwordRow{UserID: userID, Hash: hash, UpdatedAt: now()}).
		On("CONFLICT (user_id) DO UPDATE").Set("hash = EXCLUDED.hash, updated_at = EXCLUDED.updated_at").Exec(ctx); err != nil {
		return mapError(err)
	}
	return t.DeleteUserSessions(ctx, userID)
}

func (t *tx) Credentials(ctx context.Context, email string) ([]model.Credential, error) {
	var rows []struct {
		userRow
		Hash *string `bun:"hash"`
	}
	err := t.tx.NewSelect().TableExpr("users AS u").
		ColumnExpr("u.id, u.workspace_id, u.email, u.role, u.confirmed_at, u.created_at, u.disabled_at, p.hash").
		Join("LEFT JOIN user_passwords AS p ON p.user_id = u.id").
		Where("u.email = ?", email).OrderExpr("u.created_at, u.id").Scan(ctx, &rows)
	if err != nil {
		return nil, mapError(err)
	}
	out := make([]model.Credential, len(rows))
	for i, r := range rows {
		out[i] = model.Credential{User: r.user()}
		if r.Hash != nil {
			out[i].PasswordHash = *r.Hash
		}
	}
	return out, nil
}

func (t *tx) CreateSession(ctx context.Context, s model.Session) error {
	_, err := t.tx.NewInsert().Model(&sessionRow{Hash: s.Hash, UserID: s.UserID, WorkspaceID: s.WorkspaceID, CSRF: s.CSRF,
		CreatedAt: s.CreatedAt.UTC(), ExpiresAt: s.ExpiresAt.UTC()}).Exec(ctx)
	return mapError(err)
}

func (t *tx) SessionByHash(ctx context.Context, hash string) (model.Session, error) {
	var r sessionRow
	if err := t.tx.NewSelect().Model(&r).Where("hash = ?", hash).Scan(ctx); err != nil {
		return model.Session{}, notFound(err, "session")
	}
	return model.Session{Hash: r.Hash, UserID: r.UserID, WorkspaceID: r.WorkspaceID, CSRF: r.CSRF, CreatedAt: r.CreatedAt, ExpiresAt: r.ExpiresAt}, nil
}

func (t *tx) DeleteSession(ctx context.Context, hash string) error {
	_, err := t.tx.NewDelete().Model((*sessionRow)(nil)).Where("hash = ?", hash).Exec(ctx)
	return mapError(err)
}

func (t *tx) DeleteUserSessions(ctx context.Context, userID string) error {
	_, err := t.tx.NewDelete().Model((*sessionRow)(nil)).Where("user_id = ?", userID).Exec(ctx)
	return mapError(err)
}

// reviewRow is one row of the review queue query; the t_ columns are NULL while the
// language has no value.
type reviewRow struct {
	NamespaceID   int64     `bun:"namespace_id"`
	Key           string    `bun:"key"`
	KeyID         int64     `bun:"key_id"`
	KeyVersion    int64     `bun:"key_version"`
	SID           int64     `bun:"s_id"`
	SValue        string    `bun:"s_value"`
	SStatus       string    `bun:"s_status"`
	SUpdatedBy    string    `bun:"s_updated_by"`
	SUpdatedAt    time.Time `bun:"s_updated_at"`
	TID           *int64    `bun:"t_id"`
	TValue        *string   `bun:"t_value"`
	TStatus       *string   `bun:"t_status"`
	TDNT          *bool     `bun:"t_dnt"`
	TLocked       *bool     `bun:"t_locked"`
	TSourceVer    *int64    `bun:"t_source_version"`
	TUpdatedBy    *string   `bun:"t_updated_by"`
	TUpdatedAt    time.Time `bun:"t_updated_at,nullzero"`
	THeld         *string   `bun:"t_held"`
	TServed       *string   `bun:"t_served_value"`
	CommentsCount int       `bun:"comments"`
}

// The review queue's columns and the shapes of its FROM clause. A page is the first rows
// in key id order (the order keys were added, which keeps the strings of one screen
// together), found without sorting the project:
//   - walk: the project's keys by id, each joined to its two rows, stopping when the page
//     is full; for filters most rows pass (all, missing, approved, text).
//   - drive: the language's rows in a partial index by key id (translations_review,
//     translations_ai_drafts, translations_held), each joined to its key; for filters few
//     rows pass (AI drafts, needs review, held back), which a walk would answer only after
//     reading the project.
//   - drift: the drive for the stale filter, from the language's entries of
//     translation_drift by key id, each joined to its row and key.
//   - commented: the walk, over the keys with a comment in the language only.
//   - scan (text search on PostgreSQL that no trigram index narrows): joins the planner
//     orders.
//
// The shapes are forced, not left to the planner: on SQLite by CROSS JOIN (the tables in
// the order written), on PostgreSQL by LATERAL subqueries with a LIMIT, which it cannot
// flatten into a join and so runs per row of the table before them; at a million keys its
// estimates chose hash joins over the whole project instead (3.4 s for missing).
const (
	reviewColumns = `k.id AS key_id, k.key AS key, k.namespace_id AS namespace_id, k.source_version AS key_version,
  s.id AS s_id, s.value AS s_value, s.status AS s_status, s.updated_by AS s_updated_by, s.updated_at AS s_updated_at,
  t.id AS t_id, t.value AS t_value, t.status AS t_status, t.do_not_translate AS t_dnt, t.language_locked AS t_locked,
  t.source_version AS t_source_version, t.updated_by AS t_updated_by, t.updated_at AS t_updated_at,
  t.held AS t_held, t.served_value AS t_served_value,
  (SELECT COUNT(*) FROM comments AS c WHERE c.key_id = k.id AND c.language = ?) AS comments`
	reviewSource = `(SELECT id, value, status, updated_by, updated_at FROM translations WHERE key_id = k.id AND language = ? LIMIT 1)`
	reviewTarget = `(SELECT id, value, status, do_not_translate, language_locked, source_version, updated_by, updated_at, counted, incomplete, held, served_value
  FROM translations WHERE key_id = k.id AND language = ? LIMIT 1)`
	walkSQLite = `translation_keys AS k` + walkRowsSQLite
	walkPG     = `translation_keys AS k` + walkRowsPG
	// A walk's joins from its keys k to their two rows, whichever the keys' source.
	walkRowsSQLite = ` CROSS JOIN translations AS s LEFT JOIN translations AS t ON t.key_id = k.id AND t.language = ?`
	walkRowsPG     = ` CROSS JOIN LATERAL ` + reviewSource + ` AS s LEFT JOIN LATERAL ` + reviewTarget + ` AS t ON true`
	// A text search no trigram index narrows (two letters, or no pg_trgm) reads the project
	// whatever the shape: PostgreSQL's hash joins read it faster than a forced walk (0.44 s
	// against 1.1 s at 100,000 keys).
	scanPG = `translation_keys AS k JOIN translations AS s ON s.key_id = k.id AND s.language = ?
  LEFT JOIN translations AS t ON t.key_id = k.id AND t.language = ?`
	driveSQLite = `translations AS t CROSS JOIN translation_keys AS k CROSS JOIN translations AS s`
	reviewKey   = `(SELECT id, key, namespace_id, hidden, source_version FROM translation_keys WHERE id = %s LIMIT 1)`
	drivePG     = `translations AS t CROSS JOIN LATERAL ` + reviewKey + ` AS k CROSS JOIN LATERAL ` + reviewSource + ` AS s`
	driftSQLite = `translation_drift AS d CROSS JOIN ` + driveSQLite
	driftPG     = `translation_drift AS d CROSS JOIN LATERAL (SELECT id, key_id, language, value, status, do_not_translate, language_locked, source_version, updated_by, updated_at, counted, incomplete, held, served_value
  FROM translations WHERE key_id = d.key_id AND language = d.language LIMIT 1) AS t CROSS JOIN LATERAL ` + reviewKey + ` AS k CROSS JOIN LATERAL ` + reviewSource + ` AS s`
	commented = `(SELECT DISTINCT key_id FROM comments WHERE language = ?) AS ck CROSS JOIN `
)

// ReviewRows finds a page of the review queue: the project's visible keys with a source
// value, in id order from f.AfterKeyID, that pass f's filter.
func (t *tx) ReviewRows(ctx context.Context, f model.ReviewFilter) (_ []model.ReviewRow, through int64, _ error) {
	var nss []namespaceRow
	q := t.tx.NewSelect().Model(&nss).Column("id", "key").Where("project_id = ?", f.ProjectID)
	if f.Namespace != "" {
		q = q.Where("key = ?", f.Namespace)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, 0, mapError(err)
	}
	if len(nss) == 0 {
		return []model.ReviewRow{}, 0, nil
	}
	names := make(map[int64]string, len(nss))
	ids := make([]int64, len(nss))
	for i, n := range nss {
		names[n.ID], ids[i] = n.Key, n.ID
	}
	// The project's keys lie between lo and hi: a walk by id stays in that range.
	var lo, hi int64
	if len(f.KeyIDs) == 0 {
		var err error
		if lo, hi, err = t.idRange(ctx, ids); err != nil || hi == 0 {
			return []model.ReviewRow{}, 0, err
		}
	}
	// Text the trigram indexes narrow is looked for among the keys they name, as Search
	// does; text too common for them is found within a few keys of a walk.
	var textKeys []int64
	textIndexed, narrowed := false, false
	if f.Text != "" && len(f.KeyIDs) == 0 {
		var err error
		if textKeys, textIndexed, narrowed, err = t.textCandidates(ctx, f.Text, []string{f.SourceLanguage, f.Language}, lo, hi); err != nil {
			return nil, 0, err
		}
		if narrowed && len(textKeys) == 0 {
			return []model.ReviewRow{}, 0, nil
		}
	}
	// The filters the partial indexes hold start from the language's rows.
	drive := len(f.KeyIDs) == 0 && (f.Stale || f.AIDrafts || f.Held || f.Status == model.StatusNeedsReview)
	byComments := len(f.KeyIDs) == 0 && !drive && f.HasComments
	// A walk of the project's keys reads a window of ids at a time when asked to: the rows
	// a filter passes may be few or none (missing in a finished language).
	walk := len(f.KeyIDs) == 0 && !drive && !byComments && !narrowed
	first, last := lo, hi
	if walk && f.Window > 0 {
		first = max(lo, f.AfterKeyID+1)
		if first+f.Window-1 < hi {
			last, through = first+f.Window-1, first+f.Window-1
		}
	}
	id := "k.id"
	var from string
	var args []any
	switch {
	case drive || byComments:
		from, args, id = t.reviewDrive(f, drive)
	case t.db.postgres && f.Text != "" && !textIndexed && through == 0:
		from, args = scanPG, []any{f.SourceLanguage, f.Language}
	case t.db.postgres:
		from, args = walkPG, []any{f.SourceLanguage, f.Language}
	default:
		from, args = walkSQLite, []any{f.Language}
	}
	// One namespace is walked in its (namespace_id, id) index; several in the primary key's
	// id order, the namespaces a filter (+ keeps SQLite from an index it would then sort).
	inNamespaces := "+k.namespace_id IN (?)"
	if len(ids) == 1 {
		inNamespaces = "k.namespace_id IN (?)"
	}
	where := []string{inNamespaces, "NOT k.hidden", "s.value <> ''"}
	args = append([]any{f.Language}, append(args, bun.In(ids))...)
	w, a := t.reviewJoins(f, drive, byComments)
	where, args = append(where, w...), append(args, a...)
	switch {
	case narrowed:
		// The candidates are in the range already; a range beside them would lead
		// PostgreSQL to walk it.
		where = append(where, id+" IN (?)")
		args = append(args, bun.In(textKeys))
	case len(f.KeyIDs) == 0:
		where = append(where, id+" BETWEEN ? AND ?")
		args = append(args, first, last)
	default:
		where = append(where, "k.id IN (?)")
		args = append(args, bun.In(f.KeyIDs))
	}
	if f.AfterKeyID > 0 {
		where = append(where, id+" > ?")
		args = append(args, f.AfterKeyID)
	}
	w, a = t.reviewConditions(f, walk, f.HasComments && !byComments)
	where, args = append(where, w...), append(args, a...)
	query := "SELECT " + reviewColumns + "\nFROM " + from + "\nWHERE " + strings.Join(where, " AND ") + "\nORDER BY " + id
	if f.Limit > 0 {
		query += " LIMIT ?"
		args = append(args, f.Limit)
	}
	var rows []reviewRow
	if err := t.tx.NewRaw(query, args...).Scan(ctx, &rows); err != nil {
		return nil, 0, mapError(err)
	}
	if f.Limit > 0 && len(rows) >= f.Limit {
		through = 0 // the page filled within the window
	}
	out := make([]model.ReviewRow, len(rows))
	for i, r := range rows {
		out[i] = r.row(names[r.NamespaceID], f)
	}
	return out, through, nil
}

// reviewDrive is the FROM of a review query driven from a few rows rather than walked over
// keys, for both queue shapes: byRows, from the filter's partial index of translations (or
// from translation_drift when stale); else from the commented keys. id is the column the
// rows are found by.
func (t *tx) reviewDrive(f model.ReviewFilter, byRows bool) (from string, args []any, id string) {
	switch {
	case byRows && f.Stale && t.db.postgres:
		return fmt.Sprintf(driftPG, "d.key_id"), []any{f.SourceLanguage}, "d.key_id"
	case byRows && f.Stale:
		return driftSQLite, nil, "d.key_id"
	case byRows && t.db.postgres:
		return fmt.Sprintf(drivePG, "t.key_id"), []any{f.SourceLanguage}, "t.key_id"
	case byRows:
		return driveSQLite, nil, "t.key_id"
	case t.db.postgres:
		return commented + `LATERAL ` + fmt.Sprintf(reviewKey, "ck.key_id") + ` AS k CROSS JOIN LATERAL ` + reviewSource + ` AS s LEFT JOIN LATERAL ` + reviewTarget + ` AS t ON true`,
			[]any{f.Language, f.SourceLanguage, f.Language}, "ck.key_id"
	default:
		return commented + walkSQLite, []any{f.Language, f.Language}, "ck.key_id"
	}
}

// reviewJoins are the conditions that tie a review query's tables together, for both queue
// shapes: the target rows of the language (byRows: driven from translations, or from
// translation_drift when stale) and, on SQLite, whose CROSS JOINs carry no ON, the source
// row, the key of a driven row and the commented keys (byComments).
func (t *tx) reviewJoins(f model.ReviewFilter, byRows, byComments bool) (where []string, args []any) {
	if byRows && f.Stale {
		where = append(where, "d.language = ?", "t.key_id = d.key_id", "t.language = d.language")
		args = append(args, f.Language)
	} else if byRows {
		where = append(where, "t.language = ?")
		args = append(args, f.Language)
	}
	if !t.db.postgres {
		where = append(where, "s.key_id = k.id", "s.language = ?")
		args = append(args, f.SourceLanguage)
		if byRows {
			where = append(where, "k.id = t.key_id")
		}
		if byComments {
			where = append(where, "k.id = ck.key_id")
		}
	}
	return where, args
}

// reviewConditions are the conditions of a review filter on a row's key k, source s and
// target t, the one rule of both queue shapes (ReviewRows by key id, reviewNamespace in key
// order). walk: the rows are read key by key, so the status is checked per key (SQLite
// would otherwise read the language's rows of that status from translations_status_key and
// sort them: 1.6 s for approved at a million keys). comments: the commented keys are a
// condition, not the table the rows are driven from.
func (t *tx) reviewConditions(f model.ReviewFilter, walk, comments bool) (where []string, args []any) {
	if f.Status != "" {
		status := "t.status = ?"
		if walk && !t.db.postgres {
			status = "+" + status
		}
		where = append(where, status)
		args = append(args, f.Status)
	}
	if f.AIDrafts {
		// As translations_ai_drafts' predicate reads, so that SQLite sees the index applies;
		// PostgreSQL, estimating the pattern selective, sorted a bitmap of every draft
		// under translations_review instead of reading this one in order.
		where = append(where, "t.status = 'needs_review'", "t.updated_by LIKE 'ai:%'")
	}
	if f.Held {
		// As translations_held's predicate reads, so that SQLite sees the index applies.
		where = append(where, "t.held <> ''")
	}
	if f.Stale {
		// The rows' marks (CountsHook) in translation_drift say they are behind their
		// source or have no version.
		where = append(where, "t.value <> ''", "(t.source_version IS NULL OR t.source_version < k.source_version)")
	}
	if f.Missing {
		// A plural family lacking a form its language needs is missing too (incomplete).
		where = append(where, "(t.id IS NULL OR t.value = '' OR t.incomplete)")
	}
	if comments {
		where = append(where, "k.id IN (SELECT key_id FROM comments WHERE language = ?)")
		args = append(args, f.Language)
	}
	if f.Text != "" {
		p := likePattern(f.Text)
		l := t.db.lower()
		where = append(where, "("+l+`(k.key) LIKE ? ESCAPE '\' OR `+l+`(s.value) LIKE ? ESCAPE '\' OR `+l+`(t.value) LIKE ? ESCAPE '\')`)
		args = append(args, p, p, p)
	}
	return where, args
}

// row is r as the queue's model has it, in namespace ns.
func (r reviewRow) row(ns string, f model.ReviewFilter) model.ReviewRow {
	out := model.ReviewRow{Namespace: ns, Key: r.Key, KeyID: r.KeyID, SourceVersion: r.KeyVersion, Comments: r.CommentsCount,
		Source: model.TranslationState{ID: r.SID, Language: f.SourceLanguage, Value: r.SValue, Status: r.SStatus, UpdatedBy: r.SUpdatedBy, UpdatedAt: r.SUpdatedAt}}
	if r.TID != nil {
		out.Value = &model.TranslationState{ID: *r.TID, Language: f.Language, Value: deref(r.TValue), Status: deref(r.TStatus),
			DoNotTranslate: r.TDNT != nil && *r.TDNT, LanguageLocked: r.TLocked != nil && *r.TLocked, SourceVersion: r.TSourceVer,
			UpdatedBy: deref(r.TUpdatedBy), UpdatedAt: r.TUpdatedAt, Held: deref(r.THeld), ServedValue: r.TServed}
	}
	return out
}

// keyRange is the smallest and largest key id of a project (0, 0 without keys).
func (t *tx) keyRange(ctx context.Context, projectID string) (lo, hi int64, err error) {
	return t.idRangeWhere(ctx, "n.project_id = ?", projectID)
}

// idRange is the smallest and largest key id of the namespaces (0, 0 without keys).
func (t *tx) idRange(ctx context.Context, nss []int64) (lo, hi int64, err error) {
	if len(nss) == 0 {
		return 0, 0, nil
	}
	return t.idRangeWhere(ctx, "n.id IN (?)", bun.In(nss))
}

// idRangeWhere is the smallest and largest key id of the namespaces n that cond selects,
// each end of each namespace found in the (namespace_id, id) index, in one statement: a
// project of 20 namespaces paid 20 round trips for it on every search.
func (t *tx) idRangeWhere(ctx context.Context, cond string, arg any) (lo, hi int64, err error) {
	var mn, mx *int64
	if err := t.tx.NewRaw(`SELECT MIN((SELECT id FROM translation_keys WHERE namespace_id = n.id ORDER BY id LIMIT 1)),
  MAX((SELECT id FROM translation_keys WHERE namespace_id = n.id ORDER BY id DESC LIMIT 1))
FROM namespaces AS n WHERE `+cond, arg).Scan(ctx, &mn, &mx); err != nil {
		return 0, 0, mapError(err)
	}
	if mn == nil || mx == nil {
		return 0, 0, nil
	}
	return *mn, *mx, nil
}

func (t *tx) RowHistory(ctx context.Context, keyID int64, language string, limit int) ([]model.HistoryEntry, error) {
	var rows []historyRow
	q := t.tx.NewSelect().Model(&rows).Where("key_id = ?", keyID).Where("language = ?", language).OrderExpr("id DESC")
	if limit > 0 {
		q = q.Limit(int64(limit))
	}
	if err := q.Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.HistoryEntry, len(rows))
	for i, r := range rows {
		out[i] = model.HistoryEntry{ID: r.ID, Change: r.Change, Value: r.Value, Status: r.Status, DoNotTranslate: r.DoNotTranslate,
			LanguageLocked: r.LanguageLocked, Actor: r.Actor, At: r.CreatedAt, SourceVersion: r.SourceVersion}
	}
	return out, nil
}
