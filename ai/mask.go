package ai

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Token brackets. A token is written ⟦N⟧ (U+27E6, decimal index, U+27E7).
// These brackets were chosen over XML-like tokens such as <x id="0"/>
// because they share no character with any syntax we protect ('{', '%',
// '<', '&', '['), so a placeholder a model invents can never be mistaken
// for a token or the other way round; they survive JSON without escaping;
// they carry nothing translatable (models translate attribute values and
// "reformat" XML); and models keep them as single opaque units.
const (
	tokOpen  = "⟦"
	tokClose = "⟧"
)

// Scanning limits: every speculative parse looks at most this far, so
// masking stays linear in the length of the text whatever it contains.
const (
	maxName   = 128  // bytes in a placeholder or tag name
	maxInner  = 256  // bytes between "{{" and "}}", in $t(...), in an entity
	maxTag    = 2048 // bytes of one tag with its attributes
	maxLink   = 512  // bytes of a markdown link text or target
	maxDigits = 9
	maxFrames = 32 // nested plural/select blocks
)

// Kind says what a token stands for.
type Kind uint8

// Token kinds.
const (
	KindPlaceholder Kind = iota + 1 // {{x}}, $t(k), %{x}, %<x>s, %s, %%, {x}, {x, number}
	KindICUOpen                     // "{n, plural, one {": an ICU block and its first branch
	KindICUNext                     // "} other {": one branch ends, the next begins
	KindICUClose                    // "}}": the last branch and the block end
	KindHash                        // "#" inside a plural branch
	KindTag                         // an opening tag, <a href="...">
	KindEndTag                      // </a>
	KindVoidTag                     // <br>, <img/>, <!-- comment -->
	KindEntity                      // &amp; &nbsp; &#39;
	KindLinkOpen                    // "[" opening a markdown link's text
	KindLinkClose                   // "](url)"
	KindTerm                        // a do-not-translate term
)

// Token is one protected piece of a text.
type Token struct {
	Raw  string // the exact source bytes it replaces
	Kind Kind
	// Name is the lower-cased tag name for tags, and the branch selector
	// (one, few, =0, male ...) for ICU open and next tokens.
	Name string
}

// Table holds the tokens of one masked text; token N is Table[N].
type Table []Token

// Placeholder returns how token n is written in masked text.
func Placeholder(n int) string { return tokOpen + strconv.Itoa(n) + tokClose }

// MaskOptions says what to protect beyond placeholders and markup.
type MaskOptions struct {
	// DoNotTranslate terms are matched case-sensitively as whole words.
	DoNotTranslate []string
	// PluralLang, when set, rewrites ICU plural blocks to the plural
	// categories of that language before masking (see ExpandPlurals), so
	// that a translation into Polish gets one/few/many/other branches.
	PluralLang string
}

// Masked is a text ready for a model.
type Masked struct {
	Source string // the text that was masked (after plural expansion)
	Text   string // Source with every protected piece replaced by a token
	Table  Table
}

// Mask replaces every placeholder and markup piece of text by an opaque
// token. Recognized: i18next {{x}} (also {{x, number}}, {{- x}}) and
// $t(key) / $t(key, {...}); Ruby %{x} and %<x>s; printf %s %d %.2f %1$s %@
// %ld %lld and the escaped %%; Python %(x)s; ICU {x}, {x, number},
// {x, date, short}, and the skeleton of plural, select and selectordinal
// blocks (the branch texts stay translatable, # in a plural branch is a
// token); HTML/XML tags and comments; entities; markdown link targets
// ([text](url): "[" and "](url)" are tokens); and do-not-translate terms.
func Mask(text string, o MaskOptions) Masked {
	src := text
	if o.PluralLang != "" {
		src = ExpandPlurals(text, o.PluralLang)
	}
	m := newMasker(src, o.DoNotTranslate)
	m.run()
	return Masked{Source: src, Text: m.out.String(), Table: m.table}
}

