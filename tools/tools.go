package tools

import (
	"fmt"
	"slices"

	"github.com/lokal-dev/lokal/tools/model"
)

// Operations is the whole service on one screen: every operation, the doors it is offered
// through, who may call it, the right it needs and the budgets it spends. The catalogue
// reads all of it at run time, in one place (the gate, gate.go): every operation names its
// row by a constant of tools/model and passes its gate before it reads or writes anything
// of a project, whatever door it came through; a test walks the table for every caller
// and door (gate_table_test.go). The MCP adapter registers a tool for each row with Tool
// info, and none without, taking its title, description, read-only mark and caps from here.
//
// Budgets (budgets.go) are spent by the gate whatever the door, except where a budget names
// its doors (ReadBudget: the MCP door only; the REST reads stay unlimited), and the
// per-address budgets, which the door that knows the address spends from the row
// (TakeAddress; sign-in counts failures). The operator's commands run as the system
// principal, without budgets; their rows (SystemOperations) have no door and no caller.
var Operations = []Operation{
	// MCP read tools. A user's rights are the same whatever their credential, so the tools
	// serve a signed-in session too; the MCP door carries tokens only (doorCarries).
	{Name: model.OpListProjects, Doors: MCP, Auth: AnyToken | Grant | Session, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "List projects", Description: descListProjects}},
	{Name: model.OpGetProjectStatus, Doors: MCP | Editor, Auth: AnyToken | Grant | Session, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "Project status", Description: descProjectStatus}},
	{Name: model.OpGetEmbedSnippet, Doors: MCP | Editor, Auth: AnyToken | Grant | Session, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "Embed snippet", Description: descEmbedSnippet}},
	{Name: model.OpGetTranslations, Doors: MCP, Auth: AnyToken | Grant | Session, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "Get translations", Description: descGetTranslations}},
	{Name: model.OpGetTranslation, Doors: MCP, Auth: AnyToken | Grant | Session, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "Get one key", Description: descGetTranslation}},
	{Name: model.OpSearchTranslations, Doors: MCP, Auth: AnyToken | Grant | Session, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "Search translations", Description: descSearch}},
	{Name: model.OpListTerminology, Doors: MCP | Editor, Auth: AnyToken | Grant | Session, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "List terminology", Description: descTerminology}},
	{Name: model.OpGetCheckupReport, Doors: MCP | Editor, Auth: AnyToken | Grant | Session, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "Get checkup report", Description: descCheckup}},

	// MCP write tools, hidden from read-only callers.
	{Name: model.OpEnableLanguage, Doors: MCP | Editor, Auth: Writer | Grant | Session, Needs: model.RightManage, Budgets: writes, Tool: &ToolInfo{Title: "Enable language", Description: descEnableLanguage}},
	{Name: model.OpRegisterSourceStrings, Doors: MCP, Auth: Writer | Grant | Session, Needs: model.RightSource, Budgets: writes, Tool: &ToolInfo{Title: "Register source strings", Description: descRegister, Caps: map[string]int{"strings": MaxRegisterStrings}}},
	{Name: model.OpUpdateTranslation, Doors: MCP, Auth: Writer | Grant | Session, Needs: model.RightTranslate, Budgets: writes, Tool: &ToolInfo{Title: "Update translation", Description: descUpdate}},
	{Name: model.OpSetTranslationStatus, Doors: MCP, Auth: Writer | Grant | Session, Needs: model.RightTranslate, Budgets: writes, Tool: &ToolInfo{Title: "Set translation status", Description: descSetStatus}},
	{Name: model.OpAddKey, Doors: MCP, Auth: Writer | Grant | Session, Needs: model.RightSource, Budgets: writes, Tool: &ToolInfo{Title: "Add key", Description: descAddKey}},
	{Name: model.OpAddComment, Doors: MCP, Auth: Writer | Grant | Session, Needs: model.RightTranslate, Budgets: writes, Tool: &ToolInfo{Title: "Add comment", Description: descAddComment}},
	{Name: model.OpFlagTranslation, Doors: MCP, Auth: Writer | Grant | Session, Needs: model.RightTranslate, Budgets: writes, Tool: &ToolInfo{Title: "Flag translation", Description: descFlag}},
	{Name: model.OpAddGlossaryTerm, Doors: MCP | Editor, Auth: Writer | Grant | Session, Needs: model.RightManage, Budgets: writes, Tool: &ToolInfo{Title: "Add glossary term", Description: descGlossary}},
	{Name: model.OpImport, Doors: MCP | REST, Auth: Writer | Grant | Session, Needs: model.RightTranslate, Budgets: writes, Tool: &ToolInfo{Title: "Import translations", Description: descImport}},
	{Name: model.OpAITranslateKeys, Doors: MCP, Auth: Writer | Grant | Session, Needs: model.RightTranslate, Budgets: aiWrites, Tool: &ToolInfo{Title: "AI translate keys", Description: descAITranslate, Caps: map[string]int{"translation_keys": MaxAIKeys}}},

	// The token API beyond the tools (spec endpoints 1-9, the locize languages route).
	{Name: model.OpReadNamespace, Doors: REST, Auth: AnyToken, Needs: model.RightRead, ReadOnly: true},
	// A namespace as a file: endpoint 1 with ?format=, and the editor's download.
	{Name: model.OpExport, Doors: REST | Editor, Auth: AnyToken | Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpMissing, Doors: REST, Auth: Writer, Needs: model.RightSource, Budgets: writes},
	{Name: model.OpSync, Doors: REST, Auth: Writer, Needs: model.RightSource, Budgets: writes},
	{Name: model.OpOverwrite, Doors: REST, Auth: Writer, Needs: model.RightTranslate | model.RightApprove, Budgets: writes},
	{Name: model.OpStale, Doors: REST, Auth: AnyToken, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpRetranslate, Doors: REST, Auth: Writer, Needs: model.RightTranslate, Budgets: aiWrites},
	{Name: model.OpSyncPageStrings, Doors: REST, Auth: Writer, Needs: model.RightSource, Budgets: []*Budget{&WriteBudget, &PageStringsBudget}},
	// Who the caller is; the editor reads it for the signed-in user's projects.
	{Name: model.OpMe, Doors: REST | Editor, Auth: People, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpUsage, Doors: REST | Editor, Auth: People, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpRedeploy, Doors: REST | Editor, Auth: People, Needs: model.RightManage, Budgets: []*Budget{&WriteBudget, &RedeployBudget}},
	{Name: model.OpLocizeLanguages, Doors: REST, Auth: Anonymous, ReadOnly: true},

	// The Embed's public routes, called from visitors' browsers.
	{Name: model.OpResolve, Doors: Public, Auth: Anonymous, Budgets: []*Budget{&PublicResolveBudget}},
	{Name: model.OpHarvest, Doors: Public, Auth: Anonymous, Budgets: []*Budget{&PublicHarvestBudget, &HarvestBudget}},
	{Name: model.OpDictionary, Doors: Public, Auth: Anonymous, ReadOnly: true, Budgets: []*Budget{&PublicDictionaryBudget}},
	{Name: model.OpChanges, Doors: Public, Auth: Anonymous, ReadOnly: true, Budgets: []*Budget{&PublicChangesBudget}},
	{Name: model.OpInstallPing, Doors: Public, Auth: Anonymous, Budgets: []*Budget{&PublicInstallPingBudget}},
	{Name: model.OpPublicInfo, Doors: Public, Auth: Anonymous, ReadOnly: true, Budgets: []*Budget{&PublicInfoBudget}},

	// The editor (rest/app): signed-in users of the workspace. The review's operations serve
	// tokens too (the door carries sessions only).
	{Name: model.OpSignIn, Doors: Editor, Auth: Anonymous, Budgets: []*Budget{&SignInBudget, &SignInAddressBudget}},
	{Name: model.OpSignOut, Doors: Editor, Auth: Session},
	// Whom a user of the workspace without a project role asks: its owners (any user of it).
	{Name: model.OpWorkspaceOwners, Doors: Editor, Auth: Session, Needs: model.RightRead, ReadOnly: true},
	// What the caller may do on a project, for pages that show or hide actions.
	{Name: model.OpMyRole, Doors: Editor, Auth: AnyToken | Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpProgress, Doors: Editor, Auth: AnyToken | Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpReviewQueue, Doors: Editor, Auth: AnyToken | Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpRowDetails, Doors: Editor, Auth: AnyToken | Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpCheckValue, Doors: Editor, Auth: AnyToken | Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpMemoryRow, Doors: Editor, Auth: AnyToken | Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpActorNames, Doors: Editor, Auth: AnyToken | Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpSaveRow, Doors: Editor, Auth: Writer | Session, Needs: model.RightTranslate, Budgets: writes},
	{Name: model.OpApproveRows, Doors: Editor, Auth: Writer | Session, Needs: model.RightTranslate | model.RightApprove, Budgets: writes},
	{Name: model.OpCommentRow, Doors: Editor, Auth: Session, Needs: model.RightTranslate, Budgets: writes},
	{Name: model.OpFlagRow, Doors: Editor, Auth: Session, Needs: model.RightTranslate, Budgets: writes},
	{Name: model.OpRevertRow, Doors: Editor, Auth: Writer | Session, Needs: model.RightTranslate, Budgets: writes},
	{Name: model.OpTranslateRows, Doors: Editor, Auth: Writer | Session, Needs: model.RightTranslate, Budgets: aiWrites},
	// The AI's suggestion for one row: nothing is stored, so no write is spent.
	{Name: model.OpSuggestRow, Doors: Editor, Auth: Writer | Session, Needs: model.RightTranslate, Budgets: []*Budget{&RetranslateBudget}},
	// Review in context: the panel (a lokal page) records and reads where keys are seen on
	// the site; any role on the project, a person's session only.
	{Name: model.OpRecordContext, Doors: Editor, Auth: Session, Needs: model.RightRead, Budgets: writes},
	{Name: model.OpFindKeys, Doors: Editor, Auth: Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpKeyContexts, Doors: Editor, Auth: Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpPageKeys, Doors: Editor, Auth: Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpSiteOrigin, Doors: Editor, Auth: Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpImportFile, Doors: Editor, Auth: Session, Needs: model.RightTranslate, Budgets: writes},
	{Name: model.OpKeyList, Doors: Editor, Auth: Session, Needs: model.RightManage, ReadOnly: true},
	{Name: model.OpCreateKey, Doors: Editor, Auth: Session, Needs: model.RightManage},
	{Name: model.OpRevokeKey, Doors: Editor, Auth: Session, Needs: model.RightManage},
	// A user's own tokens: any role on the project (a token is worth its owner's role).
	{Name: model.OpTokenList, Doors: Editor, Auth: Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpCreateToken, Doors: Editor, Auth: Session, Needs: model.RightRead},
	{Name: model.OpRevokeToken, Doors: Editor, Auth: Session, Needs: model.RightRead},
	{Name: model.OpShowAI, Doors: Editor, Auth: Session, Needs: model.RightManage, ReadOnly: true},
	{Name: model.OpSetAI, Doors: Editor, Auth: Session, Needs: model.RightManage},
	{Name: model.OpSetWorkspaceAI, Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: model.OpShowProject, Doors: Editor, Auth: Session, Needs: model.RightManage, ReadOnly: true},
	{Name: model.OpSetProject, Doors: Editor, Auth: Session, Needs: model.RightManage},
	// Webhooks and redeploy: personal tokens and sessions (people), never a project key.
	{Name: model.OpWebhookList, Doors: Editor, Auth: People, Needs: model.RightManage, ReadOnly: true},
	{Name: model.OpWebhookLog, Doors: Editor, Auth: People, Needs: model.RightManage, ReadOnly: true},
	{Name: model.OpWebhookAdd, Doors: Editor, Auth: People, Needs: model.RightManage, Budgets: writes},
	{Name: model.OpWebhookState, Doors: Editor, Auth: People, Needs: model.RightManage, Budgets: writes},
	{Name: model.OpWebhookURL, Doors: Editor, Auth: People, Needs: model.RightManage, Budgets: writes},
	{Name: model.OpRedeployShow, Doors: Editor, Auth: People, Needs: model.RightManage, ReadOnly: true},
	{Name: model.OpRedeployLog, Doors: Editor, Auth: People, Needs: model.RightManage, ReadOnly: true},
	{Name: model.OpRedeploySet, Doors: Editor, Auth: People, Needs: model.RightManage, Budgets: writes},
	// Members and invitations: people holding the right; owners for the workspace's roles.
	{Name: model.OpMemberList, Doors: Editor, Auth: People, Needs: model.RightManage, ReadOnly: true},
	{Name: model.OpMemberSet, Doors: Editor, Auth: People, Needs: model.RightManage},
	{Name: model.OpMemberRemove, Doors: Editor, Auth: People, Needs: model.RightManage},
	{Name: model.OpUserRole, Doors: Editor, Auth: People, Needs: model.RightOwner},
	{Name: model.OpUserList, Doors: Editor, Auth: People, Needs: model.RightOwner, ReadOnly: true},
	{Name: model.OpInvite, Doors: Editor, Auth: People, Needs: model.RightManage},
	{Name: model.OpAcceptInvitation, Doors: Editor, Auth: Anonymous, Budgets: []*Budget{&SignInAddressBudget}},
	{Name: model.OpInvitationList, Doors: Editor, Auth: People, Needs: model.RightManage, ReadOnly: true},
	{Name: model.OpInvitationRevoke, Doors: Editor, Auth: People, Needs: model.RightManage},
	{Name: model.OpUserResetLink, Doors: Editor, Auth: People, Needs: model.RightOwner},
	{Name: model.OpResetPassword, Doors: Editor, Auth: Anonymous, Budgets: []*Budget{&SignInAddressBudget}},
	// The project's settings, terminology and checkups in the editor (set_project above).
	{Name: model.OpCreateProject, Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: model.OpAddDoNotTranslate, Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: model.OpAddSubstitution, Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: model.OpRemoveGlossaryTerm, Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: model.OpRemoveDoNotTranslate, Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: model.OpRemoveSubstitution, Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: model.OpRunCheckup, Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	// The operator's verbs, for owners in the editor too (archive.go, users_admin.go).
	{Name: model.OpArchiveProject, Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: model.OpRestoreProject, Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: model.OpDeleteProject, Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: model.OpUserDisable, Doors: Editor, Auth: People, Needs: model.RightOwner},
	{Name: model.OpUserEnable, Doors: Editor, Auth: People, Needs: model.RightOwner},
	{Name: model.OpUserDelete, Doors: Editor, Auth: People, Needs: model.RightOwner},

	// OAuth for the MCP endpoints: the consent page and the Connect page's grants (Editor),
	// the client's protocol endpoints (REST, no token: the client proves itself by PKCE or
	// its refresh token).
	{Name: model.OpOAuthAuthorize, Doors: Editor, Auth: Session, Needs: model.RightRead},
	{Name: model.OpGrantList, Doors: Editor, Auth: Session, Needs: model.RightRead, ReadOnly: true},
	{Name: model.OpGrantRevoke, Doors: Editor, Auth: Session, Needs: model.RightRead},
	{Name: model.OpOAuthToken, Doors: REST, Auth: Anonymous},
	{Name: model.OpOAuthRevoke, Doors: REST, Auth: Anonymous},
	{Name: model.OpOAuthRegister, Doors: REST, Auth: Anonymous},
}

