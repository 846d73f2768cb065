package formats

// Merge of Rails YAML (Codec.Merge): lokal's export written into the repository's file as
// an edit of it. The file is read twice, as values (decodeYAML) and as nodes (yaml.v3,
// whose Line and Column say where each starts; where a scalar, a flow collection or an
// entry ends is scanned from the bytes here). Every edit is a byte range (Splice):
//
//   - a changed scalar rewrites only the scalar (an anchor before it stays), in its own
//     style when that can hold the new text, else plain -> single -> double quoted; a
//     multi-line text goes into the block style the file writes multi-line values in;
//   - a plural (one:/other: children) rewrites only the forms that changed, adds the
//     forms the language gains and drops those it loses;
//   - a sequence item rewrites only its item; a sequence that gains or loses items is
//     written again whole, as the entry that holds it;
//   - a key theirs lacks goes with the comment lines right above it, and a mapping left
//     empty by that goes too; a new key is written after the key before it in theirs
//     (inside the right parent, created if needed), indented as the file indents;
//   - a key read through an alias or a merge (<<: *defaults) that changed is written
//     over it: an alias is replaced by the entry's own values, a merged key gets a key of
//     the merging mapping that overrides it, and a merged key theirs lacks (YAML cannot
//     take one out of a merge) has the merging mapping written again with theirs' keys.
//     Anchors stay where they are.
//
// The root key is the language. A file made by copying the source file (root en: in a
// German file) gets theirs' language as its root; a root that names the same language in
// another spelling (pt_BR for pt-BR) is kept. The result is decoded again and must hold
// exactly theirs' values; an edit that a first pass cannot see (an alias reading a value
// that changed under its anchor) is made by a second pass, and a file no pass can bring
// there (its keys in one flow mapping, say) is written whole by Encode, with the file's
// comments, rather than left wrong.

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

func mergeYAML(local []byte, theirs *File, o Options) ([]byte, error) {
	lang := o.Language
	if lang == "" || lang == AllLanguages {
		if len(theirs.Languages) == 0 {
			return nil, fmt.Errorf("formats: yaml: no language")
		}
		lang = theirs.Languages[0]
	}
	root := cmp.Or(theirs.Meta["language"], lang)
	want := map[string]string{}
	for _, e := range theirs.Entries {
		if v, ok := e.Values[lang]; ok {
			want[e.Key] = v.Text
		}
	}
	cur := local
	for pass := 0; pass < 3; pass++ {
		f, err := decodeYAML(cur, Options{Language: lang})
		if err != nil {
			if pass == 0 {
				return nil, fmt.Errorf("the repository's file does not read: %w", err)
			}
			break
		}
		if yamlHolds(f, want, lang, root) {
			return cur, nil
		}
		m, err := newYAMLMerger(cur, f, theirs, want, lang, root)
		if err != nil {
			break
		}
		m.firstPass = pass == 0
		edits, ok := m.plan()
		if !ok {
			break
		}
		if cur, err = Splice(cur, edits); err != nil {
			break
		}
	}
	return yamlMergeFallback(local, theirs, lang, root)
}

// yamlHolds says whether f holds exactly want, under the root key root.
func yamlHolds(f *File, want map[string]string, lang, root string) bool {
	if !sameLanguageName(cmp.Or(f.Meta["language"], lang), root) || len(f.Entries) != len(want) {
		return false
	}
	for _, e := range f.Entries {
		if w, ok := want[e.Key]; !ok || w != e.Values[lang].Text {
			return false
		}
	}
	return true
}

// sameLanguageName: pt_BR and pt-br name the same language as pt-BR.
func sameLanguageName(a, b string) bool {
	return strings.EqualFold(strings.ReplaceAll(a, "_", "-"), strings.ReplaceAll(b, "_", "-"))
}

// yamlMergeFallback writes theirs whole, with the comments local has for the same keys.
func yamlMergeFallback(local []byte, theirs *File, lang, root string) ([]byte, error) {
	f := &File{Languages: []string{lang}, Entries: slices.Clone(theirs.Entries)}
	if lf, err := decodeYAML(local, Options{Language: lang}); err == nil {
		f.Meta = map[string]string{}
		for k, v := range lf.Meta {
			if k != "language" {
				f.Meta[k] = v
			}
		}
		byKey := map[string]Entry{}
		for _, e := range lf.Entries {
			byKey[e.Key] = e
		}
		for i, e := range f.Entries {
			if l, ok := byKey[e.Key]; ok {
				f.Entries[i].Comment, f.Entries[i].Meta = l.Comment, l.Meta
			}
		}
	}
	setMetaText(&f.Meta, "language", root, root != lang)
	return encodeYAML(f, Options{Language: lang})
}

// ---- the file's nodes ----

// yEnt is one pair of a mapping, or one item of a sequence, as the file writes it.
type yEnt struct {
	path, name string
	key, val   *yaml.Node // key is nil for a sequence item
	coll       *yColl     // the collection it is written in
	kids       *yColl     // the collection it holds, when written here (not an alias)
	leaf       bool       // decode reads path as one value (a scalar or a plural)
	pind       int        // the indentation its value must exceed: its key's, or its dash's
}

// yColl is a mapping or sequence written in the file.
type yColl struct {
	node   *yaml.Node
	path   string
	owner  *yEnt // nil for the language's mapping
	ents   []*yEnt
	byName map[string]*yEnt
	first  *yaml.Node // the first key (a merge key included), nil in a sequence
	merge  bool       // has a merge key (<<)
	seq    bool
	flow   bool
}

