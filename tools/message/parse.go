package message

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// Scanning limits: every speculative parse looks at most this far, so a
// parse stays linear in the length of the value whatever it contains.
const (
	maxName   = 128  // bytes in an argument or tag name
	maxInner  = 256  // bytes inside {{...}}, ${...}, $t(...), an ICU style, a .NET format
	maxTag    = 2048 // bytes of one tag with its attributes, or of a comment
	maxLink   = 1024 // bytes of a markdown link's text or target
	maxDigits = 9
	maxDepth  = 32 // nested plural/select blocks, tags and links
)

// Parse parses value as a message written in the given syntaxes. It never
// fails: what does not parse is text (or an atom such as an unclosed tag),
// and syntax errors are listed in Problems. Parse(v, s).String() == v for
// every v.
func Parse(value string, syntax Syntax) *Message {
	p := &parser{s: value, syn: syntax}
	nodes, _ := p.seq(0, len(value), ctx{})
	return &Message{Nodes: nodes, Problems: p.problems, Syntax: syntax}
}

type parser struct {
	s        string
	syn      Syntax
	problems []SyntaxError
	depth    int
	// There is no ']' in s[rbFrom:rb]: a run of '[' without one costs
	// O(1) each instead of a bounded scan each.
	rbFrom, rb int
	// Where the last %-argument ended.
	percentEnd int
}

// ctx is what the enclosing structure makes special.
type ctx struct {
	inForm bool // a '}' ends the sequence
	plural bool // '#' is the number
	noTags bool // inside an attribute value
}

func (p *parser) problem(at int, c ProblemCode) {
	p.problems = append(p.problems, SyntaxError{Offset: at, Code: c})
}

func (p *parser) has(s Syntax) bool { return p.syn&s != 0 }

// seq parses s[i:end] into nodes. In a form it stops at the '}' that ends
// the form and returns its index; otherwise it returns end.
func (p *parser) seq(i, end int, c ctx) ([]Node, int) {
	s := p.s
	var nodes []Node
	tags := false
	text := i
	flush := func(at int) {
		if at > text {
			if last, ok := lastText(nodes); ok {
				last.Value += s[text:at]
			} else {
				nodes = append(nodes, &Text{Value: s[text:at]})
			}
		}
	}
	emit := func(at, next int, n Node) {
		flush(at)
		nodes = append(nodes, n)
		text = next
	}
	for i < end {
		n, size := p.piece(i, end, c)
		if n != nil {
			if _, ok := n.(*Tag); ok {
				tags = true
			}
			emit(i, i+size, n)
			i += size
			continue
		}
		if size < 0 { // the '}' that ends a form
			flush(i)
			if tags {
				nodes = buildTags(nodes)
			}
			return nodes, i
		}
		_, w := utf8.DecodeRuneInString(s[i:end])
		i += w
	}
	flush(end)
	if tags {
		nodes = buildTags(nodes)
	}
	return nodes, end
}

func lastText(nodes []Node) (*Text, bool) {
	if len(nodes) == 0 {
		return nil, false
	}
	t, ok := nodes[len(nodes)-1].(*Text)
	return t, ok
}

// piece reads the node that starts at i, if any, and returns it with its
// length. It returns (nil, -1) at the '}' that ends the current form, and
// (nil, 0) when s[i] is text.
func (p *parser) piece(i, end int, c ctx) (Node, int) {
	s := p.s[:end]
	switch s[i] {
	case '{':
		return p.brace(i, end, c)
	case '}':
		if c.inForm && p.has(ICU) {
			return nil, -1
		}
		if p.has(Braces) && !p.has(ICU) && strings.HasPrefix(s[i:], "}}") {
			return &Quoted{Raw: "}}", Value: "}"}, 2
		}
		if p.has(ICU) {
			p.problem(i, UnmatchedBrace)
		}
	case '\'':
		if p.has(ICU) {
			return p.quote(i, end, c)
		}
	case '#':
		if c.plural && p.has(ICU) {
			return &Pound{}, 1
		}
	case '%':
		if p.has(Printf | Rails | Qt) {
			if a := p.percent(s, i); a != nil {
				p.percentEnd = i + len(a.Raw)
				return a, len(a.Raw)
			}
		}
	case '$':
		if p.has(Template) && strings.HasPrefix(s[i:], "${") {
			if a := templateAt(s, i); a != nil {
				return a, len(a.Raw)
			}
		}
		if p.has(I18next) && strings.HasPrefix(s[i:], "$t(") {
			if a := nestingAt(s, i); a != nil {
				return a, len(a.Raw)
			}
		}
	case '&':
		if p.has(HTML) {
			if e := entityAt(s, i); e != nil {
				return e, len(e.Raw)
			}
		}
	case '<':
		if p.has(HTML|React) && !c.noTags && p.depth < maxDepth {
			if t := p.tagAt(s, i, c); t != nil {
				return t, len(t.String())
			}
		}
	case '[', '!':
		if p.has(Markdown) && !c.noTags && p.depth < maxDepth {
			if l, n := p.linkAt(i, end, c); l != nil {
				return l, n
			}
		}
	}
	return nil, 0
}

