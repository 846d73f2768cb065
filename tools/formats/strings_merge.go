package formats

// Merge of an Apple .strings file (Codec.Merge): an unchanged pair keeps its bytes; a
// changed value rewrites the value's string alone (quoted as before, unquoted only when
// it was and the new one may be); a removed pair goes with the comments right above it and
// the blank line before them; a new pair is written after the pair before it in theirs,
// with its comment and the blank line the file puts between pairs.

import (
	"strings"
)

// stringsSpan is one pair of a .strings text and where it is.
type stringsSpan struct {
	key, value        string
	hasValue          bool // "key" = "value"; rather than "key";
	valueAt, valueEnd int  // the value's string (or, without one, where " = ..." goes)
	quoted            bool
	block, start, end int // block: its comments' line; end: past its line's "\n"
	indent            string
}

func scanStrings(text string) ([]stringsSpan, error) {
	sc := &stringsScanner{s: text, line: 1}
	var out []stringsSpan
	block := -1
	for {
		if sc.space() {
			block = -1
		}
		if sc.i >= len(sc.s) {
			return out, nil
		}
		if strings.HasPrefix(sc.s[sc.i:], "/*") || strings.HasPrefix(sc.s[sc.i:], "//") {
			if block < 0 {
				block = sc.i
			}
			if _, err := sc.comment(); err != nil {
				return nil, err
			}
			continue
		}
		line := sc.line
		sp := stringsSpan{start: sc.i}
		key, err := sc.str()
		if err != nil {
			return nil, err
		}
		keyEnd := sc.i
		sc.skipAll()
		sp.key, sp.value, sp.valueAt, sp.valueEnd = key, key, keyEnd, keyEnd
		if sc.i < len(sc.s) && sc.s[sc.i] == '=' {
			sc.i++
			sc.skipAll()
			sp.valueAt, sp.quoted = sc.i, sc.i < len(sc.s) && sc.s[sc.i] == '"'
			if sp.value, err = sc.str(); err != nil {
				return nil, err
			}
			sp.valueEnd, sp.hasValue = sc.i, true
			sc.skipAll()
		}
		if sc.i >= len(sc.s) || sc.s[sc.i] != ';' {
			return nil, lineError(sc.line, "expected ';' after the pair that starts on line %d", line)
		}
		sc.i++
		if block < 0 {
			block = sp.start
		}
		// Whole lines when the pair (and its comments) has its lines to itself.
		ls := strings.LastIndexByte(text[:block], '\n') + 1
		if strings.TrimSpace(text[ls:block]) == "" {
			block = ls
		}
		sp.block = block
		ps := strings.LastIndexByte(text[:sp.start], '\n') + 1
		sp.indent = text[ps:sp.start]
		if strings.TrimSpace(sp.indent) != "" {
			sp.indent = ""
		}
		sp.end = sc.i
		if le := propLineEnd(text, sc.i); strings.TrimSpace(text[sc.i:le]) == "" {
			sp.end = le
		}
		block = -1
		out = append(out, sp)
	}
}

func mergeStrings(local []byte, theirs *File, o Options) ([]byte, error) {
	lang := fileLanguage(theirs, o)
	text := string(local)
	spans, err := scanStrings(text)
	if err != nil {
		return nil, err
	}
	want := map[string]Value{}
	for _, e := range theirs.Entries {
		if v, ok := e.Values[lang]; ok {
			want[e.Key] = v
		}
	}
	last := map[string]int{}
	// compact: no blank line between pairs, so none around a new one.
	compact := true
	for i, sp := range spans {
		last[sp.key] = i
		if i > 0 && strings.Contains(text[spans[i-1].end:sp.block], "\n") || strings.HasPrefix(text[sp.block:], "\n") {
			compact = false
		}
	}
	var edits []Edit
	for i, sp := range spans {
		v, keep := want[sp.key]
		switch {
		case !keep:
			start := sp.block
			// The blank line before it goes too, unless the next line is a pair.
			if start > 0 && strings.HasSuffix(text[:start], "\n\n") && (sp.end == len(text) || text[sp.end] == '\n') {
				start--
			}
			edits = append(edits, Edit{Start: start, End: sp.end})
		case last[sp.key] == i && v.Text != sp.value:
			s := `"` + stringsEscape(v.Text) + `"`
			if sp.hasValue && !sp.quoted && stringsUnquotable(v.Text) {
				s = v.Text
			}
			if !sp.hasValue {
				s = " = " + s
			}
			edits = append(edits, Edit{Start: sp.valueAt, End: sp.valueEnd, Text: s})
		}
	}
	// A new pair before every kept one goes before the first kept one; with none kept, at
	// the end (a removed pair's bytes are not a place to write at).
	firstKept := -1
	for i, sp := range spans {
		if _, keep := want[sp.key]; keep {
			firstKept = i
			break
		}
	}
	anchor := -1
	for _, e := range theirs.Entries {
		v, ok := e.Values[lang]
		if !ok {
			continue
		}
		if i, have := last[e.Key]; have {
			anchor = i
			continue
		}
		var b strings.Builder
		at, indent, before := len(text), "", firstKept < 0
		switch {
		case anchor >= 0:
			at, indent, before = spans[anchor].end, spans[anchor].indent, true
		case firstKept >= 0:
			at, indent = spans[firstKept].block, spans[firstKept].indent
		}
		if at > 0 && !strings.HasSuffix(text[:at], "\n") {
			b.WriteString("\n")
		}
		// A blank line between pairs, and after the header of a file with none.
		if before && (!compact || len(spans) == 0) && at > 0 && !strings.HasSuffix(text[:at], "\n\n") {
			b.WriteString("\n")
		}
		if e.Comment != "" {
			if e.Meta["comment"] == "//" {
				for _, l := range strings.Split(e.Comment, "\n") {
					b.WriteString(indent + strings.TrimRight("// "+l, " ") + "\n")
				}
			} else {
				b.WriteString(indent + "/* " + strings.ReplaceAll(e.Comment, "*/", `*\/`) + " */\n")
			}
		}
		b.WriteString(indent + `"` + stringsEscape(e.Key) + `" = "` + stringsEscape(v.Text) + "\";\n")
		if !compact && !before {
			b.WriteString("\n")
		}
		edits = append(edits, Edit{Start: at, End: at, Text: b.String()})
	}
	return Splice(local, edits)
}

// stringsUnquotable: s may be written without quotes in the old plist syntax.
func stringsUnquotable(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !unquotedByte(s[i]) {
			return false
		}
	}
	return true
}
