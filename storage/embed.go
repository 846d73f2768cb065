package storage

import (
	"context"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// workspaceEmbedRow is the Embed part of a workspace row.
type workspaceEmbedRow struct {
	bun.BaseModel   `bun:"table:workspaces"`
	ID              string `bun:"id,pk"`
	AuthorizedHosts string `bun:"authorized_hosts,notnull"` // newline-separated
	HostLimit       int    `bun:"host_limit,notnull"`
	EmbedOff        bool   `bun:"embed_off,notnull"`
}

// pingRow is the newest install ping of a project's Embed script: a time and nothing
// about the visitor (no analytics); a background job removes it after seven days.
type pingRow struct {
	bun.BaseModel `bun:"table:embed_pings"`
	ProjectID     string    `bun:"project_id,pk,type:varchar(36)"`
	At            time.Time `bun:"at,notnull"`
}

// demandRow counts dictionary reads of one language of a project on one day.
type demandRow struct {
	bun.BaseModel `bun:"table:embed_demand"`
	ProjectID     string    `bun:"project_id,pk,type:varchar(36)"`
	Language      string    `bun:"language,pk"`
	Day           time.Time `bun:"day,pk"`
	Reads         int64     `bun:"reads,notnull"`
}

func (t *tx) WorkspaceByPublicToken(ctx context.Context, token string) (model.Workspace, error) {
	var r workspaceRow
	if err := t.tx.NewSelect().Model(&r).Where("public_token = ?", token).Scan(ctx); err != nil {
		return model.Workspace{}, notFound(err, "public token")
	}
	return model.Workspace{ID: r.ID, Name: r.Name, PublicToken: r.PublicToken, CreatedAt: r.CreatedAt}, nil
}

func (t *tx) WorkspaceEmbed(ctx context.Context, workspaceID string) (model.WorkspaceEmbed, error) {
	var r workspaceEmbedRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", workspaceID).Scan(ctx); err != nil {
		return model.WorkspaceEmbed{}, notFound(err, "workspace %s", workspaceID)
	}
	return model.WorkspaceEmbed{AuthorizedHosts: splitLines(r.AuthorizedHosts), HostLimit: r.HostLimit, Off: r.EmbedOff}, nil
}

func (t *tx) SetWorkspaceEmbed(ctx context.Context, workspaceID string, e model.WorkspaceEmbed) error {
	res, err := t.tx.NewUpdate().Model(&workspaceEmbedRow{ID: workspaceID, AuthorizedHosts: strings.Join(e.AuthorizedHosts, "\n"),
		HostLimit: e.HostLimit, EmbedOff: e.Off}).Column("authorized_hosts", "host_limit", "embed_off").WherePK().Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return &model.Error{Code: model.CodeNotFound, Message: "workspace " + workspaceID + " not found"}
	}
	return nil
}

func (t *tx) WorkspaceHosts(ctx context.Context, workspaceID string) (int, error) {
	var n int
	err := t.tx.NewRaw(`SELECT COUNT(*) FROM project_hosts AS h JOIN projects AS p ON p.id = h.project_id
WHERE p.workspace_id = ?`, workspaceID).Scan(ctx, &n)
	return n, mapError(err)
}

func (t *tx) NamespaceHistory(ctx context.Context, ns model.Namespace, language string, keyIDs ...int64) ([]model.HistoryValue, error) {
	var rows []struct {
		KeyID     int64     `bun:"key_id"`
		Value     string    `bun:"value"`
		Status    string    `bun:"status"`
		CreatedAt time.Time `bun:"created_at"`
	}
	only, args := "", []any{ns.ID, language}
	if len(keyIDs) > 0 {
		list, arg := t.idList(keyIDs)
		only, args = " AND h.key_id IN "+list, append(args, arg)
	}
	err := t.tx.NewRaw(`SELECT h.key_id, h.value, h.status, h.created_at FROM translation_history AS h
JOIN translation_keys AS k ON k.id = h.key_id
WHERE k.namespace_id = ? AND NOT k.hidden AND h.language = ?`+only+`
ORDER BY h.key_id, h.id`, args...).Scan(ctx, &rows)
	if err != nil {
		return nil, mapError(err)
	}
	out := make([]model.HistoryValue, len(rows))
	for i, r := range rows {
		out[i] = model.HistoryValue{KeyID: r.KeyID, Value: r.Value, Status: r.Status, At: r.CreatedAt}
	}
	return out, nil
}

