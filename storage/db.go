package storage

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/secrets"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/uptrace/bun/migrate"
	"modernc.org/sqlite"
)

// DefaultDSN is the embedded database used when no DSN is given.
const DefaultDSN = "sqlite:lokal.db"

// Options tune Open; nil means the defaults.
type Options struct {
	// PollInterval is how often the database is asked whether another process changed a
	// project; changes reach this process's caches within it. Default 250ms.
	PollInterval time.Duration
	Logger       *slog.Logger
	// MustExist refuses to create a SQLite file that is not there yet (ErrNoDatabase): a
	// mistyped path or working directory must not yield a fresh empty database.
	MustExist bool
	// Secrets seals what older versions stored in plain text (deploy hook URLs) when the
	// migrations run; without a key such rows stop the upgrade with a clear error.
	Secrets *secrets.Box
}

// ErrNoDatabase is returned by Open with MustExist when the SQLite file does not exist.
var ErrNoDatabase = errors.New("no database")

// DB is the store: bun over SQLite or PostgreSQL, plus the translation cache.
type DB struct {
	w, r     *bun.DB // writer and reader pools; the same pool on PostgreSQL
	postgres bool
	cache    *cache
	log      *slog.Logger
	secrets  *secrets.Box

	waiting     atomic.Int64  // Update calls waiting for the writer (a chunked write yields to them)
	analyze     analyzer      // statistics after large imports (analyze.go)
	checkpoint  checkpointer  // SQLite's WAL copied back off the writer (checkpoint.go)
	trigrams    countedPass   // PostgreSQL's trigram pending lists merged off the writes (trigram_pending.go)
	queueVacuum queueVacuumer // PostgreSQL's checkup queue vacuumed once checkups took many marks (queue_vacuum.go)
	bg          background    // the goroutines of these, which Close waits for
	bulk        bulkWrites    // big writes in flight, which a statistics pass waits for (bulk_writes.go)
	samples     sampleCache   // texts that tell common substrings from rare ones (search_terms.go)

	// Tests only: queued is called when an Update starts waiting for the writer;
	// yieldPause replaces YieldToWriters' sleep between looks.
	queued, yieldPause func()

	mu      sync.Mutex
	lastRev int64
	own     map[int64]bool // revisions this process committed: their caches are already dropped
	stop    chan struct{}
	done    chan struct{}
}

var _ model.Store = (*DB)(nil)

// Open connects to dsn ("sqlite:PATH" or "postgres://..."), runs the migrations and starts
// watching for changes made by other processes.
func Open(ctx context.Context, dsn string, opts *Options) (*DB, error) {
	if opts == nil {
		opts = &Options{}
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = 250 * time.Millisecond
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	db := &DB{cache: newCache(), log: opts.Logger, secrets: opts.Secrets, own: map[int64]bool{}, stop: make(chan struct{}), done: make(chan struct{})}
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		// The driver's own 10-second read timeout would cut off a big write, or one waiting
		// its turn on the project's lock, before the 25-second write budget: contexts bound
		// every statement instead, and these only catch a dead connection.
		connector := pgdriver.NewConnector(pgdriver.WithDSN(dsn),
			pgdriver.WithReadTimeout(2*time.Minute), pgdriver.WithWriteTimeout(2*time.Minute))
		withoutJIT(connector.Config())
		sqldb := sql.OpenDB(connector)
		sqldb.SetMaxOpenConns(4 * runtime.GOMAXPROCS(0))
		sqldb.SetMaxIdleConns(4 * runtime.GOMAXPROCS(0))
		db.w = bun.NewDB(sqldb, pgdialect.New())
		db.r = db.w
		db.postgres = true
	case strings.HasPrefix(dsn, "sqlite:"):
		path := strings.TrimPrefix(strings.TrimPrefix(dsn, "sqlite:"), "//")
		if path == "" {
			return nil, fmt.Errorf("opening %q: empty SQLite path", dsn)
		}
		if err := checkSQLitePath(path, opts.MustExist); err != nil {
			return nil, err
		}
		w, err := openSQLite(path, true)
		if err != nil {
			return nil, err
		}
		r, err := openSQLite(path, false)
		if err != nil {
			w.Close()
			return nil, err
		}
		db.w, db.r = w, r
	default:
		return nil, fmt.Errorf("opening database: DSN must start with sqlite: or postgres:// (got %q)", redactDSN(dsn))
	}
	if err := db.w.PingContext(ctx); err != nil {
		db.closePools()
		return nil, fmt.Errorf("connecting to %s: %w", redactDSN(dsn), err)
	}
	if err := db.migrate(ctx); err != nil {
		db.closePools()
		return nil, err
	}
	if err := db.loadAnalyzed(ctx); err != nil {
		db.closePools()
		return nil, fmt.Errorf("reading planner statistics: %w", err)
	}
	if err := db.w.NewSelect().Model((*revisionRow)(nil)).Column("value").Where("id = 1").Scan(ctx, &db.lastRev); err != nil {
		db.closePools()
		return nil, fmt.Errorf("reading revision: %w", err)
	}
	if db.postgres {
		db.indexLeftTrigrams(ctx)
	}
	go db.watch(opts.PollInterval)
	return db, nil
}

