// Package httpstatus is the one map from the catalogue's error codes to HTTP statuses,
// used by the token API (rest), the public Embed routes (public) and the editor
// (rest/app), so a code answers the same status whichever door it comes through.
package httpstatus
