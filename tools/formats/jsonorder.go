package formats

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// The JSON codecs (json, i18next, arb, xcstrings) read a file into jsonNode trees rather
// than Go maps: a map loses the order of the keys, and the order is part of what a file
// says (an i18next or ARB file is written back in its own order). The one reader is
// jsontext's Decoder; every value records its bytes in the file (Start, End) and every
// object member the start of its key, so that a Merge can patch the file in place. It
// refuses an object that gives the same key twice (JSON leaves that undefined and readers
// disagree on which one wins, so a translation would be lost silently), naming the line
// of the second one. Invalid UTF-8 and lone surrogate escapes read as U+FFFD, as
// encoding/json reads them.

// jsonKind is the kind of a JSON value.
type jsonKind uint8

const (
	jsonString jsonKind = iota + 1
	jsonNumber
	jsonBool
	jsonNull
	jsonObject
	jsonArray
)

func (k jsonKind) String() string {
	switch k {
	case jsonString:
		return "a string"
	case jsonNumber:
		return "a number"
	case jsonBool:
		return "a boolean"
	case jsonNull:
		return "null"
	case jsonObject:
		return "an object"
	}
	return "an array"
}

// jsonNode is one JSON value. Objects keep their members in file order.
type jsonNode struct {
	Kind jsonKind
	// Str is a string's text, a number's literal, "true" or "false".
	Str string
	// Keys and Vals are an object's members in order; Vals an array's items.
	Keys []string
	Vals []*jsonNode
	// Start and End are the value's bytes in the file read (data[Start:End]); KeyStart,
	// of an object member's value, where its key starts (the opening quote). Nodes made
	// to be written have none.
	Start, End, KeyStart int64
}

// get returns the value of an object's member, or nil.
func (n *jsonNode) get(key string) *jsonNode {
	if i := n.index(key); i >= 0 {
		return n.Vals[i]
	}
	return nil
}

// index is the position of an object's member, -1 when it has none.
func (n *jsonNode) index(key string) int {
	if n == nil || n.Kind != jsonObject {
		return -1
	}
	for i, k := range n.Keys {
		if k == key {
			return i
		}
	}
	return -1
}

// text is a string's text, "" for nil or another kind.
func (n *jsonNode) text() string {
	if n == nil || n.Kind != jsonString {
		return ""
	}
	return n.Str
}

// set replaces or appends an object member.
func (n *jsonNode) set(key string, v *jsonNode) {
	for i, k := range n.Keys {
		if k == key {
			n.Vals[i] = v
			return
		}
	}
	n.Keys = append(n.Keys, key)
	n.Vals = append(n.Vals, v)
}

func jsonStr(s string) *jsonNode { return &jsonNode{Kind: jsonString, Str: s} }
func jsonObj() *jsonNode {
	return &jsonNode{Kind: jsonObject, Keys: make([]string, 0, 4), Vals: make([]*jsonNode, 0, 4)}
}

// maxJSONDepth bounds nesting, so a hostile file cannot exhaust the stack.
const maxJSONDepth = 64

// parseJSON reads one JSON value (a UTF-8 byte order mark before it is skipped: offsets
// are then into data without it). A file that is not JSON, or has an object with a key
// given twice, is a *FileError naming the line.
func parseJSON(data []byte) (*jsonNode, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	p := &jsonParser{data: data, dec: jsontext.NewDecoder(bytes.NewBuffer(data), jsontext.AllowInvalidUTF8(true))}
	if p.dec.PeekKind() == 0 {
		if _, err := p.dec.ReadToken(); err == io.EOF {
			return nil, offsetError(data, int64(len(data)), "empty file, want a JSON object")
		}
	}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.ReadToken(); err != io.EOF {
		rest := bytes.TrimLeft(data[n.End:], " \t\r\n")
		return nil, offsetError(data, int64(len(data)-len(rest)), "data after the JSON value")
	}
	return n, nil
}

type jsonParser struct {
	data []byte
	dec  *jsontext.Decoder
	// keys and vals gather the members of the objects being read, so that each
	// object's slices are made once, at their size.
	keys []string
	vals []*jsonNode
	buf  []byte
}

