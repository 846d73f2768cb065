package storagetest

import (
	"context"
	"fmt"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// Fixture is the one set of rows the tests start from, written once per test binary
// through the catalogue (as the admin CLI would) and copied with the database:
//
//   - workspace Acme with user dev@acme.test, project "Web app" (source en; nb and sv on)
//     and project "Docs" (en; de);
//   - on "Web app": a read/write API key, a read-only key and the user's project token;
//   - the user's workspace token, which opens both projects;
//   - workspace Rival with its own user, project "Rival app" (en; nb), a read/write key,
//     a read-only key and a workspace token, for cross-project and cross-workspace checks.
type Fixture struct {
	Workspace model.Workspace
	User      model.User
	Project   model.Project
	Sibling   model.Project
	RW        string // read/write API key of Project
	RO        string // read-only API key of Project
	PAT       string // the user's personal token for Project
	WSToken   string // the user's workspace token

	OtherWorkspace model.Workspace
	OtherUser      model.User
	Other          model.Project
	OtherRW        string
	OtherRO        string
	OtherWSToken   string
}

// writeFixture creates the fixture in db. Each step's arguments are read when the step
// runs, after the steps before it filled them in.
func writeFixture(ctx context.Context, db *storage.DB) (Fixture, error) {
	cat := Catalog(db, nil)
	ctx = model.WithPrincipal(ctx, tools.System)
	var f Fixture
	var err error
	step := func(what string, fn func() error) {
		if err == nil {
			if e := fn(); e != nil {
				err = fmt.Errorf("creating the fixture's %s: %w", what, e)
			}
		}
	}
	key := func(projectID string, readOnly bool, dst *string) func() error {
		return func() error {
			k, err := cat.CreateAPIKey(ctx, tools.CreateAPIKeyIn{ProjectID: projectID, ReadOnly: readOnly})
			*dst = k.Key
			return err
		}
	}
	token := func(in tools.CreateTokenIn, dst *string) func() error {
		return func() error {
			t, err := cat.CreateToken(ctx, in)
			*dst = t.Token
			return err
		}
	}
	step("workspace", func() (e error) {
		f.Workspace, e = cat.CreateWorkspace(ctx, tools.CreateWorkspaceIn{Name: "Acme"})
		return
	})
	step("user", func() (e error) {
		f.User, e = cat.CreateUser(ctx, tools.CreateUserIn{WorkspaceID: f.Workspace.ID, Email: "dev@acme.test"})
		return
	})
	step("project", func() (e error) {
		f.Project, e = cat.CreateProject(ctx, tools.CreateProjectIn{WorkspaceID: f.Workspace.ID, Title: "Web app", SourceLanguage: "en", Languages: []string{"nb", "sv"}})
		return
	})
	step("sibling project", func() (e error) {
		f.Sibling, e = cat.CreateProject(ctx, tools.CreateProjectIn{WorkspaceID: f.Workspace.ID, Title: "Docs", SourceLanguage: "en", Languages: []string{"de"}})
		return
	})
	step("read/write key", key(f.Project.ID, false, &f.RW))
	step("read-only key", key(f.Project.ID, true, &f.RO))
	step("project token", token(tools.CreateTokenIn{UserID: f.User.ID, ProjectID: f.Project.ID}, &f.PAT))
	step("workspace token", token(tools.CreateTokenIn{UserID: f.User.ID, WorkspaceID: f.Workspace.ID}, &f.WSToken))

	step("other workspace", func() (e error) {
		f.OtherWorkspace, e = cat.CreateWorkspace(ctx, tools.CreateWorkspaceIn{Name: "Rival"})
		return
	})
	step("other user", func() (e error) {
		f.OtherUser, e = cat.CreateUser(ctx, tools.CreateUserIn{WorkspaceID: f.OtherWorkspace.ID, Email: "dev@rival.test"})
		return
	})
	step("other project", func() (e error) {
		f.Other, e = cat.CreateProject(ctx, tools.CreateProjectIn{WorkspaceID: f.OtherWorkspace.ID, Title: "Rival app", SourceLanguage: "en", Languages: []string{"nb"}})
		return
	})
	step("other read/write key", key(f.Other.ID, false, &f.OtherRW))
	step("other read-only key", key(f.Other.ID, true, &f.OtherRO))
	step("other workspace token", token(tools.CreateTokenIn{UserID: f.OtherUser.ID, WorkspaceID: f.OtherWorkspace.ID}, &f.OtherWSToken))
	return f, err
}
