package tools_test

import (
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestMemorySuggestions: a row gets the approved translations of like source texts of its
// workspace, its other projects included, ranked exact first then by similarity, with
// placeholders compared as placeholders; rows that are not approved, of another language,
// of the row's own key, of another workspace or of a project the asker has no role on never
// show.
func TestMemorySuggestions(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		cat := storagetest.Catalog(storagetest.MustOpen(t, dsn, nil), &tools.Options{WriteTimeout: time.Hour})
		ctx := model.WithPrincipal(t.Context(), tools.System)
		mk := func(ws, title string) string {
			p, err := cat.CreateProject(ctx, tools.CreateProjectIn{WorkspaceID: ws, Title: title, SourceLanguage: "en", Languages: []string{"nb", "sv"}})
			if err != nil {
				t.Fatal(err)
			}
			return p.ID
		}
		shop, other := mk(f.Workspace.ID, "Shop"), mk(f.OtherWorkspace.ID, "Elsewhere")
		keep := false
		put := func(proj, lang, status string, rows map[string]string) {
			t.Helper()
			if lang == "en" {
				if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: proj, Language: "en", Namespace: "app"},
					Translations: rows, Partial: true, PreserveSourceValues: &keep}); err != nil {
					t.Fatal(err)
				}
				return
			}
			for k, v := range rows {
				if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: proj},
					NamespaceKey: "app", TranslationKey: k}, Language: lang}, Value: v, Status: status}); err != nil {
					t.Fatal(err)
				}
			}
		}
		put(f.Project.ID, "en", "", map[string]string{"asked": "Save {count} changes to your profile", "twin": "Save {count} changes to your profile"})
		put(f.Project.ID, "nb", model.StatusApproved, map[string]string{"twin": "TWIN"}) // the same text in the same project
		put(shop, "en", "", map[string]string{
			"exact":  "Save {count} changes to your profile",
			"masked": "Save {n} changes to your profile",
			"near":   "Save the changes to your profiles",
			"far":    "Delete the account for good",
			"draft":  "Save {count} changes to your profile now",
		})
		put(shop, "nb", model.StatusApproved, map[string]string{"exact": "EXACT", "masked": "MASKED", "near": "NEAR", "far": "FAR"})
		put(shop, "nb", model.StatusNeedsReview, map[string]string{"draft": "DRAFT"})
		put(shop, "sv", model.StatusApproved, map[string]string{"draft": "SWEDISH"})
		put(other, "en", "", map[string]string{"leak": "Save {count} changes to your profile"})
		put(other, "nb", model.StatusApproved, map[string]string{"leak": "LEAK"})

		got, err := cat.MemorySuggestions(ctx, tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID}, NamespaceKey: "app", TranslationKey: "asked"}, Language: "nb"})
		if err != nil {
			t.Fatal(err)
		}
		var values []string
		for _, s := range got {
			values = append(values, s.Value)
			if s.Score < tools.MemoryMinScore || s.Score > 100 {
				t.Errorf("%s scored %d", s.Value, s.Score)
			}
		}
		if len(got) < 3 || !got[0].Exact || got[0].Score != 100 || !got[1].Exact || got[2].Value != "MASKED" || got[2].Score != 99 {
			t.Fatalf("suggestions %+v", got)
		}
		exact := map[string]bool{got[0].Value: true, got[1].Value: true}
		if !exact["EXACT"] || !exact["TWIN"] {
			t.Errorf("exact matches %v, want EXACT and TWIN", values)
		}
		if len(got) != 4 || got[3].Value != "NEAR" || got[3].Score >= got[2].Score {
			t.Errorf("suggestions %v, want the exact ones, MASKED, then NEAR", values)
		}
		for _, s := range got {
			switch s.Value {
			case "LEAK", "DRAFT", "SWEDISH", "FAR":
				t.Errorf("suggested %s", s.Value)
			}
		}

		// A translator of this project only gets nothing of the project they have no role on.
		u, err := cat.CreateUser(ctx, tools.CreateUserIn{WorkspaceID: f.Workspace.ID, Email: "tr@acme.test"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cat.SetMember(ctx, tools.SetMemberIn{ProjectID: f.Project.ID, User: u.Email, Role: model.RoleTranslator, Languages: []string{"nb"}}); err != nil {
			t.Fatal(err)
		}
		tok, err := cat.CreateToken(ctx, tools.CreateTokenIn{UserID: u.ID, WorkspaceID: f.Workspace.ID})
		if err != nil {
			t.Fatal(err)
		}
		p, err := cat.Authenticate(t.Context(), tok.Token)
		if err != nil {
			t.Fatal(err)
		}
		mine, err := cat.MemorySuggestions(model.WithPrincipal(t.Context(), p), tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID}, NamespaceKey: "app", TranslationKey: "asked"}, Language: "nb"})
		if err != nil {
			t.Fatal(err)
		}
		if len(mine) != 1 || mine[0].Value != "TWIN" {
			t.Errorf("the translator of one project was suggested %+v, want TWIN alone", mine)
		}
	})
}
