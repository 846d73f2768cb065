package tools_test

import (
	"slices"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestLockedRowsAreNeverOverwritten: a language_locked value survives every write path
// until the lock is cleared.
func TestLockedRowsAreNeverOverwritten(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		cat := storagetest.Catalog(db, nil)
		ctx := model.WithPrincipal(t.Context(), tools.System)
		p := f.Project
		ns := tools.NamespaceRef{ProjectID: p.ID, Language: "en", Namespace: "legal"}
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: ns, Translations: map[string]string{"terms": "Terms"}}); err != nil {
			t.Fatal(err)
		}
		row := tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: p.ID}, NamespaceKey: "legal", TranslationKey: "terms"}, Language: "nb"}
		if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: row, Value: "Vilkår", Status: model.StatusApproved}); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.FlagTranslation(ctx, tools.FlagIn{RowRef: row, Flag: model.FlagLanguageLocked, Value: true}); err != nil {
			t.Fatal(err)
		}

		nb := tools.NamespaceRef{ProjectID: p.ID, Language: "nb", Namespace: "legal"}
		out, err := cat.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: nb, Translations: map[string]string{"terms": "Betingelser"}})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(out.Unchanged, []string{"terms"}) || len(out.Updated) != 0 {
			t.Errorf("overwrite of a locked row: %+v, want it unchanged", out)
		}
		_, err = cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: row, Value: "Betingelser"})
		if model.ErrorCode(err) != model.CodeConflict {
			t.Errorf("update_translation of a locked row: %v, want conflict", err)
		}
		if got := value(t, cat, row); got != "Vilkår" {
			t.Fatalf("locked value became %q", got)
		}

		if _, err := cat.FlagTranslation(ctx, tools.FlagIn{RowRef: row, Flag: model.FlagLanguageLocked, Value: false}); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: nb, Translations: map[string]string{"terms": "Betingelser"}}); err != nil {
			t.Fatal(err)
		}
		if got := value(t, cat, row); got != "Betingelser" {
			t.Fatalf("after clearing the lock, overwrite left %q", got)
		}
	})
}

func TestMain(m *testing.M) { storagetest.Main(m) }

func value(t *testing.T, cat *tools.Catalog, row tools.RowRef) string {
	t.Helper()
	got, err := cat.GetTranslation(model.WithPrincipal(t.Context(), tools.System), row.KeyRef)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range got.Translations {
		if tr.Language == row.Language {
			return tr.Value
		}
	}
	return ""
}

// TestMaskURL: a secret URL shows its scheme and host, and its last 4 characters only when
// the rest is long enough that they give little away.
func TestMaskURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://api.vercel.com/v1/integrations/deploy/prj_abc/Xy12Zq": "https://api.vercel.com/…12Zq",
		"https://api.netlify.com/build_hooks/5f0a1b2c3d4e":             "https://api.netlify.com/…3d4e",
		"https://hooks.example.com/short":                              "https://hooks.example.com/…",
		"https://h.example.com/deploy?token=abcdefghijkl":              "https://h.example.com/…ijkl",
		"http://127.0.0.1:9/hooks/deploy":                              "http://127.0.0.1:9/…",
		"":                                                             "",
	} {
		if got := model.MaskURL(in); got != want {
			t.Errorf("MaskURL(%q) = %q, want %q", in, got, want)
		}
	}
}
