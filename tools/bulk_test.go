package tools_test

// Chunked writes (tools/bulk.go): on SQLite a write that creates many keys commits them in
// chunks first. These tests shrink the chunks (tools.SetBulkChunks) so that 50 keys make
// five chunks. Identifiers here start with "bulk".

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun/driver/pgdriver"
)

const (
	bulkKeys      = 50 // new keys per big write
	bulkThreshold = 20
	bulkChunk     = 10
)

// bulkEnv is a fresh database with one workspace, the catalogue over it and a second
// connection to count rows with.
type bulkEnv struct {
	cat     *tools.Catalog
	db      *storage.DB
	opts    tools.Options // what cat was made with
	sys     context.Context
	ws      string
	raw     *sql.DB
	events  *bulkEvents
	chunks  int                                  // chunks committed, when chunked
	onChunk func(ctx context.Context, chunk int) // what cat calls after each chunk, when chunked
}

// bulkEvents records what the hooks were handed.
type bulkEvents struct {
	mu   sync.Mutex
	evs  []model.WriteEvent
	fail error // returned by the hook when set, for the writes' own events
}

func (e *bulkEvents) hook(_ context.Context, _ model.Tx, ev model.WriteEvent) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.evs = append(e.evs, ev)
	if ev.Op == model.OpRemoveStagedKeys {
		return nil // the undoing of a failed write, which hooks let through as the real ones do
	}
	return e.fail
}

// normalized are the events without key ids (they differ between databases), changes sorted.
func (e *bulkEvents) normalized() []model.WriteEvent {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]model.WriteEvent, len(e.evs))
	for i, ev := range e.evs {
		chs := slices.Collect(ev.All())
		for j := range chs {
			chs[j].KeyID = 0
		}
		slices.SortFunc(chs, func(a, b model.Change) int {
			return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
		})
		ev.Changes, ev.ProjectID = chs, ""
		out[i] = ev
	}
	return out
}

// bulkOpen opens a fresh database of dialect; chunked shrinks the chunks (they apply on
// SQLite only) and counts them.
func bulkOpen(t *testing.T, dialect string, chunked bool, opts tools.Options, after func(ctx context.Context, chunk int)) *bulkEnv {
	t.Helper()
	dsn := storagetest.DSN(t, dialect)
	db, err := storage.Open(t.Context(), dsn, &storage.Options{PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	env := &bulkEnv{sys: model.WithPrincipal(t.Context(), tools.System), events: &bulkEvents{}}
	if dialect == "sqlite" {
		env.raw, err = sql.Open("sqlite", "file:"+strings.TrimPrefix(dsn, "sqlite:"))
	} else {
		env.raw = sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn)))
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { env.raw.Close() })
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	opts.Hooks = append(opts.Hooks, env.events.hook)
	env.cat = storagetest.Catalog(db, &opts)
	env.db, env.opts = db, opts
	if chunked {
		env.onChunk = func(ctx context.Context, chunk int) {
			env.chunks++
			if after != nil {
				after(ctx, chunk)
			}
		}
		tools.SetBulkChunks(env.cat, bulkThreshold, bulkChunk, env.onChunk)
	}
	w, err := env.cat.CreateWorkspace(env.sys, tools.CreateWorkspaceIn{Name: "W"})
	if err != nil {
		t.Fatal(err)
	}
	env.ws = w.ID
	return env
}

func (env *bulkEnv) project(t *testing.T, title string) string {
	t.Helper()
	p, err := env.cat.CreateProject(env.sys, tools.CreateProjectIn{WorkspaceID: env.ws, Title: title, SourceLanguage: "en", Languages: []string{"nb"}})
	if err != nil {
		t.Fatal(err)
	}
	return p.ID
}

// rows counts the rows of the tables a chunked write inserts into.
func (env *bulkEnv) rows(t *testing.T) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"namespaces", "translation_keys", "translations", "translation_history"} {
		var n int
		if err := env.raw.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[table] = n
	}
	return out
}

func bulkValues(prefix string, n int) map[string]string {
	m := make(map[string]string, n)
	for i := range n {
		m[fmt.Sprintf("%s.k%02d", prefix, i)] = fmt.Sprintf("Value %d of %s", i, prefix)
	}
	return m
}