// brace reads what starts with '{' at i.
func (p *parser) brace(i, end int, c ctx) (Node, int) {
	s := p.s[:end]
	if p.has(I18next) && strings.HasPrefix(s[i:], "{{") {
		if a := doubleBraceAt(s, i); a != nil {
			return a, len(a.Raw)
		}
	}
	if p.has(ICU) {
		if n, size := p.icuArg(i, end, c); n != nil {
			return n, size
		}
	} else if p.has(I18next) {
		if n, size := p.familyBlock(i, end, c); n != nil {
			return n, size
		}
	}
	if p.has(Braces) {
		if a := braceArgAt(s, i); a != nil {
			return a, len(a.Raw)
		}
		if !p.has(ICU) && strings.HasPrefix(s[i:], "{{") {
			return &Quoted{Raw: "{{", Value: "{"}, 2
		}
	}
	if p.has(ICU) {
		p.problem(i, UnclosedBrace)
	}
	return nil, 0
}

// icuArg reads an ICU argument or plural/select block at i.
func (p *parser) icuArg(i, end int, c ctx) (Node, int) {
	s := p.s[:end]
	j := space(s, i+1)
	name, j := ident(s, j)
	if name == "" {
		return nil, 0
	}
	j = space(s, j)
	if j >= len(s) {
		return nil, 0
	}
	if s[j] == '}' {
		return &Arg{Raw: s[i : j+1], Kind: ArgICU, Name: name, Index: argIndex(name)}, j + 1 - i
	}
	if s[j] != ',' {
		return nil, 0
	}
	j = space(s, j+1)
	typ, j := ident(s, j)
	if typ == "" {
		return nil, 0
	}
	j = space(s, j)
	if j >= len(s) || (s[j] != '}' && s[j] != ',') {
		return nil, 0
	}
	if s[j] == '}' {
		return &Arg{Raw: s[i : j+1], Kind: ArgICUFormatted, Name: name, Index: argIndex(name), Type: typ}, j + 1 - i
	}
	switch t := strings.ToLower(typ); t {
	case "plural", "select", "selectordinal":
		return p.selectBlock(i, j+1, end, name, t)
	}
	// {x, number, ::currency/EUR}: the style is opaque.
	k := skipStyle(s, j+1)
	if k < 0 {
		return nil, 0
	}
	return &Arg{Raw: s[i:k], Kind: ArgICUFormatted, Name: name, Index: argIndex(name), Type: typ,
		Style: strings.TrimSpace(s[j+1 : k-1])}, k - i
}

// familyBlock reads, in a value whose syntax has i18next but not ICU, a whole ICU plural,
// selectordinal or select block: lokal stores an i18next plural family (files_one,
// files_other) as one such block. Its forms are read with ICU's rules ('}' ends a form, '#'
// is the number, apostrophes quote); outside blocks "{name}" and "Use { and } to group"
// stay text.
func (p *parser) familyBlock(i, end int, c ctx) (Node, int) {
	saved, problems := p.syn, len(p.problems)
	p.syn |= ICU
	n, size := p.icuArg(i, end, c)
	p.syn = saved
	if _, ok := n.(*Select); ok {
		return n, size
	}
	p.problems = p.problems[:problems]
	return nil, 0
}