// fail turns the decoder's error into a FileError.
func (p *jsonParser) fail(err error) error {
	var se *jsontext.SyntacticError
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return offsetError(p.data, int64(len(p.data)), "invalid JSON: the file ends inside a value")
	case errors.Is(err, jsontext.ErrDuplicateName) && errors.As(err, &se):
		return offsetError(p.data, se.ByteOffset, "key %q is given twice in one object", se.JSONPointer.LastToken())
	case errors.As(err, &se):
		return offsetError(p.data, se.ByteOffset, "invalid JSON: %s", strings.TrimPrefix(se.Err.Error(), "jsontext: "))
	}
	return offsetError(p.data, p.dec.InputOffset(), "invalid JSON: %v", err)
}

// str is the text of a JSON string as read (quotes included).
func (p *jsonParser) str(raw []byte) string {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body)
	}
	// The decoder checked the syntax: an error here is invalid UTF-8, made U+FFFD.
	p.buf, _ = jsontext.AppendUnquote(p.buf[:0], raw)
	return string(p.buf)
}

func (p *jsonParser) value(depth int) (*jsonNode, error) {
	switch k := p.dec.PeekKind(); k {
	case '{', '[':
		if depth >= maxJSONDepth {
			return nil, offsetError(p.data, p.dec.InputOffset(), "JSON nested more than %d levels deep", maxJSONDepth)
		}
		if _, err := p.dec.ReadToken(); err != nil {
			return nil, p.fail(err)
		}
		if k == '[' {
			return p.array(depth)
		}
		return p.object(depth)
	}
	raw, err := p.dec.ReadValue()
	if err != nil {
		return nil, p.fail(err)
	}
	end := p.dec.InputOffset()
	n := &jsonNode{Start: end - int64(len(raw)), End: end}
	switch raw.Kind() {
	case '"':
		n.Kind, n.Str = jsonString, p.str(raw)
	case '0':
		n.Kind, n.Str = jsonNumber, string(raw)
	case 't', 'f':
		n.Kind, n.Str = jsonBool, string(raw)
	default:
		n.Kind = jsonNull
	}
	return n, nil
}

func (p *jsonParser) array(depth int) (*jsonNode, error) {
	n := &jsonNode{Kind: jsonArray, Start: p.dec.InputOffset() - 1}
	for p.dec.PeekKind() != ']' {
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.Vals = append(n.Vals, v)
	}
	if _, err := p.dec.ReadToken(); err != nil {
		return nil, p.fail(err)
	}
	n.End = p.dec.InputOffset()
	return n, nil
}

func (p *jsonParser) object(depth int) (*jsonNode, error) {
	n := &jsonNode{Kind: jsonObject, Start: p.dec.InputOffset() - 1}
	base := len(p.keys)
	defer func() {
		p.keys = p.keys[:base]
		p.vals = p.vals[:base]
	}()
	for p.dec.PeekKind() != '}' {
		// The name is read as a raw value: the decoder checks it is a string given once.
		raw, err := p.dec.ReadValue()
		if err != nil {
			return nil, p.fail(err)
		}
		at, key := p.dec.InputOffset()-int64(len(raw)), p.str(raw)
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.KeyStart = at
		p.keys = append(p.keys, key)
		p.vals = append(p.vals, v)
	}
	if _, err := p.dec.ReadToken(); err != nil {
		return nil, p.fail(err)
	}
	n.End = p.dec.InputOffset()
	n.Keys = slices.Clone(p.keys[base:])
	n.Vals = slices.Clone(p.vals[base:])
	return n, nil
}

// jsonWriter writes JSON text. Strings are escaped as encoding/json escapes them with
// HTML escaping off (what renderJSON has always written): ", \, control characters,
// U+2028 and U+2029; invalid UTF-8 becomes U+FFFD.
type jsonWriter struct {
	b bytes.Buffer
	// colon separates a key from its value: ": " (Go, Flutter, i18next) or " : " (Xcode).
	colon string
	// slash escapes '/' as "\/" (what some Apple writers do).
	slash bool
	// xcodeEmpty writes an empty object or array as Xcode does, "{\n\n<indent>}", not "{}".
	xcodeEmpty bool
	// order gives the order to write an object's keys in (Xcode's), nil for the order they
	// have; a nil order func keeps node order.
	order func(keys []string) []int
	// unit is one level of indentation ("" for two spaces) and prefix what every new line
	// starts with: a Merge writes a value inside a file in the file's indentation.
	unit, prefix string
	// ascii escapes every character past ASCII as \uXXXX, html escapes <, > and &, upper
	// writes the hex digits of \u escapes in upper case: spellings a Merge follows.
	ascii, html, upper bool
}

