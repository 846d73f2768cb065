package formats

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Apple .strings: the old-style (NeXTSTEP) property list of string pairs that
// CoreFoundation reads. Decode takes UTF-8 (with or without a BOM) and UTF-16 with a BOM
// (LE or BE; without one when the first two bytes show it), "key" = "value"; pairs,
// a key alone ("key";) whose value is the key, unquoted keys and values of the old plist
// syntax, and the escapes CoreFoundation reads (\" \\ \n \t \r \a \b \f \v, \U and \u
// with up to four hex digits, surrogate pairs joined, octal \NNN). A later duplicate key
// replaces the value of the first, as Apple's reader does.
//
// Comments (/* */ and //) since the previous pair are the next pair's Entry.Comment.
// Encode writes Render's layout: a header comment, then per key a blank line, an optional
// comment and the pair; every string double-quoted and escaped as stringsEscape says.
//
// File.Meta:
//   - "encoding": "utf-16le", "utf-16be" or "utf-8-bom" when the file is not plain UTF-8;
//     Encode writes that encoding back (UTF-16 always with a BOM).
//   - "header": the comments that open the file, followed by a blank line, verbatim; absent
//     when they are the default "/* Language: <language> */", "" when the file has none.
//   - "trailer": comments after the last pair, verbatim.
//   - "layout": "compact" when no blank line separates the pairs.
//
// Entry.Meta:
//   - "comment": "//" when the comment was written with line comments.
//
// When Entry.Comment is empty, Encode writes the entry's Source as the comment on one line
// (Render's export shows the source text to the translator that way).

var stringsCodec = &Codec{Name: "strings", SourceFallback: true, ContentType: "text/plain; charset=utf-8", Extension: "strings", Decode: decodeStrings, Encode: encodeStrings, Merge: mergeStrings}

// fileLanguage is the language an Encode writes: the options', else the file's first.
func fileLanguage(f *File, o Options) string {
	if o.Language != "" && o.Language != AllLanguages {
		return o.Language
	}
	if len(f.Languages) > 0 {
		return f.Languages[0]
	}
	return o.Language
}

func encodeStrings(f *File, o Options) ([]byte, error) {
	lang := fileLanguage(f, o)
	var b strings.Builder
	header, ok := f.Meta["header"]
	if !ok {
		header = "/* Language: " + stringsComment(lang) + " */"
	}
	compact := f.Meta["layout"] == "compact"
	if header != "" {
		b.WriteString(header)
		b.WriteByte('\n')
	}
	n := 0
	for _, e := range f.Entries {
		v, ok := e.Values[lang]
		if !ok {
			continue // untranslated keys are left out of a monolingual file
		}
		if (n == 0 && header != "") || (n > 0 && !compact) {
			b.WriteByte('\n')
		}
		n++
		switch {
		case e.Comment != "" && e.Meta["comment"] == "//":
			for _, l := range strings.Split(e.Comment, "\n") {
				b.WriteString(strings.TrimRight("// "+l, " ") + "\n")
			}
		case e.Comment != "":
			b.WriteString("/* " + strings.ReplaceAll(e.Comment, "*/", `*\/`) + " */\n")
		case e.Source != "":
			b.WriteString("/* " + stringsComment(e.Source) + " */\n")
		}
		b.WriteString(`"` + stringsEscape(e.Key) + `" = "` + stringsEscape(v.Text) + "\";\n")
	}
	if t := f.Meta["trailer"]; t != "" {
		if !compact {
			b.WriteByte('\n')
		}
		b.WriteString(t + "\n")
	}
	return encodeText(b.String(), f.Meta["encoding"])
}

