// Package jsoncheck is the strict reading every JSON door of lokal applies
// before decoding: REST bodies, MCP messages, the Embed's public bodies, the
// editor's JSON saves and the answers of AI models.
//
// encoding/json accepts three things silently that change what was sent:
// a duplicate object key (the last one wins, so two readers of one body can
// see two different values), a lone UTF-16 surrogate escape such as
// "\ud800" and invalid UTF-8 (both become U+FFFD). Check refuses them and
// says where, so the caller can answer 400 invalid. Anything else malformed
// is left to the caller's decoder, which reports it in its own words.
//
// CheckOutside leaves one value to a later reader: MCP checks the envelope of a message
// and lets the tool answer for its own arguments.
//
// The package imports nothing of lokal's, so every door can use it.
package jsoncheck
