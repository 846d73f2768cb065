package storage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/uptrace/bun"
)

// batch bounds the rows of one INSERT or IN list: SQLite and PostgreSQL both take far more,
// but statements of this size keep memory flat on 50,000-key syncs.
const batch = 1000

type tx struct {
	db *DB
	tx bun.Tx
}

// batch is how many rows one insert statement carries: array inserts on PostgreSQL take a
// whole sync's rows at once.
func (t *tx) batch() int {
	if t.db.postgres {
		return 20 * batch
	}
	return batch
}

func now() time.Time { return time.Now().UTC() }

func (t *tx) TokenKey(ctx context.Context) ([]byte, error) {
	var v string
	if err := t.tx.NewSelect().Model((*metaRow)(nil)).Column("value").Where("name = ?", metaTokenKey).Scan(ctx, &v); err != nil {
		return nil, mapError(err)
	}
	return hex.DecodeString(v)
}

func (t *tx) HasWorkspaces(ctx context.Context) (bool, error) {
	ok, err := t.tx.NewSelect().Model((*workspaceRow)(nil)).Exists(ctx)
	return ok, mapError(err)
}

func (t *tx) CreateWorkspace(ctx context.Context, w tools.Workspace) error {
	_, err := t.tx.NewInsert().Model(&workspaceRow{ID: w.ID, Name: w.Name, PublicToken: w.PublicToken, CreatedAt: now()}).Exec(ctx)
	return mapError(err)
}

func (t *tx) Workspace(ctx context.Context, id string) (tools.Workspace, error) {
	var r workspaceRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		return tools.Workspace{}, notFound(err, "workspace %s", id)
	}
	return tools.Workspace{ID: r.ID, Name: r.Name, PublicToken: r.PublicToken, CreatedAt: r.CreatedAt}, nil
}

func (t *tx) CreateUser(ctx context.Context, u tools.User) error {
	_, err := t.tx.NewInsert().Model(&userRow{ID: u.ID, WorkspaceID: u.WorkspaceID, Email: u.Email, CreatedAt: now()}).Exec(ctx)
	return mapError(err)
}

func (t *tx) User(ctx context.Context, id string) (tools.User, error) {
	var r userRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		return tools.User{}, notFound(err, "user %s", id)
	}
	return tools.User{ID: r.ID, WorkspaceID: r.WorkspaceID, Email: r.Email, CreatedAt: r.CreatedAt}, nil
}

func (t *tx) CreateToken(ctx context.Context, k tools.TokenRecord) error {
	_, err := t.tx.NewInsert().Model(&tokenRow{ID: k.ID, Kind: k.Kind, Hash: k.Hash, UserID: k.UserID,
		WorkspaceID: k.WorkspaceID, ProjectID: k.ProjectID, ReadOnly: k.ReadOnly, Prefix: k.Prefix, CreatedAt: now()}).Exec(ctx)
	return mapError(err)
}

func (t *tx) TokenByHash(ctx context.Context, hash string) (tools.TokenRecord, error) {
	var r tokenRow
	if err := t.tx.NewSelect().Model(&r).Where("hash = ?", hash).Where("revoked_at IS NULL").Scan(ctx); err != nil {
		return tools.TokenRecord{}, notFound(err, "token")
	}
	return tools.TokenRecord{ID: r.ID, Kind: r.Kind, Hash: r.Hash, UserID: r.UserID, WorkspaceID: r.WorkspaceID,
		ProjectID: r.ProjectID, ReadOnly: r.ReadOnly, CreatedAt: r.CreatedAt}, nil
}