// SystemOperations are the operator's commands (cmd/lokal) and the service's own work: rows
// without a door, a caller or a budget, for the system principal alone.
var SystemOperations = []Operation{
	{Name: model.OpCreateWorkspace},
	{Name: model.OpListWorkspaces},
	{Name: model.OpWorkspaceUsers},
	{Name: model.OpWorkspaceProjects},
	{Name: model.OpCreateUser},
	{Name: model.OpSetPassword},
	{Name: model.OpBootstrap},
	{Name: model.OpResolveRef},
	{Name: model.OpSetWorkspaceEmbed},
	{Name: model.OpShowWorkspace},
	{Name: model.OpResolveAI},
	{Name: model.OpWebhookSecret},
	{Name: model.OpRecount},
	{Name: model.OpCheckup},
	{Name: model.OpEmbedMaintenance},
	{Name: model.OpAutoTranslate},
	{Name: model.OpRemoveStagedKeys},
	{Name: model.OpDetectSyntax},
}

// OpName names an operation; it is the key of Operations and of MCP tools, and the
// Operation a write reports to the hooks.
type OpName = model.Operation

// Operation is one row of Operations.
type Operation struct {
	Name  OpName
	Doors Door
	Auth  Callers
	// Needs is the right on the project the caller must hold (rights.go decides who holds
	// it); Translate and Approve are needed in the language the operation writes.
	Needs    model.Right
	ReadOnly bool
	// Budgets are the catalogue's rate limits the operation spends.
	Budgets []*Budget
	// Tool is set for the operations offered as MCP tools.
	Tool *ToolInfo
}

