package formats

// Java .properties (format properties), read as java.util.Properties.load reads it.
//
// A logical line is a key and a value separated by '=', ':' or whitespace (with
// whitespace around the '=' or ':'); a line ending in an odd number of backslashes
// continues on the next one, whose leading whitespace is dropped. Escapes: \t \n \r \f,
// \uXXXX, and a backslash before any other character is that character (\\ \= \: \# \!
// and "\ " for a space). Lines whose first non-blank character is '#' or '!' are comments.
// Values are kept as written otherwise: MessageFormat's apostrophes (''{0}'') and braces
// are the value's text. A key given twice takes the later value, as Java does; an empty
// key or a malformed \u escape is a FileError naming the line.
//
// Encoding: a file is UTF-8 (Java 9 and later read resource bundles so). File.Meta
// "encoding" = "ISO-8859-1" asks for the older spelling that Properties.store writes:
// every character outside printable ASCII as \uXXXX, so the file is plain ASCII, which
// ISO-8859-1 and UTF-8 readers read alike. Decode sets it for an ASCII file that writes
// non-ASCII characters as \u escapes, and for a file that is not valid UTF-8, which is
// then read as ISO-8859-1 (its raw Latin-1 letters come back as escapes).
//
// Layout, kept so that a file in the canonical spelling (key=value, escapes as below,
// continuations joined) comes back byte for byte: the comment lines right above a key are
// its Comment ("# " and "! " stripped; written back with "# "); blank lines and comments
// separated from the next key by a blank line are kept as written in that entry's
// Meta["before"], and those after the last key in File.Meta["foot"] (each line ending in
// "\n"). File.Meta "separator"
// is the separator every line of the file uses when it is not "=" (" = ", ": "); "newline"
// is "\r\n" for a CRLF file; "bom" is "true" when the file starts with a UTF-8 byte order
// mark. Encode escapes \ and line breaks, tab and form feed everywhere; = : and spaces in
// keys; a '#' or '!' that starts a key; a space that starts a value; control characters
// as \uXXXX.

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

var propertiesCodec = &Codec{Name: "properties", ContentType: "text/x-java-properties; charset=utf-8", Extension: "properties", Decode: decodeProperties, Encode: encodeProperties, Merge: mergeProperties}

const propLatin1 = "ISO-8859-1"

// propLine is a natural line of the file.
type propLine struct {
	text string
	num  int
}

func decodeProperties(data []byte, o Options) (*File, error) {
	f := &File{Languages: []string{o.Language}, Entries: []Entry{}}
	if rest, ok := bytes.CutPrefix(data, []byte("\xef\xbb\xbf")); ok {
		data = rest
		setMetaText(&f.Meta, "bom", "true", true)
	}
	text := string(data)
	latin1 := !utf8.Valid(data)
	if latin1 {
		rs := make([]rune, len(data))
		for i, b := range data {
			rs[i] = rune(b)
		}
		text = string(rs)
	}
	if i := strings.IndexAny(text, "\r\n"); i >= 0 && strings.HasPrefix(text[i:], "\r\n") {
		setMetaText(&f.Meta, "newline", "\r\n", true)
	}
	lines := propSplitLines(text)

	index := map[string]int{}
	var pending []string // blank and comment lines not yet given to an entry
	escaped := false     // a \u escape wrote a non-ASCII character
	seps := map[string]bool{}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		trimmed := strings.TrimLeft(l.text, " \t\f")
		if trimmed == "" || trimmed[0] == '#' || trimmed[0] == '!' {
			pending = append(pending, l.text)
			escaped = escaped || propNonASCIIEscapeRE.MatchString(l.text)
			continue
		}
		// Join continuation lines.
		start := l.num
		logical := trimmed
		for propContinued(logical) && i+1 < len(lines) {
			i++
			logical = logical[:len(logical)-1] + strings.TrimLeft(lines[i].text, " \t\f")
		}
		if propContinued(logical) {
			logical = logical[:len(logical)-1] // a continuation at the end of the file
		}
		rawKey, sep, rawValue := splitProperty(logical)
		key, kEsc, err := unescapeProperty(rawKey)
		if err != nil {
			return nil, lineError(start, "%v", err)
		}
		value, vEsc, err := unescapeProperty(rawValue)
		if err != nil {
			return nil, lineError(start, "%v", err)
		}
		if key == "" {
			return nil, lineError(start, "empty key")
		}
		escaped = escaped || kEsc || vEsc
		seps[sep] = true

		comment, before := propSplitPending(pending)
		pending = nil
		e := Entry{Key: key, Values: map[string]Value{o.Language: {Text: value}}, Comment: comment}
		setMetaText(&e.Meta, "before", before, true)
		if at, dup := index[key]; dup {
			// Java keeps the later value; the entry keeps its first place.
			f.Entries[at].Values = e.Values
			continue
		}
		index[key] = len(f.Entries)
		f.Entries = append(f.Entries, e)
	}
	if len(pending) > 0 {
		setMetaText(&f.Meta, "foot", propJoinLines(pending), true)
	}
	if !latin1 && escaped && propIsASCII(text) {
		// Only what is still in the file counts (a key given twice drops a value).
		escaped = false
		for _, e := range f.Entries {
			escaped = escaped || !propIsASCII(e.Key) || !propIsASCII(e.Values[o.Language].Text) ||
				propNonASCIIEscapeRE.MatchString(e.Comment) || propNonASCIIEscapeRE.MatchString(e.Meta["before"])
		}
		escaped = escaped || propNonASCIIEscapeRE.MatchString(f.Meta["foot"])
	}
	if latin1 || (escaped && propIsASCII(text)) {
		setMetaText(&f.Meta, "encoding", propLatin1, true)
	}
	if len(seps) == 1 {
		for sep := range seps {
			setMetaText(&f.Meta, "separator", sep, sep != "=")
		}
	}
	if f.Meta["encoding"] == propLatin1 {
		// Comments of an ASCII file are written with \u escapes too.
		for i := range f.Entries {
			e := &f.Entries[i]
			e.Comment = propUnescapeUnicode(e.Comment)
			if e.Meta["before"] != "" {
				e.Meta["before"] = propUnescapeUnicode(e.Meta["before"])
			}
		}
		if f.Meta["foot"] != "" {
			f.Meta["foot"] = propUnescapeUnicode(f.Meta["foot"])
		}
	}
	return f, nil
}

