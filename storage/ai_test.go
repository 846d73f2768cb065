package storage_test

import (
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestAISettingsRows: the workspace and project AI settings round-trip, stay apart from
// the project settings that UpdateProject writes, and name what is missing.
func TestAISettingsRows(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		ctx := t.Context()
		ws := model.WorkspaceAI{BaseURL: "https://llm.example/v1", Model: "m1", KeyEnc: "v1:sealed"}
		pa := model.ProjectAI{Model: "m2", Instructions: "Formal.\nShort."}
		err := db.Update(ctx, f.Project.ID, func(tx model.Tx) error {
			if got, err := tx.WorkspaceAI(ctx, f.Workspace.ID); err != nil || got != (model.WorkspaceAI{}) {
				t.Errorf("new workspace AI = %+v, %v; want empty", got, err)
			}
			if err := tx.SetWorkspaceAI(ctx, f.Workspace.ID, ws); err != nil {
				return err
			}
			if err := tx.SetProjectAI(ctx, f.Project.ID, pa); err != nil {
				return err
			}
			// Writing the project's other settings keeps the AI ones.
			p, err := tx.Project(ctx, f.Project.ID)
			if err != nil {
				return err
			}
			p.Title = "Renamed"
			return tx.UpdateProject(ctx, p)
		})
		if err != nil {
			t.Fatal(err)
		}
		err = db.View(ctx, func(tx model.Tx) error {
			if got, err := tx.WorkspaceAI(ctx, f.Workspace.ID); err != nil || got != ws {
				t.Errorf("workspace AI = %+v, %v; want %+v", got, err, ws)
			}
			if got, err := tx.WorkspaceAI(ctx, f.OtherWorkspace.ID); err != nil || got != (model.WorkspaceAI{}) {
				t.Errorf("other workspace AI = %+v, %v; want empty", got, err)
			}
			if got, err := tx.ProjectAI(ctx, f.Project.ID); err != nil || got != pa {
				t.Errorf("project AI = %+v, %v; want %+v", got, err, pa)
			}
			p, err := tx.Project(ctx, f.Project.ID)
			if err != nil || p.Settings.AIModel != "m2" {
				t.Errorf("project settings' AI model = %q, %v; want the column ProjectAI writes", p.Settings.AIModel, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for name, fn := range map[string]func(model.Tx) error{
			"workspace get": func(tx model.Tx) error { _, err := tx.WorkspaceAI(ctx, "nope"); return err },
			"workspace set": func(tx model.Tx) error { return tx.SetWorkspaceAI(ctx, "nope", ws) },
			"project get":   func(tx model.Tx) error { _, err := tx.ProjectAI(ctx, "nope"); return err },
			"project set":   func(tx model.Tx) error { return tx.SetProjectAI(ctx, "nope", pa) },
		} {
			if err := db.Update(ctx, "", fn); !model.IsNotFound(err) {
				t.Errorf("%s of a missing row: %v, want not found", name, err)
			}
		}
	})
}
