package tools

import "github.com/lokal-dev/lokal/tools/model"

// Operations is the whole service on one screen: every operation, the doors it is offered
// through, who may call it and the budgets it spends. The MCP adapter takes each tool's
// title, description, read-only mark and caps from here and binds the row to its catalogue
// method; a test holds the adapter's registrations to the MCP rows.
//
// Budgets (budgets.go) are spent by the operation whatever the door, except ReadBudget, which
// only the MCP door spends (the REST reads stay unlimited), and the public routes'
// per-address budgets, which package public spends for the visitor's address before the
// operation runs as the system (harvest also spends a per-project budget). The operator's
// commands run as the system principal, without budgets; cmd/lokal's command table lists
// them.
var Operations = []Operation{
	// MCP read tools.
	{Name: "list_projects", Doors: MCP, Auth: AnyToken | Grant, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "List projects", Description: descListProjects}},
	{Name: "get_project_status", Doors: MCP | Editor, Auth: AnyToken | Grant | Session, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "Project status", Description: descProjectStatus}},
	{Name: "get_embed_snippet", Doors: MCP | Editor, Auth: AnyToken | Grant | Session, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "Embed snippet", Description: descEmbedSnippet}},
	{Name: "get_translations", Doors: MCP, Auth: AnyToken | Grant, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "Get translations", Description: descGetTranslations}},
	{Name: "get_translation", Doors: MCP, Auth: AnyToken | Grant, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "Get one key", Description: descGetTranslation}},
	{Name: "search_translations", Doors: MCP, Auth: AnyToken | Grant, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "Search translations", Description: descSearch}},
	{Name: "list_terminology", Doors: MCP | Editor, Auth: AnyToken | Grant | Session, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "List terminology", Description: descTerminology}},
	{Name: "get_checkup_report", Doors: MCP | Editor, Auth: AnyToken | Grant | Session, Needs: model.RightRead, ReadOnly: true, Budgets: mcpReads, Tool: &ToolInfo{Title: "Get checkup report", Description: descCheckup}},

	// MCP write tools, hidden from read-only callers.
	{Name: "enable_language", Doors: MCP | Editor, Auth: Writer | Grant | Session, Needs: model.RightManage, Budgets: writes, Tool: &ToolInfo{Title: "Enable language", Description: descEnableLanguage}},
	{Name: "register_source_strings", Doors: MCP, Auth: Writer | Grant, Needs: model.RightSource, Budgets: writes, Tool: &ToolInfo{Title: "Register source strings", Description: descRegister, Caps: map[string]int{"strings": MaxRegisterStrings}}},
	{Name: "update_translation", Doors: MCP, Auth: Writer | Grant, Needs: model.RightTranslate, Budgets: writes, Tool: &ToolInfo{Title: "Update translation", Description: descUpdate}},
	{Name: "set_translation_status", Doors: MCP, Auth: Writer | Grant, Needs: model.RightTranslate, Budgets: writes, Tool: &ToolInfo{Title: "Set translation status", Description: descSetStatus}},
	{Name: "add_key", Doors: MCP, Auth: Writer | Grant, Needs: model.RightSource, Budgets: writes, Tool: &ToolInfo{Title: "Add key", Description: descAddKey}},
	{Name: "add_comment", Doors: MCP, Auth: Writer | Grant, Needs: model.RightTranslate, Budgets: writes, Tool: &ToolInfo{Title: "Add comment", Description: descAddComment}},
	{Name: "flag_translation", Doors: MCP, Auth: Writer | Grant, Needs: model.RightTranslate, Budgets: writes, Tool: &ToolInfo{Title: "Flag translation", Description: descFlag}},
	{Name: "add_glossary_term", Doors: MCP | Editor, Auth: Writer | Grant | Session, Needs: model.RightManage, Budgets: writes, Tool: &ToolInfo{Title: "Add glossary term", Description: descGlossary}},
	{Name: "import_translations", Doors: MCP | REST, Auth: Writer | Grant, Needs: model.RightTranslate, Budgets: writes, Tool: &ToolInfo{Title: "Import translations", Description: descImport}},
	{Name: "ai_translate_keys", Doors: MCP, Auth: Writer | Grant, Needs: model.RightTranslate, Budgets: aiWrites, Tool: &ToolInfo{Title: "AI translate keys", Description: descAITranslate, Caps: map[string]int{"translation_keys": MaxAIKeys}}},

	// The token API beyond the tools (spec endpoints 1-9, the locize languages route).
	{Name: "read_namespace", Doors: REST, Auth: AnyToken, Needs: model.RightRead, ReadOnly: true},
	{Name: "missing", Doors: REST, Auth: Writer, Needs: model.RightSource, Budgets: writes},
	{Name: "sync", Doors: REST, Auth: Writer, Needs: model.RightSource, Budgets: writes},
	{Name: "overwrite", Doors: REST, Auth: Writer, Needs: model.RightTranslate | model.RightApprove, Budgets: writes},
	{Name: "stale", Doors: REST, Auth: AnyToken, Needs: model.RightRead, ReadOnly: true},
	{Name: "retranslate", Doors: REST, Auth: Writer, Needs: model.RightTranslate, Budgets: aiWrites},
	{Name: "sync_page_strings", Doors: REST, Auth: Writer, Needs: model.RightSource, Budgets: []*Budget{&WriteBudget, &PageStringsBudget}},
	{Name: "me", Doors: REST, Auth: PAT | WorkspacePAT, Needs: model.RightRead, ReadOnly: true},
	{Name: "usage", Doors: REST | Editor, Auth: AnyToken | Session, Needs: model.RightRead, ReadOnly: true},
	{Name: "redeploy", Doors: REST | Editor, Auth: PAT | WorkspacePAT | Session, Needs: model.RightManage, Budgets: []*Budget{&WriteBudget, &RedeployBudget}},
	{Name: "locize_languages", Doors: REST, Auth: Anonymous, ReadOnly: true},

	// The Embed's public routes, called from visitors' browsers.
	{Name: "resolve", Doors: Public, Auth: Anonymous, Budgets: []*Budget{&PublicResolveBudget}},
	{Name: "harvest", Doors: Public, Auth: Anonymous, Budgets: []*Budget{&PublicHarvestBudget, &HarvestBudget}},
	{Name: "dictionary", Doors: Public, Auth: Anonymous, ReadOnly: true, Budgets: []*Budget{&PublicDictionaryBudget}},
	{Name: "changes", Doors: Public, Auth: Anonymous, ReadOnly: true, Budgets: []*Budget{&PublicChangesBudget}},
	{Name: "install_ping", Doors: Public, Auth: Anonymous, Budgets: []*Budget{&PublicInstallPingBudget}},
	{Name: "public_info", Doors: Public, Auth: Anonymous, ReadOnly: true, Budgets: []*Budget{&PublicInfoBudget}},

	// The editor (rest/app): signed-in users of the workspace.
	{Name: "sign_in", Doors: Editor, Auth: Anonymous, Budgets: []*Budget{&SignInBudget, &SignInAddressBudget}},
	{Name: "sign_out", Doors: Editor, Auth: Session},
	{Name: "editor_projects", Doors: Editor, Auth: Session, Needs: model.RightRead, ReadOnly: true},
	// Whom a user of the workspace without a project role asks: its owners (any user of it).
	{Name: "workspace_owners", Doors: Editor, Auth: Session, Needs: model.RightRead, ReadOnly: true},
	{Name: "review_queue", Doors: Editor, Auth: Session, Needs: model.RightRead, ReadOnly: true},
	{Name: "row_details", Doors: Editor, Auth: Session, Needs: model.RightRead, ReadOnly: true},
	{Name: "check_value", Doors: Editor, Auth: Session, Needs: model.RightRead, ReadOnly: true},
	{Name: "save_row", Doors: Editor, Auth: Session, Needs: model.RightTranslate, Budgets: writes},
	{Name: "approve_rows", Doors: Editor, Auth: Session, Needs: model.RightTranslate | model.RightApprove, Budgets: writes},
	{Name: "comment_row", Doors: Editor, Auth: Session, Needs: model.RightTranslate, Budgets: writes},
	{Name: "flag_row", Doors: Editor, Auth: Session, Needs: model.RightTranslate, Budgets: writes},
	{Name: "translate_rows", Doors: Editor, Auth: Session, Needs: model.RightTranslate, Budgets: aiWrites},
	{Name: "connect", Doors: Editor, Auth: Session, Needs: model.RightRead, ReadOnly: true},
	{Name: "create_key", Doors: Editor, Auth: Session, Needs: model.RightManage},
	{Name: "revoke_key", Doors: Editor, Auth: Session, Needs: model.RightManage},
	{Name: "create_token", Doors: Editor, Auth: Session, Needs: model.RightRead},
	{Name: "revoke_token", Doors: Editor, Auth: Session, Needs: model.RightRead},
	{Name: "set_ai", Doors: Editor, Auth: Session, Needs: model.RightManage},
	{Name: "set_workspace_ai", Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: "set_project", Doors: Editor, Auth: Session, Needs: model.RightManage},
	{Name: "webhook_add", Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: "webhook_state", Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: "webhook_url", Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: "redeploy_set", Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: "member_list", Doors: Editor, Auth: Session, Needs: model.RightManage, ReadOnly: true},
	{Name: "member_set", Doors: Editor, Auth: Session, Needs: model.RightManage},
	{Name: "member_remove", Doors: Editor, Auth: Session, Needs: model.RightManage},
	{Name: "user_role", Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: "user_list", Doors: Editor, Auth: Session, Needs: model.RightOwner, ReadOnly: true},
	{Name: "invite", Doors: Editor, Auth: Session, Needs: model.RightManage},
	{Name: "accept_invitation", Doors: Editor, Auth: Anonymous, Budgets: []*Budget{&SignInAddressBudget}},
	{Name: "invitation_list", Doors: Editor, Auth: Session, Needs: model.RightManage, ReadOnly: true},
	{Name: "invitation_revoke", Doors: Editor, Auth: Session, Needs: model.RightManage},
	{Name: "user_reset_link", Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: "reset_password", Doors: Editor, Auth: Anonymous, Budgets: []*Budget{&SignInAddressBudget}},
	// The project's settings, terminology and checkups in the editor (set_project above).
	{Name: "create_project", Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: "add_do_not_translate", Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: "add_substitution", Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: "remove_glossary_term", Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: "remove_do_not_translate", Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: "remove_substitution", Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	{Name: "run_checkup", Doors: Editor, Auth: Session, Needs: model.RightManage, Budgets: writes},
	// The operator's verbs, for owners in the editor too (archive.go, users_admin.go).
	{Name: "archive_project", Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: "restore_project", Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: "delete_project", Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: "user_disable", Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: "user_enable", Doors: Editor, Auth: Session, Needs: model.RightOwner},
	{Name: "user_delete", Doors: Editor, Auth: Session, Needs: model.RightOwner},

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

// Callers is the set of principals an operation admits at its doors.
type Callers uint8

const (
	KeyRO        Callers = 1 << iota // a read-only project API key
	KeyRW                            // a read/write project API key
	PAT                              // a personal access token for one project
	WorkspacePAT                     // a personal access token for a workspace
	Session                          // a signed-in editor user
	Anonymous                        // no credential: a visitor's browser, a build tool
	Grant                            // an OAuth access token: a person's consent to a client, MCP only

	AnyToken = KeyRO | KeyRW | PAT | WorkspacePAT
	Writer   = KeyRW | PAT | WorkspacePAT
)

// Budget lists shared by rows above.
var (
	mcpReads = []*Budget{&ReadBudget}
	writes   = []*Budget{&WriteBudget}
	aiWrites = []*Budget{&WriteBudget, &RetranslateBudget}
)

// Op returns the row of Operations named name.
func Op(name OpName) (Operation, bool) {
	for _, op := range Operations {
		if op.Name == name {
			return op, true
		}
	}
	return Operation{}, false
}

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
