package tools

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/model"
)

// validNamespace is the pattern ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$, written out: every
// read checks it, and a regular expression cost a tenth of a cached read.
func validNamespace(ns string) bool {
	if ns == "" || len(ns) > 128 || ns[0] == '.' || ns[0] == '-' {
		return false
	}
	for i := 0; i < len(ns); i++ {
		switch b := ns[i]; {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9', b == '_', b == '.', b == '-':
		default:
			return false
		}
	}
	return true
}

func checkNamespace(ns string) error {
	if !validNamespace(ns) {
		return model.Errorf(model.CodeUnprocessable, "namespace key %q must be 1 to 128 letters, digits, '_', '-' or '.'", ns)
	}
	return nil
}

func checkKey(k string) error {
	switch {
	case k == "":
		return model.Errorf(model.CodeUnprocessable, "keys must not be empty")
	case len(k) > model.MaxKeyBytes:
		return model.Errorf(model.CodeUnprocessable, "key %q… is longer than %d bytes", model.Truncate(k, 40), model.MaxKeyBytes)
	case !utf8.ValidString(k):
		return model.Errorf(model.CodeUnprocessable, "key %q is not valid UTF-8", model.Truncate(k, 40))
	case strings.ContainsRune(k, 0):
		return model.Errorf(model.CodeUnprocessable, "key %q contains a NUL character", model.Truncate(k, 40))
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
		return "", lengthRule(field, 1, max)
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
		return model.Errorf(model.CodeInvalid, "%s must be at most %d bytes of text", field, MaxFilterBytes)
	}
	return nil
}

// checkEntries validates a whole batch first, so that one bad row stores nothing; the error
// is the first key's in order, so that it names the same row every time. The keys are not
// sorted for it: a full sync's 50,000 cost 20 ms to sort, and a batch is almost always valid.
func checkEntries(values writeValues) error {
	var first string
	var firstErr error
	for k, v := range values.all() {
		if firstErr != nil && k >= first {
			continue
		}
		err := checkKey(k)
		if err == nil {
			err = model.GateValue(k, v)
		}
		if err != nil {
			first, firstErr = k, err
		}
	}
	return firstErr
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func errNoNamespace(ns string) error {
	return model.Errorf(model.CodeNotFound, "namespace %q not found", ns)
}

// lengthRule refuses text outside least..most as people count it: the limits are bytes
// (what is stored and hashed), which are characters in ASCII and fewer in other scripts.
func lengthRule(field string, least, most int) error {
	return model.Errorf(model.CodeInvalid, "%s must be %d to %d characters of text (letters beyond ASCII count 2 to 4 each)", field, least, most)
}
