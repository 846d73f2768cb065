package storage

import (
	"context"
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
		ColumnExpr("u.id, u.workspace_id, u.email, u.created_at, p.hash").
		Join("LEFT JOIN user_passwords AS p ON p.user_id = u.id").
		Where("u.email = ?", email).OrderExpr("u.created_at, u.id").Scan(ctx, &rows)
	if err != nil {
		return nil, mapError(err)
	}
	out := make([]model.Credential, len(rows))
	for i, r := range rows {
		out[i] = model.Credential{User: model.User{ID: r.ID, WorkspaceID: r.WorkspaceID, Email: r.Email, CreatedAt: r.CreatedAt}}
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
	Namespace     string    `bun:"namespace"`
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
	CommentsCount int       `bun:"comments"`
}

// ReviewRows walks the project's visible keys in id order (the order they were added, which
// keeps the strings of one screen together) from f.AfterKeyID, so a page is found without
// sorting the whole project.
func (t *tx) ReviewRows(ctx context.Context, f model.ReviewFilter) ([]model.ReviewRow, error) {
	// The project's key ids lie between lo and hi; walking translation_keys by id in that
	// range (CROSS JOIN keeps SQLite's planner from starting at the namespaces and sorting
	// every row of the project) stops as soon as a page is found.
	lo, hi := int64(0), int64(0)
	if len(f.KeyIDs) == 0 {
		var err error
		if lo, hi, err = t.keyRange(ctx, f.ProjectID); err != nil || hi == 0 {
			return []model.ReviewRow{}, err
		}
	}
	q := t.tx.NewSelect().TableExpr("translation_keys AS k CROSS JOIN namespaces AS n CROSS JOIN translations AS s").
		ColumnExpr("n.key AS namespace, k.key AS key, k.id AS key_id, k.source_version AS key_version").
		ColumnExpr("s.id AS s_id, s.value AS s_value, s.status AS s_status, s.updated_by AS s_updated_by, s.updated_at AS s_updated_at").
		ColumnExpr("t.id AS t_id, t.value AS t_value, t.status AS t_status, t.do_not_translate AS t_dnt, t.language_locked AS t_locked").
		ColumnExpr("t.source_version AS t_source_version, t.updated_by AS t_updated_by, t.updated_at AS t_updated_at").
		ColumnExpr("(SELECT COUNT(*) FROM comments AS c WHERE c.key_id = k.id AND c.language = ?) AS comments", f.Language).
		Join("LEFT JOIN translations AS t ON t.key_id = k.id AND t.language = ?", f.Language).
		Where("n.id = k.namespace_id").Where("s.key_id = k.id").Where("s.language = ?", f.SourceLanguage).
		Where("n.project_id = ?", f.ProjectID).Where("NOT k.hidden").Where("s.value <> ''")
	if hi > 0 {
		// Rows named by id are looked up by id; a page walks the project's range.
		q = q.Where("k.id BETWEEN ? AND ?", lo, hi)
	}
	if f.AfterKeyID > 0 {
		q = q.Where("k.id > ?", f.AfterKeyID)
	}
	if f.Namespace != "" {
		q = q.Where("n.key = ?", f.Namespace)
	}
	if f.Status != "" {
		q = q.Where("t.status = ?", f.Status)
	}
	if f.AIDrafts {
		q = q.Where("t.updated_by LIKE 'ai:%'").Where("t.status = ?", model.StatusNeedsReview)
	}
	if f.Stale {
		q = q.Where("t.id IS NOT NULL").Where("t.value <> ''").Where("(t.source_version IS NULL OR t.source_version < k.source_version)")
	}
	if f.Missing {
		q = q.Where("(t.id IS NULL OR t.value = '')")
	}
	if f.HasComments {
		q = q.Where("EXISTS (SELECT 1 FROM comments AS c2 WHERE c2.key_id = k.id AND c2.language = ?)", f.Language)
	}
	if f.Text != "" {
		p := likePattern(f.Text)
		l := t.db.lower()
		q = q.Where("("+l+`(k.key) LIKE ? ESCAPE '\' OR `+l+`(s.value) LIKE ? ESCAPE '\' OR `+l+`(t.value) LIKE ? ESCAPE '\')`, p, p, p)
	}
	if len(f.KeyIDs) > 0 {
		q = q.Where("k.id IN (?)", bun.In(f.KeyIDs))
	}
	q = q.OrderExpr("k.id")
	if f.Limit > 0 {
		q = q.Limit(int64(f.Limit))
	}
	var rows []reviewRow
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.ReviewRow, len(rows))
	for i, r := range rows {
		out[i] = model.ReviewRow{Namespace: r.Namespace, Key: r.Key, KeyID: r.KeyID, SourceVersion: r.KeyVersion, Comments: r.CommentsCount,
			Source: model.TranslationState{ID: r.SID, Language: f.SourceLanguage, Value: r.SValue, Status: r.SStatus, UpdatedBy: r.SUpdatedBy, UpdatedAt: r.SUpdatedAt}}
		if r.TID != nil {
			out[i].Value = &model.TranslationState{ID: *r.TID, Language: f.Language, Value: deref(r.TValue), Status: deref(r.TStatus),
				DoNotTranslate: r.TDNT != nil && *r.TDNT, LanguageLocked: r.TLocked != nil && *r.TLocked, SourceVersion: r.TSourceVer,
				UpdatedBy: deref(r.TUpdatedBy), UpdatedAt: r.TUpdatedAt}
		}
	}
	return out, nil
}

// keyRange is the smallest and largest key id of a project (0, 0 without keys), each found
// in the (namespace_id, id) index.
func (t *tx) keyRange(ctx context.Context, projectID string) (lo, hi int64, err error) {
	var nss []int64
	if err := t.tx.NewSelect().Model((*namespaceRow)(nil)).Column("id").Where("project_id = ?", projectID).Scan(ctx, &nss); err != nil {
		return 0, 0, mapError(err)
	}
	for _, ns := range nss {
		var mn, mx *int64
		if err := t.tx.NewRaw("SELECT (SELECT id FROM translation_keys WHERE namespace_id = ? ORDER BY id LIMIT 1), (SELECT id FROM translation_keys WHERE namespace_id = ? ORDER BY id DESC LIMIT 1)", ns, ns).
			Scan(ctx, &mn, &mx); err != nil {
			return 0, 0, mapError(err)
		}
		if mn != nil && (lo == 0 || *mn < lo) {
			lo = *mn
		}
		if mx != nil && *mx > hi {
			hi = *mx
		}
	}
	return lo, hi, nil
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
		out[i] = model.HistoryEntry{Change: r.Change, Value: r.Value, Status: r.Status, DoNotTranslate: r.DoNotTranslate,
			LanguageLocked: r.LanguageLocked, Actor: r.Actor, At: r.CreatedAt}
	}
	return out, nil
}
