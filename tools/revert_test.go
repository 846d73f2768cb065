package tools_test

import (
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestRevertRow (and the stale row's old source): reverting puts an earlier value back through the write path, recorded
// in the history as a revert with its status (approved only as it was and without QA
// findings); a version the reviewer did not see, an entry of another row and a text the
// row already has are refused and change nothing.
func TestRevertRow(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		dsn, f := storagetest.FixtureDSN(t, dialect)
		cat := storagetest.Catalog(storagetest.MustOpen(t, dsn, nil), &tools.Options{WriteTimeout: time.Hour})
		ctx := model.WithPrincipal(t.Context(), tools.System)
		keep := false
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "app"},
			Translations: map[string]string{"hi": "Hello {name}", "bye": "Goodbye"}, PreserveSourceValues: &keep}); err != nil {
			t.Fatal(err)
		}
		ref := func(key string) tools.RowRef {
			return tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID}, NamespaceKey: "app", TranslationKey: key}, Language: "nb"}
		}
		for _, w := range []struct{ key, value, status string }{
			{"hi", "Hei {name}", model.StatusApproved}, {"hi", "Hallo {name}!", model.StatusNeedsReview},
			{"bye", "Ha det", model.StatusApproved},
		} {
			if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: ref(w.key), Value: w.value, Status: w.status}); err != nil {
				t.Fatal(err)
			}
		}
		d, err := cat.RowDetails(ctx, ref("hi"))
		if err != nil {
			t.Fatal(err)
		}
		if len(d.History) != 2 || d.History[1].Value != "Hei {name}" {
			t.Fatalf("history %+v", d.History)
		}
		first := d.History[1].ID
		bye, err := cat.RowDetails(ctx, ref("bye"))
		if err != nil {
			t.Fatal(err)
		}
		for name, in := range map[string]tools.RevertRowIn{
			"old version":     {RowRef: ref("hi"), HistoryID: first, Version: "0123456789abcdef0123"},
			"other row":       {RowRef: ref("hi"), HistoryID: bye.History[0].ID, Version: d.Item.Version},
			"same text":       {RowRef: ref("hi"), HistoryID: d.History[0].ID, Version: d.Item.Version},
			"no entry":        {RowRef: ref("hi"), Version: d.Item.Version},
			"source language": {RowRef: tools.RowRef{KeyRef: ref("hi").KeyRef, Language: "en"}, HistoryID: first, Version: d.Item.Version},
		} {
			if _, err := cat.RevertRow(ctx, in); err == nil {
				t.Errorf("%s: reverted", name)
			}
		}
		it, err := cat.RevertRow(ctx, tools.RevertRowIn{RowRef: ref("hi"), HistoryID: first, Version: d.Item.Version})
		if err != nil {
			t.Fatal(err)
		}
		if it.Value != "Hei {name}" || it.Status != model.StatusApproved || it.Stale {
			t.Errorf("after the revert: %q %s stale=%v", it.Value, it.Status, it.Stale)
		}
		after, err := cat.RowDetails(ctx, ref("hi"))
		if err != nil {
			t.Fatal(err)
		}
		if len(after.History) != 3 || after.History[0].Change != model.HistoryReverted || after.History[0].Value != "Hei {name}" ||
			after.History[0].Status != model.StatusApproved {
			t.Errorf("history after the revert: %+v", after.History)
		}
		// A translator of another language may not revert this one.
		u, err := cat.CreateUser(ctx, tools.CreateUserIn{WorkspaceID: f.Workspace.ID, Email: "sv@acme.test"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cat.SetMember(ctx, tools.SetMemberIn{ProjectID: f.Project.ID, User: u.Email, Role: model.RoleTranslator, Languages: []string{"sv"}}); err != nil {
			t.Fatal(err)
		}
		tok, err := cat.CreateToken(ctx, tools.CreateTokenIn{UserID: u.ID, WorkspaceID: f.Workspace.ID})
		if err != nil {
			t.Fatal(err)
		}
		sv, err := cat.Authenticate(t.Context(), tok.Token)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cat.RevertRow(model.WithPrincipal(t.Context(), sv), tools.RevertRowIn{RowRef: ref("hi"), HistoryID: after.History[1].ID,
			Version: it.Version}); model.ErrorCode(err) != model.CodeForbidden {
			t.Errorf("a translator of sv reverting nb: %v, want forbidden", err)
		}
		// An approved value that has a QA finding now comes back for review.
		if _, err := cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: ref("bye"), Value: "Hello {name}", Status: model.StatusNeedsReview}); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.Sync(ctx, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "app"},
			Translations: map[string]string{"hi": "Hello {name}", "bye": "Goodbye {name}"}, PreserveSourceValues: &keep}); err != nil {
			t.Fatal(err)
		}
		b, err := cat.RowDetails(ctx, ref("bye"))
		if err != nil {
			t.Fatal(err)
		}
		// The stale row shows the source text it was written for and what changed.
		if !b.Item.Stale || b.OldSource != "Goodbye" || tools.DiffText(b.SourceDiff, "+") != "Goodbye {name}" {
			t.Errorf("stale row: stale=%v old source %q diff %+v", b.Item.Stale, b.OldSource, b.SourceDiff)
		}
		it, err = cat.RevertRow(ctx, tools.RevertRowIn{RowRef: ref("bye"), HistoryID: b.History[len(b.History)-1].ID, Version: b.Item.Version})
		if err != nil {
			t.Fatal(err)
		}
		if it.Value != "Ha det" || it.Status != model.StatusNeedsReview || !it.Stale {
			t.Errorf("reverting to a value written for the old source: %q %s stale=%v", it.Value, it.Status, it.Stale)
		}
	})
}
