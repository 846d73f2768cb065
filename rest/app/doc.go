// Package app is lokal's browser application at /app/: the translator's editor (sign-in,
// projects, the review queue of one language, translation files downloaded and imported
// from the project page, the progress of each language from the status counters:
// approved, AI drafts, needs review, stale, missing, and apart the rows held back from
// readers, which link to the queue's Held back filter; a held row says why and what readers
// get instead of offering Approve) and the Connect page (API keys, personal access tokens,
// connected MCP clients, AI settings and usage, webhooks and their deliveries, redeploy and
// its attempts, Embed settings) and the consent page of lokal's OAuth server.
//
// # How it is built
//
// Pages are rendered on the server with html/template and work as plain forms. One small
// JavaScript module (static/editor.js, no build step, no library) adds what forms cannot:
// keyboard shortcuts, QA while typing, saving without leaving the row, and picking up
// changes made elsewhere without touching what the reviewer is typing. Everything is
// embedded with go:embed; nothing is loaded from another origin.
//
// A row whose source has ICU plural or select blocks, alone, inside a sentence or nested,
// is edited as fields: the sentence's text around the blocks and one box per form (the
// target language's CLDR categories with example numbers, the source's explicit =N forms
// and select keys, and any form the value has that the language lacks, marked), each with
// copy-source. The catalogue builds the fields from the message tree and joins them back
// into one value (tools.FormsIn, message.Split, message.JoinPieces, message.FieldText), for
// saving and for QA while typing; the form posts the shape with the fields. An i18next
// plural family (files_one, files_other, stored as one plural) gets a box per category of
// the target language too, holding the form as i18next reads it: what is typed is text,
// a '#' or '}' included, and is served back as typed (message.FormFieldText). Every text of a
// language carries lang and dir (message.Direction); right-to-left fields hold their syntax
// in left-to-right isolates (message.IsolateSyntax).
//
// Shortcuts act only from the box they belong to: Ctrl+S and Ctrl+Enter from a
// translation box, Ctrl+Enter in a comment box posts the comment. An empty box is saved
// (deleting the translation) only after the reviewer confirms; approving a value with QA
// findings asks for a reason, which the catalogue requires and records on the row.
//
// A row's panel (opened on demand) helps with the row: translation memory
// ([tools.Catalog.MemorySuggestions]: approved translations of like source texts from the
// workspace's projects, scored 0-100 on the texts with their syntax masked), an AI
// suggestion on request ([tools.Catalog.SuggestAI], never stored until the reviewer saves
// it), copying the source into the box, and on a stale row the source text the value was
// written for beside the current one, word by word. Use puts a suggestion into the box
// only; Ctrl+Shift+P in a translation box inserts the source's next placeholder. Every
// entry of the row's history can be reverted to ([tools.Catalog.RevertRow]): one write
// through the write path, recorded as value_reverted.
//
// Review in context (incontext.go, static/incontext.js): a site in edit mode opens
// /app/p/{project}/incontext/{lang}?ns=&origin= in a popup, a top-level page never framed.
// The catalogue checks the origin ([tools.Catalog.SiteOrigin]: exactly scheme://host[:port],
// on one of the workspace's authorized hosts); refused, the page says why and carries no
// script. The script speaks postMessage with that origin and window.opener only, finds a
// text's key, records where it was seen and shows the page's keys in order
// ([tools.Catalog.RecordContext], FindKeys, PageKeys), and shows the review row above,
// saved by editor.js; after a save it posts the new value back to the site's origin.
//
// # Names, errors and layout
//
// People read names, never internal ids: who changed a row (history, comments, a conflict,
// redeploy attempts) is a user's email or an API key's name and prefix as Connect lists it
// (lk_2f52…), resolved by the catalogue (tools.Catalog.ActorNames, RowDetail.Users);
// languages are "nb — Norwegian Bokmål" (langName: CLDR's names, tools.LanguageName); counts
// are worded ("1 comment"). A refused form (bad input, not allowed, changed meanwhile, a
// provider's refusal) answers with its own page again, the message beside the form and
// what was typed kept (formFail, connectFail); only not found, not signed in and server
// faults get the error page. AI failures name each key with its reason.
//
// The layout wraps instead of scrolling sideways down to 390 px: tables of records become
// one card per row, each cell labelled by its column. Text keeps 4.5:1 contrast, focus
// rings and the edges of controls 3:1 (WCAG 2.2 AA); a browser test measures both on every
// page, at phone and desktop widths, with its own small script.
//
// # Security
//
// Sessions live in the database (tools.SignIn); the cookie is HttpOnly, SameSite=Lax and
// Secure when served over https. Every POST carries the session's CSRF token (a form field
// or the X-CSRF-Token header) and passes net/http's CrossOriginProtection; the sign-in
// form, made before there is a session, uses a double-submit cookie. A POST body is read
// whole before its handler, through the same guard as the API's (package reqbody): one
// that is slow, too large or broken is answered as such and closes the connection.
//
// Every operation is a catalogue operation ([tools.Catalog.ReviewQueue],
// [tools.Catalog.SaveRow], [tools.Catalog.CreateAPIKey], [tools.Catalog.AddWebhook],
// [tools.Catalog.Redeploy], ...), the same one the API or the command line calls: handlers
// decode the form, call it with the signed-in user as the principal, and render. Who may do
// what is the catalogue's decision (roles: owner, manager, translator, reviewer); a page
// shows or hides actions by the rights [tools.Catalog.MyRoleOn] and the review queue report
// (Manage, Owner, Editable, Approvable), never by a role's name, and the operation refuses
// (403) whatever was forged. The members page sets roles through [tools.Catalog.SetMember],
// [tools.Catalog.RemoveMember] and [tools.Catalog.SetUserRole]; what removes or demotes asks
// for a ticked box first, as revoking does on the Connect page. It lists and revokes pending
// invitations ([tools.Catalog.ListInvitations], [tools.Catalog.RevokeInvitation]) and
// gives owners a user's password-reset link ([tools.Catalog.CreateResetLink]); an
// invitation's and a reset link's pages are one form (invite.html) over their operations. What the owner's operations record (webhooks, redeploy) credits the user.
// A refused form (a URL the outbound guard refuses, a provider's refusal) is answered with
// the Connect page and the message.
//
// # Connecting an MCP client (OAuth)
//
// lokal is the authorization server of its MCP endpoints (tools/oauth*.go); its
// authorization endpoint is the consent page, GET /app/oauth/authorize (oauth.go). The
// request is checked ([tools.Catalog.CheckAuthorize]) before the person is asked to sign
// in: an unknown client or a redirect_uri not the client's is a page here, never a
// redirect; other errors go back to the client with state and iss. Sign-in comes back to
// the request's own parameters. The page shows the client's name, how lokal knows it
// (metadata document or registration) and, prominently, the host the answer sends the
// browser to; the person picks a project they have a role on (fixed at a project
// endpoint) or the whole workspace, and read-only or read-write (offered only where their
// role writes). Allow and Deny post with CSRF ([tools.Catalog.ApproveAuthorize],
// [tools.Catalog.DenyAuthorize]) and answer 303 to the catalogue's redirect; the page's
// form-action names the redirect's origin, which Chromium checks the redirect against.
// The Connect page lists the person's grants and revokes them ([tools.Catalog.ListGrants],
// [tools.Catalog.RevokeGrant]) behind a ticked box, as tokens are.
//
// # The project's setup
//
// An owner creates a project on the projects page ([tools.Catalog.CreateProject]); a
// project's settings page (settings.go: title, languages, the editable and auto-translated
// languages, syntax) calls [tools.Catalog.SetProject] and [tools.Catalog.EnableLanguage];
// the terminology page (terminology.go) lists, adds and removes glossary pairs,
// do-not-translate terms and substitution rules; the checkups page (checkups.go) shows
// the newest report by key and runs one ([tools.Catalog.RunCheckup]). Links and forms are
// shown to those the catalogue would admit (MyRoleOn, MayOnWorkspace); the operations
// refuse the rest, and a refusal is shown beside its form (refuseInPlace).
//
// # Translation files
//
// The project page downloads a namespace through [tools.Catalog.ExportNamespace] and
// imports an upload through [tools.Catalog.Import], first as a dry run whose answer is
// shown; Confirm sends the same file back (base64 in a hidden field of the CSRF-checked
// form) to be imported for real. Nothing is kept on the server between the two, so there
// is nothing to expire and any server behind the address can take the confirmation. The
// upload is capped at the import endpoint's 5 MB and holds room in the API's bound on bytes
// in flight (Options.Bodies) while it is read and imported. The form offers the languages the role
// imports (a translator's own, for review); the import decides.
package app
