package model

// Operation names an operation of the service. The strings are part of the contract: MCP
// clients call the tools by them, and the usage ledger and write events carry them.
type Operation string

// MCP tools, read-only first.
const (
	OpListProjects          Operation = "list_projects"
	OpGetProjectStatus      Operation = "get_project_status"
	OpGetEmbedSnippet       Operation = "get_embed_snippet"
	OpGetTranslations       Operation = "get_translations"
	OpGetTranslation        Operation = "get_translation"
	OpSearchTranslations    Operation = "search_translations"
	OpListTerminology       Operation = "list_terminology"
	OpGetCheckupReport      Operation = "get_checkup_report"
	OpEnableLanguage        Operation = "enable_language"
	OpRegisterSourceStrings Operation = "register_source_strings"
	OpUpdateTranslation     Operation = "update_translation"
	OpSetTranslationStatus  Operation = "set_translation_status"
	OpAddKey                Operation = "add_key"
	OpAddComment            Operation = "add_comment"
	OpFlagTranslation       Operation = "flag_translation"
	OpAddGlossaryTerm       Operation = "add_glossary_term"
	OpAITranslateKeys       Operation = "ai_translate_keys"
)

// Writes of the REST API, the build tools and the website endpoints.
const (
	OpSync            Operation = "sync"              // a namespace's source strings from a build
	OpMissing         Operation = "missing"           // keys a running app found missing
	OpOverwrite       Operation = "overwrite"         // one language's values replaced
	OpSyncPageStrings Operation = "sync_page_strings" // a website's strings (endpoint 7)
	OpHarvest         Operation = "harvest"           // strings collected from visitors' pages
	OpRetranslate     Operation = "retranslate"       // the editor's "translate again"
)

// OpImport is a translation file read into a namespace (the import endpoint and the
// import_translations tool).
const OpImport Operation = "import_translations"

// Writes of the operator and of Connect (webhooks, redeploy, terminology from the CLI).
const (
	OpWebhookAdd        Operation = "webhook_add"
	OpWebhookURL        Operation = "webhook_url"
	OpWebhookState      Operation = "webhook_state"
	OpRedeploySet       Operation = "redeploy_set"
	OpRedeploy          Operation = "redeploy"
	OpAddDoNotTranslate Operation = "add_do_not_translate"
	OpAddSubstitution   Operation = "add_substitution"
	OpResolve           Operation = "resolve"             // a site's first request creates its project
	OpInstallPing       Operation = "install_ping"        // a site reports the script is installed
	OpEmbedMaintenance  Operation = "embed_maintenance"   // stored visitor demand, old pings removed
	OpAutoTranslate     Operation = "auto_translate"      // the background translation of new keys
	OpRemoveStagedKeys  Operation = "remove_staged_keys"  // a failed chunked write undone (bulk)
	OpSetWorkspaceEmbed Operation = "set_workspace_embed" // lokal workspace set
	OpCheckup           Operation = "checkup"             // a checkup's report and lease
	OpRecount           Operation = "recount"             // lokal project recount
	OpDetectSyntax      Operation = "detect_syntax"       // a syntax detection stored (a read's, a recount's)
)

// The project's setup in the editor (its settings, terminology and checkups pages).
const (
	OpRemoveGlossaryTerm   Operation = "remove_glossary_term"
	OpRemoveDoNotTranslate Operation = "remove_do_not_translate"
	OpRemoveSubstitution   Operation = "remove_substitution"
	OpRunCheckup           Operation = "run_checkup"      // a checkup asked for by a person
	OpCreateProject        Operation = "create_project"   // a project made by an owner or the operator
	OpWorkspaceOwners      Operation = "workspace_owners" // whom a user without a project role asks
	OpSetWorkspaceAI       Operation = "set_workspace_ai" // the workspace's own AI provider: its owners'
)

// The operator's verbs, for owners in the editor too.
const (
	OpArchiveProject Operation = "archive_project"
	OpRestoreProject Operation = "restore_project"
	OpDeleteProject  Operation = "delete_project"
	OpUserDisable    Operation = "user_disable"
	OpUserEnable     Operation = "user_enable"
	OpUserDelete     Operation = "user_delete"
)

// OAuth: lokal as the authorization server of its MCP endpoints (tools/oauth*.go).
const (
	OpOAuthAuthorize Operation = "oauth_authorize" // a signed-in person consents to a client
	OpOAuthToken     Operation = "oauth_token"     // a client trades a code or refresh token
	OpOAuthRevoke    Operation = "oauth_revoke"    // a client revokes a token (RFC 7009)
	OpOAuthRegister  Operation = "oauth_register"  // dynamic client registration (RFC 7591)
	OpGrantList      Operation = "grant_list"      // the Connect page lists a person's grants
	OpGrantRevoke    Operation = "grant_revoke"    // a person ends a grant
)