func bulkWith(m map[string]string, kv ...string) map[string]string {
	m = maps.Clone(m)
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// bulkScenario runs every operation that creates keys, each with 50 new keys, and returns
// their outputs and the namespaces afterwards as JSON.
func bulkScenario(t *testing.T, env *bulkEnv) map[string]string {
	t.Helper()
	ctx := env.sys
	p := env.project(t, "P")
	out := map[string]string{}
	record := func(name string, v any, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := json.Marshal(v)
		out[name] = string(b)
	}
	app := tools.NamespaceRef{ProjectID: p, Language: "en", Namespace: "app"}
	// Before: old.keep and old.change visible, old.hidden hidden, old.gone to be hidden.
	_, err := env.cat.Sync(ctx, tools.SyncIn{NamespaceRef: app, Translations: map[string]string{
		"old.keep": "Keep", "old.change": "Before", "old.hidden": "Hidden", "old.gone": "Gone"}})
	record("setup1", nil, err)
	_, err = env.cat.Sync(ctx, tools.SyncIn{NamespaceRef: app, Partial: false, Translations: map[string]string{
		"old.keep": "Keep", "old.change": "Before", "old.gone": "Gone"}})
	record("setup2", nil, err)
	nbOld := tools.NamespaceRef{ProjectID: p, Language: "nb", Namespace: "app"}
	_, err = env.cat.Sync(ctx, tools.SyncIn{NamespaceRef: nbOld, Translations: map[string]string{"old.keep": "Behold"}})
	record("setup3", nil, err)
	env.events.mu.Lock()
	env.events.evs = nil
	env.events.mu.Unlock()

	no := false
	o1, err := env.cat.Sync(ctx, tools.SyncIn{NamespaceRef: app, PreserveSourceValues: &no,
		Translations: bulkWith(bulkValues("sync", bulkKeys), "old.keep", "Keep", "old.change", "After", "old.hidden", "Back")})
	record("sync source", o1, err)

	nb := bulkValues("target", bulkKeys)
	for i := 0; i < bulkKeys; i += 7 {
		nb[fmt.Sprintf("target.k%02d", i)] = "" // a key without a row in nb
	}
	nb["old.keep"], nb["old.change"] = "Ny", "Endret"
	o2, err := env.cat.Sync(ctx, tools.SyncIn{NamespaceRef: nbOld, Translations: nb})
	record("sync target", o2, err)

	o3, err := env.cat.ReportMissing(ctx, tools.ReportMissingIn{NamespaceRef: app,
		Translations: bulkWith(bulkValues("missing", bulkKeys), "old.keep", "Other", "sync.k01", "Other")})
	record("report missing", o3, err)

	o4, err := env.cat.RegisterSourceStrings(ctx, tools.RegisterIn{ProjectArg: tools.ProjectArg{ProjectID: p}, NamespaceKey: "reg",
		Strings: bulkValues("reg", bulkKeys)})
	record("register source strings", o4, err)

	var strs []string
	for i := range bulkKeys {
		strs = append(strs, fmt.Sprintf("Page string %d", i))
	}
	strs = append(strs, " ", "Page string 3")
	o5, err := env.cat.RegisterPageStrings(ctx, tools.PageStringsIn{ProjectID: p, Namespace: "pages", SourceStrings: strs})
	record("page strings", o5, err)

	b, _ := json.Marshal(env.events.normalized())
	out["events"] = string(b)
	for _, ref := range []tools.NamespaceRef{app, nbOld, {ProjectID: p, Language: "en", Namespace: "reg"}, {ProjectID: p, Language: "en", Namespace: "pages"}} {
		f, err := env.cat.ReadNamespace(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		out["read "+ref.Language+"/"+ref.Namespace] = string(f.Body)
	}
	return out
}

// TestChunkedWritesReportAsUnchunked: every operation that creates keys answers, hands the
// hooks and stores exactly the same when SQLite commits its keys in chunks as an unchunked
// write does on SQLite and on PostgreSQL.
func TestChunkedWritesReportAsUnchunked(t *testing.T) {
	t.Parallel()
	chunked := bulkOpen(t, "sqlite", true, tools.Options{}, nil)
	got := bulkScenario(t, chunked)
	if want := 5 * bulkKeys / bulkChunk; chunked.chunks != want {
		t.Fatalf("%d chunks committed, want %d", chunked.chunks, want)
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		want := bulkScenario(t, bulkOpen(t, dialect, false, tools.Options{}, nil))
		for name, w := range want {
			if got[name] != w {
				t.Errorf("%s chunked:\n%s\nunchunked on %s:\n%s", name, got[name], dialect, w)
			}
		}
	})
}

// TestFailedChunkedWriteLeavesNothing: when a write fails after its chunks committed (in
// its own transaction, past its budget, or because the client left), no namespace, key,
// translation or history row of it is left, and the same write succeeds afterwards.
func TestFailedChunkedWriteLeavesNothing(t *testing.T) {
	t.Parallel()
	cases := []failedWriteCase{
		{name: "main transaction", dialect: "sqlite", hookFails: true, code: ""},
		{name: "main transaction unchunked", dialect: "postgres", hookFails: true, code: ""},
		{name: "budget", dialect: "sqlite", timeout: 250 * time.Millisecond, code: model.CodeTimeout,
			after: func(ctx context.Context, chunk int, _ context.CancelFunc) {
				if chunk == 1 {
					<-ctx.Done() // the write's budget runs out between two chunks
				}
			}},
		{name: "client left", dialect: "sqlite", code: model.CodeUnavailable,
			after: func(_ context.Context, chunk int, cancel context.CancelFunc) {
				if chunk == 2 {
					cancel()
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// A budget that runs out before the first chunk committed (a loaded machine)
			// tests nothing: the case runs again with twice the budget. It waits the budget
			// out each time, so it starts short.
			for !tc.run(t) {
				t.Logf("the %v budget ran out before the first chunk committed: again with %v", tc.timeout, 2*tc.timeout)
				tc.timeout *= 2
			}
		})
	}
}

var errRefusedByHook = errors.New("refused by a hook")

// failedWriteCase is a case of TestFailedChunkedWriteLeavesNothing.
type failedWriteCase struct {
	name    string
	dialect string
	timeout time.Duration
	// The write fails in its hook, or after, called after each chunk, waits for the
	// write's budget or cancels the client's context.
	hookFails bool
	after     func(ctx context.Context, chunk int, cancelClient context.CancelFunc)
	code      string
}

// run is one round of the case; it reports false, having checked nothing, when the case's
// budget ran out before the first chunk committed.
func (tc failedWriteCase) run(t *testing.T) bool {
	t.Helper()
	var cancelClient context.CancelFunc
	failing := true
	env := bulkOpen(t, tc.dialect, true, tools.Options{}, func(ctx context.Context, chunk int) {
		if failing && tc.after != nil {
			tc.after(ctx, chunk, cancelClient)
		}
	})
	// Only the failing writes have the case's budget: the others, before and after, must
	// not depend on how fast a loaded machine is.
	failingCat := env.cat
	if tc.timeout != 0 {
		o := env.opts
		o.WriteTimeout = tc.timeout
		failingCat = storagetest.Catalog(env.db, &o)
		tools.SetBulkChunks(failingCat, bulkThreshold, bulkChunk, env.onChunk)
	}
	p := env.project(t, "P")
	app := tools.NamespaceRef{ProjectID: p, Language: "en", Namespace: "app"}
	if _, err := env.cat.Sync(env.sys, tools.SyncIn{NamespaceRef: app, Translations: map[string]string{"old": "Old"}}); err != nil {
		t.Fatal(err)
	}
	before := env.rows(t)
	if tc.hookFails {
		env.events.fail = errRefusedByHook
	}
	for _, ns := range []string{"app", "fresh"} { // an existing namespace, and one the write makes
		client, cancel := context.WithCancel(t.Context())
		defer cancel()
		ctx := model.WithPrincipal(client, tools.System)
		cancelClient = cancel
		in := tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: p, Language: "en", Namespace: ns},
			Translations: bulkWith(bulkValues("big", bulkKeys), "old", "Old")}
		_, err := failingCat.Sync(ctx, in)
		switch {
		case tc.hookFails && !errors.Is(err, errRefusedByHook):
			t.Fatalf("sync into %s: %v, want the hook's error", ns, err)
		case !tc.hookFails && model.ErrorCode(err) != tc.code:
			t.Fatalf("sync into %s: %v, want %s", ns, err, tc.code)
		}
		if tc.dialect == "sqlite" && env.chunks == 0 {
			if tc.timeout != 0 && model.ErrorCode(err) == model.CodeTimeout {
				return false
			}
			t.Fatalf("sync into %s failed before any chunk committed: nothing tested", ns)
		}
		if after := env.rows(t); !maps.Equal(after, before) {
			t.Errorf("after the failed sync into %s: rows %v, before %v", ns, after, before)
		}
		env.chunks = 0
	}
	failing, env.events.fail = false, nil
	// The same write, without the budget the case shortened to make it fail: the point is
	// that nothing is left in its way.
	out, err := env.cat.Sync(env.sys, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: p, Language: "en", Namespace: "fresh"},
		Translations: bulkValues("big", bulkKeys)})
	if err != nil || out.Summary.Created != bulkKeys {
		t.Fatalf("the same sync afterwards: %+v, %v", out.Summary, err)
	}
	return true
}

