package rest_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
)

// TestAPIInstances runs two server instances on one database, each with its own store and
// cache (production settings), the way several processes run behind a load balancer: what
// one writes, the other serves within a second.
func TestAPIInstances(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		// Production settings: the default poll interval.
		open := func() *storage.DB { return storagetest.MustOpen(t, dsn, &storage.Options{}) }
		a := serve(t, dialect, open(), nil)
		a.useFixture(f)
		b := a.peer(t, open())

		abc(t, a)
		b.wantFlat(t, "en", "ui", map[string]string{"a": "A", "b": "B", "c": "C"})
		etag := b.call(t, "GET", b.readPath("nb", "ui"), tokenAuth(b.ro), nil).wantStatus(t, http.StatusOK).header.Get("ETag")
		b.call(t, "GET", "/api/"+b.proj.ID+"/latest/en/ui", bearerAuth(b.wsToken), nil).wantStatus(t, http.StatusOK)

		a.sync(t, "en", "ui", map[string]any{"translations": map[string]string{"a": "A2", "b": "B", "d": "D"}, "preserve_source_values": false})
		a.overwrite(t, "nb", "ui", map[string]string{"b": "B-nb"})
		wantEN := map[string]string{"a": "A2", "b": "B", "d": "D"}
		eventually(t, "the other instance to serve the new English values", func() bool {
			return jsonEqual(t, b.call(t, "GET", b.readPath("en", "ui"), tokenAuth(b.ro), nil).body, wantEN)
		})
		eventually(t, "the other instance to serve the new values to a workspace token", func() bool {
			return jsonEqual(t, b.call(t, "GET", "/api/"+b.proj.ID+"/latest/en/ui", bearerAuth(b.wsToken), nil).body, wantEN)
		})
		eventually(t, "the other instance to drop the old Norwegian ETag", func() bool {
			r := b.do(t, request{Method: "GET", Path: b.readPath("nb", "ui"), Auth: tokenAuth(b.ro), Header: map[string]string{"If-None-Match": etag}})
			return r.status == http.StatusOK && jsonEqual(t, r.body, map[string]string{"a": "A-nb", "b": "B-nb"})
		})
		wantKeys(t, "stale on the other instance", b.stale(t, "ui", "lang=nb"), []string{"a"})

		key := a.key(t, a.proj.ID, false)
		eventually(t, "the other instance to take a key made by the first", func() bool {
			return b.call(t, "GET", b.readPath("en", "ui"), tokenAuth(key), nil).status == http.StatusOK
		})
	})
}

// eventually polls cond every 50 ms for up to two seconds (changes made elsewhere must show
// within one).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 2 s for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestAPIInstancesShareTheWriteBudget runs two servers on one PostgreSQL database with the
// database-backed limiter, as `lokal serve` wires it: a project's writes through either
// count against one budget, so two instances behind a balancer give 5 writes, not 10, and
// REST and MCP doors on different instances share it too.
func TestAPIInstancesShareTheWriteBudget(t *testing.T) {
	t.Parallel()
	dsn, f := storagetest.FixtureDSN(t, "postgres")
	instance := func() *server {
		db := storagetest.MustOpen(t, dsn, &storage.Options{})
		s := serve(t, "postgres", db, &tools.Options{Budgets: map[string]int{tools.WriteBudget.Name: 5}, Limiter: db.Limiter(nil)})
		s.useFixture(f)
		return s
	}
	a, b := instance(), instance()
	for i, s := range []*server{a, b, a, b} {
		s.call(t, "PUT", s.syncPath("en", "ui"), tokenAuth(s.rw), map[string]any{"translations": map[string]string{fmt.Sprint("k", i): "V"}, "partial": true}).
			wantStatus(t, http.StatusOK)
	}
	m := b.mcpProject(t, tokenAuth(b.rw))
	if res := m.call(t, "add_key", map[string]any{"namespace_key": "ui", "translation_key": "mcp", "source_value": "M"}); res.IsError {
		t.Fatalf("fifth write refused: %s", mcpText(res))
	}
	wantRateLimited(t, a.call(t, "PUT", a.syncPath("en", "ui"), tokenAuth(a.rw), map[string]string{"x": "X"}))
	wantRateLimited(t, b.call(t, "PUT", b.syncPath("en", "ui"), tokenAuth(b.rw), map[string]string{"x": "X"}))
	mcpErr(t, m, "add_key", map[string]any{"namespace_key": "ui", "translation_key": "y", "source_value": "Y"}, "rate_limited")
}
