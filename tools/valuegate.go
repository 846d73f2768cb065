package tools

import (
	"strings"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/valuecheck"
)

// GateValue is the one rule every stored translation or source value passes, whatever door
// it came through (REST, MCP, the editor, AI answers, translation memory, harvest): at most
// MaxValueBytes of valid UTF-8 without NUL (PostgreSQL cannot store one, SQLite would), and
// nothing the value check (package valuecheck) refuses. Lone surrogates cannot reach it as
// such: in Go strings they are invalid UTF-8, and the JSON doors refuse their escapes.
//
// The doors call it early, for an error before any budget is spent; every TranslationWrite
// passes it again in the store (storage's WriteTranslations), so that no door can skip it.
// key only names the row in the message.
func GateValue(key, v string) error {
	switch {
	case len(v) > MaxValueBytes:
		return Errorf(CodeUnprocessable, "value of %q is longer than %d bytes", truncate(key, 40), MaxValueBytes)
	case !utf8.ValidString(v):
		return Errorf(CodeUnprocessable, "value of %q is not valid UTF-8", truncate(key, 40))
	case strings.IndexByte(v, 0) >= 0:
		return Errorf(CodeUnprocessable, "value of %q contains a NUL character", truncate(key, 40))
	}
	if err := valuecheck.Check(v); err != nil {
		return Errorf(CodeInvalidTranslation, "value of %q refused: %s", truncate(key, 40), err.Error())
	}
	return nil
}