// Unmask puts the raw pieces back in place of the tokens of masked. Text
// that is not a well-formed token of t is left as it is; Verify reports it.
func Unmask(masked string, t Table) string {
	var b strings.Builder
	for rest := masked; ; {
		i := strings.Index(rest, tokOpen)
		if i < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:i])
		n, size := parseToken(rest[i:])
		if size > 0 && n < len(t) {
			b.WriteString(t[n].Raw)
			rest = rest[i+size:]
			continue
		}
		b.WriteString(tokOpen)
		rest = rest[i+len(tokOpen):]
	}
}

// parseToken reads a token at the start of s and returns its number and
// length, or size 0.
func parseToken(s string) (n, size int) {
	if !strings.HasPrefix(s, tokOpen) {
		return 0, 0
	}
	j := len(tokOpen)
	k := j
	for k < len(s) && k-j < 6 && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	if k == j || !strings.HasPrefix(s[k:], tokClose) {
		return 0, 0
	}
	n, _ = strconv.Atoi(s[j:k])
	return n, k + len(tokClose)
}

// tokens returns the token numbers in masked, in order, and whether any
// token bracket was left that is not part of a well-formed token.
func tokens(masked string) (ids []int, stray bool) {
	for rest := masked; ; {
		i := strings.Index(rest, tokOpen)
		j := strings.Index(rest, tokClose)
		if i < 0 {
			return ids, stray || j >= 0
		}
		if j >= 0 && j < i {
			stray = true
		}
		n, size := parseToken(rest[i:])
		if size == 0 {
			stray = true
			rest = rest[i+len(tokOpen):]
			continue
		}
		ids = append(ids, n)
		rest = rest[i+size:]
	}
}

type frame struct{ plural bool }

type masker struct {
	s      string
	terms  []string
	out    strings.Builder
	table  Table
	frames []frame
	// A markdown link whose "](url)" starts at linkAt (-1: none) and ends
	// at linkEnd.
	linkAt, linkEnd int
}

func newMasker(s string, dnt []string) *masker {
	terms := slices.Clone(dnt)
	terms = slices.DeleteFunc(terms, func(t string) bool { return strings.TrimSpace(t) == "" })
	// Longest first, so "Lokal Cloud" wins over "Lokal".
	slices.SortFunc(terms, func(a, b string) int { return len(b) - len(a) })
	return &masker{s: s, terms: terms, linkAt: -1}
}

func (m *masker) emit(raw string, k Kind, name string) {
	m.out.WriteString(Placeholder(len(m.table)))
	m.table = append(m.table, Token{Raw: raw, Kind: k, Name: name})
}