// selectBlock reads the rest of a plural/select block whose head ends at j
// (just after "{n, plural,"). Once the head is read the parser commits: a
// block that never closes is kept with a problem, so the forms it has are
// still checked and the parse stays linear.
func (p *parser) selectBlock(i, j, end int, name, typ string) (Node, int) {
	s := p.s[:end]
	if p.depth >= maxDepth {
		p.problem(i, TooDeep)
		k := skipBalanced(s, j, len(s))
		if k < 0 {
			k = len(s)
		}
		return &Text{Value: s[i:k]}, k - i
	}
	p.depth++
	defer func() { p.depth-- }()
	sel := &Select{Arg: name, Type: typ}
	if typ != "select" {
		if k := space(s, j); strings.HasPrefix(s[k:], "offset:") {
			k = space(s, k+len("offset:"))
			if d := digitsAt(s, k); d > k {
				sel.Offset, _ = strconv.Atoi(s[k:d])
				j = d
			}
		}
	}
	sel.Head = s[i:j]
	seen := map[string]bool{}
	after := len(s) // the index after the block
	for {
		k := space(s, j)
		if k >= len(s) {
			p.problem(i, UnclosedSelect)
			sel.Tail = s[j:]
			break
		}
		if s[k] == '}' {
			sel.Tail, after = s[j:k+1], k+1
			break
		}
		selector, open := selectorBrace(s, k)
		if open < 0 {
			// Junk before the next form: it goes into that form's prefix
			// (or the block's tail) so no byte is lost.
			p.problem(k, BadSelector)
			o := strings.IndexAny(s[k:], "{}")
			if o < 0 {
				p.problem(i, UnclosedSelect)
				sel.Tail = s[j:]
				break
			}
			if s[k+o] == '}' {
				sel.Tail, after = s[j:k+o+1], k+o+1
				break
			}
			open = k + o + 1
			selector = lastWord(s[k : k+o])
		}
		if seen[selector] {
			p.problem(k, DuplicateSelector)
		}
		seen[selector] = true
		nodes, stop := p.seq(open, len(s), ctx{inForm: true, plural: typ != "select"})
		f := &Form{Prefix: s[j:open], Selector: selector, Message: &Message{Nodes: nodes, Syntax: p.syn}}
		sel.Forms = append(sel.Forms, f)
		if stop >= len(s) {
			p.problem(i, UnclosedSelect)
			break
		}
		f.Close = "}"
		j = stop + 1
	}
	if !seen["other"] {
		p.problem(i, MissingOther)
	}
	return sel, after - i
}

// lastWord returns the last whitespace-separated word of s.
func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// selectorBrace reads "sel {" (sel an identifier or =N) at j and returns the
// selector and the index after the brace, or -1.
func selectorBrace(s string, j int) (string, int) {
	start := j
	if j < len(s) && s[j] == '=' {
		j++
		k := j
		if k < len(s) && s[k] == '-' {
			k++
		}
		d := digitsAt(s, k)
		if d <= k {
			return "", -1
		}
		j = d
		if j < len(s) && s[j] == '.' {
			if d := digitsAt(s, j+1); d > j+1 {
				j = d
			}
		}
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

// quote reads ICU apostrophe quoting at i: a doubled apostrophe is one, and a '
// before a syntax character quotes up to the next single '.
func (p *parser) quote(i, end int, c ctx) (Node, int) {
	s := p.s[:end]
	if strings.HasPrefix(s[i:], "''") {
		return &Quoted{Raw: "''", Value: "'"}, 2
	}
	if i+1 >= len(s) || !(strings.IndexByte("{}|", s[i+1]) >= 0 || s[i+1] == '#' && c.plural) {
		return nil, 0
	}
	var v strings.Builder
	for k := i + 1; k < len(s); k++ {
		if s[k] != '\'' {
			v.WriteByte(s[k])
			continue
		}
		if k+1 < len(s) && s[k+1] == '\'' {
			v.WriteByte('\'')
			k++
			continue
		}
		return &Quoted{Raw: s[i : k+1], Value: v.String()}, k + 1 - i
	}
	p.problem(i, UnclosedQuote)
	return &Quoted{Raw: s[i:], Value: v.String()}, len(s) - i
}

// doubleBraceAt reads an i18next {{x}}, {{- x}} or {{x, format}} at i.
// Any other content ({{ user.name | upper }}) is kept whole as the name:
// it is still a placeholder a translation must carry.
func doubleBraceAt(s string, i int) *Arg {
	limit := min(len(s), i+2+maxInner+2)
	end := strings.Index(s[i+2:limit], "}}")
	if end < 0 {
		return nil
	}
	inner := s[i+2 : i+2+end]
	if strings.ContainsAny(inner, "{}\n") {
		return nil
	}
	a := &Arg{Raw: s[i : i+2+end+2], Kind: ArgI18next, Index: -1}
	body := strings.TrimSpace(inner)
	if rest, ok := strings.CutPrefix(body, "-"); ok {
		a.Unescaped = true
		body = strings.TrimSpace(rest)
	}
	name, format, _ := strings.Cut(body, ",")
	a.Name = strings.TrimSpace(name)
	a.Type = strings.TrimSpace(format)
	if a.Name == "" {
		return nil
	}
	return a
}

// nestingAt reads an i18next nesting $t(key) or $t(key, {"a": 1}) at i.
func nestingAt(s string, i int) *Arg {
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
			if depth > 0 {
				depth--
				continue
			}
			body := s[i+3 : k]
			key, opts, _ := strings.Cut(body, ",")
			key = strings.TrimSpace(key)
			if key == "" {
				return nil
			}
			return &Arg{Raw: s[i : k+1], Kind: ArgNesting, Name: key, Index: -1, Style: strings.TrimSpace(opts)}
		case c == '\n':
			return nil
		}
	}
	return nil
}

