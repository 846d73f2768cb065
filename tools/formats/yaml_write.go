package formats

import (
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The yaml export is written here byte by byte as yaml.v3's encoder (indent 2, no line
// width) writes the node tree of encodeYAMLNodes: building that tree and running the
// emitter cost a 50,000-key export most of a CPU-second. What this writer does not handle
// (comments, a key that is not a simple key, text that yaml.v3 would fold over lines) makes
// it give up, and the file is encoded through yaml.v3 instead; TestYAMLWriterEqualsEmitter
// holds the two equal.

// appendYAMLDoc writes the document: the language key and the tree under it. ok is false
// when the writer cannot write it as yaml.v3 would.
func appendYAMLDoc(b []byte, langKey *yaml.Node, tree *yamlTree, sorted bool) ([]byte, bool) {
	if len(tree.kids) == 0 {
		return b, false
	}
	b, ok := appendYAMLScalar(b, langKey, true, 0)
	if !ok {
		return b, false
	}
	b = append(b, ':', '\n')
	return tree.appendYAML(b, 2, sorted, true, false)
}

// appendYAML writes t as a block mapping (or sequence) whose entries are at column col;
// inline: the first entry's line is already begun ("- ").
func (t *yamlTree) appendYAML(b []byte, col int, sorted, top, inline bool) ([]byte, bool) {
	kids := t.ordered(sorted)
	seq := t.isSequence(kids, sorted, top)
	for i, k := range kids {
		if k.comment != "" {
			return b, false
		}
		if !(inline && i == 0) {
			b = appendSpaces(b, col)
		}
		var ok bool
		if seq {
			k = t.kid(itoa(i))
			b = append(b, '-')
			b, ok = k.appendYAMLValue(b, col, sorted, true)
		} else {
			if b, ok = appendYAMLScalar(b, yamlString(k.name, true), true, col); ok {
				b = append(b, ':')
				b, ok = k.appendYAMLValue(b, col, sorted, false)
			}
		}
		if !ok {
			return b, false
		}
	}
	return b, true
}

// appendYAMLValue writes k's value after its key's ":" or its item's "-".
func (k *yamlKid) appendYAMLValue(b []byte, col int, sorted, item bool) ([]byte, bool) {
	if k.child != nil {
		if item {
			return k.child.appendYAML(append(b, ' '), col+2, sorted, false, true)
		}
		return k.child.appendYAML(append(b, '\n'), col+2, sorted, false, false)
	}
	return appendYAMLNode(b, k.leaf, col, item)
}

// appendYAMLNode writes a leaf: a scalar, or a plural's mapping of scalars.
func appendYAMLNode(b []byte, n *yaml.Node, col int, item bool) ([]byte, bool) {
	if n.HeadComment != "" || n.LineComment != "" || n.FootComment != "" {
		return b, false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Value == "" && n.Style == 0 && n.Tag == "" {
			// A null written as nothing: yaml.v3 writes "key:" with no space.
			return append(b, '\n'), !item
		}
		b, ok := appendYAMLScalar(append(b, ' '), n, false, col)
		return append(b, '\n'), ok
	case yaml.MappingNode:
		if len(n.Content) == 0 {
			return b, false
		}
		sub := col + 2
		if item {
			b = append(b, ' ')
		} else {
			b = append(b, '\n')
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !(item && i == 0) {
				b = appendSpaces(b, sub)
			}
			var ok bool
			if b, ok = appendYAMLScalar(b, n.Content[i], true, sub); !ok {
				return b, false
			}
			b = append(b, ':')
			if b, ok = appendYAMLNode(b, n.Content[i+1], sub, false); !ok {
				return b, false
			}
		}
		return b, true
	}
	return b, false
}

// appendYAMLScalar writes a scalar node as yaml.v3's emitter does in block context (key:
// a simple key), its content lines (a literal block) at col+2. The nodes are those of
// yamlString and yamlValue: tag !!str (dropped, forcing quotes where a plain scalar would
// read as another type) or none.
func appendYAMLScalar(b []byte, n *yaml.Node, key bool, col int) ([]byte, bool) {
	s := n.Value
	if !utf8.ValidString(s) || n.Style&^(yaml.DoubleQuotedStyle) != 0 || n.Kind != yaml.ScalarNode {
		return b, false
	}
	if n.Tag != "" && n.Tag != "!!str" {
		return b, false
	}
	style := yaml.Style(0) // plain
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		style = yaml.DoubleQuotedStyle
	case strings.Contains(s, "\n"):
		style = yaml.LiteralStyle
	case n.Tag == "!!str":
		switch yamlStrResolve(s) {
		case yamlResolvesOther:
			style = yaml.DoubleQuotedStyle // yaml.v3's forceQuoting
		case yamlResolvesUnknown:
			return b, false
		}
	}
	a := analyzeYAMLScalar(s)
	if key && (a.multiline || len(s) > 128) {
		return b, false // not a simple key: yaml.v3 writes "? key"
	}
	if style == 0 {
		if !a.blockPlain || len(s) == 0 && key {
			style = yaml.SingleQuotedStyle
		}
	}
	if style == yaml.SingleQuotedStyle && !a.singleQuoted {
		style = yaml.DoubleQuotedStyle
	}
	if style == yaml.LiteralStyle && (!a.block || key) {
		style = yaml.DoubleQuotedStyle
	}
	if style == yaml.LiteralStyle && a.trailingBreak {
		return b, false // yaml.v3 ends the document with "..." after some of these
	}
	switch style {
	case 0:
		return append(b, s...), true
	case yaml.SingleQuotedStyle:
		if a.multiline {
			return b, false
		}
		b = append(b, '\'')
		for i := 0; i < len(s); i++ {
			if s[i] == '\'' {
				b = append(b, '\'')
			}
			b = append(b, s[i])
		}
		return append(b, '\''), true
	case yaml.DoubleQuotedStyle:
		return appendYAMLDoubleQuoted(b, s), true
	}
	return appendYAMLLiteral(b, s, col+2), true
}