// checkSQLitePath turns what SQLite would report obscurely ("out of memory (14)" for a
// missing directory, "no such table" for a private in-memory database per connection) into
// plain errors.
func checkSQLitePath(path string, mustExist bool) error {
	if path == ":memory:" || strings.HasPrefix(path, "file::memory:") || strings.Contains(path, "mode=memory") {
		return fmt.Errorf("opening SQLite: an in-memory database is not supported (every connection would get its own empty database); give a file path such as sqlite:lokal.db")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("opening SQLite %s: %w", path, err)
	}
	dir := filepath.Dir(abs)
	if fi, err := os.Stat(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("opening SQLite %s: the directory %s does not exist", abs, dir)
		}
		return fmt.Errorf("opening SQLite %s: %w", abs, err)
	} else if !fi.IsDir() {
		return fmt.Errorf("opening SQLite %s: %s is not a directory", abs, dir)
	}
	if mustExist {
		if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w at %s", ErrNoDatabase, abs)
		}
	}
	return nil
}

var registerSQLiteFunctions sync.Once

// openSQLite opens one pool on modernc.org/sqlite (pure Go, no cgo) under its own driver
// name, which carries the functions registered below. The writer takes the write lock at
// BEGIN (IMMEDIATE) and is a single connection, so writers queue in Go instead of failing
// with SQLITE_BUSY; readers use WAL snapshots and never wait for the writer.
func openSQLite(path string, writer bool) (*bun.DB, error) {
	registerSQLiteFunctions.Do(func() {
		// SQLite's LOWER folds ASCII only; searches must be case-insensitive in every script.
		sqlite.MustRegisterDeterministicScalarFunction("unicode_lower", 1,
			func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
				switch v := args[0].(type) {
				case string:
					return strings.ToLower(v), nil
				case []byte:
					return strings.ToLower(string(v)), nil
				}
				return args[0], nil
			})
	})
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", fmt.Sprintf("cache_size(%d)", -sqliteCacheKB(writer)))
	if !writer {
		// A read transaction can never write, whatever a caller does with it: a dry-run
		// import runs the write path's apply in one (tools' dryTx drops its writes), and a
		// write it missed must fail here, as PostgreSQL's read-only transactions fail it.
		// Checkpoints still run on readers (query_only allows them).
		q.Add("_pragma", "query_only(1)")
	}
	if writer {
		q.Set("_txlock", "immediate")
		// Checkpoints run beside the writer, not in its commits (checkpoint.go).
		q.Add("_pragma", "wal_autocheckpoint(0)")
		// When the WAL starts over, its file is cut back to this size (restartWAL).
		q.Add("_pragma", fmt.Sprintf("journal_size_limit(%d)", walRestartFrames*4096))
	}
	sqldb, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("opening SQLite %s: %w", path, err)
	}
	if writer {
		sqldb.SetMaxOpenConns(1)
	} else {
		sqldb.SetMaxOpenConns(sqliteReaders())
	}
	sqldb.SetMaxIdleConns(2 * runtime.GOMAXPROCS(0))
	sqldb.SetConnMaxIdleTime(0)
	return bun.NewDB(sqldb, sqlitedialect.New()), nil
}

