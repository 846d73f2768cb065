package tools_test

import (
	"net/netip"
	"testing"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
)

// TestSuggestAI: the AI's suggestion for a row is returned and nothing is stored; without
// an AI provider the answer is not_configured.
func TestSuggestAI(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		llm := aitest.New(t, aitest.Echo(func(_, masked string) string { return "ai " + masked }))
		withAI := storagetest.Catalog(db, &tools.Options{Outbound: outbound.NewGuard([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}),
			AIDefault: tools.AIProvider{BaseURL: llm.URL, Model: "suggest"}})
		without := storagetest.Catalog(db, nil)
		ctx := model.WithPrincipal(t.Context(), tools.System)
		keep := false
		if _, err := withAI.Sync(ctx, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "app"},
			Translations: map[string]string{"hi": "Hello {name}"}, PreserveSourceValues: &keep}); err != nil {
			t.Fatal(err)
		}
		ref := tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID}, NamespaceKey: "app", TranslationKey: "hi"}, Language: "nb"}
		got, err := withAI.SuggestAI(ctx, ref)
		if err != nil || got != "ai Hello {name}" {
			t.Fatalf("suggestion %q, %v", got, err)
		}
		d, err := withAI.RowDetails(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		if !d.Item.Missing || len(d.History) != 0 {
			t.Errorf("the suggestion was stored: %+v", d.Item)
		}
		if _, err := without.SuggestAI(ctx, ref); model.ErrorCode(err) != model.CodeNotConfigured {
			t.Errorf("without AI: %v, want not_configured", err)
		}
	})
}
