// Package cached answers HTTP requests from pre-serialized bytes: the ETag and 304 of
// If-None-Match (weak comparison), the gzip form when the client accepts it, HEAD without
// a body. Endpoint 1 (rest), the Embed dictionary, public info and /embed.js (public) all
// serve their cached files through it, so the conditional-request rules live once.
package cached
