package workflows

import (
	"context"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// The tests play a second process that took deliveries under its own lease holder name and
// died: these are its steps, which a live Deliverer runs inside Pump and Renew.

func (d *Deliverer) ExpandForTest(ctx context.Context, limit int) (int, error) {
	return d.expand(ctx, limit)
}

func (d *Deliverer) ClaimForTest(ctx context.Context, webhookID string, now time.Time, lease time.Duration, token string, n int) ([]model.Delivery, error) {
	w, err := d.claim(ctx, webhookID, now, lease, token, n)
	return w.deliveries, err
}

func (d *Deliverer) RenewForTest(ctx context.Context, token string, ids []int64, until time.Time) error {
	return d.renew(ctx, token, ids, until)
}
