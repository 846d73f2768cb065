package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// cacheChangeRow is one line of the change journal (migration 20261124810001).
type cacheChangeRow struct {
	bun.BaseModel `bun:"table:cache_changes"`
	Revision      int64  `bun:"revision,notnull"`
	ProjectID     string `bun:"project_id,notnull"`
	Scope         string `bun:"scope,notnull"`
	Namespace     string `bun:"namespace,notnull"`
	Key           string `bun:"key,notnull"`
}

// Journal scopes.
const (
	scopeProject   = "project"   // every cached file of the project
	scopeFiles     = "files"     // the project's files other than its namespaces
	scopeNamespace = "namespace" // one namespace whole
	scopeKey       = "key"       // one key of one namespace
)

const (
	// journalKeep is how many revisions the journal keeps. A process that falls further
	// behind (asleep, or a burst of writes) drops the whole changed projects instead.
	journalKeep = 2048
	// pruneEvery spaces out the statements that trim the journal.
	pruneEvery = 256
)

// TouchKeys moves the project's revision for a change of the keys named per namespace (a
// nil list for a whole namespace) and of the project's other cached files. Every process
// patches its cached namespace files with those keys alone: this one after the commit
// (DB.Update), the others when their poll reads the journal (DB.poll).
func (t *tx) TouchKeys(ctx context.Context, projectID string, namespaces map[string][]string) error {
	var cs changeSet
	for ns, keys := range namespaces {
		cs.addKeys(ns, keys)
	}
	return t.touch(ctx, projectID, cs)
}

// touch records that the transaction changed what cs names in the project; the revision
// moves when the transaction is about to commit (flushTouches), one per touch.
func (t *tx) touch(_ context.Context, projectID string, cs changeSet) error {
	t.pending = append(t.pending, pendingTouch{projectID, cs})
	return nil
}

// pendingTouch is one touch waiting for flushTouches.
type pendingTouch struct {
	project string
	cs      changeSet
}

// flushTouches moves the revision of every project the transaction touched, last thing
// before it commits. Writes queue on the counter's row until they commit, so the row is
// taken as late as possible: taken by the cache hook, it held every other project's
// writes for the rest of a big write's hooks (seconds for a maximal sync).
func (t *tx) flushTouches(ctx context.Context) error {
	for _, p := range t.pending {
		if err := t.bump(ctx, p.project, p.cs); err != nil {
			return err
		}
	}
	t.pending = nil
	return nil
}

// bump bumps the database-wide revision counter, stamps it on the project and journals
// what changed under it. Writes queue on the counter's row until they commit, so revisions
// commit in order and none is skipped: a poll that finds a revision missing from the
// journal knows it was pruned.
func (t *tx) bump(ctx context.Context, projectID string, cs changeSet) error {
	var rev int64
	if err := t.tx.NewUpdate().Model((*revisionRow)(nil)).Set("value = value + 1").Where("id = 1").
		Returning("value").Scan(ctx, &rev); err != nil {
		return fmt.Errorf("bumping revision: %w", err)
	}
	if _, err := t.tx.NewUpdate().Model((*projectRow)(nil)).Set("revision = ?", rev).
		Where("id = ?", projectID).Exec(ctx); err != nil {
		return fmt.Errorf("bumping project revision: %w", err)
	}
	rows := []cacheChangeRow{{Revision: rev, ProjectID: projectID, Scope: scopeFiles}}
	if cs.project {
		rows[0].Scope = scopeProject
	} else {
		for ns, keys := range cs.namespaces {
			if keys == nil {
				rows = append(rows, cacheChangeRow{Revision: rev, ProjectID: projectID, Scope: scopeNamespace, Namespace: ns})
			}
			for _, k := range keys {
				rows = append(rows, cacheChangeRow{Revision: rev, ProjectID: projectID, Scope: scopeKey, Namespace: ns, Key: k})
			}
		}
	}
	for i := 0; i < len(rows); i += batch {
		chunk := rows[i:min(i+batch, len(rows))]
		if _, err := t.tx.NewInsert().Model(&chunk).Exec(ctx); err != nil {
			return fmt.Errorf("journaling the change: %w", err)
		}
	}
	if rev%pruneEvery == 0 {
		if _, err := t.tx.NewDelete().Model((*cacheChangeRow)(nil)).Where("revision <= ?", rev-journalKeep).Exec(ctx); err != nil {
			return fmt.Errorf("trimming the change journal: %w", err)
		}
	}
	if t.touched == nil {
		t.touched = map[string]*changeSet{}
	}
	if t.touched[projectID] == nil {
		t.touched[projectID] = &changeSet{}
	}
	t.touched[projectID].merge(cs)
	t.revs = append(t.revs, rev)
	return nil
}

// Poll applies now what other processes changed since the last poll; the watcher calls it
// every poll interval.
func (db *DB) Poll(ctx context.Context) error { return db.poll(ctx) }

func (db *DB) poll(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var rev int64
	if err := db.r.NewSelect().Model((*revisionRow)(nil)).Column("value").Where("id = 1").Scan(ctx, &rev); err != nil {
		return err
	}
	db.mu.Lock()
	last := db.lastRev
	db.mu.Unlock()
	if rev <= last {
		return nil
	}
	sets, err := db.journal(ctx, last, rev)
	if err != nil {
		return err
	}
	if sets == nil {
		// Part of the journal is gone: drop the changed projects whole.
		var changed []string
		if err := db.r.NewSelect().Model((*projectRow)(nil)).Column("id").Where("revision > ?", last).Scan(ctx, &changed); err != nil {
			return err
		}
		sets = map[string]*changeSet{}
		for _, id := range changed {
			sets[id] = &changeSet{project: true}
		}
	}
	for id, cs := range sets {
		db.cache.apply(id, *cs)
	}
	db.mu.Lock()
	if rev > db.lastRev {
		db.lastRev = rev
	}
	for r := range db.own {
		if r <= db.lastRev {
			delete(db.own, r)
		}
	}
	db.mu.Unlock()
	return nil
}

// journal reads what revisions (last, rev] changed, leaving out this process's own, or nil
// when the journal no longer holds every one of them.
func (db *DB) journal(ctx context.Context, last, rev int64) (map[string]*changeSet, error) {
	if rev-last > journalKeep {
		return nil, nil
	}
	var rows []cacheChangeRow
	if err := db.r.NewSelect().Model(&rows).Where("revision > ? AND revision <= ?", last, rev).Scan(ctx); err != nil {
		return nil, err
	}
	db.mu.Lock()
	own := make(map[int64]bool, len(db.own))
	for r := range db.own {
		own[r] = true
	}
	db.mu.Unlock()
	seen := map[int64]bool{}
	sets := map[string]*changeSet{}
	for _, r := range rows {
		seen[r.Revision] = true
		if own[r.Revision] {
			// Applied by Update right after the commit.
			continue
		}
		cs := sets[r.ProjectID]
		if cs == nil {
			cs = &changeSet{}
			sets[r.ProjectID] = cs
		}
		switch r.Scope {
		case scopeFiles:
		case scopeNamespace:
			cs.addKeys(r.Namespace, nil)
		case scopeKey:
			cs.addKeys(r.Namespace, []string{r.Key})
		default:
			cs.project = true
		}
	}
	if int64(len(seen)) != rev-last {
		return nil, nil
	}
	return sets, nil
}