func (t *tx) CreateProject(ctx context.Context, p tools.Project) error {
	ts := now()
	s := p.Settings
	row := &projectRow{ID: p.ID, WorkspaceID: p.WorkspaceID, Title: p.Title, SourceLanguage: p.SourceLanguage,
		IntegrationType: p.IntegrationType, Active: true, AllowedOrigins: strings.Join(s.AllowedOrigins, "\n"),
		ShowSwitcher: s.ShowSwitcher, KeepSiteCurrent: s.KeepSiteCurrent, EmbedMode: s.EmbedMode,
		JITHarvest: s.JITHarvest, AutoApply: s.AutoApply, AIProvider: s.AIProvider, AIModel: s.AIModel,
		AIBaseURL: s.AIBaseURL, AIKey: s.AIKey, DeployProvider: s.DeployProvider, DeployRepo: s.DeployRepo,
		DeployWorkflow: s.DeployWorkflow, DeployRef: s.DeployRef, DeployToken: s.DeployToken,
		CreatedAt: ts, UpdatedAt: ts}
	if _, err := t.tx.NewInsert().Model(row).Exec(ctx); err != nil {
		return mapError(err)
	}
	for _, l := range p.Languages {
		if err := t.SetLanguage(ctx, p.ID, l); err != nil {
			return err
		}
	}
	return nil
}

func (t *tx) SetLanguage(ctx context.Context, projectID string, l tools.Language) error {
	_, err := t.tx.NewInsert().Model(&languageRow{ProjectID: projectID, Code: l.Code, Enabled: l.Enabled,
		Editable: l.Editable, AutoTranslate: l.AutoTranslate, CreatedAt: now()}).
		On("CONFLICT (project_id, code) DO UPDATE").
		Set("enabled = EXCLUDED.enabled, editable = EXCLUDED.editable, auto_translate = EXCLUDED.auto_translate").
		Exec(ctx)
	return mapError(err)
}

func (t *tx) Project(ctx context.Context, id string) (tools.Project, error) {
	var r projectRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		return tools.Project{}, notFound(err, "project %s", id)
	}
	ps, err := t.fillProjects(ctx, []projectRow{r})
	if err != nil {
		return tools.Project{}, err
	}
	return ps[0], nil
}

