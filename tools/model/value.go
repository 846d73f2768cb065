package model

import (
	"strings"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/valuecheck"
)

// Size bounds of stored text. Page strings (key equal to value) reach 5,000 characters.
const (
	MaxKeyBytes   = 20000
	MaxValueBytes = 100000
)

// Truncate shortens s to at most n bytes without splitting a character, for names quoted in
// messages.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// RequireLanguage answers not_found for a language that is not on for the project.
func (p *Project) RequireLanguage(code string) error {
	if !p.HasLanguage(code) {
		return Errorf(CodeNotFound, "language %q is not on for this project", code)
	}
	return nil
}

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
		return Errorf(CodeUnprocessable, "value of %q is longer than %d bytes", Truncate(key, 40), MaxValueBytes)
	case !utf8.ValidString(v):
		return Errorf(CodeUnprocessable, "value of %q is not valid UTF-8", Truncate(key, 40))
	case strings.IndexByte(v, 0) >= 0:
		return Errorf(CodeUnprocessable, "value of %q contains a NUL character", Truncate(key, 40))
	}
	if err := valuecheck.Check(v); err != nil {
		return Errorf(CodeInvalidTranslation, "value of %q refused: %s", Truncate(key, 40), err.Error())
	}
	return nil
}
