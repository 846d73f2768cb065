package workflows_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
	"github.com/lokal-dev/lokal/workflows"
)

// trap is a listener that must see nothing: it counts connections, not just requests.
type trap struct {
	srv   *httptest.Server
	port  string
	conns atomic.Int64
}

func newTrap(t *testing.T, network, addr string) *trap {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	tr := &trap{}
	tr.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	tr.srv.Listener.Close()
	tr.srv.Listener = ln
	tr.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			tr.conns.Add(1)
		}
	}
	tr.srv.Start()
	t.Cleanup(tr.srv.Close)
	_, tr.port, _ = net.SplitHostPort(ln.Addr().String())
	return tr
}

func (tr *trap) untouched(t *testing.T) {
	t.Helper()
	if n := tr.conns.Load(); n != 0 {
		t.Errorf("forbidden listener %s got %d connections, want none", tr.srv.URL, n)
	}
}

// pointAt makes a webhook with an allowed URL, then stores url in its place, as a DNS change
// or an older lokal would have left it: the dial-time check must still refuse it.
func pointAt(t *testing.T, e *env, url string) string {
	t.Helper()
	wh, err := e.cat.AddWebhook(e.ctx, e.p.ID, "http://127.0.0.1:9/placeholder", nil)
	if err != nil {
		t.Fatal(err)
	}
	q := "UPDATE webhooks SET url = ? WHERE id = ?"
	if strings.HasPrefix(e.dsn, "postgres") {
		q = "UPDATE webhooks SET url = $1 WHERE id = $2"
	}
	if _, err := storagetest.SQL(t, e.dsn).ExecContext(e.ctx, q, url, wh.ID); err != nil {
		t.Fatal(err)
	}
	return wh.ID
}

// Loopback in every form, dialled for real: the guard refuses each where the connection is
// made, and the listeners there see nothing. Only loopback addresses are ever dialled.
func TestDeliveryGuardAtDialTime(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		t1 := newTrap(t, "tcp4", "127.0.0.1:0")
		t2 := newTrap(t, "tcp4", "127.0.0.2:0")
		okRC := newReceiver(t, nil)
		_, okPort, _ := net.SplitHostPort(strings.TrimPrefix(okRC.srv.URL, "http://"))
		redirector := newReceiver(t, func(_ int, r *http.Request, w http.ResponseWriter) {
			http.Redirect(w, r, "http://127.0.0.2:"+t2.port+"/", http.StatusTemporaryRedirect)
		})

		// The catalogue lets the first URL be saved; the deliverer allows 127.0.0.1 only.
		e := newEnv(t, dialect, "127.0.0.0/8")
		var hostile []string
		for _, h := range []string{"127.0.0.2", "2130706434", "0177.0.0.2", "0x7f000002", "[::ffff:127.0.0.2]", "127.0.2",
			"[::ffff:7f00:2]"} {
			hostile = append(hostile, "http://"+h+":"+t2.port+"/")
		}
		// Forms of 127.0.0.1 that are not the allowed address as written.
		for _, h := range []string{"0.0.0.0", "0", "[::]"} {
			hostile = append(hostile, "http://"+h+":"+t1.port+"/")
		}
		var t6 *trap
		if ln, err := net.Listen("tcp6", "[::1]:0"); err == nil {
			ln.Close()
			t6 = newTrap(t, "tcp6", "[::1]:0")
			hostile = append(hostile, "http://[::1]:"+t6.port+"/")
		}
		ids := map[string]string{}
		for _, u := range hostile {
			ids[pointAt(t, e, u)] = u
		}
		okHook := pointAt(t, e, "http://127.0.0.1:"+okPort+"/")
		redirHook := pointAt(t, e, redirector.srv.URL+"/")
		e.sync(t, map[string]string{"k": "v"})
		d := e.deliverer(workflows.DeliveryOptions{})
		if err := d.Drain(e.ctx); err != nil {
			t.Fatal(err)
		}
		for id, u := range ids {
			ds := e.deliveries(t, id)
			if len(ds) != 1 || ds[0].State != "pending" || ds[0].Attempts != 1 || !strings.Contains(ds[0].LastError, "outbound guard") {
				t.Errorf("%s: deliveries %+v, want one refused attempt by the outbound guard", u, ds)
			}
		}
		if len(okRC.requests()) != 1 {
			t.Errorf("the allowed receiver got %d requests, want 1", len(okRC.requests()))
		}
		if ds := e.deliveries(t, okHook); len(ds) != 1 || ds[0].State != "delivered" {
			t.Errorf("allowed receiver: %+v", ds)
		}
		if ds := e.deliveries(t, redirHook); len(ds) != 1 || ds[0].State != "pending" || ds[0].HTTPStatus == nil ||
			*ds[0].HTTPStatus != 307 || !strings.Contains(ds[0].LastError, "a redirect, which lokal does not follow") {
			t.Errorf("redirect: %+v, want a failed attempt with 307, not followed", ds)
		}
		t1.untouched(t)
		t2.untouched(t)
		if t6 != nil {
			t6.untouched(t)
		}
	})
}

