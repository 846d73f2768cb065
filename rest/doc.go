// Package rest is the token-authenticated HTTP API of lokal (spec endpoints 1 to 11) on Gin.
//
// # Request flow
//
// Every request is logged once (method, path, status, duration; never headers, which carry
// tokens), recovered from panics, and given CORS headers. Routes under /api authenticate
// the Authorization header into a [tools.Principal] in the request context; handlers decode
// the body, call one catalogue operation and encode its result.
//
// # Errors
//
// Catalogue errors map to HTTP statuses in one table (statusOf) and answer the spec's
// shape { "error": code, "message": text }.
//
// # Limits
//
// Bodies are capped at 5 MB (413), writes at 300 a minute per project and page-string
// registrations at 60 (429 with Retry-After), and a sync at 25 seconds.
package rest