// templateAt reads a template literal placeholder ${x} at i.
func templateAt(s string, i int) *Arg {
	limit := min(len(s), i+2+maxInner+1)
	end := strings.IndexByte(s[i+2:limit], '}')
	if end < 0 {
		return nil
	}
	inner := s[i+2 : i+2+end]
	name := strings.TrimSpace(inner)
	if name == "" || strings.ContainsAny(inner, "{\n") {
		return nil
	}
	return &Arg{Raw: s[i : i+2+end+1], Kind: ArgTemplate, Name: name, Index: -1}
}

// braceArgAt reads a .NET/Python format item at i: {}, {0}, {name},
// {0,-10:C}, {size:.1f}, {name!r}.
func braceArgAt(s string, i int) *Arg {
	limit := min(len(s), i+1+maxInner+1)
	end := strings.IndexByte(s[i+1:limit], '}')
	if end < 0 {
		return nil
	}
	inner := s[i+1 : i+1+end]
	if strings.ContainsAny(inner, "{\n") {
		return nil
	}
	a := &Arg{Raw: s[i : i+1+end+1], Kind: ArgBrace, Index: -1}
	field, spec, hasSpec := strings.Cut(inner, ":")
	if hasSpec {
		if spec == "" {
			return nil
		}
		a.Style = spec
	}
	field, conv, hasConv := strings.Cut(field, "!")
	if hasConv {
		if len(conv) != 1 {
			return nil
		}
		a.Type = "!" + conv
	}
	field, align, hasAlign := strings.Cut(field, ",")
	if hasAlign {
		align = strings.TrimSpace(align)
		if _, err := strconv.Atoi(align); err != nil {
			return nil
		}
		a.Style = "," + align + prefixIf(":", a.Style)
	}
	a.Name = strings.TrimSpace(field)
	if a.Name == "" && field != "" {
		return nil // "{ }" is text
	}
	if a.Name != "" {
		name, k := ident(a.Name, 0)
		for k < len(a.Name) && a.Name[k] == '[' { // {a[0]}
			e := strings.IndexByte(a.Name[k:], ']')
			if e < 0 {
				return nil
			}
			k += e + 1
		}
		if name == "" || k != len(a.Name) {
			return nil
		}
		a.Index = argIndex(a.Name)
		a.Positional = a.Index >= 0
	}
	return a
}

