package tools

import (
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Size bounds of stored text. Page strings (key equal to value) reach 5,000 characters.
const (
	MaxKeyBytes   = 20000
	MaxValueBytes = 100000
)

var namespacePattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.\-]{0,127}$`)

func checkNamespace(ns string) error {
	if !namespacePattern.MatchString(ns) {
		return Errorf(CodeUnprocessable, "namespace key %q must be 1 to 128 letters, digits, '_', '-' or '.'", ns)
	}
	return nil
}

func checkKey(k string) error {
	switch {
	case k == "":
		return Errorf(CodeUnprocessable, "keys must not be empty")
	case len(k) > MaxKeyBytes:
		return Errorf(CodeUnprocessable, "key %q… is longer than %d bytes", truncate(k, 40), MaxKeyBytes)
	case !utf8.ValidString(k):
		return Errorf(CodeUnprocessable, "key %q is not valid UTF-8", truncate(k, 40))
	case strings.ContainsRune(k, 0):
		return Errorf(CodeUnprocessable, "key %q contains a NUL character", truncate(k, 40))
	}
	return nil
}

// checkText is the rule of short text fields (names, titles, comments, terms): trimmed, 1 to
// max bytes of valid UTF-8 without control characters other than newlines and tabs.
// It returns the trimmed text.
func checkText(field, s string, max int) (string, error) {
	t := strings.TrimSpace(s)
	bad := t == "" || len(t) > max || !utf8.ValidString(t)
	for _, r := range t {
		if bad || (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			bad = true
			break
		}
	}
	if bad {
		return "", Errorf(CodeInvalid, "%s must be 1 to %d bytes of text", field, max)
	}
	return t, nil
}

// MaxFilterBytes bounds a search filter (SQLite refuses LIKE patterns past 50,000 bytes).
const MaxFilterBytes = 1000

// checkFilter is the rule of search filters: optional, but when given, text a stored row
// could contain.
func checkFilter(field, s string) error {
	if s == "" {
		return nil
	}
	if len(s) > MaxFilterBytes || !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		return Errorf(CodeInvalid, "%s must be at most %d bytes of text", field, MaxFilterBytes)
	}
	return nil
}

// checkEntries validates a whole batch first, so that one bad row stores nothing; keys are
// visited in order so the error names the same row every time.
func checkEntries(m map[string]string) error {
	for _, k := range sortedKeys(m) {
		if err := checkKey(k); err != nil {
			return err
		}
		if err := GateValue(k, m[k]); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// requireLanguage answers not_found for a language that is not on for the project.
func (p *Project) requireLanguage(code string) error {
	if !p.HasLanguage(code) {
		return Errorf(CodeNotFound, "language %q is not on for this project", code)
	}
	return nil
}

func errNoNamespace(ns string) error { return Errorf(CodeNotFound, "namespace %q not found", ns) }
