package storage

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// The operator's side of the store: project settings, site hosts, key and token lists, and
// the online backup.

func (t *tx) UpdateProject(ctx context.Context, p model.Project) error {
	s := p.Settings
	row := &projectRow{ID: p.ID, Title: p.Title, IntegrationType: p.IntegrationType,
		AllowedOrigins: strings.Join(s.AllowedOrigins, "\n"), ShowSwitcher: s.ShowSwitcher,
		KeepSiteCurrent: s.KeepSiteCurrent, EmbedMode: s.EmbedMode, JITHarvest: s.JITHarvest,
		AutoApply: s.AutoApply, Syntax: s.Syntax, UpdatedAt: now()}
	res, err := t.tx.NewUpdate().Model(row).Column("title", "integration_type", "allowed_origins", "show_switcher",
		"keep_site_current", "embed_mode", "jit_harvest", "auto_apply", "syntax", "updated_at").WherePK().Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return &model.Error{Code: model.CodeNotFound, Message: "project " + p.ID + " not found"}
	}
	return nil
}

func (t *tx) ProjectHosts(ctx context.Context, projectID string) ([]string, error) {
	hosts := []string{}
	if err := t.tx.NewSelect().Model((*projectHostRow)(nil)).Column("host").Where("project_id = ?", projectID).
		Order("host").Scan(ctx, &hosts); err != nil {
		return nil, mapError(err)
	}
	return hosts, nil
}

func (t *tx) HostProject(ctx context.Context, host string) (string, error) {
	var id string
	if err := t.tx.NewSelect().Model((*projectHostRow)(nil)).Column("project_id").Where("host = ?", host).
		Scan(ctx, &id); err != nil {
		return "", notFound(err, "host %s", host)
	}
	return id, nil
}

func (t *tx) SetProjectHosts(ctx context.Context, projectID string, hosts []string) error {
	q := t.tx.NewDelete().Model((*projectHostRow)(nil)).Where("project_id = ?", projectID)
	if len(hosts) > 0 {
		q = q.Where("host NOT IN (?)", bun.In(hosts))
	}
	if _, err := q.Exec(ctx); err != nil {
		return mapError(err)
	}
	if len(hosts) == 0 {
		return nil
	}
	ts := now()
	rows := make([]projectHostRow, len(hosts))
	for i, h := range hosts {
		rows[i] = projectHostRow{Host: h, ProjectID: projectID, CreatedAt: ts}
	}
	// A host already bound to this project stays as it is; one bound to another project
	// violates the primary key: a conflict.
	res, err := t.tx.NewInsert().Model(&rows).On("CONFLICT (host) DO UPDATE").Set("host = EXCLUDED.host").
		Where("?TableAlias.project_id = ?", projectID).Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n < int64(len(hosts)) {
		return &model.Error{Code: model.CodeConflict, Message: "a host is bound to another project"}
	}
	return nil
}

func (t *tx) Tokens(ctx context.Context, f model.TokenFilter) ([]model.TokenInfo, error) {
	var rows []tokenRow
	// An OAuth grant's access tokens are the grant's, listed and revoked with it.
	q := t.tx.NewSelect().Model(&rows).Where("grant_id = ''").Order("created_at", "id")
	if len(f.Kinds) > 0 {
		q = q.Where("kind IN (?)", bun.In(f.Kinds))
	}
	if f.ProjectID != "" {
		q = q.Where("project_id = ?", f.ProjectID)
	}
	if f.UserID != "" {
		q = q.Where("user_id = ?", f.UserID)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.TokenInfo, len(rows))
	for i, r := range rows {
		out[i] = tokenInfo(r)
	}
	return out, nil
}

func (t *tx) Token(ctx context.Context, id string) (model.TokenInfo, error) {
	var r tokenRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		return model.TokenInfo{}, notFound(err, "token %s", id)
	}
	return tokenInfo(r), nil
}

func tokenInfo(r tokenRow) model.TokenInfo {
	return model.TokenInfo{ID: r.ID, Kind: r.Kind, Prefix: r.Prefix, UserID: r.UserID, WorkspaceID: r.WorkspaceID,
		ProjectID: r.ProjectID, ReadOnly: r.ReadOnly, Name: r.Name, CreatedAt: r.CreatedAt, LastUsedAt: r.LastUsedAt, RevokedAt: r.RevokedAt}
}

func (t *tx) RevokeToken(ctx context.Context, id string, at time.Time) error {
	_, err := t.tx.NewUpdate().Model((*tokenRow)(nil)).Set("revoked_at = ?", at).Where("id = ?", id).
		Where("revoked_at IS NULL").Exec(ctx)
	return mapError(err)
}

func (t *tx) TouchToken(ctx context.Context, id string, at time.Time) error {
	_, err := t.tx.NewUpdate().Model((*tokenRow)(nil)).Set("last_used_at = ?", at).Where("id = ?", id).Exec(ctx)
	return mapError(err)
}

// ErrBackupPostgres is BackupTo's answer on PostgreSQL, whose own tools do it better.
var ErrBackupPostgres = errors.New("backing up PostgreSQL is pg_dump's job")

// BackupTo writes a consistent copy of the SQLite database to path, which must not exist,
// while other connections and processes keep reading and writing: VACUUM INTO reads one
// snapshot and writes a compact new file.
func (db *DB) BackupTo(ctx context.Context, path string) error {
	if db.postgres {
		return ErrBackupPostgres
	}
	// Readers are query_only (openSQLite), which VACUUM INTO's new file counts as a write:
	// this one reader lifts it for the copy and is dropped from the pool after it, so
	// that no reader that can write is ever handed out again.
	conn, err := db.r.Conn(ctx)
	if err != nil {
		return fmt.Errorf("backing up to %s: %w", path, err)
	}
	defer conn.Close()
	defer conn.Raw(func(any) error { return driver.ErrBadConn })
	if _, err := conn.ExecContext(ctx, "PRAGMA query_only = 0"); err != nil {
		return fmt.Errorf("backing up to %s: %w", path, err)
	}
	if _, err := conn.ExecContext(ctx, "VACUUM INTO ?", path); err != nil {
		return fmt.Errorf("backing up to %s: %w", path, err)
	}
	return nil
}
