package formats

// What the XML codecs' Merge share: the byte spans xmlParse records, and the rules for
// removing an element (with its line and the comment lines right above it) and for
// writing a new one indented like the element it follows.

import (
	"bytes"
	"strings"
)

// xmlWSStart is where the white space before at begins on its line, the newline ending the
// line before included; at itself when something else precedes it on its line.
func xmlWSStart(data []byte, at int) int {
	i := at
	for i > 0 && (data[i-1] == ' ' || data[i-1] == '\t') {
		i--
	}
	switch {
	case i > 0 && data[i-1] == '\n':
		return i - 1
	case i == 0:
		return 0
	}
	return at
}

// xmlRemoval is the span an element at [start, end) takes with it when it goes: its line,
// and the comments on the lines right above it (no blank line between), which are its own.
func xmlRemoval(data []byte, start, end int) Edit {
	s := xmlWSStart(data, start)
	for bytes.HasSuffix(data[:s], []byte("-->")) {
		c := bytes.LastIndex(data[:s], []byte("<!--"))
		if c < 0 {
			break
		}
		cs := xmlWSStart(data, c)
		if cs == c && c > 0 {
			break // the comment ends a line that holds something else
		}
		s = cs
	}
	return Edit{Start: s, End: end}
}

// xmlIndent is the white space before at on its line ("" when something else precedes it).
func xmlIndent(data []byte, at int) string {
	s := xmlWSStart(data, at)
	if s == at {
		return ""
	}
	return strings.TrimPrefix(string(data[s:at]), "\n")
}

// xmlStep is one level of indentation as the file has it around n: the difference between
// n's first child element's indentation and n's, else two spaces.
func xmlStep(data []byte, n *xlNode) string {
	outer := xmlIndent(data, n.start)
	for _, k := range n.elements() {
		if in := xmlIndent(data, k.start); len(in) > len(outer) && strings.HasPrefix(in, outer) {
			return in[len(outer):]
		}
	}
	if strings.HasPrefix(outer, "\t") {
		return "\t"
	}
	return "  "
}

// xmlReindent rewrites the indentation of text, written by an encoder with base spaces
// for its outermost lines and two per level, as indent and step per level.
func xmlReindent(text string, base int, indent, step string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if i == 0 && !strings.HasPrefix(text, "\n") && l != "" {
			continue // the text starts mid-line
		}
		k := len(l) - len(strings.TrimLeft(l, " "))
		if k < base || l == "" {
			continue
		}
		lines[i] = indent + strings.Repeat(step, (k-base)/2) + strings.Repeat(" ", (k-base)%2) + l[k:]
	}
	return strings.Join(lines, "\n")
}