// encodeText writes s in a .strings file's encoding.
func encodeText(s, encoding string) ([]byte, error) {
	switch encoding {
	case "", "utf-8":
		return []byte(s), nil
	case "utf-8-bom":
		return append([]byte{0xEF, 0xBB, 0xBF}, s...), nil
	case "utf-16le", "utf-16be":
		u := utf16.Encode([]rune(s))
		out := make([]byte, 0, 2+2*len(u))
		if encoding == "utf-16le" {
			out = append(out, 0xFF, 0xFE)
			for _, c := range u {
				out = append(out, byte(c), byte(c>>8))
			}
		} else {
			out = append(out, 0xFE, 0xFF)
			for _, c := range u {
				out = append(out, byte(c>>8), byte(c))
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("strings: unknown encoding %q", encoding)
}

// decodeText reads a .strings file's bytes as text and names the encoding.
func decodeText(data []byte) (string, string, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		data = data[3:]
		if !utf8.Valid(data) {
			return "", "", offsetError(data, int64(invalidUTF8At(data)+3), "invalid UTF-8")
		}
		return string(data), "utf-8-bom", nil
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		s, err := utf16Text(data[2:], false)
		return s, "utf-16le", err
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		s, err := utf16Text(data[2:], true)
		return s, "utf-16be", err
	case utf8.Valid(data):
		return string(data), "", nil
	case len(data) >= 2 && data[0] == 0 && data[1] != 0:
		s, err := utf16Text(data, true)
		return s, "utf-16be", err
	case len(data) >= 2 && data[0] != 0 && data[1] == 0:
		s, err := utf16Text(data, false)
		return s, "utf-16le", err
	}
	i := invalidUTF8At(data)
	return "", "", offsetError(data, int64(i), "invalid UTF-8 (and no UTF-16 byte order mark)")
}

func invalidUTF8At(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(data)
}

func utf16Text(data []byte, bigEndian bool) (string, error) {
	if len(data)%2 != 0 {
		return "", &FileError{Offset: int64(len(data)), Msg: "UTF-16 text has an odd number of bytes"}
	}
	u := make([]uint16, len(data)/2)
	for i := range u {
		if bigEndian {
			u[i] = uint16(data[2*i])<<8 | uint16(data[2*i+1])
		} else {
			u[i] = uint16(data[2*i+1])<<8 | uint16(data[2*i])
		}
	}
	return string(utf16.Decode(u)), nil
}

// stringsComment keeps a comment on one line and stops "*/" inside it from ending the
// comment early. Comments are not unescaped by readers, so this is for display only.
func stringsComment(s string) string {
	var b strings.Builder
	for _, r := range s {
		writeControl(&b, r)
	}
	return strings.ReplaceAll(b.String(), "*/", `*\/`)
}

// stringsEscape escapes what CoreFoundation's old-style plist parser unescapes. Other
// control characters use \U with four hex digits (Apple reads exactly up to four; octal
// escapes are read as NeXTSTEP-encoded bytes, so they are avoided).
func stringsEscape(s string) string {
	if stringsPlain(s) {
		return s
	}
	return stringsEscapeRunes(s)
}

// stringsEscapeRunes is stringsEscape, rune by rune.
func stringsEscapeRunes(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		default:
			writeControl(&b, r)
		}
	}
	return b.String()
}

// stringsPlain reports whether stringsEscape writes s as it is.
func stringsPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c == '\\' || c == '"' {
			return false
		}
	}
	return utf8.ValidString(s)
}

func writeControl(b *strings.Builder, r rune) {
	switch r {
	case '\n':
		b.WriteString(`\n`)
	case '\t':
		b.WriteString(`\t`)
	case '\r':
		b.WriteString(`\r`)
	default:
		if r < 0x20 || r == 0x7f {
			fmt.Fprintf(b, `\U%04X`, r)
		} else {
			b.WriteRune(r)
		}
	}
}

// stringsScanner reads the tokens of a .strings text.
type stringsScanner struct {
	s    string
	i    int
	line int
}

// stringsNote is one comment: its text and whether it was a // comment.
type stringsNote struct {
	text string
	line bool
}

