// Package rest is the token-authenticated HTTP API of lokal (spec endpoints 1 to 11) on Gin.
//
// # Request flow
//
// Every request is logged once (method, path, status, duration; never headers, which carry
// tokens), recovered from panics, and given CORS headers. Routes under /api authenticate
// the Authorization header into a [tools.Principal] in the request context; handlers decode
// the body, call one catalogue operation and encode its result. Every JSON body, MCP messages
// too, is read strictly first (package jsoncheck): a key given twice or a lone surrogate
// escape is 400 invalid; an MCP tool's arguments get that answer as a tool error.
//
// router.go is the route table; middleware.go holds authentication, the body reader and
// logging; namespaces.go, account.go, mcp.go and openapi.go hold the handlers by subject.
//
// # OAuth
//
// oauth.go makes lokal the OAuth 2.1 authorization server of its MCP endpoints and those
// endpoints its protected resources: the well-known metadata, the token, revocation and
// registration endpoints (no token; RFC 6749 error shape), and the MCP routes' own token
// check, whose 401 carries the challenge that leads a client to the metadata and which
// takes an OAuth access token only at the resource it was issued for. The consent page is
// the editor's; the protocol's rules are the catalogue's (tools/oauth*.go).
//
// # Errors
//
// Catalogue errors answer the spec's shape { "error": code, "message": text } with the
// status of their code, through the token API's door of package httpx, which also holds the
// CORS policy and the client-address rule (Options.TrustedProxies) this router applies.
//
// # Limits
//
// Bodies, REST and MCP alike, are capped at 5 MiB (413), must arrive within a time budget,
// and share a bound on bytes in flight ([reqbody.Budget], which the editor's file forms
// share too: 503 unavailable with Retry-After past it): that bounds the memory big writes take. The router reads every body, the public routes'
// included, through [reqbody.Guard]: a body that is slow (503 timeout), broken (400
// invalid), too large or left unread closes the connection after the answer. Write budgets and the write time budget are the
// catalogue's, so that every transport applies the same ones.
package rest
