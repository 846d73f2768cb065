package tools_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// holdingStore holds the first sync read after it is armed (a dry run's plan) until
// released, and notes whether that read was in a write transaction.
type holdingStore struct {
	*storage.DB
	armed    atomic.Bool
	writable bool          // set before reached is closed
	reached  chan struct{} // closed when a transaction is held mid-plan
	release  chan struct{}
}

func (s *holdingStore) View(ctx context.Context, fn func(model.Tx) error) error {
	return s.DB.View(ctx, func(tx model.Tx) error { return fn(&holdingTx{Tx: tx, s: s}) })
}

func (s *holdingStore) Update(ctx context.Context, projectID string, fn func(model.Tx) error) error {
	return s.DB.Update(ctx, projectID, func(tx model.Tx) error { return fn(&holdingTx{Tx: tx, s: s}) })
}

type holdingTx struct {
	model.Tx
	s *holdingStore
}

func (t *holdingTx) SyncKeys(ctx context.Context, ns model.Namespace, src, lang string, only []string) ([]model.KeyState, bool, error) {
	if t.s.armed.CompareAndSwap(true, false) {
		t.s.writable = t.Writable()
		close(t.s.reached)
		<-t.s.release
	}
	return t.Tx.SyncKeys(ctx, ns, src, lang, only)
}

// TestImportDryRunReadsOnly: a dry run is planned in a read transaction: held mid-plan, it
// has opened no write transaction and another project's write goes through meanwhile (on
// SQLite, where one writer serves every project, a dry run in a write transaction held it
// for its whole plan); it stores nothing; and it answers what the import then does.
func TestImportDryRunReadsOnly(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		s := &holdingStore{DB: db, reached: make(chan struct{}), release: make(chan struct{})}
		cat := storagetest.Catalog(s, nil)
		sys := model.WithPrincipal(t.Context(), tools.System)
		seed := map[string]string{}
		for i := range 50 {
			seed[fmt.Sprintf("k%03d", i)] = fmt.Sprintf("Text %d", i)
		}
		seed["locked"], seed["greet"] = "Locked", "Hello {name}"
		if _, err := cat.Sync(sys, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "ui"}, Translations: seed}); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.Overwrite(sys, tools.OverwriteIn{NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "nb", Namespace: "ui"},
			Translations: map[string]string{"k001": "Tekst 1", "locked": "Låst"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.FlagTranslation(sys, tools.FlagIn{RowRef: tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID},
			NamespaceKey: "ui", TranslationKey: "locked"}, Language: "nb"}, Flag: "language_locked", Value: true}); err != nil {
			t.Fatal(err)
		}
		before := exportAll(t, cat, sys, f.Project.ID)

		// Every language of a csv file: new keys, changed source texts (which clear the
		// lock), a value that would be refused for a new key's placeholder.
		no := false
		var csv strings.Builder
		csv.WriteString("key,en,nb\n")
		for i := range 60 {
			fmt.Fprintf(&csv, "k%03d,Text %d changed,Tekst %d\n", i, i, i)
		}
		csv.WriteString("locked,Locked now,Låst nå\nfresh,Hello {name},Hei {name\nfresh2,Hello {name},Hei {navn}\n")
		in := tools.ImportIn{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID}, NamespaceKey: "ui", Language: "all", Format: "csv",
			Content: csv.String(), PreserveSourceValues: &no}
		dryIn := in
		dryIn.DryRun = true
		type result struct {
			out tools.ImportOut
			err error
		}
		done := make(chan result, 1)
		s.armed.Store(true)
		go func() {
			out, err := cat.Import(sys, dryIn)
			done <- result{out, err}
		}()
		<-s.reached
		if s.writable {
			close(s.release)
			<-done
			t.Fatal("the dry run plans in a write transaction")
		}
		other := model.WithPrincipal(t.Context(), tools.System)
		if _, err := cat.Sync(other, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: f.Other.ID, Language: "en", Namespace: "ui"},
			Translations: map[string]string{"hello": "Hello"}, Partial: true}); err != nil {
			t.Errorf("another project's write during the dry run: %v", err)
		}
		close(s.release)
		dry := <-done
		if dry.err != nil {
			t.Fatal(dry.err)
		}
		if after := exportAll(t, cat, sys, f.Project.ID); before != after {
			t.Errorf("the dry run changed the project:\nbefore %v\nafter  %v", before, after)
		}
		if len(dry.out.Created) != 12 || len(dry.out.Refused) != 1 || dry.out.Refused[0].Key != "fresh" ||
			len(dry.out.HeldBack) != 1 || dry.out.HeldBack[0].Key != "fresh2" {
			t.Errorf("the dry run answers created %v, refused %+v, held back %+v", dry.out.Created, dry.out.Refused, dry.out.HeldBack)
		}
		if _, err := cat.Import(sys, in); model.ErrorCode(err) != model.CodeInvalidTranslation {
			t.Fatalf("the import with a refused value: %v", err)
		}
		in.Content = strings.Replace(in.Content, "Hei {name\n", "Hei {name}\n", 1)
		dryIn.Content = in.Content
		dry2, err := cat.Import(sys, dryIn)
		if err != nil {
			t.Fatal(err)
		}
		real, err := cat.Import(sys, in)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(dry2, real) {
			t.Errorf("the dry run answers\n%+v\nthe import\n%+v", dry2, real)
		}
	})
}

// exportAll is namespace ui of project as a file of every language, and its key locked as
// get_translation shows it (flags and versions).
func exportAll(t *testing.T, cat *tools.Catalog, ctx context.Context, project string) string {
	t.Helper()
	e, err := cat.ExportNamespace(ctx, tools.ExportIn{NamespaceRef: tools.NamespaceRef{ProjectID: project, Language: "all", Namespace: "ui"}, Format: "csv"})
	if err != nil {
		t.Fatal(err)
	}
	k, err := cat.GetTranslation(ctx, tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: project}, NamespaceKey: "ui", TranslationKey: "locked"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nlocked: version %d", e.Body, k.SourceVersion)
	for _, r := range k.Translations {
		fmt.Fprintf(&b, "; %+v %d", r.RowState, *r.SourceVersion)
	}
	return b.String()
}
