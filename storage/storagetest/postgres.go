package storagetest

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"
)

// The databases this package makes on the server of LOKAL_TEST_POSTGRES. The template and
// its pool are named by sourceHash: every test binary built from the same code, in this
// run or a later one, clones the same template and leases from the same pool.
const (
	tplPrefix  = "lokal_tpl_" // + hash: the migrated template with the Fixture
	poolPrefix = "lokal_p_"   // + hash + "_" + n: databases cloned from it, leased per test
	// oldPrefix started the databases of earlier versions of this package (lokal_t_<unix>_...,
	// a template and a pool per binary), dropped by sweep when a binary died and left them.
	oldPrefix = "lokal_t_"
)

// staleAfter is how long another code's template and pool are kept once no binary uses
// them (that code's next run reuses them), and the age past which an earlier version's
// per-binary databases are taken to be left over.
const staleAfter = time.Hour

// Advisory locks, in the database of LOKAL_TEST_POSTGRES, keyed by the hash's first 32 bits
// and one of these (or a pool database's number): a session's locks end with it, so a
// killed binary holds nothing.
const (
	lockInUse = -1 // shared by every binary using the template; the sweep takes it exclusively to drop it
	lockBuild = -2 // held by the one binary building the template
)

// emptySchema is the schema an EmptyDSN points at.
const emptySchema = "lokal_empty"

// pgTpl is the PostgreSQL template this binary uses and the pool databases it leased.
var pgTpl struct {
	once     sync.Once
	err      error
	base     *url.URL
	admin    *sql.DB // on the database of LOKAL_TEST_POSTGRES: CREATE and DROP DATABASE
	hash     string
	key      int32
	template string
	meta     tplMeta
	reset    map[state]string // SQL that brings a pool database back to a state

	lockMu sync.Mutex
	lock   *sql.Conn // the session holding this binary's advisory locks

	claimed map[int]bool // the pool databases this binary holds the lock of

	mu   sync.Mutex
	free []*pgDB
	all  []*pgDB
}

// tplMeta is what a binary that did not build the template needs to know of it, kept in
// the template database's comment, which is written last: a template without it is
// unfinished.
type tplMeta struct {
	Fixture Fixture
	Tables  []string // of the public schema, parents before the tables pointing at them
	Schema  string   // schemaFingerprint of the template
	Used    int64    // when a binary last started on it, in unix seconds: the sweep's clock
}

// pgDB is one database of the pool, with a connection of its own for resetting it.
type pgDB struct {
	name string
	conn *sql.DB
}

func pgDSN(name, searchPath string) string {
	u := *pgTpl.base
	u.Path = "/" + name
	if searchPath != "" {
		q := u.Query()
		q.Set("search_path", searchPath)
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// pgConnect opens a pool of one connection, closed after idleConn unused: the server
// allows 100 connections in all, shared by every test binary running (and by whoever
// else uses the server), and a pool database's connection is needed only between the
// tests leasing it. Its statements are bounded by their context (minutes), not by the
// driver's 10 s read timeout: a reset on a machine loaded by parallel test binaries took
// longer and failed the test that leased it.
func pgConnect(dsn string) *sql.DB {
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn), pgdriver.WithReadTimeout(5*time.Minute), pgdriver.WithWriteTimeout(5*time.Minute)))
	db.SetMaxOpenConns(1)
	db.SetConnMaxIdleTime(idleConn)
	return db
}

// idleConn is how long an unused connection of this package stays open.
const idleConn = time.Second

func ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func pgTemplate(base string) error {
	t := &pgTpl
	t.once.Do(func() {
		t.err = pgSetUp(base)
	})
	return t.err
}

// hashKey is the advisory lock key of a source hash.
func hashKey(hash string) int32 {
	v, _ := strconv.ParseUint(hash[:8], 16, 32)
	return int32(uint32(v))
}

