package storage_test

import (
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestTokensHostsMigration takes a database back to the schema before the tokens-and-hosts
// migration and opens it again: the migration adds the columns and the table, and the
// tokens made before it are listed without a prefix.
func TestTokensHostsMigration(t *testing.T) {
	skipUpgradeInShort(t)
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		// A schema of its own (EmptyDSN, migrated by Open): the test takes the schema back to
		// an earlier release's, which a pooled database must never carry to the next test.
		dsn := storagetest.EmptyDSN(t, dialect)
		db, err := storage.Open(t.Context(), dsn, nil)
		if err != nil {
			t.Fatal(err)
		}
		cat := storagetest.Catalog(db, nil)
		p := project(t, cat)
		if _, err := cat.CreateAPIKey(sys(t), tools.CreateAPIKeyIn{ProjectID: p.ID}); err != nil {
			t.Fatal(err)
		}
		db.Close()

		raw := storagetest.SQL(t, dsn)
		for _, q := range []string{
			"ALTER TABLE tokens DROP COLUMN prefix",
			"ALTER TABLE tokens DROP COLUMN last_used_at",
			"DROP TABLE project_hosts",
			"DELETE FROM bun_migrations WHERE name = '20261123000001'",
		} {
			if _, err := raw.ExecContext(t.Context(), q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		raw.Close()

		db, err = storage.Open(t.Context(), dsn, &storage.Options{MustExist: true})
		if err != nil {
			t.Fatalf("migrating the older schema: %v", err)
		}
		defer db.Close()
		cat = storagetest.Catalog(db, nil)
		k, err := cat.CreateAPIKey(sys(t), tools.CreateAPIKeyIn{ProjectID: p.ID})
		if err != nil {
			t.Fatal(err)
		}
		keys, err := cat.ListKeys(sys(t), p.ID)
		if err != nil || len(keys) != 2 || keys[0].Prefix != "" || !strings.HasPrefix(k.Key, keys[1].Prefix) || keys[1].Prefix == "" {
			t.Errorf("keys after the migration: %+v, %v", keys, err)
		}
		if _, err := cat.SetProject(sys(t), p.ID, tools.SetProjectIn{Hosts: &[]string{"shop.example"}}); err != nil {
			t.Errorf("binding a host after the migration: %v", err)
		}
	})
}

// TestHostBoundOnce checks the store's own guard: a host bound to one project cannot be
// bound to another, even by a caller that did not look first.
func TestHostBoundOnce(t *testing.T) {
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db := storagetest.MustOpenDB(t, dialect)
		cat := storagetest.Catalog(db, nil)
		a, b := project(t, cat), project(t, cat)
		set := func(projectID string, hosts ...string) error {
			return db.Update(sys(t), projectID, func(tx model.Tx) error { return tx.SetProjectHosts(sys(t), projectID, hosts) })
		}
		if err := set(a.ID, "shop.example", "www.shop.example"); err != nil {
			t.Fatal(err)
		}
		if err := set(a.ID, "shop.example", "blog.example"); err != nil {
			t.Fatalf("rebinding a project's own host: %v", err)
		}
		if err := set(b.ID, "shop.example"); model.ErrorCode(err) != model.CodeConflict {
			t.Errorf("binding another project's host: %v, want a conflict", err)
		}
		var hosts []string
		var owner string
		db.View(sys(t), func(tx model.Tx) error {
			hosts, _ = tx.ProjectHosts(sys(t), a.ID)
			owner, _ = tx.HostProject(sys(t), "shop.example")
			return nil
		})
		if strings.Join(hosts, ",") != "blog.example,shop.example" || owner != a.ID {
			t.Errorf("hosts of a: %v; shop.example belongs to %s", hosts, owner)
		}
	})
}

// project makes a workspace and a project with nb on, through the catalogue.
func project(t *testing.T, cat *tools.Catalog) model.Project {
	t.Helper()
	w, err := cat.CreateWorkspace(sys(t), tools.CreateWorkspaceIn{Name: "W"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := cat.CreateProject(sys(t), tools.CreateProjectIn{WorkspaceID: w.ID, Title: "P", SourceLanguage: "en", Languages: []string{"nb"}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
