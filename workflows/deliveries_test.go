package workflows_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
	"github.com/lokal-dev/lokal/tools/secrets"
	"github.com/lokal-dev/lokal/workflows"
)

// received is one request a receiver got.
type received struct {
	header http.Header
	body   []byte
}

// receiver is a webhook endpoint on 127.0.0.1: answer decides each reply (nil: 204).
type receiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	got    []received
	answer func(n int, r *http.Request, w http.ResponseWriter) // n counts from 1
}

func newReceiver(t *testing.T, answer func(n int, r *http.Request, w http.ResponseWriter)) *receiver {
	t.Helper()
	rc := &receiver{answer: answer}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, received{header: r.Header.Clone(), body: body})
		n := len(rc.got)
		rc.mu.Unlock()
		if rc.answer != nil {
			rc.answer(n, r, w)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// verify checks a delivery as a Standard Webhooks receiver library does, written here
// from the specification: the signature over "<id>.<timestamp>.<body>" keyed with the
// base64-decoded secret after whsec_.
func verify(secret string, h http.Header, body []byte) error {
	id, ts, sigs := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	if id == "" || ts == "" || sigs == "" {
		return errors.New("missing Standard Webhooks headers")
	}
	if _, err := strconv.ParseInt(ts, 10, 64); err != nil {
		return errors.New("timestamp is not unix seconds")
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return err
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + ts + "." + string(body)))
	want := m.Sum(nil)
	for _, s := range strings.Fields(sigs) {
		v, sig, ok := strings.Cut(s, ",")
		if !ok || v != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(sig)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return errors.New("no valid signature")
}

type env struct {
	dsn string
	cat *tools.Catalog
	clk *clock
	p   model.Project
	// sibling is another project of the workspace, without webhooks.
	sibling string
	ctx     context.Context
}

func newEnv(t *testing.T, dialect string, allow string, hooks ...tools.WriteHook) *env {
	t.Helper()
	dsn, f := storagetest.FixtureDSN(t, dialect)
	db := storagetest.MustOpen(t, dsn, nil)
	box, err := secrets.New(make([]byte, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	var nets []netip.Prefix
	if allow != "" {
		if nets, err = outbound.ParseAllowList(allow); err != nil {
			t.Fatal(err)
		}
	}
	clk := &clock{t: time.Date(2026, 3, 2, 17, 0, 0, 0, time.UTC)}
	cat := storagetest.Catalog(db, &tools.Options{Now: clk.now, Secrets: box, Outbound: outbound.NewGuard(nets), Hooks: hooks})
	return &env{dsn: dsn, sibling: f.Sibling.ID, cat: cat, clk: clk, p: f.Project, ctx: model.WithPrincipal(t.Context(), tools.System)}
}

func (e *env) deliverer(o workflows.DeliveryOptions) *workflows.Deliverer {
	o.Now = e.clk.now
	if o.Guard == nil {
		o.Guard = outbound.NewGuard([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")})
	}
	return workflows.NewDeliverer(e.cat, &o)
}

func (e *env) sync(t *testing.T, tr map[string]string) {
	t.Helper()
	ref := tools.NamespaceRef{ProjectID: e.p.ID, Language: e.p.SourceLanguage, Namespace: "app"}
	if _, err := e.cat.Sync(e.ctx, tools.SyncIn{NamespaceRef: ref, Translations: tr}); err != nil {
		t.Fatal(err)
	}
}

func (e *env) deliveries(t *testing.T, id string) []tools.DeliveryView {
	t.Helper()
	ds, err := e.cat.WebhookDeliveries(e.ctx, id, 100)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

type body struct {
	Event     string `json:"event"`
	Timestamp string `json:"timestamp"`
	Data      struct {
		Key     string `json:"key"`
		Locale  string `json:"locale"`
		Project string `json:"project"`
	} `json:"data"`
}

// Every kind of change reaches the receiver once, signed, with the spec's body and headers.
func TestDeliveryShapeAndEvents(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, "127.0.0.1/32")
		rc := newReceiver(t, nil)
		wh, err := e.cat.AddWebhook(e.ctx, e.p.ID, rc.srv.URL+"/hooks/lokal", nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(wh.Secret, "whsec_") || len(wh.Events) != 3 {
			t.Fatalf("webhook %+v, want a whsec_ secret and every event", wh)
		}
		if raw, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(wh.Secret, "whsec_")); len(raw) != 24 {
			t.Fatalf("secret holds %d bytes, want 24", len(raw))
		}
		e.sync(t, map[string]string{"nav.home": "Home", "cart.items": "Items"})
		nbRef := tools.NamespaceRef{ProjectID: e.p.ID, Language: "nb", Namespace: "app"}
		if _, err := e.cat.Overwrite(e.ctx, tools.OverwriteIn{NamespaceRef: nbRef, Translations: map[string]string{"nav.home": "Hjem"}}); err != nil {
			t.Fatal(err)
		}
		row := tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: e.p.ID}, NamespaceKey: "app", TranslationKey: "cart.items"}, Language: "sv"}
		if _, err := e.cat.UpdateTranslation(e.ctx, tools.UpdateTranslationIn{RowRef: row, Value: "Varor"}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.cat.SetTranslationStatus(e.ctx, tools.SetStatusIn{RowRef: row, Status: model.StatusApproved}); err != nil {
			t.Fatal(err)
		}
		// Changing a source value: updated, in the source language, never "approved".
		keep := false
		if _, err := e.cat.Sync(e.ctx, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: e.p.ID, Language: "en", Namespace: "app"},
			Translations: map[string]string{"nav.home": "Start", "cart.items": "Items"}, PreserveSourceValues: &keep}); err != nil {
			t.Fatal(err)
		}

		d := e.deliverer(workflows.DeliveryOptions{})
		if err := d.Drain(e.ctx); err != nil {
			t.Fatal(err)
		}
		var got []string
		ids := map[string]bool{}
		for _, r := range rc.requests() {
			if err := verify(wh.Secret, r.header, r.body); err != nil {
				t.Errorf("signature: %v (headers %v)", err, r.header)
			}
			if r.header.Get("X-Webhook-Secret") != wh.Secret {
				t.Errorf("X-Webhook-Secret %q, want the secret", r.header.Get("X-Webhook-Secret"))
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			if ts, _ := strconv.ParseInt(r.header.Get("webhook-timestamp"), 10, 64); ts != e.clk.now().Unix() {
				t.Errorf("webhook-timestamp %d, want the attempt's time %d", ts, e.clk.now().Unix())
			}
			var b body
			dec := json.NewDecoder(strings.NewReader(string(r.body)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&b); err != nil {
				t.Fatalf("body %s: %v", r.body, err)
			}
			if b.Data.Project != "Web app" || b.Timestamp != "2026-03-02T17:00:00.000Z" {
				t.Errorf("body %s: want project Web app and the event's UTC time", r.body)
			}
			got = append(got, b.Event+" "+b.Data.Key+" "+b.Data.Locale)
			ids[r.header.Get("webhook-id")] = true
		}
		want := []string{
			"translation.created nav.home en", "translation.created cart.items en",
			"translation.created nav.home nb", "translation.approved nav.home nb",
			"translation.created cart.items sv",
			"translation.approved cart.items sv",
			"translation.updated nav.home en",
		}
		if !sameSet(got, want) {
			t.Errorf("events\n%v\nwant\n%v", got, want)
		}
		if len(ids) != len(got) {
			t.Errorf("%d distinct webhook-ids for %d events", len(ids), len(got))
		}
		list, err := e.cat.ListWebhooks(e.ctx, e.p.ID)
		if err != nil || len(list) != 1 || list[0].LastOutcome == nil || list[0].LastOutcome.Status != "delivered" ||
			list[0].LastOutcome.HTTPStatus == nil || *list[0].LastOutcome.HTTPStatus != 204 {
			t.Fatalf("list %+v %v, want the last outcome delivered 204", list, err)
		}
		for _, dv := range e.deliveries(t, wh.ID) {
			if dv.State != "delivered" || dv.Attempts != 1 || dv.DeliveredAt == nil {
				t.Errorf("delivery %+v, want delivered at the first attempt", dv)
			}
		}
	})
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		m[s]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return true
}

// A failing receiver gets three retries on the backoff, with the same webhook-id each
// time; a webhook failing for five days is disabled and its pending deliveries end.
func TestRetriesBackoffAndDisable(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, "127.0.0.1/32")
		var fail atomic.Bool
		fail.Store(true)
		rc := newReceiver(t, func(n int, r *http.Request, w http.ResponseWriter) {
			if fail.Load() {
				w.WriteHeader(http.StatusInternalServerError)
				return
			}
			w.WriteHeader(http.StatusOK)
		})
		wh, err := e.cat.AddWebhook(e.ctx, e.p.ID, rc.srv.URL, []string{"translation.created"})
		if err != nil {
			t.Fatal(err)
		}
		e.sync(t, map[string]string{"a": "A"})
		d := e.deliverer(workflows.DeliveryOptions{})
		drain := func() {
			t.Helper()
			if err := d.Drain(e.ctx); err != nil {
				t.Fatal(err)
			}
		}
		drain()
		for i, wait := range []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute} {
			// Just before the wait ends nothing is sent.
			e.clk.t = e.clk.t.Add(wait - time.Second)
			drain()
			if n := len(rc.requests()); n != i+1 {
				t.Fatalf("%d requests before retry %d's wait of %s ended, want %d", n, i+1, wait, i+1)
			}
			e.clk.t = e.clk.t.Add(time.Second)
			drain()
			if n := len(rc.requests()); n != i+2 {
				t.Fatalf("%d requests after retry %d's wait, want %d", n, i+1, i+2)
			}
		}
		e.clk.t = e.clk.t.Add(time.Hour)
		drain()
		reqs := rc.requests()
		if len(reqs) != 4 {
			t.Fatalf("%d attempts, want 4 (one and three retries)", len(reqs))
		}
		for _, r := range reqs {
			if r.header.Get("webhook-id") != reqs[0].header.Get("webhook-id") || string(r.body) != string(reqs[0].body) {
				t.Errorf("attempts differ: webhook-id %q body %s, want %q %s", r.header.Get("webhook-id"), r.body,
					reqs[0].header.Get("webhook-id"), reqs[0].body)
			}
			if err := verify(wh.Secret, r.header, r.body); err != nil {
				t.Error(err)
			}
		}
		ds := e.deliveries(t, wh.ID)
		if len(ds) != 1 || ds[0].State != "failed" || ds[0].Attempts != 4 || ds[0].HTTPStatus == nil || *ds[0].HTTPStatus != 500 ||
			!strings.Contains(ds[0].LastError, "500") {
			t.Fatalf("deliveries %+v, want one failed after 4 attempts with 500", ds)
		}
		attempts := countRows(t, e, "webhook_attempts")
		if attempts != 4 {
			t.Errorf("%d attempt rows, want one per attempt (4)", attempts)
		}

		// Still failing five days after the first failure: disabled, and shown so.
		e.clk.t = e.clk.t.Add(5 * 24 * time.Hour)
		e.sync(t, map[string]string{"b": "B"})
		e.sync(t, map[string]string{"c": "C"})
		d2 := e.deliverer(workflows.DeliveryOptions{MaxInFlight: 1, PerEndpoint: 1})
		if _, err := d2.Pump(e.ctx); err != nil {
			t.Fatal(err)
		}
		d2.Wait()
		list, err := e.cat.ListWebhooks(e.ctx, e.p.ID)
		if err != nil || len(list) != 1 {
			t.Fatal(list, err)
		}
		if list[0].Enabled || !strings.Contains(list[0].DisabledReason, "disabled automatically") || list[0].DisabledAt == nil {
			t.Fatalf("webhook %+v, want disabled automatically", list[0])
		}
		drain()
		if n := len(rc.requests()); n != 5 {
			t.Errorf("%d requests, want 5: nothing is sent to a disabled webhook", n)
		}
		for _, dv := range e.deliveries(t, wh.ID) {
			if dv.State != "failed" {
				t.Errorf("delivery %+v of a disabled webhook, want failed", dv)
			}
		}
		// Turned on again, it starts from a clean slate and gets new events.
		if _, err := e.cat.SetWebhookEnabled(e.ctx, wh.ID, true); err != nil {
			t.Fatal(err)
		}
		fail.Store(false)
		e.sync(t, map[string]string{"d": "D"})
		drain()
		list, _ = e.cat.ListWebhooks(e.ctx, e.p.ID)
		if !list[0].Enabled || list[0].LastOutcome == nil || list[0].LastOutcome.Status != "delivered" {
			t.Fatalf("webhook %+v, want enabled and delivered", list[0])
		}
	})
}

func countRows(t *testing.T, e *env, table string) int {
	t.Helper()
	var n int
	if err := storagetest.SQL(t, e.dsn).QueryRowContext(e.ctx, "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func mustBox(t *testing.T) *secrets.Box {
	t.Helper()
	box, err := secrets.New(make([]byte, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return box
}