func (t *tx) Projects(ctx context.Context, workspaceID string) ([]tools.Project, error) {
	var rows []projectRow
	if err := t.tx.NewSelect().Model(&rows).Where("workspace_id = ?", workspaceID).Where("active").
		Order("created_at", "id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	return t.fillProjects(ctx, rows)
}

func (t *tx) fillProjects(ctx context.Context, rows []projectRow) ([]tools.Project, error) {
	out := make([]tools.Project, 0, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	var langs []languageRow
	if err := t.tx.NewSelect().Model(&langs).Where("project_id IN (?)", bun.In(ids)).Order("created_at", "code").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	var nss []namespaceRow
	if err := t.tx.NewSelect().Model(&nss).Where("project_id IN (?)", bun.In(ids)).Order("key").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	for _, r := range rows {
		p := tools.Project{ID: r.ID, WorkspaceID: r.WorkspaceID, Title: r.Title, SourceLanguage: r.SourceLanguage,
			IntegrationType: r.IntegrationType, Active: r.Active, CreatedAt: r.CreatedAt,
			DeployConfigured:       r.DeployProvider != "" && r.DeployRepo != "" && r.DeployWorkflow != "",
			EnabledLanguages:       []string{r.SourceLanguage},
			EditableLanguages:      []string{r.SourceLanguage},
			AutoTranslateLanguages: []string{},
			Namespaces:             []string{},
			Settings: tools.ProjectSettings{AllowedOrigins: splitLines(r.AllowedOrigins), ShowSwitcher: r.ShowSwitcher,
				KeepSiteCurrent: r.KeepSiteCurrent, EmbedMode: r.EmbedMode, JITHarvest: r.JITHarvest, AutoApply: r.AutoApply,
				AIProvider: r.AIProvider, AIModel: r.AIModel, AIBaseURL: r.AIBaseURL, AIKey: r.AIKey,
				DeployProvider: r.DeployProvider, DeployRepo: r.DeployRepo, DeployWorkflow: r.DeployWorkflow,
				DeployRef: r.DeployRef, DeployToken: r.DeployToken},
		}
		for _, l := range langs {
			if l.ProjectID != r.ID || l.Code == r.SourceLanguage {
				continue
			}
			p.Languages = append(p.Languages, tools.Language{Code: l.Code, Enabled: l.Enabled, Editable: l.Editable, AutoTranslate: l.AutoTranslate})
			if l.Enabled {
				p.EnabledLanguages = append(p.EnabledLanguages, l.Code)
				if l.AutoTranslate {
					p.AutoTranslateLanguages = append(p.AutoTranslateLanguages, l.Code)
				}
			}
			if l.Editable {
				p.EditableLanguages = append(p.EditableLanguages, l.Code)
			}
		}
		for _, n := range nss {
			if n.ProjectID == r.ID {
				p.Namespaces = append(p.Namespaces, n.Key)
			}
		}
		out = append(out, p)
	}
	return out, nil
}

func splitLines(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, "\n")
}

func (t *tx) Namespace(ctx context.Context, projectID, key string) (tools.Namespace, error) {
	var r namespaceRow
	if err := t.tx.NewSelect().Model(&r).Where("project_id = ?", projectID).Where("key = ?", key).Scan(ctx); err != nil {
		return tools.Namespace{}, notFound(err, "namespace %q", key)
	}
	return tools.Namespace{ID: r.ID, ProjectID: r.ProjectID, Key: r.Key}, nil
}

func (t *tx) CreateNamespace(ctx context.Context, projectID, key string) (tools.Namespace, error) {
	r := &namespaceRow{ProjectID: projectID, Key: key, CreatedAt: now()}
	if _, err := t.tx.NewInsert().Model(r).Returning("id").Exec(ctx); err != nil {
		return tools.Namespace{}, mapError(err)
	}
	return tools.Namespace{ID: r.ID, ProjectID: projectID, Key: key}, nil
}

// keyStateRow is one row of the Keys join.
type keyStateRow struct {
	ID            int64  `bun:"id"`
	Key           string `bun:"key"`
	Hidden        bool   `bun:"hidden"`
	SourceVersion int64  `bun:"source_version"`

	SID      *int64     `bun:"s_id"`
	SValue   *string    `bun:"s_value"`
	SStatus  *string    `bun:"s_status"`
	SDNT     *bool      `bun:"s_dnt"`
	SLocked  *bool      `bun:"s_locked"`
	SVersion *int64     `bun:"s_version"`
	SBy      *string    `bun:"s_by"`
	SUpdated *time.Time `bun:"s_updated"`
	TID      *int64     `bun:"t_id"`
	TValue   *string    `bun:"t_value"`
	TStatus  *string    `bun:"t_status"`
	TDNT     *bool      `bun:"t_dnt"`
	TLocked  *bool      `bun:"t_locked"`
	TVersion *int64     `bun:"t_version"`
	TBy      *string    `bun:"t_by"`
	TUpdated *time.Time `bun:"t_updated"`
}

func (t *tx) Keys(ctx context.Context, ns tools.Namespace, sourceLanguage, language string) ([]tools.KeyState, error) {
	var rows []keyStateRow
	err := t.tx.NewRaw(`SELECT k.id, k.key, k.hidden, k.source_version,
  s.id AS s_id, s.value AS s_value, s.status AS s_status, s.do_not_translate AS s_dnt, s.language_locked AS s_locked,
  s.source_version AS s_version, s.updated_by AS s_by, s.updated_at AS s_updated,
  t.id AS t_id, t.value AS t_value, t.status AS t_status, t.do_not_translate AS t_dnt, t.language_locked AS t_locked,
  t.source_version AS t_version, t.updated_by AS t_by, t.updated_at AS t_updated
FROM translation_keys AS k
LEFT JOIN translations AS s ON s.key_id = k.id AND s.language = ?
LEFT JOIN translations AS t ON t.key_id = k.id AND t.language = ?
WHERE k.namespace_id = ?`, sourceLanguage, language, ns.ID).Scan(ctx, &rows)
	if err != nil {
		return nil, mapError(err)
	}
	out := make([]tools.KeyState, len(rows))
	for i, r := range rows {
		k := tools.KeyState{ID: r.ID, Key: r.Key, Hidden: r.Hidden, SourceVersion: r.SourceVersion}
		if r.SID != nil {
			k.Source = &tools.TranslationState{ID: *r.SID, Language: sourceLanguage, Value: deref(r.SValue), Status: deref(r.SStatus),
				DoNotTranslate: deref(r.SDNT), LanguageLocked: deref(r.SLocked), SourceVersion: r.SVersion, UpdatedBy: deref(r.SBy), UpdatedAt: deref(r.SUpdated)}
		}
		if r.TID != nil {
			k.Value = &tools.TranslationState{ID: *r.TID, Language: language, Value: deref(r.TValue), Status: deref(r.TStatus),
				DoNotTranslate: deref(r.TDNT), LanguageLocked: deref(r.TLocked), SourceVersion: r.TVersion, UpdatedBy: deref(r.TBy), UpdatedAt: deref(r.TUpdated)}
		}
		out[i] = k
	}
	// Sorted here rather than by SQL so that the order is bytewise on both dialects.
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// KeyHash is the unique-index form of a key.
func KeyHash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

func (t *tx) InsertKeys(ctx context.Context, keys []tools.NewKey) ([]int64, error) {
	ids := make([]int64, 0, len(keys))
	ts := now()
	if t.db.postgres && len(keys) > 0 {
		return t.insertKeysPostgres(ctx, keys, ts)
	}
	for start := 0; start < len(keys); start += batch {
		end := min(start+batch, len(keys))
		rows := make([]keyRow, 0, end-start)
		for _, k := range keys[start:end] {
			rows = append(rows, keyRow{NamespaceID: k.NamespaceID, Key: k.Key, KeyHash: KeyHash(k.Key),
				SourceVersion: k.SourceVersion, CreatedAt: ts, UpdatedAt: ts})
		}
		if _, err := t.tx.NewInsert().Model(&rows).Returning("id").Exec(ctx); err != nil {
			return nil, mapError(err)
		}
		for _, r := range rows {
			ids = append(ids, r.ID)
		}
	}
	return ids, nil
}

func (t *tx) SetHidden(ctx context.Context, keyIDs []int64, hidden bool) error {
	ts := now()
	for start := 0; start < len(keyIDs); start += batch {
		end := min(start+batch, len(keyIDs))
		if _, err := t.tx.NewUpdate().Model((*keyRow)(nil)).Set("hidden = ?", hidden).Set("updated_at = ?", ts).
			Where("id IN (?)", bun.In(keyIDs[start:end])).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	return nil
}

func (t *tx) SourceChanged(ctx context.Context, keyIDs []int64) error {
	ts := now()
	actor := tools.PrincipalFrom(ctx).Actor()
	for start := 0; start < len(keyIDs); start += batch {
		chunk := keyIDs[start:min(start+batch, len(keyIDs))]
		if _, err := t.tx.NewUpdate().Model((*keyRow)(nil)).Set("source_version = source_version + 1").Set("updated_at = ?", ts).
			Where("id IN (?)", bun.In(chunk)).Exec(ctx); err != nil {
			return mapError(err)
		}
		// Clearing a lock is a flag change: it goes into the history like any other.
		var locked []translationRow
		if err := t.tx.NewSelect().Model(&locked).Where("key_id IN (?)", bun.In(chunk)).Where("language_locked").Scan(ctx); err != nil {
			return mapError(err)
		}
		if len(locked) == 0 {
			continue
		}
		ids := make([]int64, len(locked))
		hist := make([]historyRow, len(locked))
		for i, r := range locked {
			ids[i] = r.ID
			hist[i] = historyRow{TranslationID: r.ID, KeyID: r.KeyID, Language: r.Language, Change: "flag", Value: r.Value,
				Status: r.Status, DoNotTranslate: r.DoNotTranslate, LanguageLocked: false, SourceVersion: r.SourceVersion,
				Actor: actor, CreatedAt: ts}
		}
		if _, err := t.tx.NewUpdate().Model((*translationRow)(nil)).Set("language_locked = ?", false).Set("updated_at = ?", ts).
			Where("id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
			return mapError(err)
		}
		if _, err := t.tx.NewInsert().Model(&hist).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	return nil
}

func (t *tx) WriteTranslations(ctx context.Context, writes []tools.TranslationWrite) error {
	ts := now()
	actor := tools.PrincipalFrom(ctx).Actor()
	var inserts []translationRow
	var hist []historyRow
	flush := func() error {
		if len(inserts) > 0 {
			if t.db.postgres {
				if err := t.insertTranslationsPostgres(ctx, inserts, ts); err != nil {
					return err
				}
			} else if _, err := t.tx.NewInsert().Model(&inserts).Returning("id").Exec(ctx); err != nil {
				return mapError(err)
			}
			for i := range inserts {
				r := &inserts[i]
				hist = append(hist, historyRow{TranslationID: r.ID, KeyID: r.KeyID, Language: r.Language, Change: "created",
					Value: r.Value, Status: r.Status, DoNotTranslate: r.DoNotTranslate, LanguageLocked: r.LanguageLocked,
					SourceVersion: r.SourceVersion, Actor: actor, CreatedAt: ts})
			}
			inserts = inserts[:0]
		}
		if len(hist) > 0 {
			if t.db.postgres {
				if err := t.insertHistoryPostgres(ctx, hist); err != nil {
					return err
				}
			} else if _, err := t.tx.NewInsert().Model(&hist).Exec(ctx); err != nil {
				return mapError(err)
			}
			hist = hist[:0]
		}
		return nil
	}
	for _, w := range writes {
		if w.Status == "" {
			w.Status = tools.StatusNeedsReview
		}
		row := translationRow{ID: w.ID, KeyID: w.KeyID, Language: w.Language, Value: w.Value, Status: w.Status,
			DoNotTranslate: w.DoNotTranslate, LanguageLocked: w.LanguageLocked, SourceVersion: w.SourceVersion,
			UpdatedBy: actor, CreatedAt: ts, UpdatedAt: ts}
		if w.ID == 0 {
			inserts = append(inserts, row)
		} else {
			if _, err := t.tx.NewUpdate().Model(&row).
				Column("value", "status", "do_not_translate", "language_locked", "source_version", "updated_by", "updated_at").
				WherePK().Exec(ctx); err != nil {
				return mapError(err)
			}
			change := w.Change
			if change == "" {
				change = "value"
			}
			hist = append(hist, historyRow{TranslationID: w.ID, KeyID: w.KeyID, Language: w.Language, Change: change,
				Value: w.Value, Status: w.Status, DoNotTranslate: w.DoNotTranslate, LanguageLocked: w.LanguageLocked,
				SourceVersion: w.SourceVersion, Actor: actor, CreatedAt: ts})
		}
		if len(inserts) >= t.batch() || len(hist) >= t.batch() {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

func notFound(err error, format string, args ...any) error {
	err = mapError(err)
	if tools.IsNotFound(err) {
		return &tools.Error{Code: tools.CodeNotFound, Message: fmt.Sprintf(format, args...) + " not found"}
	}
	return err
}

func (t *tx) LanguageStats(ctx context.Context, p tools.Project) ([]tools.LanguageStats, error) {
	var total int
	err := t.tx.NewRaw(`SELECT COUNT(*) FROM translation_keys AS k
JOIN namespaces AS n ON n.id = k.namespace_id
WHERE n.project_id = ? AND NOT k.hidden AND k.source_version > 0`, p.ID).Scan(ctx, &total)
	if err != nil {
		return nil, mapError(err)
	}
	var rows []struct {
		Language   string `bun:"language"`
		Translated int    `bun:"translated"`
		Drifted    int    `bun:"drifted"`
	}
	err = t.tx.NewRaw(`SELECT t.language AS language, COUNT(*) AS translated,
  SUM(CASE WHEN t.source_version IS NULL OR t.source_version < k.source_version THEN 1 ELSE 0 END) AS drifted
FROM translations AS t
JOIN translation_keys AS k ON k.id = t.key_id
JOIN namespaces AS n ON n.id = k.namespace_id
WHERE n.project_id = ? AND NOT k.hidden AND k.source_version > 0 AND t.value <> ''
GROUP BY t.language`, p.ID).Scan(ctx, &rows)
	if err != nil {
		return nil, mapError(err)
	}
	byLang := map[string]int{}
	for i, r := range rows {
		byLang[r.Language] = i
	}
	out := make([]tools.LanguageStats, 0, len(p.EnabledLanguages))
	for _, code := range p.EnabledLanguages {
		s := tools.LanguageStats{Language: code, Total: total}
		if i, ok := byLang[code]; ok {
			s.Translated, s.Drifted = rows[i].Translated, rows[i].Drifted
		}
		if code == p.SourceLanguage {
			s.Drifted = 0
		}
		s.Missing = max(0, s.Total-s.Translated)
		out = append(out, s)
	}
	return out, nil
}