func decodeStrings(data []byte, o Options) (*File, error) {
	text, enc, err := decodeText(data)
	if err != nil {
		return nil, err
	}
	f := &File{Languages: []string{o.Language}, Entries: []Entry{}}
	meta := map[string]string{}
	if enc != "" {
		meta["encoding"] = enc
	}
	sc := &stringsScanner{s: text, line: 1}
	index := map[string]int{}
	var pending []stringsNote
	pendingStart := -1 // offset of the first pending comment
	headerSet := false
	blankSeen, anyBlank := false, false
	lastEnd := 0
	for {
		blank := sc.space()
		if blank {
			blankSeen = true
			if !headerSet && len(f.Entries) == 0 && len(pending) > 0 {
				meta["header"] = text[pendingStart:lastEnd]
				headerSet, pending = true, nil
			}
		}
		if sc.i >= len(sc.s) {
			break
		}
		if strings.HasPrefix(sc.s[sc.i:], "/*") || strings.HasPrefix(sc.s[sc.i:], "//") {
			start := sc.i
			c, err := sc.comment()
			if err != nil {
				return nil, err
			}
			if len(pending) == 0 {
				pendingStart = start
			}
			pending = append(pending, c)
			lastEnd = sc.i
			continue
		}
		line := sc.line
		key, err := sc.str()
		if err != nil {
			return nil, err
		}
		sc.skipAll()
		value := key
		if sc.i < len(sc.s) && sc.s[sc.i] == '=' {
			sc.i++
			sc.skipAll()
			if value, err = sc.str(); err != nil {
				return nil, err
			}
			sc.skipAll()
		}
		if sc.i >= len(sc.s) || sc.s[sc.i] != ';' {
			return nil, lineError(sc.line, "expected ';' after the pair that starts on line %d", line)
		}
		sc.i++
		lastEnd = sc.i
		if len(f.Entries) > 0 {
			anyBlank = anyBlank || blankSeen
		}
		blankSeen = false
		e := Entry{Key: key, Values: map[string]Value{o.Language: {Text: value}}}
		if len(pending) > 0 {
			var texts []string
			lineStyle := true
			for _, c := range pending {
				if c.text != "" {
					texts, lineStyle = append(texts, c.text), lineStyle && c.line
				}
			}
			e.Comment = strings.Join(texts, "\n")
			if lineStyle && e.Comment != "" {
				e.Meta = map[string]string{"comment": "//"}
			}
			pending = nil
		}
		if !headerSet {
			meta["header"], headerSet = "", true
		}
		if i, dup := index[key]; dup {
			f.Entries[i].Values = e.Values
			continue
		}
		index[key] = len(f.Entries)
		f.Entries = append(f.Entries, e)
	}
	if len(pending) > 0 {
		if !headerSet && len(f.Entries) == 0 {
			meta["header"], headerSet = text[pendingStart:lastEnd], true
		} else {
			meta["trailer"] = text[pendingStart:lastEnd]
		}
	}
	if !headerSet {
		meta["header"] = ""
	}
	if meta["header"] == "/* Language: "+stringsComment(o.Language)+" */" {
		delete(meta, "header")
	}
	if len(f.Entries) > 1 && !anyBlank {
		meta["layout"] = "compact"
	}
	if len(meta) > 0 {
		f.Meta = meta
	}
	return f, nil
}

// space skips white space and says whether it held a blank line.
func (sc *stringsScanner) space() bool {
	nl := 0
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case '\n':
			nl++
			sc.line++
		case ' ', '\t', '\r', '\f', '\v':
		default:
			r, n := utf8.DecodeRuneInString(sc.s[sc.i:])
			if r != '\u00a0' && r != '\u2028' && r != '\u2029' && r != '\ufeff' {
				return nl >= 2
			}
			sc.i += n
			continue
		}
		sc.i++
	}
	return nl >= 2
}

// skipAll skips white space and comments (between a key and its value).
func (sc *stringsScanner) skipAll() {
	for {
		sc.space()
		if !strings.HasPrefix(sc.s[sc.i:], "/*") && !strings.HasPrefix(sc.s[sc.i:], "//") {
			return
		}
		if _, err := sc.comment(); err != nil {
			sc.i = len(sc.s) // the caller reports what is missing
			return
		}
	}
}