// withoutJIT turns PostgreSQL's JIT compilation off for every connection, unless the DSN
// sets jit itself. Our queries walk indexes with LIMITs (lateral lookups per key, stopping
// at a page), which the planner prices by the rows they could read, not the few they do: at
// a million keys it compiled a 2 ms editor page for 280 ms first.
func withoutJIT(c *pgdriver.Config) {
	if c.ConnParams == nil {
		c.ConnParams = map[string]any{}
	}
	if _, set := c.ConnParams["jit"]; !set {
		c.ConnParams["jit"] = "off"
	}
}

// sqliteCacheKB is the page cache of a connection in KB. A big write touches indexes all
// over the file: 64 MB keep the writer from paying a system call per page. A reader's
// cache is dropped whenever another connection wrote (WAL), so it mostly serves one query:
// the readers share 64 MB, or their caches alone took 256 MB of a 2-core server's memory
// (more with more cores), outside the Go heap and its limit.
func sqliteCacheKB(writer bool) int {
	const mb = 1024
	if writer {
		return 64 * mb
	}
	return max(64*mb/sqliteReaders(), 2*mb)
}

// sqliteReaders is how many reader connections a SQLite store opens at most.
func sqliteReaders() int { return 2 * runtime.GOMAXPROCS(0) }

func (db *DB) migrate(ctx context.Context) error {
	m := migrate.NewMigrator(db.w, migrations(db.secrets), migrate.WithMarkAppliedOnSuccess(true))
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("initializing migrations: %w", err)
	}
	// Two processes starting together (a server and the CLI) must not both migrate.
	for i := 0; ; i++ {
		err := m.Lock(ctx)
		if err == nil {
			break
		}
		if i > 100 {
			return fmt.Errorf("locking migrations: %w", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	defer m.Unlock(ctx) //nolint:errcheck
	if _, err := m.Migrate(ctx); err != nil {
		return fmt.Errorf("migrating: %w", err)
	}
	return nil
}

// lower is the SQL function that folds case in every script on this dialect.
func (db *DB) lower() string {
	if db.postgres {
		return "LOWER"
	}
	return "unicode_lower"
}

// Ping reports whether the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.r.PingContext(ctx) }

// Dialect names the database kind: "sqlite" or "postgres".
func (db *DB) Dialect() string {
	if db.postgres {
		return "postgres"
	}
	return "sqlite"
}

// ChunkWrites reports that every write of this store queues for one writer, whatever its
// project (SQLite): the catalogue splits a write that creates many keys into chunk
// transactions so that other projects' writes get turns in between. On PostgreSQL writes to
// different projects do not wait for each other.
func (db *DB) ChunkWrites() bool { return !db.postgres }

// WritersWaiting reports whether a write of this process waits for the writer.
func (db *DB) WritersWaiting() bool { return db.waiting.Load() > 0 }

// YieldToWriters waits, at most bound, while a write of this process waits for the
// writer. database/sql hands a freed connection to a random waiter: a chunked write that
// asked for the writer again at once won it from a waiting small write half the time, and
// the small write waited out several chunks (1.4-1.5 s at a million keys).
func (db *DB) YieldToWriters(bound time.Duration) {
	for end := time.Now().Add(bound); db.waiting.Load() > 0 && time.Now().Before(end); {
		if db.yieldPause != nil {
			db.yieldPause()
			continue
		}
		time.Sleep(100 * time.Microsecond)
	}
}

var _ model.ChunkedStore = (*DB)(nil)

// Close stops the watcher and closes the pools.
func (db *DB) Close() error {
	select {
	case <-db.stop:
	default:
		close(db.stop)
		<-db.done
	}
	db.bg.close()
	return db.closePools()
}

func (db *DB) closePools() error {
	err := db.w.Close()
	if db.r != db.w {
		err = errors.Join(err, db.r.Close())
	}
	return err
}

// Update runs fn in one write transaction. On PostgreSQL writes to projectID take turns.
// The cached files of every project fn touched (Tx.Touch, TouchKeys) learn the change
// before Update returns, so that a read that starts afterwards sees it.
func (db *DB) Update(ctx context.Context, projectID string, fn func(model.Tx) error) error {
	t := &tx{db: db, write: true}
	db.waiting.Add(1)
	if db.queued != nil {
		db.queued()
	}
	waiting := true
	err := db.w.RunInTx(ctx, nil, func(ctx context.Context, btx bun.Tx) error {
		waiting = false
		db.waiting.Add(-1)
		if db.postgres && projectID != "" {
			// Writes to one project take turns, as SQLite's single writer makes them:
			// two clients reporting the same new key at once must both succeed, not
			// race into a unique violation. Other projects are not held up.
			if _, err := btx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?)", projectLockKey(projectID)); err != nil {
				return fmt.Errorf("locking project %s: %w", projectID, err)
			}
		}
		t.tx = btx
		if err := fn(t); err != nil {
			return err
		}
		return t.flushTouches(ctx)
	})
	if waiting {
		db.waiting.Add(-1)
	}
	if err == nil {
		db.afterWrite()
		db.checkpointAfterWrite()
		db.mergeTrigramsAfterWrite(t.indexed)
		db.vacuumQueueAfterWrite(t.unqueued)
	}
	for id, cs := range t.touched {
		if err != nil {
			// A failed commit may have left nothing, but dropping is always safe.
			db.cache.invalidate(id)
			continue
		}
		db.cache.apply(id, *cs)
	}
	if err == nil {
		db.mu.Lock()
		for _, rev := range t.revs {
			if rev > db.lastRev {
				db.own[rev] = true
			}
		}
		db.mu.Unlock()
	}
	return mapError(err)
}

