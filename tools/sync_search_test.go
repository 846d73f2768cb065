package tools_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// A search right after a big sync returns finds its keys and values: the trigram indexes'
// merging waits for after the commit (PostgreSQL's pending lists hold the whole write,
// SQLite's segments are merged in the background), their entries do not. 12,000 keys
// of sentences are about 15 MB of trigram entries: more than PostgreSQL's default pending
// list, and chunked on SQLite.
func TestSearchRightAfterBigSync(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		cat := storagetest.Catalog(db, &tools.Options{WriteTimeout: time.Hour})
		ctx := model.WithPrincipal(context.Background(), tools.System)
		entries := map[string]string{}
		for i := range 12000 {
			entries[fmt.Sprintf("bulk.item_%d.title", i)] = fmt.Sprintf("Review the shipment number q%dz before it leaves the warehouse.", i)
		}
		if _, err := cat.Sync(ctx, tools.SyncIn{Translations: entries,
			NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "bulk"}}); err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{0, 5077, 11999} {
			for _, in := range []tools.SearchIn{
				{ValueContains: fmt.Sprintf("number q%dz before", i)},
				{KeyContains: fmt.Sprintf("item_%d.title", i)},
			} {
				in.ProjectID = f.Project.ID
				out, err := cat.SearchTranslations(ctx, in)
				if err != nil {
					t.Fatal(err)
				}
				want := fmt.Sprintf("bulk.item_%d.title", i)
				if len(out.Rows) != 1 || out.Rows[0].TranslationKey != want || out.Rows[0].NamespaceKey != "bulk" {
					t.Errorf("search %+v right after the sync: %+v, want the one row of %s", in, out.Rows, want)
				}
			}
		}
	})
}
