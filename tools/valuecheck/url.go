package valuecheck

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// scriptSchemes run the rest of the URL as code. Netscape's mocha: is left
// out: no browser since 1996 knows it, and "Mocha: espresso with chocolate"
// is a plausible menu string.
var scriptSchemes = map[string]bool{
	"javascript": true,
	"vbscript":   true,
	"livescript": true,
}

// skippable returns the width of a character that a browser, current or
// old, drops from a URL, or 0. The URL parser removes tab, CR and LF anywhere
// and other controls at the ends; old IE also skipped NUL, which the
// tokenizer turns into U+FFFD. Dropping all of them everywhere only ever
// makes more values look like script URLs, never fewer.
func skippable(s string, i int) int {
	c := s[i]
	if c < 0x20 {
		return 1
	}
	if c == 0xEF && strings.HasPrefix(s[i:], "\uFFFD") {
		return 3
	}
	return 0
}

// urlDangerAtStart returns the dangerous scheme s starts with, such as
// "javascript:" or "data:text/html", or "" when there is none.
func urlDangerAtStart(s string) string {
	i := 0
	for i < len(s) {
		if n := skippable(s, i); n > 0 {
			i += n
			continue
		}
		// Spaces are stripped by browsers; quotes and backticks delimited
		// attribute values in old IE (<IMG SRC=`javascript:...`>).
		if c := s[i]; c != ' ' && c != '"' && c != '\'' && c != '`' {
			break
		}
		i++
	}
	return urlDangerAt(s, i)
}

// valueDangerAtStart is urlDangerAtStart for a whole value, which is the
// whole URL when a template puts it into an href: a javascript: URL whose
// body cannot parse runs nothing, so prose that starts with the word
// ("JavaScript: enable it in your browser settings") is text. Markdown
// destinations and URL lists, whose end is a guess, do not get this. s is
// the value with entities decoded, raw as written: both must fail to parse,
// as a template may put either into a script.
func valueDangerAtStart(s, raw string) string {
	d := urlDangerAtStart(s)
	if d == "javascript:" {
		_, body, _ := strings.Cut(s, ":")
		_, rawBody, _ := strings.Cut(raw, ":")
		if cannotParse(body) && cannotParse(rawBody) {
			return ""
		}
	}
	return d
}

func isListSep(c byte) bool {
	switch c {
	case ' ', ',', ';', '=', '"', '\'', '`', '(', ')', '<', '>':
		return true
	}
	return false
}

// urlDangerInList checks every word of s, for attributes such as srcset or
// meta content ("0;url=javascript:...") that hold URLs after separators.
// Only word starts are scanned, and scans stop at the next separator, so
// the work stays linear.
func urlDangerInList(s string) string {
	wordStart := true
	for i := 0; i < len(s); {
		if n := skippable(s, i); n > 0 {
			i += n
			continue
		}
		if isListSep(s[i]) {
			wordStart = true
			i++
			continue
		}
		if wordStart {
			if d := urlDangerAt(s, i); d != "" {
				return d
			}
			wordStart = false
		}
		i++
	}
	return ""
}

// urlDangerAt reads a URL scheme at s[i:] the way a browser does and returns
// it with its colon when it runs script; a data: URL comes back with its
// media type, as in "data:text/html".
func urlDangerAt(s string, i int) string {
	var buf [16]byte // longer than any scheme we look for
	n := 0
	for ; i < len(s); i++ {
		if k := skippable(s, i); k > 0 {
			i += k - 1
			continue
		}
		c := s[i]
		if c == ':' {
			break
		}
		if isAlpha(c) || n > 0 && (isDigit(c) || c == '+' || c == '-' || c == '.') {
			if n == len(buf) {
				return ""
			}
			buf[n] = lower(c)
			n++
			continue
		}
		return ""
	}
	if i >= len(s) || n == 0 {
		return ""
	}
	scheme := string(buf[:n])
	if scriptSchemes[scheme] {
		return scheme + ":"
	}
	if scheme == "data" {
		return dataDanger(s, i+1)
	}
	return ""
}