func (sc *stringsScanner) comment() (stringsNote, error) {
	start := sc.line
	if strings.HasPrefix(sc.s[sc.i:], "//") {
		end := strings.IndexByte(sc.s[sc.i:], '\n')
		if end < 0 {
			end = len(sc.s) - sc.i
		}
		text := strings.TrimSpace(sc.s[sc.i+2 : sc.i+end])
		sc.i += end
		return stringsNote{text: text, line: true}, nil
	}
	end := strings.Index(sc.s[sc.i+2:], "*/")
	if end < 0 {
		return stringsNote{}, lineError(start, "unterminated /* comment")
	}
	body := sc.s[sc.i+2 : sc.i+2+end]
	sc.line += strings.Count(body, "\n")
	sc.i += 2 + end + 2
	return stringsNote{text: strings.TrimSpace(body)}, nil
}

// unquotedByte is what the old plist syntax allows in an unquoted string.
func unquotedByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_$+/:.-", c) >= 0
}

// str reads a quoted or unquoted string.
func (sc *stringsScanner) str() (string, error) {
	if sc.i >= len(sc.s) {
		return "", lineError(sc.line, "unexpected end of file, expected a string")
	}
	if sc.s[sc.i] != '"' {
		start := sc.i
		for sc.i < len(sc.s) && unquotedByte(sc.s[sc.i]) {
			sc.i++
		}
		if sc.i == start {
			r, _ := utf8.DecodeRuneInString(sc.s[sc.i:])
			return "", lineError(sc.line, "unexpected %q, expected a string", r)
		}
		return sc.s[start:sc.i], nil
	}
	startLine := sc.line
	sc.i++
	var b strings.Builder
	for sc.i < len(sc.s) {
		c := sc.s[sc.i]
		switch c {
		case '"':
			sc.i++
			return b.String(), nil
		case '\n':
			sc.line++
		case '\\':
			if err := sc.escape(&b); err != nil {
				return "", err
			}
			continue
		}
		b.WriteByte(c)
		sc.i++
	}
	return "", lineError(startLine, "unterminated string")
}

// escape reads the escape at sc.i (a backslash) into b.
func (sc *stringsScanner) escape(b *strings.Builder) error {
	sc.i++
	if sc.i >= len(sc.s) {
		return lineError(sc.line, "unterminated string")
	}
	c := sc.s[sc.i]
	sc.i++
	if e, ok := cControl(c); ok {
		b.WriteByte(e)
		return nil
	}
	switch c {
	case 'U', 'u':
		r := sc.hex4()
		if r < 0 {
			b.WriteByte(c)
			return nil
		}
		if utf16.IsSurrogate(r) && strings.HasPrefix(sc.s[sc.i:], "\\U") || utf16.IsSurrogate(r) && strings.HasPrefix(sc.s[sc.i:], "\\u") {
			save := sc.i
			sc.i += 2
			if r2 := utf16.DecodeRune(r, sc.hex4()); r2 != utf8.RuneError && r2 != '\uFFFD' {
				r = r2
			} else {
				sc.i = save
			}
		}
		b.WriteRune(r)
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n := int(c - '0')
		for k := 0; k < 2 && sc.i < len(sc.s) && sc.s[sc.i] >= '0' && sc.s[sc.i] <= '7'; k++ {
			n = n*8 + int(sc.s[sc.i]-'0')
			sc.i++
		}
		b.WriteRune(rune(n & 0xff))
	case '\n':
		sc.line++
		b.WriteByte(c)
	default:
		b.WriteByte(c)
	}
	return nil
}

// hex4 reads up to four hex digits, as CoreFoundation does after \U.
func (sc *stringsScanner) hex4() rune {
	end := sc.i
	for end < len(sc.s) && end-sc.i < 4 && strings.IndexByte("0123456789abcdefABCDEF", sc.s[end]) >= 0 {
		end++
	}
	if end == sc.i {
		return -1
	}
	n, _ := strconv.ParseUint(sc.s[sc.i:end], 16, 32)
	sc.i = end
	return rune(n)
}
