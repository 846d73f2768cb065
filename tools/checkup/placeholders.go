package checkup

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/ai"
)

// Lookahead limits. Every speculative parse looks at most this far before
// giving up, so a failed attempt costs O(1) and a scan stays linear in the
// length of the value even for adversarial input.
const (
	maxNameLen  = 128 // bytes in a placeholder name
	maxInnerLen = 256 // bytes between "{{" and "}}"
	maxICUDepth = 32  // nested plural/select blocks before we stop descending
)

// Placeholders returns the placeholders of a value as a sorted multiset
// (e.g. ["%{name}", "{count}"]).
//
// Recognized forms: %{name}, %(name)s, {name}, {{name}} (inner whitespace
// removed, so "{{ name }}" is "{{name}}"), printf verbs such as %s, %d, %.2f,
// %1$s, %lld and Apple's %@. "%%" is an escaped percent sign, not a
// placeholder. An ICU argument with a format ({price, number}) counts as
// {price}. An ICU plural/select/selectordinal block counts as its argument
// ({count}) plus the distinct placeholders used inside its branches; the
// branch texts' own braces and the selectors are syntax, and placeholders
// are de-duplicated within the block because languages legitimately have
// different numbers of plural branches.
func Placeholders(s string) []string {
	p := phScanner{s: s}
	var out []string
	p.text(0, false, 0, &out)
	if len(out) == 0 {
		return nil
	}
	slices.Sort(out)
	return out
}

// literalText returns s with all placeholder syntax replaced by spaces, so
// that what remains is the translatable prose (ICU branch texts included).
func literalText(s string) string {
	var b strings.Builder
	p := phScanner{s: s, lit: &b}
	var sink []string
	p.text(0, false, 0, &sink)
	return b.String()
}

type phScanner struct {
	s   string
	lit *strings.Builder // when non-nil, receives the literal (non-syntax) text
}

func (p *phScanner) flush(start, end int) {
	if p.lit != nil && end > start {
		p.lit.WriteString(p.s[start:end])
		p.lit.WriteByte(' ')
	}
}

// text scans literal text from i. Inside an ICU branch (inBranch) it stops
// at the first unmatched '}' and returns its index; otherwise it runs to the
// end of s. Every byte is consumed once; speculative parses are bounded.
func (p *phScanner) text(i int, inBranch bool, depth int, sink *[]string) int {
	s := p.s
	start := i
	for i < len(s) {
		switch s[i] {
		case '%':
			if i+1 < len(s) && s[i+1] == '%' {
				i += 2 // "%%" is a literal percent sign
				continue
			}
			if n, ph := p.percent(i); n > 0 {
				p.flush(start, i)
				*sink = append(*sink, ph)
				i += n
				start = i
				continue
			}
		case '{':
			if n := p.brace(i, depth, sink); n > 0 {
				p.flush(start, i)
				i += n
				start = i
				continue
			}
		case '}':
			if inBranch {
				p.flush(start, i)
				return i
			}
		}
		i++
	}
	p.flush(start, i)
	return i
}

// percent parses a %-placeholder at s[i] == '%' and returns its length and
// normalized form, or 0 if there is none.
func (p *phScanner) percent(i int) (int, string) {
	s := p.s
	j := i + 1
	if j >= len(s) {
		return 0, ""
	}
	switch s[j] {
	case '{': // Ruby/Rails %{name}
		name, k := p.ident(j + 1)
		if name != "" && k < len(s) && s[k] == '}' {
			return k + 1 - i, "%{" + name + "}"
		}
		return 0, ""
	case '(': // Python %(name)s
		name, k := p.ident(j + 1)
		if name == "" || k >= len(s) || s[k] != ')' {
			return 0, ""
		}
		if end := ai.PrintfSpec(s, k+1, false); end > 0 {
			return end - i, s[i:end]
		}
		return 0, ""
	}
	if end := ai.PrintfSpec(s, j, true); end > 0 {
		return end - i, s[i:end]
	}
	return 0, ""
}