const (
	yamlResolvesStr = iota
	yamlResolvesOther
	yamlResolvesUnknown
)

// yamlStrResolve is what yaml.v3's resolve makes of a plain scalar s, as far as the writer
// needs: the core schema's words of letters are not strings; what starts with another
// character that resolve looks at is left to yaml.v3 (yamlString double-quotes all of
// those anyway).
func yamlStrResolve(s string) int {
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		return yamlResolvesOther
	}
	if s == "" || strings.IndexByte("+-0123456789.<~", s[0]) >= 0 {
		return yamlResolvesUnknown
	}
	return yamlResolvesStr
}

// yamlScalarAnalysis is yaml_emitter_analyze_scalar's result.
type yamlScalarAnalysis struct {
	multiline, blockPlain, singleQuoted, block bool
	trailingBreak                              bool
}

// analyzeYAMLScalar is yaml.v3's yaml_emitter_analyze_scalar (emitterc.go), block context.
func analyzeYAMLScalar(s string) yamlScalarAnalysis {
	if len(s) == 0 {
		return yamlScalarAnalysis{blockPlain: true, singleQuoted: true}
	}
	var blockIndicators, lineBreaks, special, tabs, leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		blockIndicators = true
	}
	precededByWhitespace, previousSpace, previousBreak := true, false, false
	for i, w := 0, 0; i < len(s); i += w {
		w = yamlWidth(s[i])
		followedByWhitespace := i+w >= len(s) || s[i+w] == ' ' || s[i+w] == '\t'
		if i == 0 {
			switch s[i] {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				blockIndicators = true
			case '?', ':', '-':
				if followedByWhitespace {
					blockIndicators = true
				}
			}
		} else {
			switch s[i] {
			case ':':
				if followedByWhitespace {
					blockIndicators = true
				}
			case '#':
				if precededByWhitespace {
					blockIndicators = true
				}
			}
		}
		if s[i] == '\t' {
			tabs = true
		} else if !yamlPrintable(s, i) {
			special = true
		}
		if s[i] == ' ' {
			if i == 0 {
				leadingSpace = true
			}
			if i+w == len(s) {
				trailingSpace = true
			}
			if previousBreak {
				breakSpace = true
			}
			previousSpace, previousBreak = true, false
		} else if yamlBreak(s, i) {
			lineBreaks = true
			if i == 0 {
				leadingBreak = true
			}
			if i+w == len(s) {
				trailingBreak = true
			}
			if previousSpace {
				spaceBreak = true
			}
			previousSpace, previousBreak = false, true
		} else {
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = s[i] == ' ' || s[i] == '\t' || s[i] == 0 || yamlBreak(s, i)
	}
	a := yamlScalarAnalysis{multiline: lineBreaks, blockPlain: true, singleQuoted: true, block: true, trailingBreak: trailingBreak}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		a.blockPlain = false
	}
	if trailingSpace {
		a.block = false
	}
	if breakSpace {
		a.blockPlain, a.singleQuoted = false, false
	}
	if spaceBreak || tabs || special {
		a.blockPlain, a.singleQuoted = false, false
	}
	if spaceBreak || special {
		a.block = false
	}
	if lineBreaks || blockIndicators {
		a.blockPlain = false
	}
	return a
}

