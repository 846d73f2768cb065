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
