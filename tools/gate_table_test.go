package tools_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// The table's walk: every row of tools.Operations (and tools.SystemOperations), every kind of
// caller, every door, answered as the row says. The expected answer is worked out here from
// the row alone (expect), independently of the gate's code; the gate is asked through the
// entry every operation passes (AdmitAt), and the operations themselves through the doors'
// calls (tableCalls) wherever one call is practical.

// walker is one caller of the walk: its principal and what the test knows of it.
type walker struct {
	name string
	p    model.Principal
	kind tools.Callers // 0 for the system
	// rights are the caller's rights on the project in nb (a translator's and reviewer's
	// language) and elsewhere: the test's own reading of the roles.
	nb, other model.Right
	user      bool // acts for a person (rights from roles); RightOwner is the owner's alone
}

// workspaceOps act on no project at their gate: the workspace, the caller's own things, or
// a record found by id first.
var workspaceOps = map[model.Operation]bool{
	model.OpListProjects: true, model.OpMe: true, model.OpWorkspaceOwners: true, model.OpTokenList: true,
	model.OpCreateToken: true, model.OpRevokeToken: true, model.OpRevokeKey: true, model.OpSetWorkspaceAI: true,
	model.OpCreateProject: true, model.OpUserRole: true, model.OpUserList: true, model.OpUserResetLink: true,
	model.OpUserDisable: true, model.OpUserEnable: true, model.OpUserDelete: true, model.OpSignIn: true,
	model.OpSignOut: true, model.OpOAuthAuthorize: true, model.OpOAuthToken: true, model.OpOAuthRevoke: true,
	model.OpOAuthRegister: true, model.OpGrantList: true, model.OpGrantRevoke: true,
}

func projectOf(op tools.Operation, project string) string {
	if workspaceOps[op.Name] || op.Doors == 0 || op.Auth&tools.Anonymous != 0 {
		return ""
	}
	return project
}

// carried are the callers a door authenticates at all.
var carried = map[tools.Door]tools.Callers{
	0:            ^tools.Callers(0),
	tools.MCP:    tools.AnyToken | tools.Grant,
	tools.REST:   tools.AnyToken | tools.Grant,
	tools.Editor: tools.Session,
	tools.Public: 0,
}

// expect is the answer the table gives w calling op at door d on a project ("" for none):
// "" for admitted, else the refusal's code.
func expect(op tools.Operation, w walker, d tools.Door, project string) string {
	switch {
	case w.kind == 0:
		return ""
	case op.Auth&tools.Anonymous != 0:
		return ""
	case w.kind == tools.Anonymous:
		return model.CodeUnauthorized
	case d != 0 && op.Doors&d == 0:
		return model.CodeUnauthorized
	case carried[d]&w.kind == 0:
		return model.CodeUnauthorized
	case w.kind == tools.Grant && (op.Auth&tools.Grant == 0 || d != tools.MCP):
		return model.CodeUnauthorized
	case project != "" && w.user && w.other&model.RightRead == 0:
		return model.CodeForbidden // a member without a role on the project
	}
	if op.Auth&w.kind == 0 {
		key := w.kind == tools.KeyRO || w.kind == tools.KeyRW
		switch {
		case w.kind == tools.KeyRO && op.Auth&tools.KeyRW != 0:
			return model.CodeReadOnlyKey
		case key && project != "" && op.Auth&(tools.PAT|tools.WorkspacePAT) != 0:
			return model.CodePATRequired
		}
		return model.CodeUnauthorized
	}
	if w.p.ReadOnly && !op.ReadOnly {
		return model.CodeReadOnlyKey
	}
	have := w.nb
	if project == "" {
		have = w.other
	}
	switch {
	case project != "" && op.Needs&^have != 0:
		return model.CodeForbidden
	case project == "" && op.Needs&model.RightOwner != 0 && have&model.RightOwner == 0:
		return model.CodeForbidden
	}
	return ""
}

type tableFixture struct {
	cat     *tools.Catalog
	project string
	owner   model.User
	callers []walker
}

