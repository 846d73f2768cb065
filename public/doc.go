// Package public serves what a visitor's browser calls: the Embed's public endpoints
// (spec 12 to 17) and the Embed script itself at /embed.js.
//
// # Routes
//
//	POST /api/embed/resolve                              host to project (12)
//	POST /api/embed/{project_id}/harvest                 page strings (13), always 204
//	GET  /api/{project_id}/dictionary/{language}/{ns}    swap dictionary (14), ETag and 304
//	GET  /api/{project_id}/changes/{language}/{ns}       changes since a moment (15)
//	POST /api/{project_id}/install_ping                  the script is live (16)
//	GET  /api/{project_id}/public_info                   switcher and capabilities (17)
//	GET  /embed.js                                       the script, gzipped, with an ETag
//	GET  /embed-edit.js                                  edit mode's code (review in context)
//	GET  /incontext.js                                   i18next post-processor for edit mode
//
// The scripts are served alike (cached a day, ETag, open to every origin); the edit code
// loads only when a member turns edit mode on, and holds no credential: its panel, on
// lokal's origin, writes with its own session.
//
// They take no token and are open to every origin (CORS, with preflight). Each is throttled
// per client address by its budget in the catalogue's table ([tools.PublicResolveBudget] and
// the rest; an IPv6 client counted by its /64), answering 429 with Retry-After and counted
// in the refusal metric like every other budget. The client address is
// the socket's, or X-Forwarded-For's when the connection comes from a proxy the operator
// trusts (the router's trusted proxies). The project's allowed origins guard harvest,
// dictionary and changes; the workspace's emergency switch closes them all, and a project
// the Embed is not set up for (no embed type, bound host or allowed origin) is not found
// on any of them. The handlers
// decode, call one catalogue operation and encode, as in package rest.
//
// [Mount] adds the routes to the router package rest builds (rest.Options.Public), so that
// they share its logging, recovery, metrics and client-address rules.
package public
