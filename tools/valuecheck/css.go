package valuecheck

import (
	"strings"
	"unicode/utf8"
)

// cssPatterns run script from a stylesheet. expression(), behavior: and
// -moz-binding only ever worked in old IE and Firefox, but cost nothing to
// refuse; no translation needs them.
var cssPatterns = [...]string{
	"expression(",
	"-moz-binding",
	"javascript:",
	"vbscript:",
	"livescript:",
}

// cssDanger returns the pattern css uses that can run script, or "".
func cssDanger(css string) string {
	n := cssUnescape(css, true)
	for _, p := range cssPatterns {
		if strings.Contains(n, p) {
			return p
		}
	}
	// Only as a property of its own: scroll-behavior: smooth is harmless.
	for i := 0; ; {
		j := strings.Index(n[i:], "behavior:")
		if j < 0 {
			return ""
		}
		i += j
		if i == 0 || !isNameChar(n[i-1]) {
			return "behavior:"
		}
		i++
	}
}

func isNameChar(c byte) bool { return isAlpha(c) || isDigit(c) || c == '-' || c == '_' }

// cssUnescape decodes CSS escapes (\6a, \6A , \:). With normalize it also
// drops comments, whitespace and control characters, folds full-width ASCII
// and lowercases, which is how old IE read "expr/*x*/ession" or
// "ｅｘｐｒｅｓｓｉｏｎ" as expression.
func cssUnescape(s string, normalize bool) string {
	var b strings.Builder
	b.Grow(len(s))
	emit := func(r rune) {
		if normalize {
			if r <= 0x20 || r == 0x7f || r == utf8.RuneError {
				return
			}
			if 0xFF01 <= r && r <= 0xFF5E {
				r -= 0xFEE0
			}
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
		}
		b.WriteRune(r)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			i++
			if i >= len(s) {
				continue
			}
			if hexVal(s[i]) >= 0 {
				var cp rune
				j := i
				for j < len(s) && j-i < 6 && hexVal(s[j]) >= 0 {
					cp = cp*16 + rune(hexVal(s[j]))
					j++
				}
				// One whitespace after a hex escape belongs to it.
				if j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\f') {
					j++
				} else if j < len(s) && s[j] == '\r' {
					j++
					if j < len(s) && s[j] == '\n' {
						j++
					}
				}
				if cp == 0 || cp > utf8.MaxRune || 0xD800 <= cp && cp <= 0xDFFF {
					cp = utf8.RuneError
				}
				emit(cp)
				i = j
				continue
			}
			if s[i] == '\n' || s[i] == '\r' || s[i] == '\f' {
				i++ // escaped newline: a line continuation
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			emit(r)
			i += size
		case normalize && c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				i = len(s)
			} else {
				i += 2 + end + 2
			}
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			emit(r)
			i += size
		}
	}
	return b.String()
}

func hexVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// jsUnescape decodes JavaScript string escapes (\x6a, \u006a, \u{6a}, \n).
// Malformed escapes keep the character after the backslash, as JavaScript
// does for unknown ones.
func jsUnescape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		i++
		if i >= len(s) {
			break
		}
		switch s[i] {
		case 'x':
			if r, n := hexRun(s[i+1:], 2, 2); n > 0 {
				b.WriteRune(r)
				i += 1 + n
				continue
			}
		case 'u':
			if i+1 < len(s) && s[i+1] == '{' {
				if r, n := hexRun(s[i+2:], 1, 6); n > 0 && i+2+n < len(s) && s[i+2+n] == '}' {
					b.WriteRune(r)
					i += 3 + n
					continue
				}
			} else if r, n := hexRun(s[i+1:], 4, 4); n > 0 {
				b.WriteRune(r)
				i += 1 + n
				continue
			}
		case 'n':
			b.WriteByte('\n')
			i++
			continue
		case 'r':
			b.WriteByte('\r')
			i++
			continue
		case 't':
			b.WriteByte('\t')
			i++
			continue
		case 'b':
			b.WriteByte('\b')
			i++
			continue
		case 'f':
			b.WriteByte('\f')
			i++
			continue
		case 'v':
			b.WriteByte('\v')
			i++
			continue
		case '0':
			b.WriteByte(0)
			i++
			continue
		case '\n':
			i++ // line continuation
			continue
		}
		// Unknown or malformed escape: the character stands for itself.
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += size
	}
	return b.String()
}

// hexRun reads between min and max hex digits from the start of s and
// returns the rune and the number of digits, or 0 digits when there are
// fewer than min.
func hexRun(s string, min, max int) (rune, int) {
	var r rune
	n := 0
	for n < len(s) && n < max && hexVal(s[n]) >= 0 {
		r = r*16 + rune(hexVal(s[n]))
		n++
	}
	if n < min {
		return 0, 0
	}
	if r > utf8.MaxRune {
		r = utf8.RuneError
	}
	return r, n
}