// With no allow list at all, localhost and 127.0.0.1 are refused too.
func TestDeliveryGuardNoAllowList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite", "127.0.0.0/8")
	tr := newTrap(t, "tcp4", "127.0.0.1:0")
	urls := []string{"http://127.0.0.1:" + tr.port + "/", "http://127.1:" + tr.port + "/"}
	if addrs, err := net.DefaultResolver.LookupNetIP(t.Context(), "ip", "localhost"); err == nil && len(addrs) > 0 {
		only := true
		for _, a := range addrs {
			only = only && a.Unmap().IsLoopback()
		}
		if only {
			urls = append(urls, "http://localhost:"+tr.port+"/")
		}
	}
	for _, u := range urls {
		pointAt(t, e, u)
	}
	e.sync(t, map[string]string{"k": "v"})
	d := e.deliverer(workflows.DeliveryOptions{Guard: outbound.NewGuard(nil)})
	if err := d.Drain(e.ctx); err != nil {
		t.Fatal(err)
	}
	tr.untouched(t)
}

// resolver answers names from a table and never asks DNS.
type resolver map[string][]string

func (r resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	var out []netip.Addr
	for _, a := range r[host] {
		out = append(out, netip.MustParseAddr(a))
	}
	if len(out) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return out, nil
}