func newTableFixture(t *testing.T, dialect string) tableFixture {
	t.Helper()
	db, f := storagetest.MustOpenFixture(t, dialect)
	off := map[string]int{}
	for _, b := range tools.Budgets() {
		off[b.Name] = -1 // the walk makes thousands of calls; budgets have their own tests
	}
	cat := storagetest.Catalog(db, &tools.Options{Budgets: off})
	sys := model.WithPrincipal(t.Context(), tools.System)
	p, err := cat.CreateProject(sys, tools.CreateProjectIn{WorkspaceID: f.Workspace.ID, Title: "Table", SourceLanguage: "en", Languages: []string{"nb", "de"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.RegisterSourceStrings(sys, tools.RegisterIn{ProjectArg: tools.ProjectArg{ProjectID: p.ID}, NamespaceKey: "common",
		Strings: map[string]string{"hello": "Hello"}}); err != nil {
		t.Fatal(err)
	}
	tf := tableFixture{cat: cat, project: p.ID, owner: f.User}
	auth := func(secret string) model.Principal {
		pr, err := cat.Authenticate(t.Context(), secret)
		if err != nil {
			t.Fatal(err)
		}
		return pr
	}
	const pw = "correct horse battery"
	users := map[string]model.User{"owner": f.User}
	rights := map[string][2]model.Right{ // nb, elsewhere
		"owner":      {model.RightsAll, model.RightsAll},
		"manager":    {model.RightsProject, model.RightsProject},
		"translator": {model.RightRead | model.RightTranslate, model.RightRead},
		"reviewer":   {model.RightRead | model.RightTranslate | model.RightApprove, model.RightRead},
		"nobody":     {0, 0},
	}
	for _, m := range []struct{ name, role string }{{"manager", model.RoleManager}, {"translator", model.RoleTranslator}, {"reviewer", model.RoleReviewer}, {"nobody", ""}} {
		u, err := cat.CreateUser(sys, tools.CreateUserIn{WorkspaceID: f.Workspace.ID, Email: m.name + "@table.test"})
		if err != nil {
			t.Fatal(err)
		}
		users[m.name] = u
		if m.role == "" {
			continue
		}
		var langs []string
		if m.role != model.RoleManager {
			langs = []string{"nb"}
		}
		if _, err := cat.SetMember(sys, tools.SetMemberIn{ProjectID: p.ID, User: u.Email, Role: m.role, Languages: langs}); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"owner", "manager", "translator", "reviewer", "nobody"} {
		u := users[name]
		if err := cat.SetPassword(sys, u.ID, pw); err != nil {
			t.Fatal(err)
		}
		in, err := cat.SignIn(t.Context(), tools.SignInIn{Email: u.Email, Password: pw, ClientIP: "127.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		ctx, _, err := cat.OpenSession(t.Context(), in.Token)
		if err != nil {
			t.Fatal(err)
		}
		r := rights[name]
		tf.callers = append(tf.callers, walker{name: "session " + name, p: model.PrincipalFrom(ctx), kind: tools.Session, nb: r[0], other: r[1], user: true})
	}
	rw, err := cat.CreateAPIKey(sys, tools.CreateAPIKeyIn{ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	ro, err := cat.CreateAPIKey(sys, tools.CreateAPIKeyIn{ProjectID: p.ID, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	pat, err := cat.CreateToken(sys, tools.CreateTokenIn{UserID: f.User.ID, ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := cat.CreateToken(sys, tools.CreateTokenIn{UserID: f.User.ID, WorkspaceID: f.Workspace.ID})
	if err != nil {
		t.Fatal(err)
	}
	read := model.RightRead
	all := model.RightsAll
	wsP := auth(ws.Token)
	roPAT := wsP
	roPAT.ReadOnly = true
	// An OAuth access token is the person's token of its Kind with the grant set (the
	// OAuth contract), narrowed to reading by a lokal:read scope.
	grantRW := auth(pat.Token)
	grantRW.GrantID = "grant-rw"
	grantRO := wsP
	grantRO.GrantID, grantRO.ReadOnly = "grant-ro", true
	tf.callers = append(tf.callers,
		walker{name: "read-only key", p: auth(ro.Key), kind: tools.KeyRO, nb: read, other: read},
		walker{name: "read/write key", p: auth(rw.Key), kind: tools.KeyRW, nb: model.RightsProject, other: model.RightsProject},
		walker{name: "project PAT", p: auth(pat.Token), kind: tools.PAT, nb: all, other: all, user: true},
		walker{name: "workspace PAT", p: wsP, kind: tools.WorkspacePAT, nb: all, other: all, user: true},
		walker{name: "read-only PAT", p: roPAT, kind: tools.WorkspacePAT, nb: read, other: read, user: true},
		walker{name: "grant read-write", p: grantRW, kind: tools.Grant, nb: all, other: all, user: true},
		walker{name: "grant read-only", p: grantRO, kind: tools.Grant, nb: read, other: read, user: true},
		walker{name: "anonymous", p: model.Principal{Kind: model.KindAnonymous}, kind: tools.Anonymous},
		walker{name: "system", p: tools.System},
	)
	return tf
}

var doors = []tools.Door{0, tools.MCP, tools.REST, tools.Editor, tools.Public}

func doorName(d tools.Door) string {
	return map[tools.Door]string{0: "no door", tools.MCP: "MCP", tools.REST: "REST", tools.Editor: "editor", tools.Public: "public"}[d]
}

// TestGateAnswersAsTheTable: for every row, caller and door, the gate every operation
// passes admits or refuses exactly as the row says.
func TestGateAnswersAsTheTable(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		tf := newTableFixture(t, dialect)
		rows := append(append([]tools.Operation{}, tools.Operations...), tools.SystemOperations...)
		for _, op := range rows {
			project := projectOf(op, tf.project)
			for _, w := range tf.callers {
				for _, d := range doors {
					ctx := model.WithPrincipal(tools.WithDoor(t.Context(), d), w.p)
					if d == 0 {
						ctx = model.WithPrincipal(t.Context(), w.p)
					}
					err := tools.AdmitAt(tf.cat, ctx, op.Name, project, "nb")
					if got, want := codeOf(err), expect(op, w, d, project); got != want {
						t.Errorf("%s by %s at %s: %v, the table says %q", op.Name, w.name, doorName(d), err, want)
					}
				}
			}
		}
	})
}

// tableCall is one operation called as its doors call it.
type tableCall func(ctx context.Context, tf tableFixture, n int) error

// tableCalls are the operations called whole; gateOnly names the others and why a whole
// call does not fit the walk. Every row is in one of the two.
func tableCalls() map[model.Operation]tableCall {
	ref := func(tf tableFixture) tools.RowRef { return row(tf.project, "nb") }
	ns := func(tf tableFixture) tools.NamespaceRef {
		return tools.NamespaceRef{ProjectID: tf.project, Language: "nb", Namespace: "common"}
	}
	pa := func(tf tableFixture) tools.ProjectArg { return tools.ProjectArg{ProjectID: tf.project} }
	return map[model.Operation]tableCall{
		model.OpListProjects: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ListProjects(ctx, tools.ListProjectsIn{})
			return err
		},
		model.OpGetProjectStatus: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.GetProjectStatus(ctx, tools.ProjectStatusIn{ProjectArg: pa(tf)})
			return err
		},
		model.OpGetEmbedSnippet: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.GetEmbedSnippet(ctx, tools.EmbedSnippetIn{ProjectArg: pa(tf)})
			return err
		},
		model.OpGetTranslations: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.GetTranslations(ctx, tools.GetTranslationsIn{ProjectArg: pa(tf), Language: "nb"})
			return err
		},
		model.OpGetTranslation: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.GetTranslation(ctx, ref(tf).KeyRef)
			return err
		},
		model.OpSearchTranslations: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.SearchTranslations(ctx, tools.SearchIn{ProjectArg: pa(tf), KeyContains: "hello"})
			return err
		},
		model.OpListTerminology: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ListTerminology(ctx, tools.TerminologyIn{ProjectArg: pa(tf)})
			return err
		},
		model.OpGetCheckupReport: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.GetCheckupReport(ctx, tools.CheckupIn{ProjectArg: pa(tf)})
			return err
		},
		model.OpEnableLanguage: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.EnableLanguage(ctx, tools.EnableLanguageIn{ProjectArg: pa(tf), Language: "nb"})
			return err
		},
		model.OpRegisterSourceStrings: func(ctx context.Context, tf tableFixture, n int) error {
			_, err := tf.cat.RegisterSourceStrings(ctx, tools.RegisterIn{ProjectArg: pa(tf), NamespaceKey: "common", Strings: map[string]string{fmt.Sprintf("reg%d", n): "Registered"}})
			return err
		},
		model.OpUpdateTranslation: func(ctx context.Context, tf tableFixture, n int) error {
			_, err := tf.cat.UpdateTranslation(ctx, tools.UpdateTranslationIn{RowRef: ref(tf), Value: fmt.Sprintf("Hei %d", n)})
			return err
		},
		model.OpSetTranslationStatus: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.SetTranslationStatus(ctx, tools.SetStatusIn{RowRef: ref(tf), Status: model.StatusNeedsReview})
			return err
		},
		model.OpAddKey: func(ctx context.Context, tf tableFixture, n int) error {
			r := ref(tf).KeyRef
			r.TranslationKey = fmt.Sprintf("added%d", n)
			_, err := tf.cat.AddKey(ctx, tools.AddKeyIn{KeyRef: r, SourceValue: "Added"})
			return err
		},
		model.OpAddComment: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.AddComment(ctx, tools.AddCommentIn{RowRef: ref(tf), Body: "A note"})
			return err
		},
		model.OpFlagTranslation: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.FlagTranslation(ctx, tools.FlagIn{RowRef: ref(tf), Flag: model.FlagLanguageLocked, Value: false})
			return err
		},
		model.OpAddGlossaryTerm: func(ctx context.Context, tf tableFixture, n int) error {
			_, err := tf.cat.AddGlossaryTerm(ctx, tools.GlossaryIn{ProjectArg: pa(tf), SourceTerm: fmt.Sprintf("Term %d", n), TargetTerm: "Term", Locale: "nb"})
			return err
		},
		model.OpImport: func(ctx context.Context, tf tableFixture, n int) error {
			_, err := tf.cat.ImportTranslations(ctx, tools.ImportIn{ProjectArg: pa(tf), NamespaceKey: "common", Language: "nb", Format: "json",
				Content: fmt.Sprintf(`{"hello":"Hei %d"}`, n)})
			return err
		},
		model.OpAITranslateKeys: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.AITranslateKeys(ctx, tools.AITranslateIn{ProjectArg: pa(tf), NamespaceKey: "common", TranslationKeys: []string{"hello"}, TargetLang: "nb"})
			return err
		},
		model.OpReadNamespace: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ReadNamespace(ctx, ns(tf))
			return err
		},
		model.OpExport: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ExportNamespace(ctx, tools.ExportIn{NamespaceRef: ns(tf), Format: "po"})
			return err
		},
		model.OpMissing: func(ctx context.Context, tf tableFixture, n int) error {
			in := ns(tf)
			in.Language = "en"
			_, err := tf.cat.ReportMissing(ctx, tools.ReportMissingIn{NamespaceRef: in, Translations: map[string]string{fmt.Sprintf("missing%d", n): "Missing"}})
			return err
		},
		model.OpSync: func(ctx context.Context, tf tableFixture, n int) error {
			in := ns(tf)
			in.Language = "en"
			_, err := tf.cat.Sync(ctx, tools.SyncIn{NamespaceRef: in, Partial: true, Translations: map[string]string{fmt.Sprintf("synced%d", n): "Synced"}})
			return err
		},
		model.OpOverwrite: func(ctx context.Context, tf tableFixture, n int) error {
			_, err := tf.cat.Overwrite(ctx, tools.OverwriteIn{NamespaceRef: ns(tf), Translations: map[string]string{"hello": fmt.Sprintf("Hei %d", n)}})
			return err
		},
		model.OpStale: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ListStale(ctx, tools.StaleIn{ProjectID: tf.project, Namespace: "common", Language: "nb"})
			return err
		},
		model.OpRetranslate: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.Retranslate(ctx, tools.RetranslateIn{NamespaceRef: ns(tf), Keys: []string{"hello"}})
			return err
		},
		model.OpSyncPageStrings: func(ctx context.Context, tf tableFixture, n int) error {
			_, err := tf.cat.RegisterPageStrings(ctx, tools.PageStringsIn{ProjectID: tf.project, Namespace: "pages", SourceStrings: []string{fmt.Sprintf("Page %d", n)}})
			return err
		},
		model.OpMe: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.Me(ctx)
			return err
		},
		model.OpUsage: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.Usage(ctx, tools.UsageIn{ProjectArg: pa(tf)})
			return err
		},
		model.OpLocizeLanguages: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.LocizeLanguages(ctx, tf.project)
			return err
		},
		model.OpWorkspaceOwners: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.WorkspaceOwners(ctx)
			return err
		},
		model.OpMyRole: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.MyRoleOn(ctx, tf.project)
			return err
		},
		model.OpProgress: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.GetProgress(ctx, tools.ProgressIn{ProjectArg: pa(tf), Language: "nb"})
			return err
		},
		model.OpReviewQueue: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ReviewQueue(ctx, tools.ReviewIn{ProjectID: tf.project, Language: "nb"})
			return err
		},
		model.OpRowDetails: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.RowDetails(ctx, ref(tf))
			return err
		},
		model.OpCheckValue: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.CheckValue(ctx, tools.CheckIn{RowRef: ref(tf), Value: "Hei"})
			return err
		},
		model.OpRecordContext: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.RecordContext(ctx, tools.RecordContextIn{ProjectID: tf.project, Namespace: "common",
				Items: []tools.ContextItem{{Key: "hello", PageContext: tools.PageContext{URL: "https://nowhere.example/", Role: "text"}}}})
			return err
		},
		model.OpFindKeys: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.FindKeys(ctx, tf.project, "common", []string{"Hello"})
			return err
		},
		model.OpKeyContexts: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.KeyContexts(ctx, tf.project, "common", "hello")
			return err
		},
		model.OpSiteOrigin: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.SiteOrigin(ctx, tf.project, "https://nowhere.example")
			if model.ErrorCode(err) == model.CodeForbidden && strings.HasPrefix(model.ErrorMessage(err), "https://nowhere.example is not one of this workspace's authorized hosts") {
				return nil // admitted: the origin is refused, not the caller
			}
			return err
		},
		model.OpPageKeys: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.PageKeys(ctx, tf.project, "https://nowhere.example/")
			return err
		},
		model.OpMemoryRow: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.MemorySuggestions(ctx, ref(tf))
			return err
		},
		model.OpActorNames: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ActorNames(ctx, tf.project, []string{"user:" + tf.owner.ID})
			return err
		},
		model.OpSaveRow: func(ctx context.Context, tf tableFixture, n int) error {
			// No version: refused as invalid once the caller is admitted.
			_, err := tf.cat.SaveRow(ctx, tools.SaveRowIn{RowRef: ref(tf), Value: fmt.Sprintf("Hei %d", n)})
			return err
		},
		model.OpApproveRows: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ApproveRows(ctx, tools.ApproveIn{ProjectID: tf.project, Language: "nb"})
			return err
		},
		model.OpCommentRow: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.CommentRow(ctx, tools.AddCommentIn{RowRef: ref(tf), Body: "A note"})
			return err
		},
		model.OpFlagRow: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.FlagRow(ctx, tools.FlagIn{RowRef: ref(tf), Flag: model.FlagLanguageLocked, Value: false})
			return err
		},
		model.OpRevertRow: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.RevertRow(ctx, tools.RevertRowIn{RowRef: ref(tf), HistoryID: 1})
			return err
		},
		model.OpTranslateRows: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.TranslateRows(ctx, tools.TranslateRowsIn{ProjectID: tf.project, Language: "nb", Keys: map[string][]string{"common": {"hello"}}})
			return err
		},
		model.OpSuggestRow: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.SuggestAI(ctx, ref(tf))
			return err
		},
		model.OpImportFile: func(ctx context.Context, tf tableFixture, n int) error {
			_, err := tf.cat.ImportFile(ctx, tools.ImportIn{ProjectArg: pa(tf), NamespaceKey: "common", Language: "nb", Format: "json",
				Status: model.StatusNeedsReview, Content: fmt.Sprintf(`{"hello":"Hei %d"}`, n)})
			return err
		},
		model.OpKeyList: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ListKeys(ctx, tf.project)
			return err
		},
		model.OpTokenList: func(ctx context.Context, tf tableFixture, _ int) error {
			// The owner's: another user's are refused as unauthorized, the row's own code.
			_, err := tf.cat.ListTokens(ctx, model.PrincipalFrom(ctx).UserID)
			return err
		},
		model.OpShowAI: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ShowAI(ctx, tf.project)
			return err
		},
		model.OpShowProject: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ShowProject(ctx, tf.project)
			return err
		},
		model.OpWebhookList: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ListWebhooks(ctx, tf.project)
			return err
		},
		model.OpRedeployShow: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ShowRedeploy(ctx, tf.project)
			return err
		},
		model.OpRedeployLog: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.RedeployAttempts(ctx, tf.project, 0)
			return err
		},
		model.OpMemberList: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ListMembers(ctx, tf.project)
			return err
		},
		model.OpUserList: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ListUsers(ctx)
			return err
		},
		model.OpInvitationList: func(ctx context.Context, tf tableFixture, _ int) error {
			_, err := tf.cat.ListInvitations(ctx, tools.ListInvitationsIn{ProjectID: tf.project})
			return err
		},
	}
}

