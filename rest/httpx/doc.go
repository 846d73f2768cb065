// Package httpx is the HTTP edge of every door lokal serves: the token API and MCP (package
// rest), the Embed's public routes (package public) and the editor (package rest/app). What
// a caller sees at that edge — the status of each error code, the error body, JSON without
// HTML escaping, Retry-After, CORS, which address a request comes from, ETags and 304, the
// request log's line — is decided here once, so that the doors cannot drift apart.
//
// # The request line
//
// [LogRequest] writes one line per request: method, path, status, bytes of the body sent,
// duration_ms (milliseconds to the microsecond, a JSON number) and the client's ip. Through
// a [JSONLog] (what lokal serve logs with) the line is appended by hand, in the bytes slog's
// JSON handler would write, since through slog it cost more than the rest of a cached read.
//
// # net/http first
//
// Every piece works on [http.ResponseWriter] and [*http.Request], since the editor is a
// plain net/http handler; the Gin routes use the thin wrappers whose names start with Gin,
// which add only what Gin needs (aborting the handler chain, a per-request value).
//
// # Doors
//
// The doors differ where the spec or their clients make them: [API] and [Public] hold each
// door's CORS and error wording. The token API answers a request that ran past its deadline
// as timeout and the redeploy endpoint's not_configured and dispatch_failed with
// { "ok": false, ... } (spec endpoint 8); the public routes answer neither way. The editor
// renders its own error pages and uses [Status] and [WriteJSON] only.
package httpx