// Hostile URLs are refused when a webhook or a deploy hook is configured, with a message
// that says why. Names resolve through a stub, so nothing here opens a connection.
func TestHostileURLsRefusedAtConfiguration(t *testing.T) {
	t.Parallel()
	dsn, f := storagetest.FixtureDSN(t, "sqlite")
	db := storagetest.MustOpen(t, dsn, nil)
	res := resolver{
		"localhost":                {"127.0.0.1", "::1"},
		"internal.corp.test":       {"10.1.2.3"},
		"metadata.google.internal": {"169.254.169.254"},
		"rebind.test":              {"93.184.216.34", "192.168.0.1"},
		"cgnat.test":               {"100.100.100.100"},
		"v6private.test":           {"fd12:3456::1"},
		"public.example":           {"93.184.216.34"},
	}
	box := mustBox(t)
	cat := storagetest.Catalog(db, &tools.Options{Secrets: box, Resolver: res})
	ctx := model.WithPrincipal(t.Context(), tools.System)
	hostile := []string{
		"http://127.0.0.1/", "http://127.1/", "http://2130706433/", "http://0177.0.0.1/", "http://0x7f000001/",
		"http://0x7f.0x0.0x0.0x1/", "http://[::1]/", "http://[::]/", "http://0.0.0.0/", "http://0/",
		"http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[0:0:0:0:0:ffff:127.0.0.1]/",
		"http://10.0.0.1/", "http://172.16.0.1/", "http://172.31.255.254/", "http://192.168.1.1/",
		"http://100.64.0.1/", "http://169.254.169.254/latest/meta-data/", "http://[fd00::1]/",
		"http://[fd00:ec2::254]/", "http://[fe80::1]/", "http://224.0.0.1/", "http://[64:ff9b::7f00:1]/",
		"http://[::ffff:169.254.169.254]/", "http://3232235777/", "http://012.0.0.1/",
		"http://localhost:8080/", "http://internal.corp.test/hook", "http://metadata.google.internal/",
		"http://rebind.test/", "http://cgnat.test/", "http://v6private.test/",
		"ftp://public.example/", "file:///etc/passwd", "gopher://public.example/", "http://user:pw@public.example/",
		"javascript:alert(1)", "http:///nohost", "",
	}
	if len(hostile) < 25 {
		t.Fatal("the table must hold at least 25 hostile URLs")
	}
	for _, u := range hostile {
		_, err := cat.AddWebhook(ctx, f.Project.ID, u, nil)
		if model.ErrorCode(err) != model.CodeInvalid {
			t.Errorf("webhook %q: err %v, want it refused as invalid", u, err)
			continue
		}
		if msg := model.ErrorMessage(err); !strings.Contains(msg, "refused") && !strings.Contains(msg, "must be an http or https URL") {
			t.Errorf("webhook %q: message %q does not say why", u, msg)
		}
		_, err = cat.SetRedeploy(ctx, tools.RedeployIn{ProjectID: f.Project.ID, Provider: tools.DeployHook, URL: u})
		if model.ErrorCode(err) != model.CodeInvalid {
			t.Errorf("deploy hook %q: err %v, want it refused", u, err)
		}
	}
	// The refusal names the address and the way out.
	_, err := cat.AddWebhook(ctx, f.Project.ID, "http://internal.corp.test/hook", nil)
	if msg := model.ErrorMessage(err); !strings.Contains(msg, "10.1.2.3") || !strings.Contains(msg, "--allow-private-nets") {
		t.Errorf("message %q, want the private address and --allow-private-nets", msg)
	}
	if hooks, _ := cat.ListWebhooks(ctx, f.Project.ID); len(hooks) != 0 {
		t.Errorf("refused webhooks were stored: %+v", hooks)
	}
	// A public name is accepted, and so is a private network the operator allowed.
	if _, err := cat.AddWebhook(ctx, f.Project.ID, "https://public.example/hook", nil); err != nil {
		t.Errorf("public URL refused: %v", err)
	}
	allowed := storagetest.Catalog(db, &tools.Options{Secrets: box, Resolver: res,
		Outbound: outbound.NewGuard([]netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")})})
	if _, err := allowed.AddWebhook(ctx, f.Project.ID, "http://internal.corp.test/hook", nil); err != nil {
		t.Errorf("allowed private network refused: %v", err)
	}
	if _, err := allowed.AddWebhook(ctx, f.Project.ID, "http://192.168.1.1/", nil); err == nil {
		t.Error("a network outside the allow list was accepted")
	}
}

// A receiver that does not answer in time is a failed attempt, retried later.
func TestDeliveryTimeout(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, "127.0.0.1/32")
		release := make(chan struct{})
		t.Cleanup(func() { close(release) })
		rc := newReceiver(t, func(n int, r *http.Request, w http.ResponseWriter) {
			if n == 1 {
				select {
				case <-release:
				case <-r.Context().Done():
				}
				return
			}
			w.WriteHeader(http.StatusAccepted)
		})
		wh, err := e.cat.AddWebhook(e.ctx, e.p.ID, rc.srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		e.sync(t, map[string]string{"slow": "Slow"})
		// The first attempt hangs, so any timeout trips it; the retry answers at once, but a
		// loaded race run needs well over 50 ms for it.
		d := e.deliverer(workflows.DeliveryOptions{Timeout: time.Second})
		if err := d.Drain(e.ctx); err != nil {
			t.Fatal(err)
		}
		ds := e.deliveries(t, wh.ID)
		if len(ds) != 1 || ds[0].State != "pending" || ds[0].Attempts != 1 || !strings.Contains(ds[0].LastError, "did not answer in time") {
			t.Fatalf("deliveries %+v, want a timed-out attempt to retry", ds)
		}
		e.clk.t = e.clk.t.Add(5 * time.Second)
		if err := d.Drain(e.ctx); err != nil {
			t.Fatal(err)
		}
		if ds := e.deliveries(t, wh.ID); ds[0].State != "delivered" || ds[0].Attempts != 2 {
			t.Fatalf("deliveries %+v, want delivered at the retry", ds)
		}
	})
}

// A slow receiver holds at most PerEndpoint POSTs; another endpoint's deliveries go on.
func TestSlowReceiverDoesNotStarveOthers(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, "127.0.0.1/32")
		release := make(chan struct{})
		var once sync.Once
		unblock := func() { once.Do(func() { close(release) }) }
		t.Cleanup(unblock)
		var cur, peak atomic.Int64
		slow := newReceiver(t, func(_ int, r *http.Request, w http.ResponseWriter) {
			n := cur.Add(1)
			defer cur.Add(-1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			select {
			case <-release:
			case <-r.Context().Done():
			}
		})
		const events = 12
		fastDone := make(chan struct{})
		fast := newReceiver(t, func(n int, _ *http.Request, w http.ResponseWriter) {
			if n == events {
				close(fastDone)
			}
		})
		if _, err := e.cat.AddWebhook(e.ctx, e.p.ID, slow.srv.URL, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := e.cat.AddWebhook(e.ctx, e.p.ID, fast.srv.URL, nil); err != nil {
			t.Fatal(err)
		}
		tr := map[string]string{}
		for i := 0; i < events; i++ {
			tr["k"+string(rune('a'+i))] = "v"
		}
		e.sync(t, tr)
		d := e.deliverer(workflows.DeliveryOptions{PerEndpoint: 2, MaxInFlight: 4, Timeout: time.Minute})
		// Pump until the fast receiver has everything; the slow one is still blocked. The
		// minute is a guard against a hang, not a measure.
		guard := time.After(time.Minute)
	loop:
		for {
			if _, err := d.Pump(e.ctx); err != nil {
				t.Fatal(err)
			}
			select {
			case <-fastDone:
				break loop
			case <-guard:
				t.Fatalf("the fast receiver got %d of %d events while the slow one blocked", len(fast.requests()), events)
			case <-time.After(10 * time.Millisecond):
			}
		}
		if p := peak.Load(); p > 2 {
			t.Errorf("%d POSTs in flight to the slow receiver, want at most 2", p)
		}
		unblock()
		if err := d.Drain(e.ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(slow.requests()); n != events {
			t.Errorf("slow receiver got %d, want %d", n, events)
		}
	})
}

// A delivery leased by a process that died is posted again once the lease ends, and not
// before; a lease renewed in flight holds.
func TestLeasedDeliveryResumes(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, "127.0.0.1/32")
		rc := newReceiver(t, nil)
		wh, err := e.cat.AddWebhook(e.ctx, e.p.ID, rc.srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		e.sync(t, map[string]string{"k": "v"})
		other := e.deliverer(workflows.DeliveryOptions{})
		if _, err := other.ExpandForTest(e.ctx, 10); err != nil {
			t.Fatal(err)
		}
		// The dead process claimed it with a 30 s lease and renewed it once, 20 s later.
		dead, err := other.ClaimForTest(e.ctx, wh.ID, e.clk.now(), 30*time.Second, "dead", 10)
		if err != nil || len(dead) != 1 {
			t.Fatalf("claim %v %v", dead, err)
		}
		e.clk.t = e.clk.t.Add(20 * time.Second)
		if err := other.RenewForTest(e.ctx, "dead", []int64{dead[0].ID}, e.clk.now().Add(30*time.Second)); err != nil {
			t.Fatal(err)
		}
		d := e.deliverer(workflows.DeliveryOptions{})
		e.clk.t = e.clk.t.Add(29 * time.Second)
		if err := d.Drain(e.ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(rc.requests()); n != 0 {
			t.Fatalf("%d requests while another process held the lease", n)
		}
		e.clk.t = e.clk.t.Add(2 * time.Second)
		if err := d.Drain(e.ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(rc.requests()); n != 1 || rc.requests()[0].header.Get("webhook-id") != dead[0].EventID {
			t.Fatalf("%d requests after the lease ended, want 1 with the event's id", n)
		}
	})
}

// A write that rolls back leaves no event; one that commits always has it.
func TestRolledBackWriteEmitsNothing(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		var failing atomic.Bool
		boom := errors.New("boom")
		e := newEnv(t, dialect, "127.0.0.1/32", func(context.Context, model.Tx, model.WriteEvent) error {
			if failing.Load() {
				return boom
			}
			return nil
		})
		rc := newReceiver(t, nil)
		if _, err := e.cat.AddWebhook(e.ctx, e.p.ID, rc.srv.URL, nil); err != nil {
			t.Fatal(err)
		}
		failing.Store(true)
		ref := tools.NamespaceRef{ProjectID: e.p.ID, Language: "en", Namespace: "app"}
		if _, err := e.cat.Sync(e.ctx, tools.SyncIn{NamespaceRef: ref, Translations: map[string]string{"lost": "x"}}); !errors.Is(err, boom) {
			t.Fatalf("sync err %v, want the hook's", err)
		}
		failing.Store(false)
		e.sync(t, map[string]string{"kept": "y"})
		d := e.deliverer(workflows.DeliveryOptions{})
		if err := d.Drain(e.ctx); err != nil {
			t.Fatal(err)
		}
		reqs := rc.requests()
		if len(reqs) != 1 || !strings.Contains(string(reqs[0].body), `"key":"kept"`) {
			t.Fatalf("receiver got %d requests (%v), want the committed write's one event", len(reqs), reqs)
		}
		if n := countRows(t, e, "webhook_outbox"); n != 0 {
			t.Errorf("%d outbox rows left", n)
		}
	})
}
