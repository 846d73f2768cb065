package storagetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"
)

// namePrefix starts the name of every database this package makes; the binary's start time
// follows it, so that stale ones can be found.
const namePrefix = "lokal_t_"

// staleAfter is the age past which another binary's databases are taken to be left over.
const staleAfter = time.Hour

// emptySchema is the schema an EmptyDSN points at.
const emptySchema = "lokal_empty"

// pgTpl is the binary's PostgreSQL template and the pool of databases cloned from it.
var pgTpl struct {
	once     sync.Once
	err      error
	base     *url.URL
	admin    *sql.DB // on the database of LOKAL_TEST_POSTGRES: CREATE and DROP DATABASE
	prefix   string
	template string
	fixture  Fixture
	reset    map[state]string // SQL that brings a pool database back to a state

	mu   sync.Mutex
	free []*pgDB
	all  []*pgDB
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

func pgConnect(dsn string) *sql.DB {
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn)))
	db.SetMaxOpenConns(1)
	return db
}

func ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func pgTemplate(base string) error {
	t := &pgTpl
	t.once.Do(func() {
		t.err = pgBuildTemplate(base)
	})
	return t.err
}

func pgBuildTemplate(base string) error {
	t := &pgTpl
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("parsing %s: %w", EnvPostgres, err)
	}
	t.base = u
	// DROP DATABASE waits for a checkpoint: seconds on a busy server.
	t.admin = sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(base), pgdriver.WithReadTimeout(2*time.Minute)))
	t.admin.SetMaxOpenConns(4)
	go sweep(t.admin)

	b := make([]byte, 4)
	rand.Read(b)
	t.prefix = namePrefix + strconv.FormatInt(time.Now().Unix(), 10) + "_" + hex.EncodeToString(b)
	t.template = t.prefix + "_tpl"
	if _, err := t.admin.ExecContext(ctx, "CREATE DATABASE "+ident(t.template)+" TEMPLATE template0"); err != nil {
		return fmt.Errorf("creating the template database on %s: %w", EnvPostgres, err)
	}
	raw := pgConnect(pgDSN(t.template, ""))
	defer raw.Close()
	var tables []string // parents before children
	t.reset = map[state]string{}
	t.fixture, err = build(ctx, pgDSN(t.template, ""), func(s state) error {
		if tables == nil {
			var err error
			if tables, err = pgTables(ctx, raw); err != nil {
				return err
			}
		}
		seed := fmt.Sprintf("lokal_seed_%d", s)
		stmts := []string{"CREATE SCHEMA " + seed}
		for _, tb := range tables {
			stmts = append(stmts, fmt.Sprintf("CREATE TABLE %s.%s AS TABLE public.%s", seed, ident(tb), ident(tb)))
		}
		if _, err := raw.ExecContext(ctx, strings.Join(stmts, ";\n")); err != nil {
			return fmt.Errorf("keeping the template's rows: %w", err)
		}
		// Deletes and inserts, not TRUNCATE: on a few rows they take milliseconds where
		// TRUNCATE's new files take a third of a second.
		stmts = []string{"BEGIN"}
		for i := len(tables) - 1; i >= 0; i-- {
			stmts = append(stmts, "DELETE FROM public."+ident(tables[i]))
		}
		for _, tb := range tables {
			stmts = append(stmts, fmt.Sprintf("INSERT INTO public.%s SELECT * FROM %s.%s", ident(tb), seed, ident(tb)))
		}
		t.reset[s] = strings.Join(append(stmts, "COMMIT"), ";\n")
		return nil
	})
	if err != nil {
		return err
	}
	// CREATE DATABASE ... TEMPLATE needs the template to have no connections.
	return raw.Close()
}

// pgTables lists the tables of the public schema, parents before the tables whose
// foreign keys point at them.
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
		WHERE k.contype = 'f' AND n.nspname = 'public' AND k.conrelid <> k.confrelid`)
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
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	t.mu.Lock()
	var db *pgDB
	if n := len(t.free); n > 0 {
		db, t.free = t.free[n-1], t.free[:n-1]
	}
	t.mu.Unlock()
	if db == nil {
		t.mu.Lock()
		db = &pgDB{name: fmt.Sprintf("%s_%d", t.prefix, len(t.all))}
		t.all = append(t.all, db)
		t.mu.Unlock()
		if _, err := t.admin.ExecContext(ctx, "CREATE DATABASE "+ident(db.name)+" TEMPLATE "+ident(t.template)); err != nil {
			return "", nil, fmt.Errorf("cloning the template database: %w", err)
		}
		// A commit returns before its WAL reaches the disk: what a test sees is the same
		// (a crash of the server, which no test makes, would lose the last commits), and
		// a write no longer waits for an fsync that a busy disk makes tens of milliseconds.
		if _, err := t.admin.ExecContext(ctx, "ALTER DATABASE "+ident(db.name)+" SET synchronous_commit = off"); err != nil {
			return "", nil, fmt.Errorf("setting up the test database: %w", err)
		}
		db.conn = pgConnect(pgDSN(db.name, ""))
	}
	rows := s
	if s == empty {
		rows = migrated
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

// pgCleanup drops the binary's databases, all at once: DROP DATABASE waits for a
// checkpoint (seconds on a busy server), and concurrent drops share one. Past dropWait it
// gives up; the server finishes a drop it has received, and sweep catches the rest.
func pgCleanup() error {
	t := &pgTpl
	if t.admin == nil {
		return nil
	}
	t.mu.Lock()
	names := []string{t.template}
	for _, db := range t.all {
		if db.conn != nil {
			db.conn.Close()
		}
		names = append(names, db.name)
	}
	t.mu.Unlock()
	t.admin.SetMaxOpenConns(len(names))
	errs := make(chan error, len(names))
	for _, n := range names {
		go func() {
			_, err := t.admin.Exec("DROP DATABASE IF EXISTS " + ident(n) + " WITH (FORCE)")
			if err != nil {
				err = fmt.Errorf("dropping test database %s: %w", n, err)
			}
			errs <- err
		}()
	}
	wait := time.After(dropWait)
	for range names {
		select {
		case err := <-errs:
			if err != nil {
				return err
			}
		case <-wait:
			return nil
		}
	}
	return nil
}

// dropWait is how long pgCleanup waits for its drops to be answered.
const dropWait = 30 * time.Second

// sweep drops the databases of binaries that started more than staleAfter ago and did
// not drop their own (killed, or without Main).
func sweep(admin *sql.DB) {
	rows, err := admin.Query(`SELECT datname FROM pg_database WHERE datname LIKE 'lokal\_t\_%'`)
	if err != nil {
		return
	}
	var stale []string
	for rows.Next() {
		var n string
		if rows.Scan(&n) != nil {
			continue
		}
		parts := strings.SplitN(strings.TrimPrefix(n, namePrefix), "_", 2)
		if sec, err := strconv.ParseInt(parts[0], 10, 64); err == nil && time.Since(time.Unix(sec, 0)) > staleAfter {
			stale = append(stale, n)
		}
	}
	rows.Close()
	for _, n := range stale {
		admin.Exec("DROP DATABASE IF EXISTS " + ident(n) + " WITH (FORCE)")
	}
}