type yGroup struct {
	coll  *yColl
	name  string
	first int // index in theirs.Entries of its first key
	pos   int // where it is inserted
}

type yamlMerger struct {
	s        []byte
	lines    []int
	theirs   *File
	want     map[string]string
	have     map[string]string
	lang     string
	root     *yColl
	rootKey  *yaml.Node
	rootLang string
	byPath   map[string]*yEnt
	order    []*yEnt // every entry, in file order

	st   yStyle
	pref yaml.Style // the style of the values around what is being written

	// firstPass leaves keys read through an alias or a merge to the next pass, which sees
	// what they read once their anchors are written.
	firstPass bool

	edits    []Edit
	big      []Edit // removals and rewrites of whole entries: edits inside them give way
	removed  map[*yEnt]bool
	rewrite  map[*yEnt]bool
	groups   []*yGroup
	groupKey map[[2]any]*yGroup
	groupOf  map[string]*yGroup // theirs' keys placed in a group
}

func newYAMLMerger(data []byte, f *File, theirs *File, want map[string]string, lang, rootLang string) (*yamlMerger, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode || len(doc.Content[0].Content) != 2 {
		return nil, fmt.Errorf("not one language mapping")
	}
	top := doc.Content[0]
	body := top.Content[1]
	if body.Kind != yaml.MappingNode || body.Style&yaml.FlowStyle != 0 || len(body.Content) == 0 {
		return nil, fmt.Errorf("the language holds no block mapping")
	}
	m := &yamlMerger{s: data, lines: []int{0}, theirs: theirs, want: want, have: map[string]string{}, lang: lang,
		rootKey: top.Content[0], rootLang: rootLang, byPath: map[string]*yEnt{},
		removed: map[*yEnt]bool{}, rewrite: map[*yEnt]bool{}, groupKey: map[[2]any]*yGroup{}, groupOf: map[string]*yGroup{}}
	for i, c := range data {
		if c == '\n' {
			m.lines = append(m.lines, i+1)
		}
	}
	for _, e := range f.Entries {
		m.have[e.Key] = e.Values[lang].Text
	}
	m.root = m.walk(body, "", nil, false)
	m.st = m.style()
	return m, nil
}