// propSplitLines splits text at \n, \r\n and \r, as Java does; a final line break ends the
// last line rather than starting an empty one.
func propSplitLines(text string) []propLine {
	var out []propLine
	num := 1
	for text != "" {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			out = append(out, propLine{text, num})
			break
		}
		out = append(out, propLine{text[:i], num})
		if strings.HasPrefix(text[i:], "\r\n") {
			i++
		}
		text = text[i+1:]
		num++
	}
	return out
}

// propContinued reports whether a line ends in an odd number of backslashes.
func propContinued(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitProperty splits a logical line (leading whitespace removed) into its raw key, the
// separator as written and the raw value.
func splitProperty(s string) (key, sep, value string) {
	i := 0
	for i < len(s) {
		c := s[i]
		if c == '\\' {
			i += 2
			continue
		}
		if c == '=' || c == ':' || c == ' ' || c == '\t' || c == '\f' {
			break
		}
		i++
	}
	i = min(i, len(s))
	key = s[:i]
	j := i
	for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f') {
		j++
	}
	if j < len(s) && (s[j] == '=' || s[j] == ':') {
		j++
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\f') {
			j++
		}
	}
	return key, s[i:j], s[j:]
}

// unescapeProperty reads the escapes of a key or value; escaped reports a \u escape of a
// non-ASCII character.
func unescapeProperty(s string) (out string, escaped bool, err error) {
	if !strings.Contains(s, `\`) {
		return s, false, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			if c != '\\' {
				b.WriteByte(c)
			}
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			r, ok := propHex4(s[i+1:])
			if !ok {
				return "", false, fmt.Errorf(`malformed \uXXXX escape`)
			}
			escaped = escaped || r >= 0x80
			i += 4
			// A surrogate pair written as two escapes is one character.
			if propUTF16High(r) && strings.HasPrefix(s[i+1:], `\u`) {
				if lo, ok := propHex4(s[i+3:]); ok && lo >= 0xdc00 && lo <= 0xdfff {
					r = (r-0xd800)<<10 + (lo - 0xdc00) + 0x10000
					i += 6
				}
			}
			b.WriteRune(r)
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), escaped, nil
}

func propUTF16High(r rune) bool { return r >= 0xd800 && r <= 0xdbff }

func propHex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(s[:4], 16, 32)
	if err != nil || strings.ContainsAny(s[:4], "+-_") {
		return 0, false
	}
	return rune(n), true
}

var (
	propUnicodeEscapeRE  = regexp.MustCompile(`\\u[0-9a-fA-F]{4}`)
	propNonASCIIEscapeRE = regexp.MustCompile(`\\u([1-9a-fA-F][0-9a-fA-F]{3}|0[1-9a-fA-F][0-9a-fA-F]{2}|00[89a-fA-F][0-9a-fA-F])`)
)

// propUnescapeUnicode reads only the \u escapes of a comment (an ASCII file writes them so).
func propUnescapeUnicode(s string) string {
	if !strings.Contains(s, `\u`) {
		return s
	}
	return propUnicodeEscapeRE.ReplaceAllStringFunc(s, func(m string) string {
		r, _ := propHex4(m[2:])
		if r >= 0xd800 && r <= 0xdfff {
			return m
		}
		return string(r)
	})
}

// propSplitPending splits the blank and comment lines before a key into the comment right
// above it and the lines before that, as written.
func propSplitPending(lines []string) (comment, before string) {
	i := len(lines)
	for i > 0 {
		t := strings.TrimLeft(lines[i-1], " \t\f")
		if t == "" {
			break
		}
		i--
	}
	var cs []string
	for _, l := range lines[i:] {
		t := strings.TrimLeft(l, " \t\f")
		t = t[1:] // '#' or '!'
		cs = append(cs, strings.TrimPrefix(t, " "))
	}
	return strings.Join(cs, "\n"), propJoinLines(lines[:i])
}

// propJoinLines joins lines, each ending in "\n".
func propJoinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

func propIsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

var propSeparatorRE = regexp.MustCompile(`^[ \t\f]*[=:]?[ \t\f]*$`)

func encodeProperties(f *File, o Options) ([]byte, error) {
	lang := o.Language
	if lang == "" && len(f.Languages) > 0 {
		lang = f.Languages[0]
	}
	ascii := f.Meta["encoding"] == propLatin1
	nl := "\n"
	if f.Meta["newline"] == "\r\n" {
		nl = "\r\n"
	}
	sep := "="
	if s := f.Meta["separator"]; s != "" && propSeparatorRE.MatchString(s) {
		sep = s
	}
	var b strings.Builder
	if f.Meta["bom"] == "true" {
		b.WriteString("\ufeff")
	}
	seen := map[string]bool{}
	for i, e := range f.Entries {
		v, ok := e.Values[lang]
		if !ok {
			continue // untranslated: left out of a monolingual file
		}
		if e.Key == "" {
			return nil, fmt.Errorf("formats: properties: entry %d has an empty key", i)
		}
		if seen[e.Key] {
			return nil, fmt.Errorf("formats: properties: duplicate key %q", e.Key)
		}
		seen[e.Key] = true
		if before := e.Meta["before"]; before != "" {
			propWriteLayout(&b, before, nl, ascii)
		}
		if e.Comment != "" {
			// \r is a line break to Java too: it must not end a comment line early.
			comment := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(e.Comment)
			for _, l := range strings.Split(comment, "\n") {
				if l == "" {
					b.WriteString("#" + nl)
				} else {
					b.WriteString("# " + propEscapeComment(l, ascii) + nl)
				}
			}
		}
		b.WriteString(escapeProperty(e.Key, true, ascii))
		b.WriteString(sep)
		value := escapeProperty(v.Text, false, ascii)
		if !strings.ContainsAny(sep, "=:") && value != "" && (value[0] == '=' || value[0] == ':') {
			value = `\` + value // else it would read as the separator
		}
		b.WriteString(value)
		b.WriteString(nl)
	}
	if foot := f.Meta["foot"]; foot != "" {
		propWriteLayout(&b, foot, nl, ascii)
	}
	return []byte(b.String()), nil
}

// propWriteLayout writes kept blank and comment lines; a line that is neither (Meta edited by
// hand) is written as a comment, so that it cannot become a key.
func propWriteLayout(b *strings.Builder, text, nl string, ascii bool) {
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		l = strings.ReplaceAll(l, "\r", "")
		t := strings.TrimLeft(l, " \t\f")
		if t != "" && t[0] != '#' && t[0] != '!' {
			l = "# " + l
		}
		b.WriteString(propEscapeComment(l, ascii))
		b.WriteString(nl)
	}
}

func propEscapeComment(s string, ascii bool) string {
	if !ascii {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		propWriteRuneASCII(&b, r)
	}
	return b.String()
}

func propWriteRuneASCII(b *strings.Builder, r rune) {
	if r >= 0x20 && r <= 0x7e {
		b.WriteRune(r)
		return
	}
	if r > 0xffff {
		r1, r2 := propUTF16Pair(r)
		fmt.Fprintf(b, `\u%04X\u%04X`, r1, r2)
		return
	}
	fmt.Fprintf(b, `\u%04X`, r)
}

func propUTF16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

// propertyPlain reports whether escapeProperty writes s as it is.
func propertyPlain(s string, isKey, ascii bool) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c == 0x7f || c == '\\':
			return false
		case c == ' ' && (isKey || i == 0):
			return false
		case (c == '=' || c == ':') && isKey:
			return false
		case (c == '#' || c == '!') && isKey && i == 0:
			return false
		case c >= 0x80 && ascii:
			return false
		}
	}
	return utf8.ValidString(s)
}

// escapeProperty writes a key or value by the rules at the top of this file.
func escapeProperty(s string, isKey, ascii bool) string {
	if propertyPlain(s, isKey, ascii) {
		return s // most keys and values: nothing to escape, nothing to copy
	}
	return escapePropertyRunes(s, isKey, ascii)
}

// escapePropertyRunes is escapeProperty, rune by rune.
func escapePropertyRunes(s string, isKey, ascii bool) string {
	var b strings.Builder
	for i, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\f':
			b.WriteString(`\f`)
		case ' ':
			if isKey || i == 0 {
				b.WriteString(`\ `)
			} else {
				b.WriteByte(' ')
			}
		case '=', ':':
			if isKey {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		case '#', '!':
			if isKey && i == 0 {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		default:
			switch {
			case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
				b.WriteString(`\uFFFD`) // invalid UTF-8
			case r < 0x20 || r == 0x7f || (ascii && r > 0x7e):
				propWriteRuneASCII(&b, r)
			default:
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}