func (t *tx) RecordPing(ctx context.Context, projectID string, at time.Time) error {
	_, err := t.tx.NewInsert().Model(&pingRow{ProjectID: projectID, At: at.UTC()}).
		On("CONFLICT (project_id) DO UPDATE").Set("at = EXCLUDED.at").Exec(ctx)
	return mapError(err)
}

func (t *tx) LastPing(ctx context.Context, projectID string) (time.Time, error) {
	var r pingRow
	if err := t.tx.NewSelect().Model(&r).Where("project_id = ?", projectID).Scan(ctx); err != nil {
		if err = mapError(err); model.IsNotFound(err) {
			return time.Time{}, nil
		}
		return time.Time{}, err
	}
	return r.At.UTC(), nil
}

func (t *tx) PrunePings(ctx context.Context, before time.Time) (int, error) {
	res, err := t.tx.NewDelete().Model((*pingRow)(nil)).Where("at < ?", before.UTC()).Exec(ctx)
	if err != nil {
		return 0, mapError(err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

func (t *tx) AddDemand(ctx context.Context, projectID, language string, day time.Time, n int64) error {
	_, err := t.tx.NewInsert().Model(&demandRow{ProjectID: projectID, Language: language, Day: day.UTC(), Reads: n}).
		On("CONFLICT (project_id, language, day) DO UPDATE").Set("reads = ?TableAlias.reads + EXCLUDED.reads").Exec(ctx)
	return mapError(err)
}

func (t *tx) Demand(ctx context.Context, projectID string, since time.Time) (map[string]int64, error) {
	var rows []struct {
		Language string `bun:"language"`
		Reads    int64  `bun:"reads"`
	}
	if err := t.tx.NewSelect().Model((*demandRow)(nil)).ColumnExpr("language, SUM(reads) AS reads").
		Where("project_id = ?", projectID).Where("day >= ?", since.UTC()).Group("language").Scan(ctx, &rows); err != nil {
		return nil, mapError(err)
	}
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[r.Language] = r.Reads
	}
	return out, nil
}

func (t *tx) PruneDemand(ctx context.Context, before time.Time) (int, error) {
	res, err := t.tx.NewDelete().Model((*demandRow)(nil)).Where("day < ?", before.UTC()).Exec(ctx)
	if err != nil {
		return 0, mapError(err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// NamespaceCounts reads the namespaces' counters (CountKeys): a row per namespace and
// language instead of every key and row of the project.
func (t *tx) NamespaceCounts(ctx context.Context, projectID string) ([]model.NamespaceCount, error) {
	var rows []struct {
		Namespace string `bun:"namespace"`
		Language  string `bun:"language"`
		Keys      int    `bun:"keys"`
		N         int    `bun:"n"`
	}
	err := t.tx.NewRaw(`SELECT n.key AS namespace, COALESCE(c.language, '') AS language, COALESCE(c.key_count, 0) AS keys,
  COALESCE(c.current_rows + c.behind_rows + c.null_rows, 0) AS n
FROM namespaces AS n LEFT JOIN namespace_counts AS c ON c.namespace_id = n.id
WHERE n.project_id = ? ORDER BY n.key`, projectID).Scan(ctx, &rows)
	if err != nil {
		return nil, mapError(err)
	}
	out := []model.NamespaceCount{}
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].Namespace != r.Namespace {
			out = append(out, model.NamespaceCount{Namespace: r.Namespace, Translated: map[string]int{}})
		}
		n := &out[len(out)-1]
		if r.Language == "" {
			n.Keys = r.Keys
		} else if r.N > 0 {
			n.Translated[r.Language] = r.N
		}
	}
	return out, nil
}

func (t *tx) NewestKeys(ctx context.Context, ns model.Namespace, limit int) ([]model.NewestKey, error) {
	var rows []keyRow
	err := t.tx.NewSelect().Model(&rows).Column("key", "created_at").Where("namespace_id = ?", ns.ID).Where("NOT hidden").
		OrderExpr("id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, mapError(err)
	}
	out := make([]model.NewestKey, len(rows))
	for i, r := range rows {
		out[i] = model.NewestKey{Key: r.Key, CreatedAt: r.CreatedAt.UTC()}
	}
	return out, nil
}