func yamlWidth(c byte) int {
	switch {
	case c&0x80 == 0:
		return 1
	case c&0xE0 == 0xC0:
		return 2
	case c&0xF0 == 0xE0:
		return 3
	case c&0xF8 == 0xF0:
		return 4
	}
	return 0
}

// yamlAt is s[i], 0 past the end (yaml.v3's buffers are NUL-terminated).
func yamlAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// yamlPrintable is yaml.v3's is_printable.
func yamlPrintable(s string, i int) bool {
	c := s[i]
	return c == 0x0A || c >= 0x20 && c <= 0x7E ||
		c == 0xC2 && yamlAt(s, i+1) >= 0xA0 ||
		c > 0xC2 && c < 0xED ||
		c == 0xED && yamlAt(s, i+1) < 0xA0 ||
		c == 0xEE ||
		c == 0xEF && !(yamlAt(s, i+1) == 0xBB && yamlAt(s, i+2) == 0xBF) &&
			!(yamlAt(s, i+1) == 0xBF && (yamlAt(s, i+2) == 0xBE || yamlAt(s, i+2) == 0xBF))
}

// yamlBreak is yaml.v3's is_break.
func yamlBreak(s string, i int) bool {
	c := s[i]
	return c == '\r' || c == '\n' ||
		c == 0xC2 && yamlAt(s, i+1) == 0x85 ||
		c == 0xE2 && yamlAt(s, i+1) == 0x80 && (yamlAt(s, i+2) == 0xA8 || yamlAt(s, i+2) == 0xA9)
}

// appendYAMLDoubleQuoted is yaml_emitter_write_double_quoted_scalar with no line width.
func appendYAMLDoubleQuoted(b []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	bom := strings.HasPrefix(s, "\xef\xbb\xbf") // yaml.v3's is_bom looks at the value's start, for every character
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if !(bom || c == '"' || c == '\\' || !yamlPrintable(s, i) || yamlBreak(s, i)) {
			w := max(yamlWidth(c), 1)
			b = append(b, s[i:min(i+w, len(s))]...)
			i += w
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		b = append(b, '\\')
		switch r {
		case 0x00:
			b = append(b, '0')
		case 0x07:
			b = append(b, 'a')
		case 0x08:
			b = append(b, 'b')
		case 0x09:
			b = append(b, 't')
		case 0x0A:
			b = append(b, 'n')
		case 0x0b:
			b = append(b, 'v')
		case 0x0c:
			b = append(b, 'f')
		case 0x0d:
			b = append(b, 'r')
		case 0x1b:
			b = append(b, 'e')
		case 0x22:
			b = append(b, '"')
		case 0x5c:
			b = append(b, '\\')
		case 0x85:
			b = append(b, 'N')
		case 0xA0:
			b = append(b, '_')
		case 0x2028:
			b = append(b, 'L')
		case 0x2029:
			b = append(b, 'P')
		default:
			n := 8
			switch {
			case r <= 0xFF:
				b, n = append(b, 'x'), 2
			case r <= 0xFFFF:
				b, n = append(b, 'u'), 4
			default:
				b = append(b, 'U')
			}
			for k := (n - 1) * 4; k >= 0; k -= 4 {
				b = append(b, hex[(r>>uint(k))&0x0F])
			}
		}
	}
	return append(b, '"')
}

// appendYAMLLiteral is yaml_emitter_write_literal_scalar: "|", the indentation and
// chomping indicators, and the lines at col (empty lines empty).
func appendYAMLLiteral(b []byte, s string, col int) []byte {
	b = append(b, '|')
	if s[0] == ' ' || yamlBreak(s, 0) {
		b = append(b, '2')
	}
	b = append(b, '-') // no trailing line break: appendYAMLScalar leaves those to yaml.v3
	b = append(b, '\n')
	breaks := true
	for i := 0; i < len(s); {
		w := max(yamlWidth(s[i]), 1)
		if yamlBreak(s, i) {
			b = append(b, s[i:i+w]...)
			breaks = true
		} else {
			if breaks {
				b = appendSpaces(b, col)
			}
			b = append(b, s[i:i+w]...)
			breaks = false
		}
		i += w
	}
	return b
}

func appendSpaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// itoa is strconv.Itoa for the small indexes of a sequence.
func itoa(i int) string {
	if i < 10 {
		return "0123456789"[i : i+1]
	}
	var buf [20]byte
	n := len(buf)
	for i > 0 {
		n--
		buf[n] = byte('0' + i%10)
		i /= 10
	}
	return string(buf[n:])
}