// dataDanger reads the media type of a data: URL whose body starts at s[i:]
// and returns "data:<type>" when a browser could run it.
func dataDanger(s string, i int) string {
	const maxType = 128
	var mt []byte
	started, long := false, false
	for ; i < len(s); i++ {
		if k := skippable(s, i); k > 0 {
			i += k - 1
			continue
		}
		c := s[i]
		if c == ' ' {
			if started {
				break
			}
			continue
		}
		if !isTokenChar(c) && c != '/' {
			break // ',', ';' and anything else end the type
		}
		started = true
		if len(mt) < maxType {
			mt = append(mt, lower(c))
		} else {
			long = true
		}
	}
	t := string(mt)
	if long && strings.Contains(t, "/") {
		return "data:" + t[:32] + "..."
	}
	if inertMediaType(t) {
		return ""
	}
	return "data:" + t
}

// inertMediaType reports whether a browser shows, plays or downloads a data:
// URL of type t instead of running it. Types are allowed by name, since
// HTML, every XML type (SVG, XHTML, MathML), script types and sniffed
// unknown types can all execute.
func inertMediaType(t string) bool {
	top, sub, ok := strings.Cut(t, "/")
	if !ok {
		// Not a media type at all ("data:,hi" or prose such as
		// "Data: XML, JSON"); browsers fall back to text/plain.
		return true
	}
	switch top {
	case "image", "audio", "video", "font":
		for _, bad := range [...]string{"svg", "xml", "html", "script", "xsl", "unknown", "*"} {
			if strings.Contains(sub, bad) {
				return false
			}
		}
		return true
	case "text":
		return sub == "plain" || sub == "csv"
	case "application":
		return sub == "json" || sub == "octet-stream"
	case "model", "multipart", "message", "example", "unknown", "*":
		// multipart/x-mixed-replace can render HTML parts, unknown/* and */*
		// are sniffed.
		return false
	}
	// Top-level types no browser knows are downloaded, never rendered
	// ("1/2", "and/or" in prose land here too).
	return sub != "unknown" && sub != "*"
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isTokenChar follows the HTTP token grammar used for media types.
func isTokenChar(c byte) bool {
	if isAlpha(c) || isDigit(c) {
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// jsWords are JavaScript's reserved and contextual words: next to another
// word they may make valid code (typeof x, new Date, a in b, let x, async f).
var jsWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`await break case catch class const continue debugger default delete do else enum
		export extends false finally for function if implements import in instanceof interface let new null package
		private protected public return static super switch this throw true try typeof var void while with yield
		async get set of as from using accessor target meta undefined arguments eval`) {
		jsWords[w] = true
	}
}

// cannotParse reports whether the body of a javascript: URL is certainly
// not a program, so that a browser runs nothing: prose such as "enable it
// in your browser settings" has two plain words side by side on one line,
// which is a syntax error wherever it stands, and a script with a syntax
// error anywhere does not run at all. It only answers true for a body
// without quotes, slashes, backslashes, percent escapes, angle brackets,
// '#', '&' or any white space but the plain space, so that no string,
// comment, regular expression, template, escape or line break (which
// would let the words be two statements) can hide the pair; and neither
// word may be one of jsWords.
func cannotParse(body string) bool {
	if strings.ContainsAny(body, "'\"`/\\%<>#&") {
		return false
	}
	prev, gap := "", false
	for i := 0; i < len(body); {
		r, size := utf8.DecodeRuneInString(body[i:])
		switch {
		case r == ' ':
			gap = prev != ""
			i += size
		case isIdentRune(r):
			j := i
			for j < len(body) {
				r2, s2 := utf8.DecodeRuneInString(body[j:])
				if !isIdentRune(r2) {
					break
				}
				j += s2
			}
			w := body[i:j]
			word := !jsWords[w] && !unicode.IsDigit(r)
			if gap && word && prev != "" {
				return true
			}
			prev, gap = "", false
			if word {
				prev = w
			}
			i = j
		case unicode.IsSpace(r) || r < 0x20 || r == 0x7f || r == utf8.RuneError:
			return false
		default:
			prev, gap = "", false
			i += size
		}
	}
	return false
}

// isIdentRune reports whether r may be part of a JavaScript identifier.
func isIdentRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_' || r == '$' || r == 0x200c || r == 0x200d
}