const hexDigits = "0123456789abcdef"

func (w *jsonWriter) str(s string) {
	b := &w.b
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && !(c == '/' && w.slash) && !(w.html && (c == '<' || c == '>' || c == '&')) {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch c {
			case '"', '\\', '/':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			default:
				w.escape(rune(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' || w.ascii {
			b.WriteString(s[start:i])
			if r >= 0x10000 {
				r1, r2 := utf16.EncodeRune(r)
				w.escape(r1)
				w.escape(r2)
			} else {
				w.escape(r)
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// escape writes r (below U+10000) as \uXXXX.
func (w *jsonWriter) escape(r rune) {
	digits := hexDigits
	if w.upper {
		digits = "0123456789ABCDEF"
	}
	w.b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		w.b.WriteByte(digits[(r>>shift)&0xf])
	}
}

func (w *jsonWriter) indent(depth int) {
	w.b.WriteByte('\n')
	w.b.WriteString(w.prefix)
	unit := w.unit
	if unit == "" {
		unit = "  "
	}
	for range depth {
		w.b.WriteString(unit)
	}
}

// node writes n indented at depth (two spaces a level).
func (w *jsonWriter) node(n *jsonNode, depth int) {
	switch n.Kind {
	case jsonString:
		w.str(n.Str)
	case jsonNumber, jsonBool:
		w.b.WriteString(n.Str)
	case jsonNull:
		w.b.WriteString("null")
	case jsonArray:
		if len(n.Vals) == 0 {
			w.empty("[", "]", depth)
			return
		}
		w.b.WriteByte('[')
		for i, v := range n.Vals {
			if i > 0 {
				w.b.WriteByte(',')
			}
			w.indent(depth + 1)
			w.node(v, depth+1)
		}
		w.indent(depth)
		w.b.WriteByte(']')
	case jsonObject:
		if len(n.Keys) == 0 {
			w.empty("{", "}", depth)
			return
		}
		var order []int
		if w.order != nil && len(n.Keys) > 1 {
			order = w.order(n.Keys)
		}
		w.b.WriteByte('{')
		for j := range n.Keys {
			i := j
			if order != nil {
				i = order[j]
			}
			if j > 0 {
				w.b.WriteByte(',')
			}
			w.indent(depth + 1)
			w.str(n.Keys[i])
			w.b.WriteString(w.colon)
			w.node(n.Vals[i], depth+1)
		}
		w.indent(depth)
		w.b.WriteByte('}')
	}
}

func identity(n int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	return order
}

func (w *jsonWriter) empty(open, close string, depth int) {
	w.b.WriteString(open)
	if w.xcodeEmpty {
		w.b.WriteByte('\n')
		w.indent(depth)
	}
	w.b.WriteString(close)
}

// canonicalJSON is n written compactly, members in node order: how the codecs keep a part
// of a file they do not model in a Meta value.
func canonicalJSON(n *jsonNode) string {
	var w jsonWriter
	w.compact(n)
	return w.b.String()
}

func (w *jsonWriter) compact(n *jsonNode) {
	switch n.Kind {
	case jsonArray:
		w.b.WriteByte('[')
		for i, v := range n.Vals {
			if i > 0 {
				w.b.WriteByte(',')
			}
			w.compact(v)
		}
		w.b.WriteByte(']')
	case jsonObject:
		var order []int
		if w.order != nil && len(n.Keys) > 1 {
			order = w.order(n.Keys)
		}
		w.b.WriteByte('{')
		for j := range n.Keys {
			i := j
			if order != nil {
				i = order[j]
			}
			if j > 0 {
				w.b.WriteByte(',')
			}
			w.str(n.Keys[i])
			w.b.WriteByte(':')
			w.compact(n.Vals[i])
		}
		w.b.WriteByte('}')
	default:
		w.node(n, 0)
	}
}

// parseMetaJSON reads back a Meta value written by canonicalJSON.
func parseMetaJSON(what, s string) (*jsonNode, error) {
	n, err := parseJSON([]byte(s))
	if err != nil {
		return nil, fmt.Errorf("formats: Meta %s is not JSON: %w", what, err)
	}
	return n, nil
}