func (m *masker) run() {
	s := m.s
	for i := 0; i < len(s); {
		if i == m.linkAt {
			m.emit(s[i:m.linkEnd], KindLinkClose, "")
			i = m.linkEnd
			m.linkAt = -1
			continue
		}
		if n := m.piece(i); n > 0 {
			i += n
			continue
		}
		if n := m.term(i); n > 0 {
			m.emit(s[i:i+n], KindTerm, "")
			i += n
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		m.out.WriteString(s[i : i+size])
		i += size
	}
}

// piece tries every placeholder and markup form at i, emits the token(s)
// and returns the bytes consumed, or 0.
func (m *masker) piece(i int) int {
	s := m.s
	switch s[i] {
	case '<':
		if n, k, name := tagAt(s, i); n > 0 {
			m.emit(s[i:i+n], k, name)
			return n
		}
	case '&':
		if n := entityAt(s, i); n > 0 {
			m.emit(s[i:i+n], KindEntity, "")
			return n
		}
	case '%':
		if n := percentAt(s, i); n > 0 {
			m.emit(s[i:i+n], KindPlaceholder, "")
			return n
		}
	case '$':
		if n := dollarTAt(s, i); n > 0 {
			m.emit(s[i:i+n], KindPlaceholder, "")
			return n
		}
	case '{':
		if n := doubleBraceAt(s, i); n > 0 {
			m.emit(s[i:i+n], KindPlaceholder, "")
			return n
		}
		return m.icu(i)
	case '}':
		if len(m.frames) > 0 {
			return m.branchEnd(i)
		}
	case '#':
		for _, f := range m.frames {
			if f.plural {
				m.emit("#", KindHash, "")
				return 1
			}
		}
	case '[':
		if m.linkAt < 0 {
			if at, end := linkAt(s, i); at > 0 {
				m.linkAt, m.linkEnd = at, end
				m.emit("[", KindLinkOpen, "")
				return 1
			}
		}
	}
	return 0
}

// icu handles a '{' that is not i18next: an ICU argument, a formatted
// argument, or the head of a plural/select block.
func (m *masker) icu(i int) int {
	s := m.s
	j := space(s, i+1)
	name, j := ident(s, j)
	if name == "" {
		return 0
	}
	j = space(s, j)
	if j >= len(s) {
		return 0
	}
	if s[j] == '}' {
		m.emit(s[i:j+1], KindPlaceholder, "")
		return j + 1 - i
	}
	if s[j] != ',' {
		return 0
	}
	j = space(s, j+1)
	typ, j := ident(s, j)
	if typ == "" {
		return 0
	}
	j = space(s, j)
	if j >= len(s) || (s[j] != '}' && s[j] != ',') {
		return 0
	}
	if s[j] == '}' {
		m.emit(s[i:j+1], KindPlaceholder, "")
		return j + 1 - i
	}
	switch typ {
	case "plural", "select", "selectordinal":
	default: // {x, number, ::currency/EUR}: the style is not text
		end := skipBalanced(s, j+1)
		if end < 0 {
			return 0
		}
		m.emit(s[i:end], KindPlaceholder, "")
		return end - i
	}
	if len(m.frames) >= maxFrames {
		return 0
	}
	j = space(s, j+1)
	if strings.HasPrefix(s[j:], "offset:") {
		j = space(s, j+len("offset:"))
		k := j
		for k < len(s) && k-j < maxDigits && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j {
			return 0
		}
		j = space(s, k)
	}
	sel, end := selectorBrace(s, j)
	if end < 0 {
		return 0
	}
	m.frames = append(m.frames, frame{plural: typ != "select"})
	m.emit(s[i:end], KindICUOpen, sel)
	return end - i
}

// branchEnd handles the '}' that closes an ICU branch at i: either the
// next branch follows ("} other {") or the block ends ("}}").
func (m *masker) branchEnd(i int) int {
	s := m.s
	j := space(s, i+1)
	if j < len(s) && s[j] == '}' {
		m.frames = m.frames[:len(m.frames)-1]
		m.emit(s[i:j+1], KindICUClose, "")
		return j + 1 - i
	}
	if sel, end := selectorBrace(s, j); end > 0 {
		m.emit(s[i:end], KindICUNext, sel)
		return end - i
	}
	// Malformed: leave the block so the rest is scanned as plain text.
	m.frames = m.frames[:len(m.frames)-1]
	return 0
}

// selectorBrace reads "sel {" (sel an identifier or =N) at j and returns the
// selector and the index after the brace, or end -1.
func selectorBrace(s string, j int) (string, int) {
	start := j
	if j < len(s) && s[j] == '=' {
		j++
		k := j
		if k < len(s) && s[k] == '-' {
			k++
		}
		for k < len(s) && k-j < maxDigits && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j {
			return "", -1
		}
		j = k
	} else {
		var sel string
		sel, j = ident(s, j)
		if sel == "" {
			return "", -1
		}
	}
	sel := s[start:j]
	j = space(s, j)
	if j >= len(s) || s[j] != '{' {
		return "", -1
	}
	return sel, j + 1
}

// term matches a do-not-translate term at i as a whole word.
func (m *masker) term(i int) int {
	s := m.s
	for _, t := range m.terms {
		if strings.HasPrefix(s[i:], t) && wordBoundary(s, i, i+len(t)) {
			return len(t)
		}
	}
	return 0
}

// wordBoundary reports whether s[i:j] is not glued to a word character on
// either side. ASCII words only stop at ASCII word characters, so a Latin
// brand name inside Japanese text ("Lokalを") still counts as a word.
func wordBoundary(s string, i, j int) bool {
	if i > 0 {
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		first, _ := utf8.DecodeRuneInString(s[i:])
		if glued(before, first) {
			return false
		}
	}
	if j < len(s) {
		after, _ := utf8.DecodeRuneInString(s[j:])
		last, _ := utf8.DecodeLastRuneInString(s[:j])
		if glued(last, after) {
			return false
		}
	}
	return true
}

func glued(a, b rune) bool {
	if !isWord(a) || !isWord(b) {
		return false
	}
	return (a < utf8.RuneSelf) == (b < utf8.RuneSelf)
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// voidElements never have a closing tag.
var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "param": true,
	"source": true, "track": true, "wbr": true,
}

// tagAt reads a tag or comment at s[i] == '<' and returns its length, kind
// and lower-cased name, or length 0. "a < b" and "<3" are text.
func tagAt(s string, i int) (int, Kind, string) {
	j := i + 1
	if strings.HasPrefix(s[j:], "!--") {
		end := strings.Index(s[j+3:], "-->")
		if end < 0 || end > maxTag {
			return 0, 0, ""
		}
		return j + 3 + end + 3 - i, KindVoidTag, "!--"
	}
	end := false
	if j < len(s) && s[j] == '/' {
		end = true
		j++
	}
	k := j
	for k < len(s) && k-j < maxName && (isASCIILetter(s[k]) || k > j && (s[k] >= '0' && s[k] <= '9' || s[k] == '-' || s[k] == ':' || s[k] == '_' || s[k] == '.')) {
		k++
	}
	if k == j {
		return 0, 0, ""
	}
	name := strings.ToLower(s[j:k])
	if k < len(s) && !(s[k] == '>' || s[k] == '/' || isASCIISpace(s[k])) {
		return 0, 0, ""
	}
	// Attributes up to '>', honouring quotes.
	var quote byte
	for ; k < len(s) && k-i <= maxTag; k++ {
		c := s[k]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '<':
			return 0, 0, ""
		case c == '>':
			n := k + 1 - i
			switch {
			case end:
				return n, KindEndTag, name
			case s[k-1] == '/' || voidElements[name]:
				return n, KindVoidTag, name
			default:
				return n, KindTag, name
			}
		}
	}
	return 0, 0, ""
}

