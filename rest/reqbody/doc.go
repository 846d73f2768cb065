// Package reqbody is how every door of the server (the token API and MCP in rest, the
// Embed's public routes in public, the editor in rest/app) reads request bodies, so that
// a slow, truncated or unread body ends the same way everywhere.
//
// [Guard] wraps a handler: a body has [Guard]'s time from the first read to arrive whole;
// until it has, any answer carries Connection: close, and once the handler is done with a
// body it did not finish, no further read of the connection waits. net/http would
// otherwise try to read the rest of the body before answering, and a client trickling
// bytes held the connection open. [ReadAll] reads a body whole under a cap, and [Err] turns
// what a body read fails with into the catalogue's errors: timeout (503), too_large (413)
// or invalid (400) for a body that is cut short or whose framing is broken. [Budget] is the
// server's one bound on body bytes in flight, which every door taking large bodies holds.
package reqbody