// ToolInfo is what MCP clients read about a tool.
type ToolInfo struct {
	Title, Description string
	// Caps bound the entries of input properties (an object's properties, an array's
	// items); the schema states them, the operation enforces them with its own error.
	Caps map[string]int
}

// Door is a transport an operation is offered through.
type Door uint8

const (
	MCP    Door = 1 << iota // the MCP endpoints /api/mcp and /api/{project}/mcp
	REST                    // the token API (package rest)
	Public                  // the Embed's routes without a token (package public)
	Editor                  // the signed-in web application (package rest/app)
)

// Callers is the set of principals an operation admits; at a door, only those the door
// carries (doorCarries: the token API and MCP tokens, the editor sessions). The system (the
// operator's commands, the service's own work) is every row's, and a row without callers
// is the system's alone.
type Callers uint8

const (
	KeyRO        Callers = 1 << iota // a read-only project API key
	KeyRW                            // a read/write project API key
	PAT                              // a personal access token for one project
	WorkspacePAT                     // a personal access token for a workspace
	Session                          // a signed-in editor user
	Anonymous                        // no credential needed: a row listing it is open to every caller
	Grant                            // an OAuth access token: a person's consent to a client, MCP only

	AnyToken = KeyRO | KeyRW | PAT | WorkspacePAT
	Writer   = KeyRW | PAT | WorkspacePAT
	People   = PAT | WorkspacePAT | Session // a user's own credentials, never a project key
)