// gateOnly are the rows whose operations the walk meets at their gate only, and why.
var gateOnly = map[model.Operation]string{
	model.OpRedeploy:             "calls out to a CI provider",
	model.OpResolve:              "public: creates projects for a site token",
	model.OpHarvest:              "public and silent by design: answers nothing either way",
	model.OpDictionary:           "public: an embed project's origin rules come first",
	model.OpChanges:              "public: an embed project's origin rules come first",
	model.OpInstallPing:          "public: an embed project's origin rules come first",
	model.OpPublicInfo:           "public: an embed project's origin rules come first",
	model.OpSignIn:               "counts failures by address",
	model.OpSignOut:              "ends the walker's own session",
	model.OpCreateKey:            "mints a key per caller",
	model.OpRevokeKey:            "ends a walker's credential",
	model.OpCreateToken:          "mints a token per caller",
	model.OpRevokeToken:          "ends a walker's credential",
	model.OpSetAI:                "changes the project's AI for every later call",
	model.OpSetWorkspaceAI:       "checks the provider's URL through the outbound guard",
	model.OpSetProject:           "changes the project for every later call",
	model.OpWebhookLog:           "needs a webhook, found by id before the gate",
	model.OpWebhookAdd:           "checks the URL through the outbound guard",
	model.OpWebhookState:         "needs a webhook, found by id before the gate",
	model.OpWebhookURL:           "needs a webhook, found by id before the gate",
	model.OpRedeploySet:          "checks the URL through the outbound guard",
	model.OpMemberSet:            "changes the walkers' roles",
	model.OpMemberRemove:         "changes the walkers' roles",
	model.OpUserRole:             "changes the walkers' roles",
	model.OpInvite:               "sends an invitation per caller",
	model.OpAcceptInvitation:     "anonymous: needs an invitation link",
	model.OpInvitationRevoke:     "needs an invitation, found by id before the gate",
	model.OpUserResetLink:        "issues a link per caller",
	model.OpResetPassword:        "anonymous: needs a reset link",
	model.OpCreateProject:        "creates a project per caller",
	model.OpAddDoNotTranslate:    "changes the rules of every later AI call",
	model.OpAddSubstitution:      "changes the rules of every later AI call",
	model.OpRemoveGlossaryTerm:   "needs a term, found by id",
	model.OpRemoveDoNotTranslate: "needs a term",
	model.OpRemoveSubstitution:   "needs a rule, found by id",
	model.OpRunCheckup:           "runs a whole checkup per caller",
	model.OpArchiveProject:       "ends the walk's project",
	model.OpRestoreProject:       "needs an archived project",
	model.OpDeleteProject:        "ends the walk's project",
	model.OpUserDisable:          "ends a walker",
	model.OpUserEnable:           "needs a disabled user",
	model.OpUserDelete:           "ends a walker",
	model.OpOAuthAuthorize:       "the OAuth helpers' (tools/oauth*.go)",
	model.OpGrantList:            "the OAuth helpers' (tools/oauth*.go)",
	model.OpGrantRevoke:          "the OAuth helpers' (tools/oauth*.go)",
	model.OpOAuthToken:           "the OAuth helpers' (tools/oauth*.go)",
	model.OpOAuthRevoke:          "the OAuth helpers' (tools/oauth*.go)",
	model.OpOAuthRegister:        "the OAuth helpers' (tools/oauth*.go)",
}