func yJoin(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (m *yamlMerger) walk(n *yaml.Node, path string, owner *yEnt, flow bool) *yColl {
	c := &yColl{node: n, path: path, owner: owner, byName: map[string]*yEnt{}, seq: n.Kind == yaml.SequenceNode, flow: flow || n.Style&yaml.FlowStyle != 0}
	add := func(e *yEnt) {
		c.ents = append(c.ents, e)
		c.byName[e.name] = e
		m.byPath[e.path] = e
		m.order = append(m.order, e)
		_, e.leaf = m.have[e.path]
		if v := e.val; !e.leaf && (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode) {
			e.kids = m.walk(v, e.path, e, c.flow)
		}
	}
	if c.seq {
		for i, item := range n.Content {
			add(&yEnt{path: yJoin(path, strconv.Itoa(i)), name: strconv.Itoa(i), val: item, coll: c, pind: m.dashCol(item)})
		}
		return c
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if c.first == nil {
			c.first = k
		}
		rk := yamlResolve(k)
		if rk == nil {
			continue
		}
		if rk.ShortTag() == "!!merge" {
			c.merge = true
			continue
		}
		add(&yEnt{path: yJoin(path, rk.Value), name: rk.Value, key: k, val: v, coll: c, pind: k.Column - 1})
	}
	return c
}

// ---- positions ----

// at is the offset of a node's line and column (1-based; a column counts runes).
func (m *yamlMerger) at(n *yaml.Node) int {
	if n.Line < 1 || n.Line > len(m.lines) {
		return len(m.s)
	}
	i := m.lines[n.Line-1]
	for c := 1; c < n.Column && i < len(m.s) && m.s[i] != '\n'; c++ {
		_, w := utf8.DecodeRune(m.s[i:])
		i += w
	}
	return i
}

func (m *yamlMerger) lineStart(off int) int { return bytes.LastIndexByte(m.s[:off], '\n') + 1 }

func (m *yamlMerger) lineEnd(off int) int {
	if i := bytes.IndexByte(m.s[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(m.s)
}

// lineNext is the start of the line after off's.
func (m *yamlMerger) lineNext(off int) int { return min(m.lineEnd(off)+1, len(m.s)) }

func yIndent(line []byte) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}

func yBlank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

// dashCol is the column (0-based) of the "-" of a block sequence item.
func (m *yamlMerger) dashCol(item *yaml.Node) int {
	off := m.at(item)
	ls := m.lineStart(off)
	for i := off - 1; i >= ls; i-- {
		if m.s[i] == '-' {
			return i - ls
		}
	}
	return item.Column - 1
}

// props skips a node's anchor and tag: where its tag starts (where a rewrite starts, so
// that an anchor stays) and where its own text starts.
func (m *yamlMerger) props(off int) (tag, text int) {
	tag, i := -1, off
	for i < len(m.s) && (m.s[i] == '&' || m.s[i] == '!') {
		switch {
		case m.s[i] == '!' && tag < 0:
			tag = i
		case m.s[i] == '&':
			tag = -1 // an anchor after the tag: keep both
		}
		for i < len(m.s) && !yIsSpace(m.s[i]) {
			i++
		}
		for i < len(m.s) && yIsSpace(m.s[i]) {
			i++
		}
	}
	if tag < 0 {
		tag = i
	}
	return tag, i
}

func yIsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// scalarEnd is where the scalar n, whose text starts at start, ends. pind is the
// indentation its lines must exceed (a block scalar's, a multi-line plain one's).
func (m *yamlMerger) scalarEnd(n *yaml.Node, start int, flow bool, pind int, isKey bool) int {
	b := m.s
	switch {
	case n.Kind == yaml.AliasNode:
		return min(start+1+len(n.Value), len(b))
	case n.Style&yaml.DoubleQuotedStyle != 0:
		for i := start + 1; i < len(b); i++ {
			if b[i] == '\\' {
				i++
			} else if b[i] == '"' {
				return i + 1
			}
		}
		return len(b)
	case n.Style&yaml.SingleQuotedStyle != 0:
		for i := start + 1; i < len(b); i++ {
			if b[i] == '\'' {
				if i+1 < len(b) && b[i+1] == '\'' {
					i++
					continue
				}
				return i + 1
			}
		}
		return len(b)
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return m.blockEnd(start, pind)
	}
	if n.Value == "" {
		return start // an empty null: nothing written
	}
	end, i, comment := m.plainLine(start, flow, isKey)
	if isKey || flow || comment {
		return end
	}
	// More lines of a multi-line plain scalar: indented more than its parent.
	for i < len(b) {
		ls := i + 1
		le := m.lineEnd(ls)
		line := b[ls:le]
		if yBlank(line) {
			i = le
			continue
		}
		ind := yIndent(line)
		if ind <= pind || line[ind] == '#' {
			break
		}
		end, i, comment = m.plainLine(ls+ind, false, false)
		if comment {
			break
		}
	}
	return end
}

// plainLine scans one line of a plain scalar from start: where its text ends, where the
// scan stopped and whether a comment stopped it.
func (m *yamlMerger) plainLine(start int, flow, isKey bool) (end, i int, comment bool) {
	b := m.s
	end = start
	for i = start; i < len(b) && b[i] != '\n'; i++ {
		c := b[i]
		if (c == ' ' || c == '\t') && i+1 < len(b) && b[i+1] == '#' {
			return end, i, true
		}
		if c == ':' && (isKey || flow) && (i+1 == len(b) || yIsSpace(b[i+1]) || flow && strings.IndexByte(",[]{}", b[i+1]) >= 0) {
			return end, i, false
		}
		if flow && strings.IndexByte(",[]{}", c) >= 0 {
			return end, i, false
		}
		if c != ' ' && c != '\t' {
			end = i + 1
		}
	}
	return end, i, false
}

// blockEnd is where a literal or folded block scalar whose header starts at start ends:
// the end of its last line (a keep "+" block's trailing blank lines included).
func (m *yamlMerger) blockEnd(start, pind int) int {
	b := m.s
	hdr := m.lineEnd(start)
	header := b[start:hdr]
	if i := bytes.Index(header, []byte(" #")); i >= 0 {
		header = header[:i]
	}
	keep := bytes.IndexByte(header, '+') >= 0
	end, i := hdr, hdr
	for i < len(b) {
		ls := i + 1
		le := m.lineEnd(ls)
		line := b[ls:le]
		if yBlank(line) {
			if keep {
				end = le
			}
			i = le
			continue
		}
		if yIndent(line) <= pind {
			break
		}
		end, i = le, le
	}
	return end
}

// blockIndent is the indentation of a block scalar's first text line, 0 when it has none.
func (m *yamlMerger) blockIndent(start int) int {
	for i := m.lineEnd(start); i < len(m.s); {
		ls := i + 1
		le := m.lineEnd(ls)
		if !yBlank(m.s[ls:le]) {
			return yIndent(m.s[ls:le])
		}
		i = le
	}
	return 0
}

// flowEnd is where the flow collection opening at start ends.
func (m *yamlMerger) flowEnd(start int) int {
	b := m.s
	depth := 0
	for i := start; i < len(b); i++ {
		switch c := b[i]; c {
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				return i + 1
			}
		case '"', '\'':
			if p := b[i-1]; i > start && strings.IndexByte("[{,: \t\n", p) < 0 {
				continue // an apostrophe inside a plain word
			}
			for i++; i < len(b); i++ {
				if c == '"' && b[i] == '\\' {
					i++
				} else if b[i] == c {
					if c == '\'' && i+1 < len(b) && b[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
		case '#':
			if yIsSpace(b[i-1]) {
				i = m.lineEnd(i)
			}
		}
	}
	return len(b)
}

// nodeEnd is where node n ends; pind as for scalarEnd.
func (m *yamlMerger) nodeEnd(n *yaml.Node, flow bool, pind int) int {
	start := m.at(n)
	switch n.Kind {
	case yaml.AliasNode:
		return m.scalarEnd(n, start, flow, pind, false)
	case yaml.ScalarNode:
		_, t := m.props(start)
		if n.Value == "" && n.Style == 0 {
			t = start
		}
		return m.scalarEnd(n, t, flow, pind, false)
	}
	if n.Style&yaml.FlowStyle != 0 {
		_, t := m.props(start)
		return m.flowEnd(t)
	}
	if len(n.Content) == 0 {
		return start
	}
	last := n.Content[len(n.Content)-1]
	if n.Kind == yaml.MappingNode {
		return max(m.nodeEnd(last, false, n.Content[len(n.Content)-2].Column-1), m.keyEnd(n.Content[len(n.Content)-2], false))
	}
	return m.nodeEnd(last, false, m.dashCol(last))
}

func (m *yamlMerger) keyEnd(k *yaml.Node, flow bool) int {
	start := m.at(k)
	_, t := m.props(start)
	return m.scalarEnd(k, t, flow, 0, true)
}

// commentsAbove is where the comment lines right above the line starting at ls begin
// (those indented no deeper than ind: deeper ones belong to what comes before).
func (m *yamlMerger) commentsAbove(ls, ind int) int {
	for ls > 0 {
		ps := m.lineStart(ls - 1)
		line := m.s[ps : ls-1]
		t := bytes.TrimLeft(line, " ")
		if len(t) == 0 || t[0] != '#' || yIndent(line) > ind {
			break
		}
		ls = ps
	}
	return ls
}

// lineBased: e's key starts its line in a block mapping, so e is lines of its own.
func (m *yamlMerger) lineBased(e *yEnt) bool {
	if e.key == nil || e.coll.flow {
		return false
	}
	ks := m.at(e.key)
	return len(bytes.TrimLeft(m.s[m.lineStart(ks):ks], " ")) == 0
}

// span is e's lines: from its key's line (comments above it included when withComments)
// to the end of its value's last line.
func (m *yamlMerger) span(e *yEnt, withComments bool) (int, int) {
	ks := m.at(e.key)
	from := m.lineStart(ks)
	if withComments {
		from = m.commentsAbove(from, e.key.Column-1)
	}
	end := max(m.nodeEnd(e.val, false, e.pind), m.keyEnd(e.key, false))
	return from, m.lineNext(end)
}

// ---- style ----

// yStyle is how the file writes what a merge adds.
type yStyle struct {
	step     int        // indentation of a nested mapping
	seqOff   int        // a block sequence's dash, from its key
	str      yaml.Style // one-line strings: 0 (plain), single or double quoted
	multi    yaml.Style // multi-line strings: literal, folded or double quoted
	keyQuote yaml.Style // keys that need quotes
	flowSeq  bool       // sequences written [a, b]
}

func (m *yamlMerger) style() yStyle {
	st := yStyle{}
	one := map[yaml.Style]int{}
	multi := map[yaml.Style]int{}
	keys := map[yaml.Style]int{}
	steps := map[int]int{}
	seqOff := -1
	quotes := yaml.SingleQuotedStyle | yaml.DoubleQuotedStyle
	count := func(v *yaml.Node) {
		if v.Kind != yaml.ScalarNode {
			return
		}
		if _, typed := yamlScalarText(v); typed {
			return
		}
		s := v.Style & (quotes | yaml.LiteralStyle | yaml.FoldedStyle)
		if strings.Contains(v.Value, "\n") {
			multi[s]++
		} else if s&^quotes == 0 {
			one[s]++
		}
	}
	for _, e := range m.order {
		if e.key != nil && e.key.Style&quotes != 0 {
			keys[e.key.Style&quotes]++
		}
		count(e.val)
		if e.leaf && e.val.Kind == yaml.MappingNode {
			for i := 1; i < len(e.val.Content); i += 2 {
				count(e.val.Content[i])
			}
		}
		if e.kids == nil || e.kids.flow || e.key == nil {
			continue
		}
		if e.kids.seq {
			if len(e.kids.ents) > 0 && seqOff < 0 {
				seqOff = e.kids.ents[0].pind - (e.key.Column - 1)
			}
		} else if e.kids.first != nil {
			steps[e.kids.first.Column-e.key.Column]++
		}
	}
	for _, e := range m.order {
		st.flowSeq = st.flowSeq || e.kids != nil && e.kids.seq && e.val.Style&yaml.FlowStyle != 0
	}
	st.step = 2
	if c := m.root.first.Column - m.rootKey.Column; c > 0 {
		steps[c]++
	}
	best := 0
	for s, n := range steps {
		if s > 0 && (n > best || n == best && s < st.step) {
			st.step, best = s, n
		}
	}
	st.seqOff = st.step
	if seqOff >= 0 {
		st.seqOff = seqOff
	}
	most := func(counts map[yaml.Style]int, def yaml.Style, order ...yaml.Style) yaml.Style {
		best, n := def, 0
		for _, s := range order {
			if counts[s] > n {
				best, n = s, counts[s]
			}
		}
		return best
	}
	st.str = most(one, 0, 0, yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle)
	st.multi = most(multi, yaml.LiteralStyle, yaml.LiteralStyle, yaml.FoldedStyle, yaml.DoubleQuotedStyle)
	def := st.str
	if def == 0 {
		def = yaml.SingleQuotedStyle
	}
	st.keyQuote = most(keys, def, yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle)
	return st
}

// scalar writes v (a node of yamlValue: a string, or a typed value's plain spelling) in
// style pref where it can hold it. ind is the indentation of a block scalar's lines.
func (st *yStyle) scalar(v *yaml.Node, pref yaml.Style, flow bool, ind int) string {
	if v.Tag != "!!str" {
		return v.Value // a typed value: its spelling, plain
	}
	text := v.Value
	pref &= yaml.SingleQuotedStyle | yaml.DoubleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle
	block := pref&(yaml.LiteralStyle|yaml.FoldedStyle) != 0
	if strings.Contains(text, "\n") {
		if !block {
			pref = st.multi
		}
		switch {
		case flow:
		case pref == yaml.FoldedStyle && yFoldedSafe(text):
			return yBlock(text, '>', ind)
		case pref&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 && literalSafe(text):
			return yBlock(text, '|', ind)
		}
		return yDouble(text)
	}
	switch {
	case block && !flow && text != "" && literalSafe(text):
		kind := byte('|')
		if pref == yaml.FoldedStyle {
			kind = '>'
		}
		return yBlock(text, kind, ind)
	case pref&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) == 0 && !block && yPlainSafe(text, flow):
		return text
	case pref != yaml.DoubleQuotedStyle && ySingleSafe(text):
		return "'" + strings.ReplaceAll(text, "'", "''") + "'"
	}
	return yDouble(text)
}

// key writes a mapping key: plain where Psych reads it as the same string, else quoted
// as the file quotes keys.
func (st *yStyle) key(name string) string {
	if yPlainSafe(name, false) {
		return name
	}
	if st.keyQuote == yaml.SingleQuotedStyle && ySingleSafe(name) {
		return "'" + strings.ReplaceAll(name, "'", "''") + "'"
	}
	return yDouble(name)
}

// yPlainSafe: s written plain reads back as the string s, in Psych as in YAML 1.2.
func yPlainSafe(s string, flow bool) bool {
	if yaml11Unsafe(s) || strings.TrimSpace(s) != s || strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	if flow && strings.ContainsAny(s, ",[]{}") {
		return false
	}
	return ySingleSafe(s) && !strings.Contains(s, "\t")
}

// yFlowSafe: a typed value's plain spelling reads back inside [ ]; a string is quoted
// where it needs to be.
func yFlowSafe(v *yaml.Node) bool {
	return v.Tag == "!!str" || !strings.HasPrefix(v.Value, ":") && !strings.ContainsAny(v.Value, ",[]{}#")
}

// ySingleSafe: s can be written single-quoted on one line.
func ySingleSafe(s string) bool {
	for _, r := range s {
		if r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff {
			return false
		}
	}
	return true
}

// yFoldedSafe: s written as a folded block (with its line breaks doubled) reads back:
// no line starts with a space or tab, which a folded block keeps as written.
func yFoldedSafe(s string) bool {
	if !literalSafe(s) {
		return false
	}
	for _, l := range strings.Split(s, "\n") {
		if l != "" && (l[0] == ' ' || l[0] == '\t') {
			return false
		}
	}
	return true
}

// yBlock writes s as a literal (|) or folded (>) block, its lines indented by ind; the
// line break after its last line is the caller's.
func yBlock(s string, kind byte, ind int) string {
	body := strings.TrimRight(s, "\n")
	trailing := len(s) - len(body)
	chomp := "" // clip: one line break
	switch {
	case trailing == 0:
		chomp = "-"
	case trailing > 1:
		chomp = "+"
	}
	if kind == '>' {
		// A run of n line breaks between lines is written as n+1.
		var b strings.Builder
		for i := 0; i < len(body); i++ {
			b.WriteByte(body[i])
			if body[i] == '\n' && (i+1 == len(body) || body[i+1] != '\n') {
				b.WriteByte('\n')
			}
		}
		body = b.String()
	}
	var b strings.Builder
	b.WriteByte(kind)
	b.WriteString(chomp)
	pad := strings.Repeat(" ", ind)
	for _, l := range strings.Split(body, "\n") {
		b.WriteByte('\n')
		if l != "" {
			b.WriteString(pad + l)
		}
	}
	b.WriteString(strings.Repeat("\n", max(trailing-1, 0)))
	return b.String()
}

// yDouble writes s double-quoted on one line.
func yDouble(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case 0x85:
			b.WriteString(`\N`)
		case 0x2028:
			b.WriteString(`\L`)
		case 0x2029:
			b.WriteString(`\P`)
		case 0xfeff:
			b.WriteString(`\uFEFF`)
		default:
			if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
				fmt.Fprintf(&b, `\x%02X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// ---- the plan ----

func (m *yamlMerger) plan() ([]Edit, bool) {
	if !sameLanguageName(m.rootKey.Value, m.rootLang) {
		ks := m.at(m.rootKey)
		m.edits = append(m.edits, Edit{ks, m.keyEnd(m.rootKey, false), m.st.key(m.rootLang)})
	}
	// What the file writes itself.
	for _, e := range m.order {
		if !e.leaf {
			continue
		}
		w, ok := m.want[e.path]
		switch {
		case !ok:
			m.remove(e)
		case w != m.have[e.path]:
			if !m.change(e, w) && !m.rewriteEnt(e) {
				return nil, false
			}
		}
	}
	// What it reads through an alias or a merge, and what is new.
	for i, te := range m.theirs.Entries {
		w, ok := m.want[te.Key]
		if e := m.byPath[te.Key]; !ok || e != nil && e.leaf {
			continue
		}
		if h, ok := m.have[te.Key]; ok && (h == w || m.firstPass) {
			continue
		}
		if !m.place(te.Key, i) {
			return nil, false
		}
	}
	keys := make([]string, 0, len(m.have))
	for k := range m.have {
		if _, ok := m.want[k]; !ok && !m.firstPass && (m.byPath[k] == nil || !m.byPath[k].leaf) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !m.place(k, len(m.theirs.Entries)) {
			return nil, false
		}
	}
	m.emptied(m.root)
	for _, g := range m.groups {
		if !m.insert(g) {
			return nil, false
		}
	}
	return m.settle()
}

// place finds where key k (index i in theirs) is written when the file does not write it
// itself: a new key or one written over a merge goes into a group of its collection; a
// key under an alias, a sequence or a flow collection rewrites the entry holding it.
func (m *yamlMerger) place(k string, i int) bool {
	c, rest := m.root, k
	if !nestable(k) {
		return m.group(c, k, k, i)
	}
	for {
		segs := strings.Split(rest, ".")
		var e *yEnt
		var after []string
		for j := len(segs); j >= 1; j-- {
			if x := c.byName[strings.Join(segs[:j], ".")]; x != nil {
				e, after = x, segs[j:]
				break
			}
		}
		_, has := m.have[k]
		_, wanted := m.want[k]
		switch {
		case e == nil && c.merge && has && !wanted:
			// Read through a merge and gone from theirs: YAML cannot take a key out of a
			// merge, so the merging mapping is written again with theirs' keys.
			if c.owner == nil {
				return false
			}
			return m.rewriteEnt(c.owner)
		case e == nil:
			return m.group(c, segs[0], k, i)
		case len(after) == 0:
			return m.rewriteEnt(e) // a mapping that became a value, or a value under an alias
		case e.kids == nil && e.leaf:
			return m.group(c, rest, k, i) // a leaf owns the name: the rest is written flat beside it
		case e.kids == nil || e.kids.seq || e.kids.flow:
			return m.rewriteEnt(e)
		}
		c, rest = e.kids, strings.Join(after, ".")
	}
}

func (m *yamlMerger) group(c *yColl, name, k string, i int) bool {
	if c.flow || c.seq || c.first == nil {
		if c.owner == nil {
			return false
		}
		return m.rewriteEnt(c.owner)
	}
	g := m.groupKey[[2]any{c, name}]
	if g != nil {
		g.first = min(g.first, i)
		m.groupOf[k] = g
		return true
	}
	g = &yGroup{coll: c, name: name, first: i, pos: -1}
	m.groupOf[k] = g
	m.groupKey[[2]any{c, name}] = g
	m.groups = append(m.groups, g)
	return true
}

// remove drops a leaf theirs lacks with its comments; a sequence item rewrites its sequence.
func (m *yamlMerger) remove(e *yEnt) {
	if !m.lineBased(e) {
		m.rewriteEnt(e)
		return
	}
	m.removed[e] = true
	from, to := m.span(e, true)
	m.big = append(m.big, Edit{from, to, ""})
}

// emptied removes a mapping all of whose keys went (it would read as a null), and says
// whether c went.
func (m *yamlMerger) emptied(c *yColl) bool {
	all := len(c.ents) > 0 && !c.merge
	for _, e := range c.ents {
		if e.kids != nil && !m.rewrite[e] {
			m.emptied(e.kids) // removes e when its mapping went
		}
		if !m.removed[e] {
			all = false
		}
	}
	for _, g := range m.groups {
		if g.coll == c {
			all = false
		}
	}
	if !all || c.owner == nil || !m.lineBased(c.owner) {
		return false
	}
	m.removed[c.owner] = true
	from, to := m.span(c.owner, true)
	m.big = append(m.big, Edit{from, to, ""})
	return true
}

// change writes e's new value text in place; false when it cannot (the entry is then
// written again whole).
func (m *yamlMerger) change(e *yEnt, text string) bool {
	nv := yamlValue(m.lang, text)
	rv := yamlResolve(e.val)
	if rv == nil {
		return false
	}
	if nv.Kind == yaml.ScalarNode && rv.Kind == yaml.ScalarNode {
		if e.coll.flow && !yFlowSafe(nv) {
			return false
		}
		m.replaceScalar(e.val, nv, e.coll.flow, e.pind, m.st.step)
		return true
	}
	if nv.Kind == yaml.MappingNode && e.val.Kind == yaml.MappingNode && e.val.Style&yaml.FlowStyle == 0 {
		return m.forms(e, nv)
	}
	return false
}

// replaceScalar rewrites the scalar (or alias) v with nv, in v's style where it can.
func (m *yamlMerger) replaceScalar(v, nv *yaml.Node, flow bool, pind, step int) {
	start := m.at(v)
	tag, text := start, start
	pref := m.st.str
	if v.Kind == yaml.ScalarNode {
		tag, text = m.props(start)
		if v.Value == "" && v.Style == 0 {
			tag, text = start, start
		}
		pref = v.Style
	}
	end := m.scalarEnd(v, text, flow, pind, false)
	ind := pind + step
	if v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		if bi := m.blockIndent(text); bi > pind {
			ind = bi
		}
	}
	out := m.st.scalar(nv, pref, flow, ind)
	if tag == end && tag > 0 && m.s[tag-1] == ':' && out != "" {
		out = " " + out // an empty null right after its key's colon
	}
	m.edits = append(m.edits, Edit{tag, end, out})
}

// forms writes a plural's changed forms: a changed one in place, a new one after the
// form before it, one the language no longer has removed.
func (m *yamlMerger) forms(e *yEnt, nv *yaml.Node) bool {
	type form struct{ k, v *yaml.Node }
	local := map[string]form{}
	var firstK *yaml.Node
	for i := 0; i+1 < len(e.val.Content); i += 2 {
		k, v := e.val.Content[i], e.val.Content[i+1]
		ks := m.at(k)
		if k.Kind != yaml.ScalarNode || yamlResolve(v) == nil || yamlResolve(v).Kind != yaml.ScalarNode ||
			len(bytes.TrimLeft(m.s[m.lineStart(ks):ks], " ")) != 0 {
			return false
		}
		if firstK == nil {
			firstK = k
		}
		local[k.Value] = form{k, v}
	}
	pref := yamlResolve(e.val.Content[1]).Style
	ind := firstK.Column - 1
	pos := m.commentsAbove(m.lineStart(m.at(firstK)), ind)
	seen := map[string]bool{}
	for i := 0; i+1 < len(nv.Content); i += 2 {
		sel, text := nv.Content[i].Value, nv.Content[i+1]
		seen[sel] = true
		f, ok := local[sel]
		if !ok {
			m.edits = append(m.edits, Edit{pos, pos, strings.Repeat(" ", ind) + m.st.key(sel) + ": " + m.st.scalar(text, pref, false, ind+m.st.step) + "\n"})
			continue
		}
		if yamlResolve(f.v).Value != text.Value {
			m.replaceScalar(f.v, text, false, ind, m.st.step)
		}
		pos = m.lineNext(max(m.nodeEnd(f.v, false, ind), m.keyEnd(f.k, false)))
	}
	for sel, f := range local {
		if !seen[sel] {
			from := m.commentsAbove(m.lineStart(m.at(f.k)), ind)
			m.big = append(m.big, Edit{from, m.lineNext(max(m.nodeEnd(f.v, false, ind), m.keyEnd(f.k, false))), ""})
		}
	}
	return true
}

// rewriteEnt writes the entry holding e (e itself, or the nearest entry of lines of its
// own around it) again from theirs' values.
func (m *yamlMerger) rewriteEnt(e *yEnt) bool {
	for e != nil && !m.lineBased(e) {
		e = e.coll.owner
	}
	if e == nil {
		return false
	}
	m.rewrite[e] = true
	return true
}

// pairs is what theirs has at name in c (and below it), as the pairs to write there: one,
// or more where a key runs through a value (name and name.rest side by side). Keys the file
// writes itself stay out, unless they are inside whole, the entry being written again.
func (m *yamlMerger) pairs(c *yColl, name string, whole *yEnt) (*yaml.Node, bool) {
	type kv struct {
		rel string
		i   int
	}
	var keys []kv
	for i, te := range m.theirs.Entries {
		if _, ok := m.want[te.Key]; !ok {
			continue
		}
		rel := te.Key
		if c.path != "" {
			if !strings.HasPrefix(rel, c.path+".") {
				continue
			}
			rel = rel[len(c.path)+1:]
		}
		if rel != name && !strings.HasPrefix(rel, name+".") {
			continue
		}
		if m.byPath[te.Key] != nil && (whole == nil || m.childOf(c, te.Key) != whole) {
			continue
		}
		keys = append(keys, kv{rel, i})
	}
	if len(keys) == 0 {
		return nil, true
	}
	slices.SortFunc(keys, func(a, b kv) int { return strings.Compare(a.rel, b.rel) })
	tree := newYAMLTree()
	for _, x := range keys {
		te := &m.theirs.Entries[x.i]
		if x.rel == name && strings.Contains(name, ".") && !tree.has(name) {
			tree.addLeaf(name, yamlValue(m.lang, m.want[te.Key]), te.Comment, x.i) // flat beside a value
			continue
		}
		if err := tree.place(&Entry{Key: x.rel, Comment: te.Comment}, x.i, yamlValue(m.lang, m.want[te.Key])); err != nil {
			return nil, false
		}
	}
	return tree.node(false, true), true
}

// writePairs writes the pairs of pairs() at indentation ind; key is the written key of
// name (the file's own when an entry is written again) and anchor its anchor.
func (m *yamlMerger) writePairs(b *strings.Builder, v *yaml.Node, name, key, anchor string, whole bool, ind int) {
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, comment, a := m.st.key(v.Content[i].Value), v.Content[i].HeadComment, ""
		if v.Content[i].Value == name {
			k, a = key, anchor
			if whole {
				comment = "" // the file's own comment lines above the entry stay
			}
		}
		m.writePair(b, k, a, comment, v.Content[i+1], ind)
	}
}

// insert writes a group after the nearest preceding key of theirs its collection holds.
func (m *yamlMerger) insert(g *yGroup) bool {
	c := g.coll
	v, ok := m.pairs(c, g.name, nil)
	if !ok {
		return false
	}
	if v == nil {
		return true
	}
	g.pos = -1
	var before *yEnt
	for j := g.first - 1; j >= 0 && g.pos < 0; j-- {
		k := m.theirs.Entries[j].Key
		if e := m.childOf(c, k); e != nil && !m.removed[e] {
			_, g.pos = m.span(e, false)
			before = e
		} else if o := m.groupOf[k]; o != nil && o.coll == c && o != g && o.pos >= 0 {
			g.pos = o.pos
		}
	}
	ind := c.first.Column - 1
	if g.pos < 0 {
		g.pos = m.commentsAbove(m.lineStart(m.at(c.first)), ind)
	}
	m.pref = m.neighbourStyle(c, before)
	var b strings.Builder
	if g.pos == len(m.s) && len(m.s) > 0 && m.s[len(m.s)-1] != '\n' {
		b.WriteByte('\n')
	}
	m.writePairs(&b, v, g.name, m.st.key(g.name), "", false, ind)
	m.edits = append(m.edits, Edit{g.pos, g.pos, b.String()})
	return true
}

// neighbourStyle is the quoting of the value before a new key (else of the first value of
// its collection, else the file's).
func (m *yamlMerger) neighbourStyle(c *yColl, before *yEnt) yaml.Style {
	for _, e := range append([]*yEnt{before}, c.ents...) {
		if e == nil || e.val.Kind != yaml.ScalarNode || strings.Contains(e.val.Value, "\n") {
			continue
		}
		if _, typed := yamlScalarText(e.val); !typed {
			return e.val.Style & (yaml.SingleQuotedStyle | yaml.DoubleQuotedStyle)
		}
	}
	return m.st.str
}

// childOf is the entry of c that key k is under, nil when c writes none.
func (m *yamlMerger) childOf(c *yColl, k string) *yEnt {
	if c.path != "" {
		if !strings.HasPrefix(k, c.path+".") {
			return nil
		}
		k = k[len(c.path)+1:]
	}
	segs := strings.Split(k, ".")
	for j := len(segs); j >= 1; j-- {
		if e := c.byName[strings.Join(segs[:j], ".")]; e != nil {
			return e
		}
	}
	return nil
}

// writePair writes key: value at indentation ind, as lines.
func (m *yamlMerger) writePair(b *strings.Builder, key, anchor, comment string, v *yaml.Node, ind int) {
	pad := strings.Repeat(" ", ind)
	for _, l := range strings.Split(comment, "\n") {
		if l != "" {
			b.WriteString(pad + l + "\n")
		}
	}
	b.WriteString(pad + key + ":")
	if anchor != "" {
		b.WriteString(" &" + anchor)
	}
	m.writeValue(b, v, ind)
}

// writeValue writes what follows "key:" or "-" at indentation ind.
func (m *yamlMerger) writeValue(b *strings.Builder, v *yaml.Node, ind int) {
	switch v.Kind {
	case yaml.ScalarNode:
		if s := m.st.scalar(v, m.pref, false, ind+m.st.step); s != "" {
			b.WriteString(" " + s)
		}
		b.WriteString("\n")
	case yaml.MappingNode:
		b.WriteString("\n")
		for i := 0; i+1 < len(v.Content); i += 2 {
			m.writePair(b, m.st.key(v.Content[i].Value), "", v.Content[i].HeadComment, v.Content[i+1], ind+m.st.step)
		}
	case yaml.SequenceNode:
		if m.st.flowSeq {
			items := make([]string, 0, len(v.Content))
			for _, it := range v.Content {
				if it.Kind != yaml.ScalarNode || strings.Contains(it.Value, "\n") || !yFlowSafe(it) {
					items = nil
					break
				}
				items = append(items, m.st.scalar(it, m.pref, true, 0))
			}
			if items != nil {
				b.WriteString(" [" + strings.Join(items, ", ") + "]\n")
				return
			}
		}
		b.WriteString("\n")
		dash := ind + m.st.seqOff
		for _, it := range v.Content {
			if it.Kind == yaml.ScalarNode {
				b.WriteString(strings.Repeat(" ", dash) + "-")
				m.writeValue(b, it, dash)
				continue
			}
			var sub strings.Builder
			m.writeValue(&sub, it, dash) // a mapping: its keys at dash+step
			lines := strings.TrimPrefix(sub.String(), "\n")
			b.WriteString(strings.Repeat(" ", dash) + "-" + strings.Repeat(" ", m.st.step-1) + strings.TrimLeft(lines, " "))
		}
	}
}

// settle writes the rewritten entries and drops the edits inside a rewritten or removed
// entry; false when edits still overlap.
func (m *yamlMerger) settle() ([]Edit, bool) {
	for _, e := range m.order {
		if !m.rewrite[e] || m.removed[e] {
			continue
		}
		from, to := m.span(e, false)
		v, ok := m.pairs(e.coll, e.name, e)
		if !ok {
			return nil, false
		}
		if v == nil {
			from, _ = m.span(e, true)
			m.big = append(m.big, Edit{from, to, ""})
			continue
		}
		var b strings.Builder
		ks := m.at(e.key)
		m.pref = m.neighbourStyle(e.coll, e)
		anchor := "" // an alias's anchor is defined elsewhere
		if e.val.Kind != yaml.AliasNode {
			anchor = e.val.Anchor
		}
		m.writePairs(&b, v, e.name, string(m.s[ks:m.keyEnd(e.key, false)]), anchor, true, e.key.Column-1)
		m.big = append(m.big, Edit{from, to, b.String()})
	}
	inside := func(x Edit) bool {
		for _, big := range m.big {
			if big == x {
				continue
			}
			if x.Start == x.End && big.Start < x.Start && x.Start < big.End ||
				x.Start != x.End && big.Start <= x.Start && x.End <= big.End {
				return true
			}
		}
		return false
	}
	var out []Edit
	for _, x := range append(m.big, m.edits...) {
		if !inside(x) && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	slices.SortStableFunc(out, func(a, b Edit) int { return a.Start - b.Start })
	for i := 1; i < len(out); i++ {
		if out[i].Start < out[i-1].End {
			return nil, false
		}
	}
	return out, true
}