// TestChunkedWriteLetsOtherProjectsWrite: between two chunks of a big write, a write of
// another project gets SQLite's writer and completes.
func TestChunkedWriteLetsOtherProjectsWrite(t *testing.T) {
	t.Parallel()
	var env *bulkEnv
	var other string
	var otherErr error
	wrote := false
	env = bulkOpen(t, "sqlite", true, tools.Options{}, func(ctx context.Context, chunk int) {
		if chunk != 1 {
			return
		}
		// The big write is in progress, in this very goroutine: were the writer still
		// held, this write would wait for it until its own budget ran out.
		_, otherErr = env.cat.AddKey(env.sys, tools.AddKeyIn{SourceValue: "Small",
			KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: other}, NamespaceKey: "small", TranslationKey: "one"}})
		wrote = true
	})
	big := env.project(t, "Big")
	other = env.project(t, "Other")
	out, err := env.cat.Sync(env.sys, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: big, Language: "en", Namespace: "big"},
		Translations: bulkValues("big", bulkKeys)})
	if err != nil || out.Summary.Created != bulkKeys {
		t.Fatalf("big sync: %+v, %v", out.Summary, err)
	}
	if !wrote || otherErr != nil {
		t.Fatalf("the other project's write during the big one: ran %v, %v", wrote, otherErr)
	}
}