// brace parses a placeholder at s[i] == '{' and returns how many bytes it
// consumed (0 if this brace is literal text). Placeholders found are
// appended to sink.
func (p *phScanner) brace(i, depth int, sink *[]string) int {
	s := p.s
	if i+1 < len(s) && s[i+1] == '{' {
		if n, ph := p.doubleBrace(i); n > 0 {
			*sink = append(*sink, ph)
			return n
		}
	}
	j := p.space(i + 1)
	name, j := p.ident(j)
	if name == "" {
		return 0
	}
	j = p.space(j)
	if j >= len(s) {
		return 0
	}
	if s[j] == '}' {
		*sink = append(*sink, "{"+name+"}")
		return j + 1 - i
	}
	if s[j] != ',' {
		return 0
	}
	// ICU argument: {name, type[, style]}.
	j = p.space(j + 1)
	typ, j := p.ident(j)
	if typ == "" {
		return 0
	}
	j = p.space(j)
	if j >= len(s) || (s[j] != '}' && s[j] != ',') {
		return 0
	}
	arg := "{" + name + "}"
	if s[j] == '}' {
		*sink = append(*sink, arg)
		return j + 1 - i
	}
	// From here on we commit: "{name, type," is unmistakably ICU, and never
	// backtracking keeps the scan linear on unbalanced input.
	switch strings.ToLower(typ) {
	case "plural", "select", "selectordinal":
		var inner []string
		if depth >= maxICUDepth {
			j = skipBalanced(s, j+1)
		} else {
			j = p.branches(j+1, depth+1, &inner)
		}
		inner = append(inner, arg)
		slices.Sort(inner)
		*sink = append(*sink, slices.Compact(inner)...)
	default: // number, date, time, ...: the style is not text
		j = skipBalanced(s, j+1)
		*sink = append(*sink, arg)
	}
	return j - i
}

// doubleBrace parses an i18next {{name}} at i.
func (p *phScanner) doubleBrace(i int) (int, string) {
	s := p.s
	var b strings.Builder
	for j := i + 2; j < len(s) && j-i-2 <= maxInnerLen; {
		r, size := utf8.DecodeRuneInString(s[j:])
		switch {
		case r == '}':
			if j+1 < len(s) && s[j+1] == '}' && b.Len() > 0 {
				return j + 2 - i, "{{" + b.String() + "}}"
			}
			return 0, ""
		case r == '{', r == utf8.RuneError && size == 1, unicode.IsControl(r) && !unicode.IsSpace(r):
			return 0, ""
		case !unicode.IsSpace(r):
			b.WriteRune(r)
		}
		j += size
	}
	return 0, ""
}

// branches scans the "selector {text} selector {text} ...}" part of an ICU
// plural/select block starting at j, and returns the index after its closing
// brace (or len(s) if unbalanced).
func (p *phScanner) branches(j, depth int, sink *[]string) int {
	s := p.s
	for j < len(s) {
		switch s[j] {
		case '}':
			return j + 1
		case '{':
			j = p.text(j+1, true, depth, sink)
			if j < len(s) {
				j++ // the branch's closing brace
			}
		default: // selector, "offset:1", "=0", whitespace
			j++
		}
	}
	return j
}

// skipBalanced returns the index after the brace that closes an
// already-open one, counting nesting, or len(s).
func skipBalanced(s string, j int) int {
	for d := 1; j < len(s); j++ {
		switch s[j] {
		case '{':
			d++
		case '}':
			if d--; d == 0 {
				return j + 1
			}
		}
	}
	return j
}

// ident reads a placeholder name (a letter, digit or '_', then also '.' and
// '-') of at most
// maxNameLen bytes starting at j. It returns "" if there is none or it is
// too long, and the index after it.
func (p *phScanner) ident(j int) (string, int) {
	s := p.s
	k := j
	for k < len(s) {
		r, size := utf8.DecodeRuneInString(s[k:])
		word := r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
		// A name starts with a word character so "{...}" or "{-}" stay text.
		if !word && (k == j || (r != '.' && r != '-')) {
			break
		}
		if k+size-j > maxNameLen {
			return "", j
		}
		k += size
	}
	return s[j:k], k
}

// space skips a bounded run of ASCII whitespace.
func (p *phScanner) space(j int) int {
	for n := 0; j < len(p.s) && n < maxNameLen && isASCIISpace(p.s[j]); n++ {
		j++
	}
	return j
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}