// pgSetUp finds the template of this code, or builds it when none is finished: one binary
// builds while the others wait on its lock, then read what it wrote.
func pgSetUp(base string) error {
	t := &pgTpl
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("parsing %s: %w", EnvPostgres, err)
	}
	t.base = u
	if t.hash, err = sourceHash(); err != nil {
		return fmt.Errorf("hashing the sources a template depends on: %w", err)
	}
	t.key = hashKey(t.hash)
	t.template = tplPrefix + t.hash
	t.claimed = map[int]bool{}
	// DROP DATABASE waits for a checkpoint: seconds on a busy server.
	t.admin = sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(base), pgdriver.WithReadTimeout(5*time.Minute)))
	t.admin.SetMaxOpenConns(4)
	t.admin.SetMaxIdleConns(1)
	t.admin.SetConnMaxIdleTime(idleConn)
	if t.lock, err = t.admin.Conn(ctx); err != nil {
		return fmt.Errorf("connecting to %s: %w", EnvPostgres, err)
	}
	if err := lockExec(ctx, "SELECT pg_advisory_lock_shared(%d, %d)", t.key, lockInUse); err != nil {
		return err
	}
	go sweep(t.admin)
	ok, err := readMeta(ctx)
	if err != nil {
		return err
	} else if ok {
		return writeMeta(ctx)
	}
	if err := lockExec(ctx, "SELECT pg_advisory_lock(%d, %d)", t.key, lockBuild); err != nil {
		return err
	}
	defer lockExec(context.Background(), "SELECT pg_advisory_unlock(%d, %d)", t.key, lockBuild)
	if ok, err := readMeta(ctx); err != nil || ok {
		return err
	}
	return pgBuildTemplate(ctx)
}

// lockExec runs a statement on the session holding the binary's advisory locks.
func lockExec(ctx context.Context, format string, args ...any) error {
	t := &pgTpl
	t.lockMu.Lock()
	defer t.lockMu.Unlock()
	if _, err := t.lock.ExecContext(ctx, fmt.Sprintf(format, args...)); err != nil {
		return fmt.Errorf("advisory lock on %s: %w", EnvPostgres, err)
	}
	return nil
}

// readMeta reads the template's comment into pgTpl; false when there is no finished template.
func readMeta(ctx context.Context) (bool, error) {
	t := &pgTpl
	var comment sql.NullString
	err := t.admin.QueryRowContext(ctx, "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = '"+t.template+"'").Scan(&comment)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !comment.Valid) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("looking for the template database: %w", err)
	}
	m, err := decodeMeta(comment.String)
	if err != nil {
		return false, nil // another version's: built again
	}
	t.meta = m
	t.reset = resetSQL(m.Tables)
	return true, nil
}

func encodeMeta(m tplMeta) (string, error) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(m); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(b.Bytes()), nil
}

func decodeMeta(s string) (tplMeta, error) {
	var m tplMeta
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return m, err
	}
	return m, gob.NewDecoder(bytes.NewReader(b)).Decode(&m)
}

