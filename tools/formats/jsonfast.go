package formats

import (
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// jsonFast reads a well-formed JSON file into the tree parseJSON makes, several times
// faster than encoding/json's token stream (a 10,000-key String Catalog is 4 MB). It takes
// only what it is sure of: anything else (a syntax error, a key given twice, nesting past
// maxJSONDepth) answers ok false, and parseJSON reads the file again the slow way, which
// finds the error and names it. Strings with escapes or invalid UTF-8 are decoded by
// encoding/json, so that every string is what the slow way makes of it.
type jsonFast struct {
	data []byte
	i    int
	keys []string
	vals []*jsonNode
}

func parseJSONFast(data []byte) (*jsonNode, bool) {
	p := &jsonFast{data: data}
	p.space()
	n, ok := p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	return n, p.i == len(p.data)
}

func (p *jsonFast) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value reads the value at p.i; a node's Offset is just past its first token, as
// encoding/json's Decoder.InputOffset gives it.
func (p *jsonFast) value(depth int) (*jsonNode, bool) {
	if p.i >= len(p.data) {
		return nil, false
	}
	switch c := p.data[p.i]; c {
	case '"':
		s, ok := p.str()
		if !ok {
			return nil, false
		}
		return &jsonNode{Kind: jsonString, Str: s, Offset: int64(p.i)}, true
	case '{', '[':
		if depth >= maxJSONDepth {
			return nil, false
		}
		p.i++
		if c == '[' {
			return p.array(depth)
		}
		return p.object(depth)
	case 't':
		return p.literal("true", jsonBool)
	case 'f':
		return p.literal("false", jsonBool)
	case 'n':
		return p.literal("null", jsonNull)
	}
	return p.number()
}

func (p *jsonFast) literal(word string, kind jsonKind) (*jsonNode, bool) {
	if len(p.data)-p.i < len(word) || string(p.data[p.i:p.i+len(word)]) != word {
		return nil, false
	}
	p.i += len(word)
	n := &jsonNode{Kind: kind, Offset: int64(p.i)}
	if kind == jsonBool {
		n.Str = word
	}
	return n, true
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? and keeps its literal.
func (p *jsonFast) number() (*jsonNode, bool) {
	start, d := p.i, p.data
	digits := func() int {
		n := 0
		for p.i < len(d) && d[p.i] >= '0' && d[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.i < len(d) && d[p.i] == '-' {
		p.i++
	}
	if p.i < len(d) && d[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, false
	}
	if p.i < len(d) && d[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, false
		}
	}
	if p.i < len(d) && (d[p.i] == 'e' || d[p.i] == 'E') {
		p.i++
		if p.i < len(d) && (d[p.i] == '+' || d[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, false
		}
	}
	return &jsonNode{Kind: jsonNumber, Str: string(d[start:p.i]), Offset: int64(p.i)}, true
}

// str reads the string at p.i and leaves p.i past its closing quote.
func (p *jsonFast) str() (string, bool) {
	start := p.i
	p.i++
	plain := true
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			raw := p.data[start:p.i]
			if plain {
				return string(raw[1 : len(raw)-1]), true
			}
			var s string
			if json.Unmarshal(raw, &s) != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			plain = false
			p.i += 2
			continue
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(p.data[p.i:])
			if r == utf8.RuneError && size == 1 {
				plain = false
			}
			p.i += size
			continue
		}
		p.i++
	}
	return "", false
}

func (p *jsonFast) array(depth int) (*jsonNode, bool) {
	n := &jsonNode{Kind: jsonArray, Offset: int64(p.i)}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return n, true
	}
	for {
		p.space()
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		n.Vals = append(n.Vals, v)
		p.space()
		if p.i >= len(p.data) {
			return nil, false
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return n, true
		default:
			return nil, false
		}
	}
}

func (p *jsonFast) object(depth int) (*jsonNode, bool) {
	n := &jsonNode{Kind: jsonObject, Offset: int64(p.i)}
	base := len(p.keys)
	defer func() {
		p.keys = p.keys[:base]
		p.vals = p.vals[:base]
	}()
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return n, true
	}
	var seen map[string]bool
	for {
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, false
		}
		key, ok := p.str()
		if !ok {
			return nil, false
		}
		if len(p.keys)-base >= 8 && seen == nil {
			seen = make(map[string]bool, 2*(len(p.keys)-base))
			for _, k := range p.keys[base:] {
				seen[k] = true
			}
		}
		if (seen != nil && seen[key]) || (seen == nil && containsString(p.keys[base:], key)) {
			return nil, false
		}
		if seen != nil {
			seen[key] = true
		}
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, false
		}
		p.i++
		p.space()
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		p.keys = append(p.keys, key)
		p.vals = append(p.vals, v)
		p.space()
		if p.i >= len(p.data) {
			return nil, false
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			n.Keys = slices.Clone(p.keys[base:])
			n.Vals = slices.Clone(p.vals[base:])
			return n, true
		default:
			return nil, false
		}
	}
}