// TestChunkedWriteSeesWritesOfAnotherProcess: a key another process adds to the namespace
// between two chunks is read by the main transaction (here hidden by the full sync), since
// the namespace as read before the chunks is then out of date.
func TestChunkedWriteSeesWritesOfAnotherProcess(t *testing.T) {
	t.Parallel()
	var env *bulkEnv
	var p string
	var otherErr error
	env = bulkOpen(t, "sqlite", true, tools.Options{}, func(ctx context.Context, chunk int) {
		if chunk == 2 {
			// A catalogue of its own: this process's per-project turns do not hold it.
			other := storagetest.Catalog(env.cat.Store(), &tools.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			_, otherErr = other.AddKey(env.sys, tools.AddKeyIn{SourceValue: "Other",
				KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: p}, NamespaceKey: "app", TranslationKey: "other.process"}})
		}
	})
	p = env.project(t, "P")
	out, err := env.cat.Sync(env.sys, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: p, Language: "en", Namespace: "app"},
		Translations: bulkValues("big", bulkKeys)})
	if err != nil || otherErr != nil {
		t.Fatalf("sync: %v; the other process's write: %v", err, otherErr)
	}
	if out.Summary.Created != bulkKeys || !slices.Equal(out.Hidden, []string{"other.process"}) {
		t.Errorf("sync: created %d, hidden %v; want %d and the other process's key", out.Summary.Created, out.Hidden, bulkKeys)
	}
}