// projectLockKey is the advisory lock number of a project.
func projectLockKey(projectID string) int64 {
	h := fnv.New64a()
	h.Write([]byte("lokal.project:" + projectID))
	return int64(h.Sum64())
}

// View runs fn in one read transaction.
func (db *DB) View(ctx context.Context, fn func(model.Tx) error) error {
	var opts *sql.TxOptions
	if db.postgres {
		opts = &sql.TxOptions{ReadOnly: true}
	}
	err := db.r.RunInTx(ctx, opts, func(ctx context.Context, btx bun.Tx) error {
		return fn(&tx{db: db, tx: btx})
	})
	return mapError(err)
}

// watch polls the revision counter and applies to the cache what other processes changed
// since the last poll.
func (db *DB) watch(every time.Duration) {
	defer close(db.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-db.stop:
			return
		case <-t.C:
			if err := db.poll(context.Background()); err != nil {
				db.log.Warn("polling revisions", "err", err)
			}
		}
	}
}

func redactDSN(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// mapError turns driver errors into the catalogue's codes.
func mapError(err error) error {
	if err == nil {
		return nil
	}
	var te *model.Error
	if errors.As(err, &te) {
		return te
	}
	if errors.Is(err, sql.ErrNoRows) {
		return &model.Error{Code: model.CodeNotFound, Message: "not found"}
	}
	if isUniqueViolation(err) {
		return &model.Error{Code: model.CodeConflict, Message: "already exists"}
	}
	return err
}

func isUniqueViolation(err error) bool {
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		return pgErr.Field('C') == "23505"
	}
	return strings.Contains(err.Error(), "UNIQUE constraint failed")
}