// refusals are the codes of a refused caller; an admitted call may still fail on its
// input or state (invalid, not_found, conflict, not_configured), never with one of these.
var refusals = map[string]bool{model.CodeUnauthorized: true, model.CodeForbidden: true, model.CodeReadOnlyKey: true, model.CodePATRequired: true}

// TestOperationsAnswerAsTheTable: every operation called whole, by every caller at every
// door of its row and at one it lacks, admits whom its row admits and refuses the others
// with the row's code; every row is called whole or named in gateOnly.
func TestOperationsAnswerAsTheTable(t *testing.T) {
	t.Parallel()
	calls := tableCalls()
	for _, op := range tools.Operations {
		_, whole := calls[op.Name]
		if _, gate := gateOnly[op.Name]; whole == gate {
			t.Errorf("%s: called whole %v, gate only %v; want exactly one", op.Name, whole, gate)
		}
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		tf := newTableFixture(t, dialect)
		n := 0
		for _, op := range tools.Operations {
			call := calls[op.Name]
			if call == nil {
				continue
			}
			project := projectOf(op, tf.project)
			ds := []tools.Door{0}
			for _, d := range doors[1:] {
				ds = append(ds, d) // its doors admit as the row says, the others refuse
			}
			for _, w := range tf.callers {
				for _, d := range ds {
					n++
					ctx := model.WithPrincipal(t.Context(), w.p)
					if d != 0 {
						ctx = tools.WithDoor(ctx, d)
					}
					err := call(ctx, tf, n)
					got, want := codeOf(err), expect(op, w, d, project)
					switch {
					case want == "" && refusals[got]:
						t.Errorf("%s by %s at %s: %v, the table admits it", op.Name, w.name, doorName(d), err)
					case want != "" && got != want:
						t.Errorf("%s by %s at %s: %v, the table says %q", op.Name, w.name, doorName(d), err, want)
					}
				}
			}
		}
	})
}

// TestEveryOperationHasARow: the operation names the catalogue's code uses each have a row
// (a missing one panics at its first call); the names are typed constants, so a misspelt
// one does not compile.
func TestEveryOperationHasARow(t *testing.T) {
	t.Parallel()
	for _, name := range []model.Operation{model.OpRevertRow, model.OpSuggestRow, model.OpExport, model.OpProgress, model.OpImportFile} {
		if _, ok := tools.Op(name); !ok {
			t.Errorf("%s has no row", name)
		}
	}
	if _, ok := tools.Op("no_such_operation"); ok {
		t.Error("an unknown name found a row")
	}
	defer func() {
		if recover() == nil {
			t.Error("the gate of an operation without a row did not panic")
		}
	}()
	_ = tools.AdmitAt(nil, t.Context(), "no_such_operation", "", "")
}