// pgBuildTemplate builds the template under the build lock: migrated, its rows kept in a
// schema per state, the Fixture written, the comment last. The builder takes the Fixture
// from the comment as the others do, so that every binary sees the same values.
func pgBuildTemplate(ctx context.Context) error {
	t := &pgTpl
	// A template without its comment was left by a builder that died.
	if _, err := t.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+ident(t.template)+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("dropping an unfinished template database: %w", err)
	}
	if _, err := t.admin.ExecContext(ctx, "CREATE DATABASE "+ident(t.template)+" TEMPLATE template0"); err != nil {
		return fmt.Errorf("creating the template database on %s: %w", EnvPostgres, err)
	}
	raw := pgConnect(pgDSN(t.template, ""))
	defer raw.Close()
	var m tplMeta
	var err error
	m.Fixture, err = build(ctx, pgDSN(t.template, ""), func(s state) error {
		if m.Tables == nil {
			var err error
			if m.Tables, err = pgTables(ctx, raw); err != nil {
				return err
			}
		}
		seed := fmt.Sprintf("lokal_seed_%d", s)
		stmts := []string{"CREATE SCHEMA " + seed}
		for _, tb := range m.Tables {
			stmts = append(stmts, fmt.Sprintf("CREATE TABLE %s.%s AS TABLE public.%s", seed, ident(tb), ident(tb)))
		}
		if _, err := raw.ExecContext(ctx, strings.Join(stmts, ";\n")); err != nil {
			return fmt.Errorf("keeping the template's rows: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if m.Schema, err = schemaFingerprint(ctx, raw); err != nil {
		return err
	}
	// CREATE DATABASE ... TEMPLATE needs the template to have no connections.
	if err := raw.Close(); err != nil {
		return err
	}
	t.meta = m
	if err := writeMeta(ctx); err != nil {
		return err
	}
	if ok, err := readMeta(ctx); err != nil || !ok {
		return fmt.Errorf("reading the template's description back: %v", err)
	}
	return nil
}

// writeMeta writes pgTpl.meta, used now, as the template's comment.
func writeMeta(ctx context.Context) error {
	t := &pgTpl
	m := t.meta
	m.Used = time.Now().Unix()
	comment, err := encodeMeta(m)
	if err != nil {
		return fmt.Errorf("encoding the template's description: %w", err)
	}
	if _, err := t.admin.ExecContext(ctx, "COMMENT ON DATABASE "+ident(t.template)+" IS '"+comment+"'"); err != nil {
		return fmt.Errorf("describing the template database: %w", err)
	}
	return nil
}

// grownTable is the size past which a pool database's table is emptied by TRUNCATE before
// a lease, rather than by the reset's DELETE: a delete leaves its dead rows in the files,
// and every later test on the database scanned them. A 50,000-key sync left
// translation_keys at 260 MB, and each small test's count of a project's keys then read
// it all (90 ms a statement; TestCountersEqualARecount, 200 writes each recounted, took
// 66 s on PostgreSQL, 43 of them the server's CPU).
const grownTable = 4 << 20

// truncateGrown empties the public tables grown past grownTable, and those referencing
// them (CASCADE): the reset that follows fills every table again from its copy.
func truncateGrown(ctx context.Context, conn *sql.DB) error {
	var list sql.NullString
	if err := conn.QueryRowContext(ctx, `SELECT string_agg(quote_ident(relname), ', ') FROM pg_class
WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' AND pg_total_relation_size(oid) > $1`, grownTable).Scan(&list); err != nil {
		return err
	}
	if !list.Valid {
		return nil
	}
	_, err := conn.ExecContext(ctx, "TRUNCATE "+list.String+" CASCADE")
	return err
}

// triggerFed are the tables that triggers write to when rows are inserted elsewhere.
var triggerFed = []string{"trigram_pending"}

// resetSQL brings a pool database's tables back to each state's rows. Deletes and
// inserts, not TRUNCATE: on a few rows they take milliseconds where TRUNCATE's new files
// take a third of a second.
func resetSQL(tables []string) map[state]string {
	out := map[state]string{}
	for _, s := range []state{migrated, withFixture} {
		seed := fmt.Sprintf("lokal_seed_%d", s)
		stmts := []string{"BEGIN"}
		for i := len(tables) - 1; i >= 0; i-- {
			stmts = append(stmts, "DELETE FROM public."+ident(tables[i]))
		}
		for _, tb := range tables {
			stmts = append(stmts, fmt.Sprintf("INSERT INTO public.%s SELECT * FROM %s.%s", ident(tb), seed, ident(tb)))
		}
		// The inserts above fire the statement triggers that record rows for the trigram
		// pass; the copy's rows are what the template had.
		for _, tb := range tables {
			if slices.Contains(triggerFed, tb) {
				stmts = append(stmts, "DELETE FROM public."+ident(tb),
					fmt.Sprintf("INSERT INTO public.%s SELECT * FROM %s.%s", ident(tb), seed, ident(tb)))
			}
		}
		out[s] = strings.Join(append(stmts, "COMMIT"), ";\n")
	}
	return out
}

// schemaFingerprint digests the database's schema (relations, columns, constraints,
// indexes, functions, triggers), so that a pool database a test altered (a table of its
// own, a column dropped to play an old release) is cloned again instead of reused.
func schemaFingerprint(ctx context.Context, db *sql.DB) (string, error) {
	const ours = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_%'`
	var fp string
	err := db.QueryRowContext(ctx, `SELECT md5(coalesce(string_agg(d, E'\n' ORDER BY d), '')) FROM (
		SELECT 'r ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text AS d
			FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE `+ours+`
		UNION ALL
		SELECT 'a ' || n.nspname || '.' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text
			FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE a.attnum > 0 AND NOT a.attisdropped AND `+ours+`
		UNION ALL
		SELECT 'k ' || n.nspname || '.' || k.conname || ' ' || pg_get_constraintdef(k.oid)
			FROM pg_constraint k JOIN pg_namespace n ON n.oid = k.connamespace WHERE `+ours+`
		UNION ALL
		SELECT 'i ' || pg_get_indexdef(i.indexrelid)
			FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE `+ours+`
		UNION ALL
		SELECT 'f ' || n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')'
			FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE `+ours+`
		UNION ALL
		SELECT 't ' || tgname FROM pg_trigger WHERE NOT tgisinternal
	) s`).Scan(&fp)
	if err != nil {
		return "", fmt.Errorf("reading the schema's fingerprint: %w", err)
	}
	return fp, nil
}

// pgTables lists the tables of the public schema, parents before the tables whose
// foreign keys point at them (or triggers checking such a reference, commented
// 'references <parent>').
func pgTables(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)
	if err != nil {
		return nil, fmt.Errorf("listing the template's tables: %w", err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, fmt.Errorf("listing the template's tables: %w", err)
		}
		names = append(names, n)
	}
	rows.Close()
	rows, err = db.QueryContext(ctx, `SELECT c.relname, p.relname FROM pg_constraint k
		JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE k.contype = 'f' AND n.nspname = 'public' AND k.conrelid <> k.confrelid
		UNION ALL
		SELECT c.relname, substr(d.description, 12) FROM pg_trigger t JOIN pg_description d ON d.objoid = t.oid
		JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND d.description LIKE 'references %'`)
	if err != nil {
		return nil, fmt.Errorf("listing the template's foreign keys: %w", err)
	}
	parents := map[string][]string{}
	for rows.Next() {
		var child, parent string
		if err := rows.Scan(&child, &parent); err != nil {
			rows.Close()
			return nil, fmt.Errorf("listing the template's foreign keys: %w", err)
		}
		parents[child] = append(parents[child], parent)
	}
	rows.Close()
	var out []string
	done := map[string]bool{}
	var visit func(n string, depth int) error
	visit = func(n string, depth int) error {
		if done[n] {
			return nil
		}
		if depth > len(names) {
			return fmt.Errorf("ordering the template's tables: a cycle of foreign keys through %s", n)
		}
		for _, p := range parents[n] {
			if err := visit(p, depth+1); err != nil {
				return err
			}
		}
		done[n] = true
		out = append(out, n)
		return nil
	}
	for _, n := range names {
		if err := visit(n, 0); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// pgLease hands out a pool database in state s and the function that gives it back.
func pgLease(base string, s state) (string, func(), error) {
	if err := pgTemplate(base); err != nil {
		return "", nil, err
	}
	t := &pgTpl
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t.mu.Lock()
	var db *pgDB
	if n := len(t.free); n > 0 {
		db, t.free = t.free[n-1], t.free[:n-1]
	}
	t.mu.Unlock()
	if db == nil {
		var err error
		if db, err = pgClaim(ctx); err != nil {
			return "", nil, err
		}
	}
	rows := s
	if s == empty {
		rows = migrated
	}
	if err := truncateGrown(ctx, db.conn); err != nil {
		return "", nil, fmt.Errorf("emptying the grown tables of the test database %s: %w", db.name, err)
	}
	if _, err := db.conn.ExecContext(ctx, t.reset[rows]); err != nil {
		return "", nil, fmt.Errorf("resetting the test database %s: %w", db.name, err)
	}
	searchPath := ""
	if s == empty {
		if _, err := db.conn.ExecContext(ctx, "CREATE SCHEMA "+emptySchema); err != nil {
			return "", nil, fmt.Errorf("making an empty schema: %w", err)
		}
		searchPath = emptySchema
	}
	release := func() {
		if s == empty {
			// Not given back if the schema stays: the next lease would find it.
			if _, err := db.conn.ExecContext(context.Background(), "DROP SCHEMA "+emptySchema+" CASCADE"); err != nil {
				return
			}
		}
		t.mu.Lock()
		t.free = append(t.free, db)
		t.mu.Unlock()
	}
	return pgDSN(db.name, searchPath), release, nil
}

// maxPool bounds the pool databases of one template, a guard against a loop.
const maxPool = 1000

// pgClaim takes the first pool database no other binary holds (its advisory lock, kept
// until this binary ends), cloning it when it does not exist yet or when a test left its
// schema changed.
func pgClaim(ctx context.Context) (*pgDB, error) {
	t := &pgTpl
	for n := 0; n < maxPool; n++ {
		// A session takes a lock it holds again: claimed says which are this binary's,
		// read and written under lockMu with the lock itself.
		t.lockMu.Lock()
		ok := false
		var err error
		if !t.claimed[n] {
			err = t.lock.QueryRowContext(ctx, fmt.Sprintf("SELECT pg_try_advisory_lock(%d, %d)", t.key, n)).Scan(&ok)
			t.claimed[n] = ok
		}
		t.lockMu.Unlock()
		if err != nil {
			return nil, fmt.Errorf("advisory lock on %s: %w", EnvPostgres, err)
		}
		if !ok {
			continue
		}
		db := &pgDB{name: fmt.Sprintf("%s%s_%d", poolPrefix, t.hash, n)}
		t.mu.Lock()
		t.all = append(t.all, db)
		t.mu.Unlock()
		if err := pgPrepare(ctx, db); err != nil {
			return nil, err
		}
		return db, nil
	}
	return nil, fmt.Errorf("all %d pool databases of %s are leased", maxPool, t.template)
}

// pgPrepare readies a claimed pool database: one a binary before left is reused when its
// schema is the template's (the rows are reset on lease); otherwise it is cloned again.
func pgPrepare(ctx context.Context, db *pgDB) error {
	t := &pgTpl
	var exists bool
	if err := t.admin.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = '"+db.name+"')").Scan(&exists); err != nil {
		return fmt.Errorf("looking for the test database %s: %w", db.name, err)
	}
	if exists {
		db.conn = pgConnect(pgDSN(db.name, ""))
		// An EmptyDSN's schema, left by a binary that died.
		_, err := db.conn.ExecContext(ctx, "DROP SCHEMA IF EXISTS "+emptySchema+" CASCADE")
		var fp string
		if err == nil {
			fp, err = schemaFingerprint(ctx, db.conn)
		}
		if err == nil && fp == t.meta.Schema {
			return nil
		}
		db.conn.Close()
		if _, err := t.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+ident(db.name)+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("dropping the altered test database %s: %w", db.name, err)
		}
	}
	if _, err := t.admin.ExecContext(ctx, "CREATE DATABASE "+ident(db.name)+" TEMPLATE "+ident(t.template)); err != nil {
		return fmt.Errorf("cloning the template database: %w", err)
	}
	// A commit returns before its WAL reaches the disk: what a test sees is the same
	// (a crash of the server, which no test makes, would lose the last commits), and
	// a write no longer waits for an fsync that a busy disk makes tens of milliseconds.
	if _, err := t.admin.ExecContext(ctx, "ALTER DATABASE "+ident(db.name)+" SET synchronous_commit = off"); err != nil {
		return fmt.Errorf("setting up the test database: %w", err)
	}
	db.conn = pgConnect(pgDSN(db.name, ""))
	return nil
}