// entityAt reads &name; &#123; or &#x1F; at i.
func entityAt(s string, i int) int {
	j := i + 1
	if j >= len(s) {
		return 0
	}
	k := j
	if s[j] == '#' {
		k++
		hex := k < len(s) && (s[k] == 'x' || s[k] == 'X')
		if hex {
			k++
		}
		d := k
		for k < len(s) && k-d < 8 && (s[k] >= '0' && s[k] <= '9' || hex && hexDigit(s[k])) {
			k++
		}
		if k == d {
			return 0
		}
	} else {
		for k < len(s) && k-j < 32 && (isASCIILetter(s[k]) || k > j && s[k] >= '0' && s[k] <= '9') {
			k++
		}
		if k == j {
			return 0
		}
	}
	if k < len(s) && s[k] == ';' {
		return k + 1 - i
	}
	return 0
}

// percentAt reads %%, %{x}, %<x>s, %(x)s or a printf verb at i.
func percentAt(s string, i int) int {
	j := i + 1
	if j >= len(s) {
		return 0
	}
	switch s[j] {
	case '%':
		return 2
	case '{':
		name, k := ident(s, j+1)
		if name != "" && k < len(s) && s[k] == '}' {
			return k + 1 - i
		}
		return 0
	case '<', '(':
		closer := byte('>')
		if s[j] == '(' {
			closer = ')'
		}
		name, k := ident(s, j+1)
		if name == "" || k >= len(s) || s[k] != closer {
			return 0
		}
		if end := PrintfSpec(s, k+1, false); end > 0 {
			return end - i
		}
		return 0
	}
	if end := PrintfSpec(s, j, true); end > 0 {
		return end - i
	}
	return 0
}