func prefixIf(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

// argIndex returns the number an argument name spells, or -1.
func argIndex(name string) int {
	if name == "" || len(name) > maxDigits {
		return -1
	}
	for i := 0; i < len(name); i++ {
		if name[i] < '0' || name[i] > '9' {
			return -1
		}
	}
	n, _ := strconv.Atoi(name)
	return n
}

// percent reads %%, Rails %{x} and %<x>s, Python %(x)s, a printf verb or a
// Qt %1 at i.
func (p *parser) percent(s string, i int) *Arg {
	j := i + 1
	if j >= len(s) {
		return nil
	}
	if s[j] == '%' {
		if p.has(Printf) {
			return &Arg{Raw: "%%", Kind: ArgPercent, Index: -1}
		}
		return nil
	}
	switch s[j] {
	case '{':
		if !p.has(Rails) {
			return nil
		}
		name, k := ident(s, j+1)
		if name != "" && k < len(s) && s[k] == '}' {
			return &Arg{Raw: s[i : k+1], Kind: ArgRails, Name: name, Index: -1}
		}
		return nil
	case '<', '(':
		kind, closer := ArgRailsFormatted, byte('>')
		if s[j] == '(' {
			kind, closer = ArgPrintfNamed, ')'
		}
		if kind == ArgRailsFormatted && !p.has(Rails) || kind == ArgPrintfNamed && !p.has(Printf) {
			return nil
		}
		name, k := ident(s, j+1)
		if name == "" || k >= len(s) || s[k] != closer {
			return nil
		}
		if a := printfSpec(s, i, k+1, false); a != nil {
			a.Kind, a.Name = kind, name
			return a
		}
		return nil
	}
	// "10%igen", "10%-os": a percent sign after a number is text, not a
	// printf or Qt argument; after an argument ending in a digit (Qt
	// "%1%2") it is one.
	if i > 0 && s[i-1] >= '0' && s[i-1] <= '9' && i != p.percentEnd {
		return nil
	}
	if p.has(Printf) {
		if a := printfSpec(s, i, j, true); a != nil {
			return a
		}
	}
	if p.has(Qt) {
		return qtAt(s, i)
	}
	return nil
}

// printfSpec parses [argnum$][flags][width][.precision][length]conversion
// at j (just after the '%' at i).
func printfSpec(s string, i, j int, argNum bool) *Arg {
	a := &Arg{Kind: ArgPrintf, Index: -1}
	if argNum {
		if k := digitsAt(s, j); k > j && k < len(s) && s[k] == '$' {
			a.Index, _ = strconv.Atoi(s[j:k])
			a.Positional = true
			j = k + 1
		}
	}
	style := j
	// No space flag: "50% off" stays text.
	for n := 0; j < len(s) && n < 5 && strings.IndexByte("-+#0'", s[j]) >= 0; n++ {
		j++
	}
	if j < len(s) && s[j] == '*' {
		j++
	} else if k := digitsAt(s, j); k < 0 {
		return nil
	} else {
		j = k
	}
	if j < len(s) && s[j] == '.' {
		j++
		if j < len(s) && s[j] == '*' {
			j++
		} else if k := digitsAt(s, j); k < 0 {
			return nil
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
		a.Raw, a.Type, a.Style = s[i:j+1], s[j:j+1], s[style:j]
		return a
	}
	return nil
}

// qtAt reads a Qt argument %1..%99, %L1 or %n at i.
func qtAt(s string, i int) *Arg {
	j := i + 1
	if j < len(s) && s[j] == 'L' {
		j++
	}
	if j < len(s) && s[j] == 'n' && (j+1 == len(s) || !isWordByte(s[j+1])) {
		return &Arg{Raw: s[i : j+1], Kind: ArgQt, Name: "n", Index: -1, Style: s[i+1 : j]}
	}
	k := j
	for k < len(s) && k-j < 2 && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	if k == j || s[j] == '0' {
		return nil
	}
	n, _ := strconv.Atoi(s[j:k])
	return &Arg{Raw: s[i:k], Kind: ArgQt, Index: n, Positional: true, Style: s[i+1 : j]}
}

// entityAt reads &name; &#123; or &#x1F; at i.
func entityAt(s string, i int) *Entity {
	j := i + 1
	if j >= len(s) {
		return nil
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
			return nil
		}
	} else {
		for k < len(s) && k-j < 32 && (isASCIILetter(s[k]) || k > j && s[k] >= '0' && s[k] <= '9') {
			k++
		}
		if k == j {
			return nil
		}
	}
	if k >= len(s) || s[k] != ';' {
		return nil
	}
	raw := s[i : k+1]
	e := &Entity{Raw: raw}
	if c := html.UnescapeString(raw); c != raw {
		e.Char = c
	}
	return e
}

// skipStyle returns the index after the '}' that closes an ICU argument
// whose style starts at j, honouring nested braces and apostrophe quotes,
// or -1 when it does not close within bounds.
func skipStyle(s string, j int) int {
	quoted := false
	for d, start := 1, j; j < len(s) && j-start < maxInner; j++ {
		switch c := s[j]; {
		case c == '\'':
			quoted = !quoted
		case quoted:
		case c == '{':
			d++
		case c == '}':
			if d--; d == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// skipBalanced returns the index after the brace that closes an open one,
// or -1.
func skipBalanced(s string, j, end int) int {
	for d := 1; j < end; j++ {
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

// ident reads a name (a letter, digit or '_', then also '.' and '-') at j.
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

func space(s string, j int) int {
	for n := 0; j < len(s) && n < maxName && isASCIISpace(s[j]); n++ {
		j++
	}
	return j
}

func isASCIISpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isWordByte(c byte) bool    { return isASCIILetter(c) || c >= '0' && c <= '9' || c == '_' }
func hexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
