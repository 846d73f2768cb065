package storage

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

type webhookRow struct {
	bun.BaseModel  `bun:"table:webhooks"`
	ID             string     `bun:"id,pk,type:varchar(36)"`
	ProjectID      string     `bun:"project_id,notnull,type:varchar(36)"`
	URL            string     `bun:"url,notnull"`
	Events         string     `bun:"events,notnull"` // comma-separated
	SecretEnc      string     `bun:"secret_enc,notnull"`
	Enabled        bool       `bun:"enabled,notnull"`
	CreatedAt      time.Time  `bun:"created_at,notnull"`
	DisabledAt     *time.Time `bun:"disabled_at"`
	DisabledReason string     `bun:"disabled_reason,notnull"`
	FailingSince   *time.Time `bun:"failing_since"`
	LastAt         *time.Time `bun:"last_at"`
	LastStatus     string     `bun:"last_status,notnull"`
	LastHTTPStatus int        `bun:"last_http_status,notnull"`
	LastError      string     `bun:"last_error,notnull"`
}

// webhookBatchRow is the outbox: one row per write, its events as JSON.
type webhookBatchRow struct {
	bun.BaseModel `bun:"table:webhook_outbox"`
	ID            int64     `bun:"id,pk,autoincrement"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	ProjectTitle  string    `bun:"project_title,notnull"`
	WebhookIDs    string    `bun:"webhook_ids,notnull"` // comma-separated
	Events        string    `bun:"events,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type deliveryRow struct {
	bun.BaseModel `bun:"table:webhook_deliveries"`
	ID            int64      `bun:"id,pk,autoincrement"`
	EventID       string     `bun:"event_id,notnull"`
	WebhookID     string     `bun:"webhook_id,notnull,type:varchar(36)"`
	ProjectID     string     `bun:"project_id,notnull,type:varchar(36)"`
	Event         string     `bun:"event,notnull"`
	Key           string     `bun:"key,notnull"`
	Locale        string     `bun:"locale,notnull"`
	ProjectTitle  string     `bun:"project_title,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	State         string     `bun:"state,notnull"`
	Attempts      int        `bun:"attempts,notnull"`
	NextAt        time.Time  `bun:"next_at,notnull"`
	LockedUntil   *time.Time `bun:"locked_until"`
	LockToken     string     `bun:"lock_token,notnull"`
	HTTPStatus    int        `bun:"http_status,notnull"`
	LastError     string     `bun:"last_error,notnull"`
	DeliveredAt   *time.Time `bun:"delivered_at"`
}

type deliveryAttemptRow struct {
	bun.BaseModel `bun:"table:webhook_attempts"`
	ID            int64     `bun:"id,pk,autoincrement"`
	DeliveryID    int64     `bun:"delivery_id,notnull"`
	WebhookID     string    `bun:"webhook_id,notnull,type:varchar(36)"`
	Attempt       int       `bun:"attempt,notnull"`
	At            time.Time `bun:"at,notnull"`
	HTTPStatus    int       `bun:"http_status,notnull"`
	Error         string    `bun:"error,notnull"`
	DurationMS    int64     `bun:"duration_ms,notnull"`
}

func (r webhookRow) tool() model.Webhook {
	w := model.Webhook{ID: r.ID, ProjectID: r.ProjectID, URL: r.URL, Events: splitComma(r.Events), SecretEnc: r.SecretEnc,
		Enabled: r.Enabled, CreatedAt: r.CreatedAt.UTC(), DisabledAt: utcPtr(r.DisabledAt), DisabledReason: r.DisabledReason,
		FailingSince: utcPtr(r.FailingSince)}
	if r.LastAt != nil {
		o := &model.WebhookOutcome{At: r.LastAt.UTC(), Status: r.LastStatus, Error: r.LastError}
		if r.LastHTTPStatus != 0 {
			s := r.LastHTTPStatus
			o.HTTPStatus = &s
		}
		w.Last = o
	}
	return w
}

func (r deliveryRow) tool() model.Delivery {
	return model.Delivery{ID: r.ID, EventID: r.EventID, WebhookID: r.WebhookID, ProjectID: r.ProjectID, Event: r.Event,
		Key: r.Key, Locale: r.Locale, ProjectTitle: r.ProjectTitle, CreatedAt: r.CreatedAt.UTC(), State: r.State,
		Attempts: r.Attempts, NextAt: r.NextAt.UTC(), HTTPStatus: r.HTTPStatus, LastError: r.LastError,
		DeliveredAt: utcPtr(r.DeliveredAt)}
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func splitComma(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}

func (t *tx) CreateWebhook(ctx context.Context, w model.Webhook) error {
	_, err := t.tx.NewInsert().Model(&webhookRow{ID: w.ID, ProjectID: w.ProjectID, URL: w.URL, Events: strings.Join(w.Events, ","),
		SecretEnc: w.SecretEnc, Enabled: w.Enabled, CreatedAt: w.CreatedAt.UTC()}).Exec(ctx)
	return mapError(err)
}

func (t *tx) Webhook(ctx context.Context, id string) (model.Webhook, error) {
	var r webhookRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", id).Scan(ctx); err != nil {
		return model.Webhook{}, notFound(err, "webhook %s", id)
	}
	return r.tool(), nil
}

func (t *tx) ProjectWebhooks(ctx context.Context, projectID string) ([]model.Webhook, error) {
	var rows []webhookRow
	if err := t.tx.NewSelect().Model(&rows).Where("project_id = ?", projectID).Order("created_at", "id").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.Webhook, len(rows))
	for i, r := range rows {
		out[i] = r.tool()
	}
	return out, nil
}

func (t *tx) SetWebhookEnabled(ctx context.Context, id string, enabled bool, at time.Time, reason string) error {
	q := t.tx.NewUpdate().Model((*webhookRow)(nil)).Set("enabled = ?", enabled).Where("id = ?", id)
	if enabled {
		// A fresh start: the streak that disabled it is over.
		q = q.Set("disabled_at = NULL").Set("disabled_reason = ''").Set("failing_since = NULL")
	} else {
		q = q.Set("disabled_at = ?", at.UTC()).Set("disabled_reason = ?", reason)
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return &model.Error{Code: model.CodeNotFound, Message: "webhook " + id + " not found"}
	}
	return nil
}

func (t *tx) SetWebhookURL(ctx context.Context, id, url, secretEnc string) error {
	// The failure streak was the old receiver's.
	res, err := t.tx.NewUpdate().Model((*webhookRow)(nil)).Set("url = ?", url).Set("secret_enc = ?", secretEnc).
		Set("failing_since = NULL").Where("id = ?", id).Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return &model.Error{Code: model.CodeNotFound, Message: "webhook " + id + " not found"}
	}
	return nil
}

func (t *tx) SetWebhookOutcome(ctx context.Context, id string, o model.WebhookOutcome, failingSince *time.Time) error {
	status := 0
	if o.HTTPStatus != nil {
		status = *o.HTTPStatus
	}
	q := t.tx.NewUpdate().Model((*webhookRow)(nil)).Set("last_at = ?", o.At.UTC()).Set("last_status = ?", o.Status).
		Set("last_http_status = ?", status).Set("last_error = ?", o.Error).Where("id = ?", id)
	if failingSince == nil {
		q = q.Set("failing_since = NULL")
	} else {
		q = q.Set("failing_since = ?", failingSince.UTC())
	}
	_, err := q.Exec(ctx)
	return mapError(err)
}

func (t *tx) WebhookTargets(ctx context.Context, projectID string) (model.WebhookTargets, error) {
	var rows []webhookRow
	if err := t.tx.NewSelect().Model(&rows).Column("id", "events").Where("project_id = ?", projectID).Where("enabled").
		Scan(ctx); err != nil {
		return model.WebhookTargets{}, mapError(err)
	}
	if len(rows) == 0 {
		return model.WebhookTargets{}, nil
	}
	var out model.WebhookTargets
	if err := t.tx.NewSelect().Model((*projectRow)(nil)).Column("title", "source_language").Where("id = ?", projectID).
		Scan(ctx, &out.Title, &out.SourceLanguage); err != nil {
		return model.WebhookTargets{}, notFound(err, "project %s", projectID)
	}
	for _, r := range rows {
		out.Hooks = append(out.Hooks, model.Webhook{ID: r.ID, Events: splitComma(r.Events), Enabled: true})
	}
	return out, nil
}

func (t *tx) AddWebhookBatch(ctx context.Context, b model.WebhookBatch) error {
	events, err := json.Marshal(b.Events)
	if err != nil {
		return err
	}
	_, err = t.tx.NewInsert().Model(&webhookBatchRow{ProjectID: b.ProjectID, ProjectTitle: b.ProjectTitle,
		WebhookIDs: strings.Join(b.WebhookIDs, ","), Events: string(events), CreatedAt: b.CreatedAt.UTC()}).Exec(ctx)
	return mapError(err)
}

func (t *tx) TakeWebhookBatches(ctx context.Context, limit int) ([]model.WebhookBatch, error) {
	var rows []webhookBatchRow
	q := t.tx.NewSelect().Model(&rows).Order("id").Limit(int64(limit))
	if t.db.postgres {
		// Two servers expanding at once take different rows.
		q = q.For("UPDATE SKIP LOCKED")
	}
	if err := q.Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(rows))
	out := make([]model.WebhookBatch, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
		out[i] = model.WebhookBatch{ID: r.ID, ProjectID: r.ProjectID, ProjectTitle: r.ProjectTitle,
			WebhookIDs: splitComma(r.WebhookIDs), CreatedAt: r.CreatedAt.UTC()}
		if err := json.Unmarshal([]byte(r.Events), &out[i].Events); err != nil {
			return nil, err
		}
	}
	if _, err := t.tx.NewDelete().Model((*webhookBatchRow)(nil)).Where("id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
		return nil, mapError(err)
	}
	return out, nil
}

// deliveryBatch bounds the rows of one delivery insert: 15 parameters a row stays under
// both dialects' parameter limits.
const deliveryBatch = 1000

func (t *tx) AddDeliveries(ctx context.Context, ds []model.Delivery) error {
	for start := 0; start < len(ds); start += deliveryBatch {
		end := min(start+deliveryBatch, len(ds))
		rows := make([]deliveryRow, 0, end-start)
		for _, d := range ds[start:end] {
			rows = append(rows, deliveryRow{EventID: d.EventID, WebhookID: d.WebhookID, ProjectID: d.ProjectID, Event: d.Event,
				Key: d.Key, Locale: d.Locale, ProjectTitle: d.ProjectTitle, CreatedAt: d.CreatedAt.UTC(), State: d.State,
				NextAt: d.NextAt.UTC()})
		}
		if _, err := t.tx.NewInsert().Model(&rows).Exec(ctx); err != nil {
			return mapError(err)
		}
	}
	return nil
}

// due selects the pending deliveries due at now whose lease (if any) ran out.
func due(q *bun.SelectQuery, now time.Time) *bun.SelectQuery {
	return q.Where("d.state = ?", model.DeliveryPending).Where("d.next_at <= ?", now).
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("d.locked_until IS NULL").WhereOr("d.locked_until < ?", now)
		})
}

func (t *tx) DueWebhooks(ctx context.Context, now time.Time) ([]string, error) {
	var ids []string
	q := t.tx.NewSelect().TableExpr("webhook_deliveries AS d").ColumnExpr("DISTINCT d.webhook_id").
		Join("JOIN webhooks AS w ON w.id = d.webhook_id").Where("w.enabled")
	if err := due(q, now).Scan(ctx, &ids); err != nil {
		return nil, mapError(err)
	}
	return ids, nil
}

func (t *tx) ClaimDeliveries(ctx context.Context, webhookID string, now, until time.Time, token string, n int) ([]model.Delivery, error) {
	var ids []int64
	q := t.tx.NewSelect().TableExpr("webhook_deliveries AS d").Column("d.id").Where("d.webhook_id = ?", webhookID).
		Order("d.next_at", "d.id").Limit(int64(n))
	q = due(q, now)
	if t.db.postgres {
		q = q.For("UPDATE SKIP LOCKED")
	}
	if err := q.Scan(ctx, &ids); err != nil {
		return nil, mapError(err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	var rows []deliveryRow
	if err := t.tx.NewUpdate().Model(&rows).Set("locked_until = ?", until).Set("lock_token = ?", token).
		Where("id IN (?)", bun.In(ids)).Returning("*").Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.Delivery, len(rows))
	for i, r := range rows {
		out[i] = r.tool()
	}
	return out, nil
}

func (t *tx) RenewDeliveries(ctx context.Context, token string, ids []int64, until time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := t.tx.NewUpdate().Model((*deliveryRow)(nil)).Set("locked_until = ?", until).Where("lock_token = ?", token).
		Where("state = ?", model.DeliveryPending).Where("id IN (?)", bun.In(ids)).Exec(ctx)
	return mapError(err)
}

func (t *tx) FinishDelivery(ctx context.Context, d model.Delivery, a model.DeliveryAttempt) error {
	if _, err := t.tx.NewInsert().Model(&deliveryAttemptRow{DeliveryID: a.DeliveryID, WebhookID: a.WebhookID, Attempt: a.Attempt,
		At: a.At.UTC(), HTTPStatus: a.HTTPStatus, Error: a.Error, DurationMS: a.Duration.Milliseconds()}).Exec(ctx); err != nil {
		return mapError(err)
	}
	// Only a pending delivery moves: one another process already delivered stays so.
	q := t.tx.NewUpdate().Model((*deliveryRow)(nil)).Set("state = ?", d.State).Set("attempts = ?", d.Attempts).
		Set("next_at = ?", d.NextAt.UTC()).Set("locked_until = NULL").Set("lock_token = ''").
		Set("http_status = ?", d.HTTPStatus).Set("last_error = ?", d.LastError).
		Where("id = ?", d.ID).Where("state = ?", model.DeliveryPending)
	if d.DeliveredAt != nil {
		q = q.Set("delivered_at = ?", d.DeliveredAt.UTC())
	}
	_, err := q.Exec(ctx)
	return mapError(err)
}

func (t *tx) FailPendingDeliveries(ctx context.Context, webhookID, reason string) error {
	_, err := t.tx.NewUpdate().Model((*deliveryRow)(nil)).Set("state = ?", model.DeliveryFailed).Set("last_error = ?", reason).
		Set("locked_until = NULL").Set("lock_token = ''").
		Where("webhook_id = ?", webhookID).Where("state = ?", model.DeliveryPending).Exec(ctx)
	return mapError(err)
}

func (t *tx) WebhookDeliveries(ctx context.Context, webhookID string, limit int) ([]model.Delivery, error) {
	var rows []deliveryRow
	if err := t.tx.NewSelect().Model(&rows).Where("webhook_id = ?", webhookID).OrderExpr("id DESC").Limit(int64(limit)).
		Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.Delivery, len(rows))
	for i, r := range rows {
		out[i] = r.tool()
	}
	return out, nil
}