// PrintfSpec parses [argnum$][flags][width][.precision][length]conversion
// at j (just after a '%') and returns the index after the conversion, or 0.
// It is the one printf grammar of lokal: the checkup's placeholder scanner
// uses it too, so QA and masking agree on what a printf placeholder is.
func PrintfSpec(s string, j int, argNum bool) int {
	if argNum {
		if k := digitsAt(s, j); k > j && k < len(s) && s[k] == '$' {
			j = k + 1
		}
	}
	// No space flag: "50% off" must stay text.
	for n := 0; j < len(s) && n < 5 && strings.IndexByte("-+#0'", s[j]) >= 0; n++ {
		j++
	}
	if j < len(s) && s[j] == '*' {
		j++
	} else if k := digitsAt(s, j); k < 0 {
		return 0
	} else {
		j = k
	}
	if j < len(s) && s[j] == '.' {
		j++
		if j < len(s) && s[j] == '*' {
			j++
		} else if k := digitsAt(s, j); k < 0 {
			return 0
		} else {
			j = k
		}
	}
	for _, l := range [...]string{"hh", "ll", "h", "l", "L", "q", "j", "z", "t"} {
		if strings.HasPrefix(s[j:], l) {
			j += len(l)
			break
		}
	}
	if j < len(s) && strings.IndexByte("diouxXeEfFgGcsp@", s[j]) >= 0 {
		return j + 1
	}
	return 0
}

func digitsAt(s string, j int) int {
	k := j
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		if k-j >= maxDigits {
			return -1
		}
		k++
	}
	return k
}

// doubleBraceAt reads an i18next {{...}} at i.
func doubleBraceAt(s string, i int) int {
	if !strings.HasPrefix(s[i:], "{{") {
		return 0
	}
	end := strings.Index(s[i+2:min(len(s), i+2+maxInner+2)], "}}")
	if end < 0 {
		return 0
	}
	inner := s[i+2 : i+2+end]
	if strings.TrimSpace(inner) == "" || strings.ContainsAny(inner, "{\n") {
		return 0
	}
	return end + 4
}

// dollarTAt reads an i18next nesting $t(key) or $t(key, {"a": 1}) at i.
func dollarTAt(s string, i int) int {
	if !strings.HasPrefix(s[i:], "$t(") {
		return 0
	}
	depth := 0
	var quote byte
	for k := i + 3; k < len(s) && k-i < maxInner; k++ {
		c := s[k]
		switch {
		case quote != 0:
			if c == '\\' {
				k++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(' || c == '{':
			depth++
		case c == '}':
			depth--
		case c == ')':
			if depth == 0 {
				if k == i+3 {
					return 0
				}
				return k + 1 - i
			}
			depth--
		case c == '\n':
			return 0
		}
	}
	return 0
}

// linkAt looks for a markdown link starting with '[' at i and returns the
// index of its "](" and the index after its ")", or 0, 0.
func linkAt(s string, i int) (int, int) {
	limit := min(len(s), i+1+maxLink)
	at := strings.Index(s[i+1:limit], "](")
	if at < 0 {
		return 0, 0
	}
	at += i + 1
	if strings.ContainsAny(s[i+1:at], "[\n") {
		return 0, 0
	}
	limit = min(len(s), at+2+maxLink)
	end := strings.IndexByte(s[at+2:limit], ')')
	if end <= 0 {
		return 0, 0
	}
	url := s[at+2 : at+2+end]
	if strings.ContainsAny(url, "\n(") {
		return 0, 0
	}
	return at, at + 2 + end + 1
}

// skipBalanced returns the index after the brace that closes an already
// open one, or -1 if it never closes within bounds.
func skipBalanced(s string, j int) int {
	for d, start := 1, j; j < len(s) && j-start < maxInner; j++ {
		switch s[j] {
		case '{':
			d++
		case '}':
			if d--; d == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// ident reads a placeholder name (letter, digit or '_', then also '.' and
// '-') at j.
func ident(s string, j int) (string, int) {
	k := j
	for k < len(s) {
		r, size := utf8.DecodeRuneInString(s[k:])
		word := r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
		if !word && (k == j || (r != '.' && r != '-')) {
			break
		}
		if k+size-j > maxName {
			return "", j
		}
		k += size
	}
	return s[j:k], k
}

func space(s string, j int) int {
	for n := 0; j < len(s) && n < maxName && isASCIISpace(s[j]); n++ {
		j++
	}
	return j
}

func isASCIISpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func hexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