// pgCleanup closes the binary's connections, which ends its advisory locks: the pool
// databases stay for the next binary, with no DROP DATABASE (a checkpoint each) to wait for.
func pgCleanup() error {
	t := &pgTpl
	if t.admin == nil {
		return nil
	}
	t.mu.Lock()
	for _, db := range t.all {
		if db.conn != nil {
			db.conn.Close()
		}
	}
	t.mu.Unlock()
	if t.lock != nil {
		t.lockMu.Lock()
		t.lock.ExecContext(context.Background(), "SELECT pg_advisory_unlock_all()")
		t.lock.Close()
		t.lockMu.Unlock()
	}
	return t.admin.Close()
}

// sweep drops what no binary uses any more: another code's template and pool once no
// binary holds them and none started on them for staleAfter, and
// the per-binary databases an earlier version of this package left when killed.
func sweep(admin *sql.DB) {
	ctx := context.Background()
	rows, err := admin.QueryContext(ctx, `SELECT datname, coalesce(shobj_description(oid, 'pg_database'), '')
		FROM pg_database WHERE datname LIKE 'lokal\_t\_%' OR datname LIKE 'lokal\_tpl\_%' OR datname LIKE 'lokal\_p\_%'`)
	if err != nil {
		return
	}
	var old []string
	used := map[string]int64{}     // hash: when a binary last started on its template (0: none, or unfinished)
	pools := map[string][]string{} // hash: its pool databases
	for rows.Next() {
		var n, comment string
		if rows.Scan(&n, &comment) != nil {
			continue
		}
		switch {
		case strings.HasPrefix(n, tplPrefix):
			h := strings.TrimPrefix(n, tplPrefix)
			if m, err := decodeMeta(comment); err == nil {
				used[h] = m.Used
			} else {
				used[h] = 0
			}
		case strings.HasPrefix(n, poolPrefix):
			if h, _, ok := strings.Cut(strings.TrimPrefix(n, poolPrefix), "_"); ok {
				pools[h] = append(pools[h], n)
			}
		default:
			parts := strings.SplitN(strings.TrimPrefix(n, oldPrefix), "_", 2)
			if sec, err := strconv.ParseInt(parts[0], 10, 64); err == nil && time.Since(time.Unix(sec, 0)) > staleAfter {
				old = append(old, n)
			}
		}
	}
	rows.Close()
	for _, n := range old {
		admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+ident(n)+" WITH (FORCE)")
	}
	for h := range pools {
		if _, ok := used[h]; !ok {
			used[h] = 0
		}
	}
	for h, at := range used {
		if h == pgTpl.hash || len(h) != len(pgTpl.hash) || time.Since(time.Unix(at, 0)) < staleAfter {
			continue
		}
		if _, err := hex.DecodeString(h); err != nil {
			continue
		}
		sweepCode(ctx, admin, h, pools[h])
	}
}

// sweepCode drops the template and pool of hash h unless a binary holds them.
func sweepCode(ctx context.Context, admin *sql.DB, h string, pool []string) {
	var ok bool
	pgTpl.lockMu.Lock()
	err := pgTpl.lock.QueryRowContext(ctx, fmt.Sprintf("SELECT pg_try_advisory_lock(%d, %d)", hashKey(h), lockInUse)).Scan(&ok)
	pgTpl.lockMu.Unlock()
	if err != nil || !ok {
		return
	}
	defer lockExec(ctx, "SELECT pg_advisory_unlock(%d, %d)", hashKey(h), lockInUse)
	for _, n := range append(pool, tplPrefix+h) {
		admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+ident(n)+" WITH (FORCE)")
	}
}
