package formats

// Merge of a .properties file (Codec.Merge): an unchanged entry keeps its bytes; a changed
// value is rewritten after its key and separator as written, in the file's escaping (\u
// escapes for non-ASCII when the file writes them so), keeping the continuation lines of a
// value broken after its \n escapes; a removed entry goes with the comment lines right
// above it; a new one is written after the entry before it in theirs, with its separator
// and indentation.

import (
	"fmt"
	"strings"
)

// propSpan is one logical line of a key in a file's text.
type propSpan struct {
	key        string
	value      string
	start, end int // the logical line, end past its "\n" (or at the end of the file)
	valueAt    int // where the raw value starts
	block      int // where the comment lines right above it start (start when none)
	indent     string
	sep        string
	contIndent string // the indentation of its continuation lines; "" when it has none
	continued  bool
}

// scanProperties reads text's keys with where each is; a key given twice has a span each.
func scanProperties(text string) ([]propSpan, error) {
	var out []propSpan
	at, num := 0, 1
	block := -1 // the start of the comment lines seen since the last blank line or key
	for at < len(text) {
		lineEnd := propLineEnd(text, at)
		line := strings.TrimSuffix(text[at:lineEnd], "\n")
		trimmed := strings.TrimLeft(line, " \t\f")
		if trimmed == "" {
			block = -1
			at, num = lineEnd, num+1
			continue
		}
		if trimmed[0] == '#' || trimmed[0] == '!' {
			if block < 0 {
				block = at
			}
			at, num = lineEnd, num+1
			continue
		}
		sp := propSpan{start: at, block: at, indent: line[:len(line)-len(trimmed)]}
		if block >= 0 {
			sp.block = block
		}
		block = -1
		startNum := num
		logical := trimmed
		end := lineEnd
		for propContinued(logical) && end < len(text) {
			next := propLineEnd(text, end)
			l := strings.TrimSuffix(text[end:next], "\n")
			t := strings.TrimLeft(l, " \t\f")
			if !sp.continued {
				sp.contIndent = l[:len(l)-len(t)]
			}
			sp.continued = true
			logical = logical[:len(logical)-1] + t
			end = next
			num++
		}
		if propContinued(logical) {
			logical = logical[:len(logical)-1]
		}
		rawKey, sep, rawValue := splitProperty(logical)
		key, _, err := unescapeProperty(rawKey)
		if err != nil {
			return nil, lineError(startNum, "%v", err)
		}
		value, _, err := unescapeProperty(rawValue)
		if err != nil {
			return nil, lineError(startNum, "%v", err)
		}
		sp.key, sp.value, sp.sep, sp.end = key, value, sep, end
		// A separator running onto a continuation line: the value is rewritten from the
		// first line's end.
		sp.valueAt = min(at+len(sp.indent)+len(rawKey)+len(sep), at+len(line))
		out = append(out, sp)
		at, num = end, num+1
	}
	return out, nil
}

// propLineEnd is the end of the line at at, past its "\n".
func propLineEnd(text string, at int) int {
	if i := strings.IndexByte(text[at:], '\n'); i >= 0 {
		return at + i + 1
	}
	return len(text)
}

// propStyle is how a file escapes what it writes.
type propStyle struct {
	ascii bool // non-ASCII characters as \u escapes
	lower bool // their hex digits in lower case
}

func propStyleOf(text string) propStyle {
	var st propStyle
	if !propIsASCII(text) {
		return st
	}
	for _, m := range propNonASCIIEscapeRE.FindAllString(text, -1) {
		st.ascii = true
		if strings.ToUpper(m[2:]) != strings.ToLower(m[2:]) { // one with a hex letter tells
			st.lower = strings.ToLower(m) == m
			break
		}
	}
	return st
}

func (st propStyle) value(v, sep string) string {
	s := escapeProperty(v, false, st.ascii)
	if st.ascii && st.lower {
		s = propUnicodeEscapeRE.ReplaceAllStringFunc(s, strings.ToLower)
	}
	if !strings.ContainsAny(sep, "=:") && s != "" && (s[0] == '=' || s[0] == ':') {
		s = `\` + s // else it would read as the separator
	}
	return s
}

func mergeProperties(local []byte, theirs *File, o Options) ([]byte, error) {
	lang := fileLanguage(theirs, o)
	text := string(local)
	spans, err := scanProperties(text)
	if err != nil {
		return nil, err
	}
	st := propStyleOf(text)
	want := map[string]Value{}
	for _, e := range theirs.Entries {
		if v, ok := e.Values[lang]; ok {
			want[e.Key] = v
		}
	}
	// last is the span holding each key's value (Java reads the later of two).
	last := map[string]int{}
	for i, sp := range spans {
		last[sp.key] = i
	}
	var edits []Edit
	for i, sp := range spans {
		v, keep := want[sp.key]
		switch {
		case !keep:
			edits = append(edits, Edit{Start: sp.block, End: sp.end})
		case last[sp.key] == i && v.Text != sp.value:
			sep := ""
			if sp.sep == "" {
				sep = "=" // a key alone had no separator
			}
			edits = append(edits, Edit{Start: sp.valueAt, End: propValueEnd(text, sp), Text: sep + propContinue(st.value(v.Text, sp.sep+sep), sp)})
		}
	}
	// New keys go after the entry before them in theirs that the file has.
	anchor := -1 // the span after which the next new key goes; -1: before the first
	for _, e := range theirs.Entries {
		v, ok := e.Values[lang]
		if !ok {
			continue
		}
		if i, have := last[e.Key]; have {
			anchor = i
			continue
		}
		at, like := 0, propSpan{sep: "="}
		switch {
		case anchor >= 0:
			at, like = spans[anchor].end, spans[anchor]
		case len(spans) > 0:
			at, like = spans[0].block, spans[0]
		default:
			at = len(text)
		}
		var b strings.Builder
		if at > 0 && at == len(text) && !strings.HasSuffix(text, "\n") {
			b.WriteString("\n")
		}
		if e.Comment != "" {
			for _, l := range strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(e.Comment), "\n") {
				b.WriteString(like.indent + strings.TrimRight("# "+propEscapeComment(l, st.ascii), " ") + "\n")
			}
		}
		sep := like.sep
		if sep == "" {
			sep = "="
		}
		fmt.Fprintf(&b, "%s%s%s%s\n", like.indent, escapeProperty(e.Key, true, st.ascii), sep, st.value(v.Text, sep))
		edits = append(edits, Edit{Start: at, End: at, Text: b.String()})
	}
	return Splice(local, edits)
}

// propValueEnd is where sp's raw value ends: before the "\n" that ends its last line.
func propValueEnd(text string, sp propSpan) int {
	if sp.end > sp.start && text[sp.end-1] == '\n' {
		return sp.end - 1
	}
	return sp.end
}

// propContinue breaks an escaped value after each \n escape onto continuation lines when
// the entry had them, as the file wrote it.
func propContinue(s string, sp propSpan) string {
	if !sp.continued || !strings.Contains(s, `\n`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte(s[i])
		if s[i] == '\\' && i+1 < len(s) {
			i++
			b.WriteByte(s[i])
			if s[i] == 'n' && i+1 < len(s) {
				b.WriteString("\\\n" + sp.contIndent)
			}
		}
	}
	return b.String()
}