// Budget lists shared by rows above.
var (
	mcpReads = []*Budget{&ReadBudget}
	writes   = []*Budget{&WriteBudget}
	aiWrites = []*Budget{&WriteBudget, &RetranslateBudget}
)

// Op returns the row of Operations or SystemOperations named name, from an index built
// once.
func Op(name OpName) (Operation, bool) {
	op, ok := opIndex[name]
	return op, ok
}

// row is Op for the catalogue's own calls, whose names are constants: a name without a row
// is a programming error, which panics at the first call (TestEveryOperationHasARow
// catches it first), never a silent fallback to some default.
func row(name OpName) Operation {
	op, ok := Op(name)
	if !ok {
		panic(fmt.Sprintf("tools: operation %q has no row in Operations", name))
	}
	return op
}

var opIndex = func() map[OpName]Operation {
	m := make(map[OpName]Operation, len(Operations)+len(SystemOperations))
	for _, op := range append(slices.Clone(Operations), SystemOperations...) {
		if _, dup := m[op.Name]; dup {
			panic(fmt.Sprintf("tools: operation %q has two rows", op.Name))
		}
		m[op.Name] = op
	}
	return m
}()

// The MCP tools' descriptions, as clients show them to models.
const (
	descListProjects    = "Lists the projects this token can reach, with the ids that project_id expects."
	descProjectStatus   = "Source language, enabled languages, namespaces, and per-language counts of translated, missing and source-drifted strings, with queued (waiting for automatic AI translation) and ai_failed (the AI gave up; still missing); auto_translation and ai_usage (model calls, tokens, strings); syntax: the placeholder and markup syntaxes the project's values are read in (names, and source: set by the operator or detected from the source values). Translation is asynchronous: fetched files are complete only when missing is 0 for the language."
	descEmbedSnippet    = "Returns the one script tag to paste into the HTML head of a site to translate it with lokal."
	descGetTranslations = "Returns one language of one namespace, or of the whole project, as a file: json, i18next, po (gettext), xliff, xliff2, android, strings (Apple), stringsdict, xcstrings, arb, yaml (or yml, Rails i18n), properties or csv. Includes approved translations and AI drafts; po lists every key, untranslated ones with an empty msgstr, stale ones and drafts needing review flagged fuzzy. A large project comes in pages of at most 10,000 keys (or about 4 MB of text), each a complete file holding some of the keys: while next_offset is not null, call again with offset set to it (same language, format and namespace_key) and merge the files."
	descGetTranslation  = "Returns one key's values, statuses, flags and comments across all languages."
	descSearch          = "Finds translation rows by key or value substring (case-insensitive), language and status, in key order; at most 50 rows per call. next_offset is an opaque cursor, null on the last page: pass it back as offset to continue; it stays valid when rows are written in between, and no row is skipped or repeated. A substring under three characters is searched in part of the project per call, so a page may hold fewer rows, even none, with a next_offset to follow (its note says so)."
	descTerminology     = "Lists glossary pairs, do-not-translate terms and substitution rules; rules for all locales are always included."
	descCheckup         = "Returns a QA report of the project (missing translations, placeholder and markup mismatches, stale rows, glossary and do-not-translate violations, values identical to the source): the newest completed one, or report_id."
	descEnableLanguage  = "Turns a supported language on for the project. Strings registered afterwards are translated into it automatically; existing ones need ai_translate_keys."
	descRegister        = "Creates the keys of strings (key to source text) that the namespace lacks; existing keys are untouched. Creates the namespace if new. New keys are then translated by AI into every enabled language in the background (see get_project_status). At most 5,000 strings per call; register more in further calls."
	descUpdate          = "Sets one language's value of a key. It lands as needs_review unless status approved is asked for; language-locked rows are refused."
	descSetStatus       = "Moves a translation between needs_review and approved without changing its text."
	descAddKey          = "Creates one key with its source value; fails if the key exists. The key is then translated by AI into every enabled language in the background."
	descAddComment      = "Attaches a comment to one language's row of a key."
	descFlag            = "Sets or clears do_not_translate (the term stays verbatim) or language_locked (the value must not be overwritten) on one language's row."
	descGlossary        = "Adds a fixed translation of a term for one locale or all. A term (case aside) has one translation per locale: a second one is refused as conflict, naming the pair there is."
	descImport          = "Imports a translation file (content, as text) into a namespace: format is json, i18next, po, xliff, xliff2, android, strings, stringsdict, xcstrings, arb, yaml, properties or csv. In the source language it creates the keys the namespace lacks (and the namespace) and hides nothing; in another language it sets the values of existing keys (locked rows are kept, unknown keys come back in not_found), as needs_review unless status approved is asked for; language all imports every language of an xcstrings or csv file. dry_run answers what would change and stores nothing (any role may). A translator imports their own languages as needs_review, a reviewer also as approved; the source language and all are a manager's. A file that does not parse is refused as invalid_file naming the line."
	descAITranslate     = "Translates up to 10 keys into target_lang with the project's AI; approved translations are never overwritten."
)
