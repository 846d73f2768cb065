package storage_test

import (
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestMemoryWithoutWords: a source text with no word of three letters (short words,
// markup, a placeholder) answers translation memory instead of panicking: an exact lookup
// still finds the same text's approved translation, and the fuzzy lookup, with no word to
// ask the index for, finds nothing else.
func TestMemoryWithoutWords(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		cat := storagetest.Catalog(db, nil)
		ctx := sys(t)
		keep := false
		texts := map[string]string{"ok": "OK?", "go": "Go on", "bold": "<b>x</b>", "count": "{{n}}", "ab": "a b"}
		src := map[string]string{"near": "OK?!"}
		for k, v := range texts {
			src[k], src[k+"2"] = v, v
		}
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "app"},
			Translations: src, PreserveSourceValues: &keep}); err != nil {
			t.Fatal(err)
		}
		approve := func(key, value string) {
			t.Helper()
			if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID},
				NamespaceKey: "app", TranslationKey: key}, Language: "nb"}, Value: value, Status: model.StatusApproved}); err != nil {
				t.Fatal(err)
			}
		}
		approve("near", "NEAR")
		for k := range texts {
			approve(k+"2", "NB "+k)
		}
		var list []string
		for _, v := range texts {
			list = append(list, v)
		}
		var matches map[string]string
		if err := db.View(ctx, func(tx model.Tx) error {
			var err error
			matches, err = tx.MemoryMatches(ctx, f.Project.ID, "en", "nb", list)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		for k, v := range texts {
			if matches[v] != "NB "+k {
				t.Errorf("automatic translation's exact match for %q = %q, want %q", v, matches[v], "NB "+k)
			}
		}
		for k, v := range texts {
			var cands []model.MemoryCandidate
			if err := db.View(ctx, func(tx model.Tx) error {
				ns, err := tx.Namespace(ctx, f.Project.ID, "app")
				if err != nil {
					return err
				}
				key, err := tx.KeyByName(ctx, ns, k)
				if err != nil {
					return err
				}
				cands, err = tx.MemoryCandidates(ctx, model.MemoryFilter{WorkspaceID: f.Workspace.ID, ProjectIDs: []string{f.Project.ID},
					SourceLanguage: "en", Language: "nb", Text: v, ExcludeKeyID: key.ID, Limit: 10})
				return err
			}); err != nil {
				t.Fatalf("%q: %v", v, err)
			}
			if len(cands) != 1 || cands[0].Key != k+"2" || cands[0].Value != "NB "+k {
				t.Errorf("memory candidates for %q = %+v, want only the exact %s2", v, cands, k)
			}
			got, err := cat.MemorySuggestions(ctx, tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID},
				NamespaceKey: "app", TranslationKey: k}, Language: "nb"})
			if err != nil {
				t.Fatalf("%q: %v", v, err)
			}
			if len(got) != 1 || !got[0].Exact || got[0].Value != "NB "+k {
				t.Errorf("suggestions for %q = %+v, want the exact NB %s", v, got, k)
			}
		}
	})
}