// The token API's reads and account routes, and the translation files (export and the
// editor's import).
const (
	OpReadNamespace    Operation = "read_namespace"   // endpoint 1, the flat map
	OpExport           Operation = "export"           // a namespace as a file: endpoint 1 with ?format=, the editor's download
	OpImportFile       Operation = "import_file"      // the editor's upload of a translation file
	OpStale            Operation = "stale"            // endpoint 5
	OpMe               Operation = "me"               // who the token is
	OpUsage            Operation = "usage"            // a project's AI spend
	OpLocizeLanguages  Operation = "locize_languages" // the locize languages route
	OpProgress         Operation = "get_progress"     // a project's or language's progress (the editor's)
	OpDictionary       Operation = "dictionary"       // the Embed's dictionary
	OpChanges          Operation = "changes"          // the Embed's changes feed
	OpPublicInfo       Operation = "public_info"      // the Embed's public info
	OpSignIn           Operation = "sign_in"
	OpSignOut          Operation = "sign_out"
	OpAcceptInvitation Operation = "accept_invitation"
	OpResetPassword    Operation = "reset_password"
)

// The editor's pages (rest/app): the review queue and its rows.
const (
	OpReviewQueue   Operation = "review_queue"
	OpRowDetails    Operation = "row_details"
	OpCheckValue    Operation = "check_value"
	OpSaveRow       Operation = "save_row"
	OpApproveRows   Operation = "approve_rows"
	OpCommentRow    Operation = "comment_row"
	OpFlagRow       Operation = "flag_row"
	OpTranslateRows Operation = "translate_rows"
	OpRevertRow     Operation = "revert_row"  // a value of the row's history put back
	OpSuggestRow    Operation = "suggest_row" // the AI's suggestion for one row, not stored
	OpMemoryRow     Operation = "memory_row"  // translation memory's matches for one row
	OpActorNames    Operation = "actor_names" // who wrote what, by name
	OpMyRole        Operation = "my_role"     // what the caller may do, for pages
)

// Review in context (issue 36): where keys are seen on a site's pages.
const (
	OpRecordContext Operation = "record_context" // the panel keeps where keys were seen
	OpFindKeys      Operation = "find_keys"      // an Embed page's source texts to their keys
	OpKeyContexts   Operation = "key_contexts"   // the pages a key was seen on
	OpPageKeys      Operation = "page_keys"      // a page's keys in on-page order
	OpSiteOrigin    Operation = "site_origin"    // whether an origin is one of the workspace's sites
)

// The Connect and settings pages: keys, tokens, the project's settings, webhooks, redeploy,
// members and invitations.
const (
	OpKeyList          Operation = "key_list"
	OpCreateKey        Operation = "create_key"
	OpRevokeKey        Operation = "revoke_key"
	OpTokenList        Operation = "token_list"
	OpCreateToken      Operation = "create_token"
	OpRevokeToken      Operation = "revoke_token"
	OpShowAI           Operation = "show_ai"
	OpSetAI            Operation = "set_ai"
	OpShowProject      Operation = "show_project"
	OpSetProject       Operation = "set_project"
	OpWebhookList      Operation = "webhook_list"
	OpWebhookLog       Operation = "webhook_deliveries"
	OpRedeployShow     Operation = "redeploy_show"
	OpRedeployLog      Operation = "redeploy_attempts"
	OpMemberList       Operation = "member_list"
	OpMemberSet        Operation = "member_set"
	OpMemberRemove     Operation = "member_remove"
	OpUserRole         Operation = "user_role"
	OpUserList         Operation = "user_list"
	OpInvite           Operation = "invite"
	OpInvitationList   Operation = "invitation_list"
	OpInvitationRevoke Operation = "invitation_revoke"
	OpUserResetLink    Operation = "user_reset_link"
)

// The operator's commands (cmd/lokal) and the service's own work: the system only.
const (
	OpCreateWorkspace   Operation = "create_workspace"
	OpListWorkspaces    Operation = "list_workspaces"
	OpWorkspaceUsers    Operation = "workspace_users"
	OpWorkspaceProjects Operation = "workspace_projects"
	OpCreateUser        Operation = "create_user"
	OpSetPassword       Operation = "set_password"
	OpBootstrap         Operation = "bootstrap"
	OpResolveRef        Operation = "resolve_ref" // a project or user named on the command line
	OpShowWorkspace     Operation = "show_workspace"
	OpResolveAI         Operation = "resolve_ai"     // the AI a project uses, its key opened
	OpWebhookSecret     Operation = "webhook_secret" // a webhook's signing secret opened for the deliverer
)
