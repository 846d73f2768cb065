package valuecheck

import (
	"html"
	"unicode/utf8"
)

// markdownDanger returns the script URL that a Markdown renderer could make the target of a
// link, an image or an autolink in s, and what kind of target it is; "" when there is none.
//
// It is a scanner, not a parser, on purpose: renderers disagree (Markdown.pl allows a space
// between "]" and "(", some decode entities a second time, code spans differ), and a value
// is refused when any of them could produce the link. So every "](", "]:" and "<" counts,
// wherever it stands, and the destination after it is decoded as CommonMark does (backslash
// escapes, entity references, an optional "<"), then read by the URL rules of href.
// Destinations are decoded only while they can still spell a scheme and a media type, and
// those stretches never hold another "]" or "<", so the scan stays linear.
func markdownDanger(s string) (danger, kind string) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ']':
			j := skipMarkdownSpace(s, i+1)
			if j >= len(s) || s[j] != '(' && s[j] != ':' {
				continue
			}
			kind := "link or image"
			if s[j] == ':' {
				kind = "link reference definition"
			}
			k := skipMarkdownSpace(s, j+1)
			if k < len(s) && s[k] == '<' {
				k++
			}
			if d := urlDangerAtStart(markdownDestination(s, k)); d != "" {
				return d, kind
			}
		case '<':
			// An autolink takes its scheme right after "<", without spaces.
			if d := urlDangerAt(markdownDestination(s, i+1), 0); d != "" {
				return d, "autolink"
			}
		}
	}
	return "", ""
}

// skipMarkdownSpace skips the white space Markdown allows around a destination: spaces,
// tabs and a line ending (any number of them, which only refuses more).
func skipMarkdownSpace(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			i++
		default:
			return i
		}
	}
	return i
}

// maxDestination bounds the decoded characters kept of a destination, not counting the ones
// URL parsing drops: a scheme and a data: media type fit with room to spare.
const maxDestination = 256

// markdownDestination decodes the start of a destination at s[i:] the way CommonMark does,
// and stops at the first character that can be part of no scheme, colon or media type.
func markdownDestination(s string, i int) string {
	// Most destinations are plain ASCII: return them without a copy.
	start, kept := i, 0
	for ; i < len(s) && kept < maxDestination; i++ {
		c := s[i]
		if c == '&' || c == '\\' || c >= utf8.RuneSelf {
			break
		}
		if c < 0x20 {
			continue
		}
		if !destinationByte(c) {
			return s[start:i]
		}
		kept++
	}
	if i >= len(s) || kept >= maxDestination {
		return s[start:i]
	}
	out := append(make([]byte, 0, i-start+32), s[start:i]...)
	for i < len(s) && kept < maxDestination {
		c, n := s[i], 1
		var decoded string
		switch {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			decoded, n = s[i+1:i+2], 2
		case c == '&':
			decoded, n = entityAt(s, i)
		case c >= utf8.RuneSelf:
			if skippable(s, i) == 0 {
				return string(out) // no scheme or media type has other non-ASCII
			}
			decoded, n = s[i:i+3], 3
		default:
			decoded = s[i : i+1]
		}
		for j := 0; j < len(decoded); j++ {
			if k := skippable(decoded, j); k > 0 {
				j += k - 1 // dropped by URL parsing, so not counted
				continue
			}
			if !destinationByte(decoded[j]) {
				return string(out)
			}
			kept++
		}
		out = append(out, decoded...)
		i += n
	}
	return string(out)
}

// destinationByte reports whether c can stand in the part of a URL that the scheme rules
// read: spaces and quotes before it, scheme characters, the colon, and media type tokens
// with their slash.
func destinationByte(c byte) bool {
	return c == ' ' || c == '"' || c == ':' || c == '/' || isTokenChar(c)
}

// maxEntity bounds an entity reference; "&#0000106;" and the longest names fit.
const maxEntity = 40

// entityAt decodes the entity reference at s[i] (s[i] is '&') and returns it with the bytes
// it spans; an '&' that starts none stands for itself.
func entityAt(s string, i int) (string, int) {
	j := i + 1
	switch {
	case j < len(s) && s[j] == '#':
		j++
		hex := j < len(s) && (s[j] == 'x' || s[j] == 'X')
		if hex {
			j++
		}
		for j < len(s) && j-i < maxEntity && (isDigit(s[j]) || hex && isHexLetter(s[j])) {
			j++
		}
	default:
		for j < len(s) && j-i < maxEntity && (isAlpha(s[j]) || isDigit(s[j])) {
			j++
		}
	}
	if j < len(s) && s[j] == ';' {
		j++
	}
	ref := s[i:j]
	if d := html.UnescapeString(ref); d != ref {
		return d, j - i
	}
	return "&", 1
}

func isHexLetter(c byte) bool { return 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// isASCIIPunct is CommonMark's set of backslash-escapable characters.
func isASCIIPunct(c byte) bool {
	return '!' <= c && c <= '/' || ':' <= c && c <= '@' || '[' <= c && c <= '`' || '{' <= c && c <= '~'
}
