package formats

// Rails YAML (format yaml, alias yml).
//
// A file is one document whose root is a mapping with a single key, the language; below
// it a translation's key is the path of mapping keys joined by dots, each mapping key taken
// as written (dots included), and export nests keys by the rule in doc.go. Anchors, aliases
// and merge keys (<<) are resolved; a sequence's items are keys key.0, key.1, ..., and
// export writes a mapping whose keys are exactly 0..n-1 back as a sequence.
//
// Types: Rails reads with Psych (YAML 1.1), where a plain scalar may be a null (~, null,
// nothing), a boolean (true, false, yes, no, on, off), an integer, a float, a date or a
// Symbol (:day). Such a scalar is kept as a value, not to be translated (DoNotTranslate),
// spelled with its tag and as the file writes it: "!!null ~", "!!null" (written as
// nothing), "!!bool false", "!!int 2", "!!float 0.5", "!!timestamp 2024-01-31",
// "!!symbol :day". Values live in lokal as text with no type beside them, so the spelling
// is the type: export writes a value unquoted only when it has that spelling and its scalar
// reads as its tag; anything else, a translator's "false" or ":day" included, is a string,
// quoted where Psych would read it otherwise. A string in the file spelled like a typed
// value, and an explicit tag other than the core ones (!ruby/symbol), are warned about.
// Empty strings ('') are values like any other.
//
// Plurals: a mapping whose keys are all CLDR categories (zero, one, two, few, many, other),
// whose values are all scalars, with other and at least one more, is one ICU value with the
// argument count ("{count, plural, one {%{count} file} other {%{count} files}}"): the form
// texts are kept as written, %{count} included, with ICU's syntax characters quoted (a
// literal # is written '#': message.NativeToICU, and ICUToNative back). Rails'
// zero: applies to 0 in every language, so it reads as =0 where the language has no zero
// category, and =0 is written back as zero:. Export writes exactly the language's
// categories, ICU's # as %{count}; a value whose argument is not count, or that would leave fewer than two forms
// or no other, is written as its ICU text. A mapping that looks like a plural but whose
// texts would not read back exactly stays ordinary keys (key.one, key.other).
//
// Comments: the comment lines before a key are the entry's Comment; those before a mapping
// are kept in Meta["comment.N"] of the first entry inside it (N = the mapping's depth, 1 for
// the mappings right under the language). File.Meta: "comment" is the comment at the top
// of the file (before a blank line), "language_comment" the one right before the language
// key, "foot" the comment after the last key, "language" the file's root key when it
// differs from Options.Language (Values are keyed by Options.Language when it is set).
// Comments on the same line as a value, and those after the last key of a nested mapping,
// are not kept.
//
// Refused with the line: a root that is not one language mapping, a second document, a
// key given twice in one mapping (or twice once flattened), a mapping or sequence as a
// key, and aliases or merges that would expand to more than four times the file's nodes.
//
// Merge (yaml_merge.go) writes lokal's export into the repository's file as an edit of it,
// and renames a root copied from the source file to the target language.
//
// Order: decode keeps the file's order; encode writes mappings in the order their first
// entries come, except that entries sorted by key (lokal's own export) are written with
// every mapping's keys sorted, so that an export never depends on the order rows arrive in.

import (
	"bytes"
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/lokal-dev/lokal/tools/message"
)

var yamlCodec = &Codec{Name: "yaml", ContentType: "application/x-yaml", Extension: "yml", Decode: decodeYAML, Encode: encodeYAML, Merge: mergeYAML}

// railsCategories are the keys a Rails plural mapping may have.
var railsCategories = []string{"zero", "one", "two", "few", "many", "other"}

// maxYAMLDepth bounds nesting and alias chains, so that a hostile file cannot recurse
// without end (an alias to its own ancestor).
const maxYAMLDepth = 100

// ---- decode ----

type yamlReader struct {
	lang    string
	file    *File
	seen    map[string]int // key -> line, for duplicates
	pending map[int]string // comments of mappings not yet given to an entry, by depth
	depth   int
	budget  int // values left to read: aliases must not expand a small file without end
	// aliasLine is the line of the outermost alias being read, where an alias that
	// expands too far is reported.
	aliasLine int
}

// yamlCount counts the nodes of a tree without following aliases.
func yamlCount(n *yaml.Node) int {
	c := 1
	for _, k := range n.Content {
		c += yamlCount(k)
	}
	return c
}

func decodeYAML(data []byte, o Options) (*File, error) {
	if err := yamlCheckText(data); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, yamlError(data, err, "the file is empty: want a mapping with the language as its only key")
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, lineError(extra.Line, "a second YAML document: want one")
	} else if err.Error() != "EOF" {
		return nil, yamlError(data, err, "")
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, lineError(1, "want a mapping with the language as its only key")
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode || len(top.Content) != 2 {
		return nil, lineError(top.Line, "the root must be a mapping with one key, the language")
	}
	langNode, body := top.Content[0], yamlResolve(top.Content[1])
	if langNode.Kind != yaml.ScalarNode || langNode.Value == "" {
		return nil, lineError(langNode.Line, "the root key must be a language code")
	}
	if body == nil {
		return nil, lineError(top.Content[1].Line, "alias nested too deep")
	}
	fileLang := langNode.Value
	lang := o.Language
	if lang == "" || lang == AllLanguages {
		lang = fileLang
	}
	f := &File{Languages: []string{lang}, Entries: []Entry{}}
	setMetaText(&f.Meta, "language", fileLang, fileLang != lang)
	setMetaText(&f.Meta, "comment", yamlUncomment(doc.HeadComment), true)
	setMetaText(&f.Meta, "language_comment", yamlUncomment(langNode.HeadComment), true)
	foot := yamlJoinComments(body.FootComment, top.FootComment, doc.FootComment, langNode.FootComment)
	setMetaText(&f.Meta, "foot", yamlUncomment(foot), true)

	r := &yamlReader{lang: lang, file: f, seen: map[string]int{}, pending: map[int]string{}, budget: 4*yamlCount(body) + 1000}
	switch body.Kind {
	case yaml.MappingNode:
		if err := r.mapping("", body); err != nil {
			return nil, err
		}
	case yaml.ScalarNode:
		if body.ShortTag() != "!!null" {
			return nil, lineError(body.Line, "the language key must hold a mapping of keys")
		}
	default:
		return nil, lineError(body.Line, "the language key must hold a mapping of keys")
	}
	return f, nil
}

// yamlCheckText refuses what the YAML parser reports without a line: invalid UTF-8 and
// control characters.
func yamlCheckText(data []byte) error {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return offsetError(data, int64(i), "invalid UTF-8")
		}
		if (r < 0x20 && r != '\n' && r != '\r' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0 && r != 0x85) || r == 0xfffe || r == 0xffff {
			return offsetError(data, int64(i), "control character U+%04X is not allowed in YAML", r)
		}
		i += n
	}
	return nil
}

var (
	yamlLineRE   = regexp.MustCompile(`line (\d+)`)
	yamlAnchorRE = regexp.MustCompile(`unknown anchor '(.*)' referenced`)
)

// yamlError turns a parser error into a FileError with its line.
func yamlError(data []byte, err error, eofMsg string) error {
	msg := err.Error()
	if msg == "EOF" {
		return lineError(1, "%s", eofMsg)
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		msg = strings.TrimSpace(strings.TrimPrefix(msg, m[0]+":"))
		return lineError(max(n, 1), "%s", msg)
	}
	if m := yamlAnchorRE.FindStringSubmatch(msg); m != nil {
		if i := bytes.Index(data, []byte("*"+m[1])); i >= 0 {
			return offsetError(data, int64(i), "%s", msg)
		}
	}
	return &FileError{Offset: -1, Msg: msg}
}

// yamlResolve follows aliases; nil for a chain longer than maxYAMLDepth.
func yamlResolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode; i++ {
		if i > maxYAMLDepth {
			return nil
		}
		n = n.Alias
	}
	return n
}

// pairs lists a mapping's key/value pairs with merge keys (<<) expanded: merged pairs take
// the merge key's place, and a key written in the mapping itself wins over a merged one.
func (r *yamlReader) pairs(m *yaml.Node, depth int) ([][2]*yaml.Node, error) {
	if depth > maxYAMLDepth {
		return nil, lineError(m.Line, "merges nested too deep")
	}
	if r.budget -= 1 + len(m.Content)/2; r.budget < 0 {
		return nil, lineError(m.Line, "merges expand to too many keys")
	}
	own := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := yamlResolve(m.Content[i]); k != nil && k.Kind == yaml.ScalarNode && k.ShortTag() != "!!merge" {
			own[k.Value] = true
		}
	}
	var out [][2]*yaml.Node
	lines := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		rk := yamlResolve(k)
		if rk == nil || rk.Kind != yaml.ScalarNode {
			return nil, lineError(k.Line, "a key must be a plain value, not a mapping or sequence")
		}
		if rk.ShortTag() != "!!merge" {
			if first, dup := lines[rk.Value]; dup {
				return nil, lineError(k.Line, "key %q is already defined on line %d", rk.Value, first)
			}
			lines[rk.Value] = k.Line
			out = append(out, [2]*yaml.Node{k, v})
			continue
		}
		rv := yamlResolve(v)
		if rv == nil {
			return nil, lineError(v.Line, "alias nested too deep")
		}
		srcs := []*yaml.Node{rv}
		if rv.Kind == yaml.SequenceNode {
			srcs = rv.Content
		}
		for _, s := range srcs {
			s = yamlResolve(s)
			if s == nil || s.Kind != yaml.MappingNode {
				return nil, lineError(v.Line, "a merge key (<<) must merge a mapping")
			}
			merged, err := r.pairs(s, depth+1)
			if err != nil {
				return nil, err
			}
			for _, p := range merged {
				if name := yamlResolve(p[0]).Value; !own[name] {
					own[name] = true
					out = append(out, p)
				}
			}
		}
	}
	return out, nil
}

func (r *yamlReader) mapping(prefix string, m *yaml.Node) error {
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > maxYAMLDepth {
		return lineError(m.Line, "keys nested too deep")
	}
	ps, err := r.pairs(m, 0)
	if err != nil {
		return err
	}
	for _, p := range ps {
		k := yamlResolve(p[0])
		key := k.Value
		if prefix != "" {
			key = prefix + "." + key
		}
		if err := r.value(key, p[0], p[1], yamlUncomment(p[0].HeadComment)); err != nil {
			return err
		}
	}
	return nil
}

// value reads the value v of key (written at keyNode).
func (r *yamlReader) value(key string, keyNode, v *yaml.Node, comment string) error {
	rv := yamlResolve(v)
	if rv == nil {
		return lineError(v.Line, "alias nested too deep")
	}
	if v.Kind == yaml.AliasNode && r.aliasLine == 0 {
		r.aliasLine = v.Line
		defer func() { r.aliasLine = 0 }()
	}
	if r.budget--; r.budget < 0 {
		return lineError(cmp.Or(r.aliasLine, v.Line), "aliases expand to too many keys")
	}
	switch rv.Kind {
	case yaml.ScalarNode:
		text, typed := yamlScalarText(rv)
		if err := r.add(key, keyNode.Line, text, comment); err != nil {
			return err
		}
		e := &r.file.Entries[len(r.file.Entries)-1]
		switch {
		case typed:
			e.DoNotTranslate = true
		case rv.Style&yaml.TaggedStyle != 0 && rv.ShortTag() != "!!str":
			r.file.Warnings = append(r.file.Warnings, Warning{Key: key, Message: fmt.Sprintf("the value's YAML tag %s is not kept: it was read as text and will be written back as a string", rv.Tag)})
		case yamlIsTyped(text):
			r.file.Warnings = append(r.file.Warnings, Warning{Key: key, Message: "this text is spelled as lokal spells a typed YAML value (" + text + "); it will be written back as that value, not as a string"})
		}
		return nil
	case yaml.MappingNode:
		if text, ok := r.plural(rv); ok {
			return r.add(key, keyNode.Line, text, comment)
		}
		if comment != "" {
			r.pending[r.depth] = comment
		}
		err := r.mapping(key, rv)
		delete(r.pending, r.depth)
		return err
	case yaml.SequenceNode:
		if comment != "" {
			r.pending[r.depth] = comment
		}
		r.depth++
		defer func() { r.depth-- }()
		if r.depth > maxYAMLDepth {
			return lineError(rv.Line, "keys nested too deep")
		}
		for i, item := range rv.Content {
			if err := r.value(key+"."+strconv.Itoa(i), item, item, yamlUncomment(item.HeadComment)); err != nil {
				return err
			}
		}
		delete(r.pending, r.depth-1)
		return nil
	}
	return lineError(v.Line, "unexpected YAML node")
}

func (r *yamlReader) add(key string, line int, text, comment string) error {
	if first, dup := r.seen[key]; dup {
		return lineError(line, "key %q is already defined on line %d", key, first)
	}
	r.seen[key] = line
	e := Entry{Key: key, Values: map[string]Value{r.lang: {Text: text}}, Comment: comment}
	for depth, c := range r.pending {
		if e.Meta == nil {
			e.Meta = map[string]string{}
		}
		e.Meta["comment."+strconv.Itoa(depth)] = c
	}
	clear(r.pending)
	r.file.Entries = append(r.file.Entries, e)
	return nil
}

// plural reads a Rails plural mapping as one ICU value; false when m is not one or its
// texts would not read back exactly.
func (r *yamlReader) plural(m *yaml.Node) (string, bool) {
	if len(m.Content) < 4 || len(m.Content) > 2*len(railsCategories) {
		return "", false
	}
	var forms []PluralForm
	hasOther := false
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], yamlResolve(m.Content[i+1])
		if k.Kind != yaml.ScalarNode || !slices.Contains(railsCategories, k.Value) || hasSelector(forms, k.Value) {
			return "", false
		}
		if v == nil || v.Kind != yaml.ScalarNode || k.HeadComment != "" {
			return "", false
		}
		if _, typed := yamlScalarText(v); typed {
			return "", false
		}
		hasOther = hasOther || k.Value == "other"
		forms = append(forms, PluralForm{Selector: k.Value, Text: v.Value})
	}
	if !hasOther {
		return "", false
	}
	icu := make([]PluralForm, len(forms))
	for i, f := range forms {
		icu[i] = PluralForm{Selector: f.Selector, Text: nativeToICU(f.Text, message.Rails)}
	}
	value := FromNative(r.lang, "count", false, icu).String()
	p, ok := SinglePlural(value)
	if !ok || len(p.Forms) != len(forms) {
		return "", false
	}
	for i, f := range p.Forms {
		if railsText(f.Text) != forms[i].Text {
			return "", false
		}
	}
	return value, true
}

// railsText is an ICU form's text as Rails writes it: '#' is %{count}, quoted text (a
// literal '#', '{') unquoted, and Rails' own %{x} kept as written.
func railsText(form string) string { return icuToNative(form, "%{count}") }

// yamlTypes are the tags of the plain scalars Psych (Rails' YAML 1.1 reader) reads as
// something other than a string, as lokal spells them: the tag, a space and the scalar as
// the file writes it ("!!bool false", "!!symbol :day", "!!null ~"; a null written as
// nothing is "!!null").
var yamlTypes = []string{"!!null", "!!bool", "!!int", "!!float", "!!timestamp", "!!symbol"}

var (
	yamlIntRE   = regexp.MustCompile(`^(?:[-+]?0b[0-1_,]+|[-+]?0[0-7_,]+|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|[-+]?0x[0-9a-fA-F_,]+)$`)
	yamlFloatRE = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_,]*)?\.[0-9]*(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	yamlSexaRE  = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9]){1,2}(\.[0-9_]*)?$`)
	yamlDateRE  = regexp.MustCompile(`^\d{4}-\d{1,2}-\d{1,2}(?:$|[Tt ])`)
	yamlBoolRE  = regexp.MustCompile(`(?i)^(?:yes|true|on|no|false|off)$`)
)

// yamlPlainType is the tag Psych gives a plain (unquoted, untagged) scalar written s, ""
// for a string; it follows Psych's ScalarScanner.
func yamlPlainType(s string) string {
	switch {
	case s == "" || s == "~" || strings.EqualFold(s, "null"):
		return "!!null"
	case yamlBoolRE.MatchString(s):
		return "!!bool"
	case yamlDateRE.MatchString(s):
		return "!!timestamp"
	case len(s) > 1 && s[0] == ':':
		return "!!symbol"
	case s == "." || s == "-." || s == "+.":
		return ""
	case yamlFloatRE.MatchString(s):
		return "!!float"
	case yamlSexaRE.MatchString(s):
		if strings.Contains(s, ".") {
			return "!!float"
		}
		return "!!int"
	case yamlIntRE.MatchString(s):
		return "!!int"
	}
	return ""
}

// yamlScalarText is a scalar's text as lokal keeps it, and whether it is not a string: a
// plain scalar Psych reads as another type is spelled with its tag (yamlTypes), so that a
// translator's "false" stays a string and only a value spelled "!!bool false" is written
// back as a boolean.
func yamlScalarText(n *yaml.Node) (string, bool) {
	if n.Style&^yaml.FlowStyle != 0 && n.Style != yaml.TaggedStyle {
		return n.Value, false // quoted or a block: a string
	}
	if n.Style == yaml.TaggedStyle {
		if t := n.ShortTag(); t != "!!str" && yamlPlainType(n.Value) == t {
			return yamlTypedText(t, n.Value), true // "!!int 3": the tag says what it reads as anyway
		}
		return n.Value, false
	}
	t := yamlPlainType(n.Value)
	if t == "" {
		return n.Value, false
	}
	return yamlTypedText(t, n.Value), true
}

func yamlTypedText(tag, s string) string {
	if s == "" {
		return tag
	}
	return tag + " " + s
}

// yamlTyped parses lokal's spelling of a typed scalar: the scalar as written, and whether
// text is one (its spelling reads as its tag's type).
func yamlTyped(text string) (string, bool) {
	if !strings.HasPrefix(text, "!!") {
		return "", false
	}
	tag, s, _ := strings.Cut(text, " ")
	if !slices.Contains(yamlTypes, tag) || yamlPlainType(s) != tag || strings.TrimSpace(s) != s {
		return "", false
	}
	return s, true
}

// yamlUncomment strips the "#" of comment lines: "# a\n# b" is "a\nb".
func yamlUncomment(c string) string {
	if c == "" {
		return ""
	}
	lines := strings.Split(c, "\n")
	for i, l := range lines {
		l = strings.TrimPrefix(l, "#")
		lines[i] = strings.TrimPrefix(l, " ")
	}
	return strings.Join(lines, "\n")
}

// yamlComment writes text as comment lines.
func yamlComment(text string) string {
	if text == "" {
		return ""
	}
	// Every YAML line break ends a comment line: a comment from another format must not
	// carry one that would end the comment early and turn its rest into YAML.
	text = yamlBreaks.Replace(text)
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l == "" {
			lines[i] = "#"
		} else {
			lines[i] = "# " + l
		}
	}
	return strings.Join(lines, "\n")
}

var yamlBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u0085", "\n", "\u2028", "\n", "\u2029", "\n")

func yamlJoinComments(cs ...string) string {
	var out []string
	for _, c := range cs {
		if c != "" {
			out = append(out, c)
		}
	}
	return strings.Join(out, "\n")
}

// setMetaText sets m[k] = v when v is not empty and cond holds, making the map on first use.
func setMetaText(m *map[string]string, k, v string, cond bool) {
	if v == "" || !cond {
		return
	}
	if *m == nil {
		*m = map[string]string{}
	}
	(*m)[k] = v
}

// ---- encode ----

// yamlTree is one mapping of the output, its children in the order they are written.
// A child is a leaf (a scalar or a plural mapping) or a nested mapping. Child names are
// single key segments, except for keys written flat (see doc.go), whose names are the rest
// of the key with its dots kept. A 50,000-key export builds about as many trees, so a
// tree is a slice searched in place while it is small, with an index past that.
type yamlTree struct {
	kids  []yamlKid
	index map[string]int // name -> kids, once there are more than yamlTreeLinear
}

// yamlKid is one child of a yamlTree: leaf or child set.
type yamlKid struct {
	name    string
	leaf    *yaml.Node
	child   *yamlTree
	comment string // head comment
	first   int    // the lowest index of an entry under it
}

// yamlTreeLinear is the most children a tree searches without its index.
const yamlTreeLinear = 8

func newYAMLTree() *yamlTree { return &yamlTree{} }

// kid returns the child named name, nil when there is none.
func (t *yamlTree) kid(name string) *yamlKid {
	if t.index != nil {
		if i, ok := t.index[name]; ok {
			return &t.kids[i]
		}
		return nil
	}
	for i := range t.kids {
		if t.kids[i].name == name {
			return &t.kids[i]
		}
	}
	return nil
}

// add appends a child named name (not there yet).
func (t *yamlTree) add(k yamlKid) *yamlKid {
	t.kids = append(t.kids, k)
	switch {
	case t.index != nil:
		t.index[k.name] = len(t.kids) - 1
	case len(t.kids) > yamlTreeLinear:
		t.index = make(map[string]int, 2*len(t.kids))
		for i := range t.kids {
			t.index[t.kids[i].name] = i
		}
	}
	return &t.kids[len(t.kids)-1]
}

// seen records that entry idx is placed under k.
func (k *yamlKid) seen(idx int) {
	if idx < k.first {
		k.first = idx
	}
}

func (t *yamlTree) has(name string) bool { return t.kid(name) != nil }

// leaf is the leaf named name, nil when there is none (or it is a mapping).
func (t *yamlTree) leaf(name string) *yaml.Node {
	if k := t.kid(name); k != nil {
		return k.leaf
	}
	return nil
}

func (t *yamlTree) addLeaf(name string, v *yaml.Node, comment string, idx int) {
	t.add(yamlKid{name: name, leaf: v, comment: comment, first: idx})
}

// nestable reports whether a key is an ordinary dotted identifier path. Keys with empty
// segments cannot be nested (ruby i18n drops empty segments on lookup), and keys with
// whitespace are page text, where a dot is punctuation rather than a separator.
func nestable(key string) bool {
	if strings.ContainsFunc(key, unicode.IsSpace) {
		return false
	}
	return !slices.Contains(strings.Split(key, "."), "")
}

// place puts entry idx's value into the tree by the rule in doc.go. Entries are placed in
// key order, so that a key that is a segment prefix of another ("a" of "a.b") always comes
// first: a leaf is never replaced by a mapping and the leaf keeps its nested place.
func (root *yamlTree) place(e *Entry, idx int, v *yaml.Node) error {
	if !nestable(e.Key) {
		if root.has(e.Key) {
			return fmt.Errorf("formats: yaml: key %q clashes with another key", e.Key)
		}
		root.addLeaf(e.Key, v, e.Comment, idx)
		return nil
	}
	t := root
	rest := e.Key
	for i := 0; ; i++ {
		seg, more, last := rest, "", true
		if j := strings.IndexByte(rest, '.'); j >= 0 {
			seg, more, last = rest[:j], rest[j+1:], false
		}
		k := t.kid(seg)
		if last {
			if k != nil {
				// Sub-keys came first and own the name: keep the key whole at the top.
				if t == root || root.has(e.Key) {
					return fmt.Errorf("formats: yaml: duplicate key %q", e.Key)
				}
				root.addLeaf(e.Key, v, e.Comment, idx)
				return nil
			}
			t.addLeaf(seg, v, e.Comment, idx)
			return nil
		}
		if k != nil && k.leaf != nil {
			// A shorter key owns this name: keep the rest flat beside it.
			if t.has(rest) {
				return fmt.Errorf("formats: yaml: duplicate key %q", e.Key)
			}
			t.addLeaf(rest, v, e.Comment, idx)
			return nil
		}
		if k == nil {
			k = t.add(yamlKid{name: seg, child: newYAMLTree(), first: idx})
		}
		if len(e.Meta) > 0 && k.comment == "" {
			k.comment = e.Meta["comment."+strconv.Itoa(i+1)]
		}
		k.seen(idx)
		t, rest = k.child, more
	}
}

// sequence reports whether names, in the order they are written, are exactly 0..n-1: in
// order, or in any order when the entries are sorted by key (where "10" comes before "2").
func sequence(names []string, sorted bool) bool {
	seen := make([]bool, len(names))
	for i, name := range names {
		n, err := strconv.Atoi(name)
		if err != nil || n < 0 || n >= len(names) || seen[n] || name != strconv.Itoa(n) || (!sorted && n != i) {
			return false
		}
		seen[n] = true
	}
	return len(names) > 0
}

// ordered returns t's children in the order they are written: by name when the entries
// are sorted by key, else by their first entries.
func (t *yamlTree) ordered(sorted bool) []*yamlKid {
	kids := make([]*yamlKid, len(t.kids))
	for i := range t.kids {
		kids[i] = &t.kids[i]
	}
	if sorted {
		if !slices.IsSortedFunc(kids, func(a, b *yamlKid) int { return strings.Compare(a.name, b.name) }) {
			slices.SortFunc(kids, func(a, b *yamlKid) int { return strings.Compare(a.name, b.name) })
		}
	} else {
		slices.SortStableFunc(kids, func(a, b *yamlKid) int { return a.first - b.first })
	}
	return kids
}

// isSequence reports whether t, ordered as kids, is written as a sequence.
func (t *yamlTree) isSequence(kids []*yamlKid, sorted, top bool) bool {
	if top || len(kids) == 0 {
		return false
	}
	if c := kids[0].name[0]; c < '0' || c > '9' {
		return false // most trees: no need to look further
	}
	names := make([]string, len(kids))
	for i, k := range kids {
		names[i] = k.name
	}
	return sequence(names, sorted)
}

func (t *yamlTree) node(sorted, top bool) *yaml.Node {
	kids := t.ordered(sorted)
	if t.isSequence(kids, sorted, top) {
		s := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i := range kids {
			k := t.kid(strconv.Itoa(i))
			v := k.value(sorted)
			v.HeadComment = yamlComment(k.comment)
			s.Content = append(s.Content, v)
		}
		return s
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, k := range kids {
		kn := yamlString(k.name, true)
		kn.HeadComment = yamlComment(k.comment)
		m.Content = append(m.Content, kn, k.value(sorted))
	}
	return m
}

func (k *yamlKid) value(sorted bool) *yaml.Node {
	if k.child != nil {
		return k.child.node(sorted, false)
	}
	return k.leaf
}

// yamlValue is the node of a value: a plural mapping (see the top of this file) or a string.
func yamlValue(lang, text string) *yaml.Node {
	if s, ok := yamlTyped(text); ok {
		// Plain, untagged: yaml.v3 would tag or quote what YAML 1.2 reads otherwise.
		return &yaml.Node{Kind: yaml.ScalarNode, Value: s}
	}
	if !strings.Contains(text, "plural") {
		return yamlString(text, false) // most values: no need to parse
	}
	p, ok := SinglePlural(text)
	if !ok || p.Arg != "count" || p.Ordinal {
		return yamlString(text, false)
	}
	forms, _, _ := ToNative(lang, p, ZeroExplicit)
	if len(forms) < 2 || !hasSelector(forms, "other") {
		return yamlString(text, false)
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, f := range forms {
		m.Content = append(m.Content, yamlString(f.Selector, true), yamlString(railsText(f.Text), false))
	}
	return m
}

func encodeYAML(f *File, o Options) ([]byte, error) {
	tree, langKey, sorted, err := yamlBuild(f, o)
	if err != nil {
		return nil, err
	}
	if f.Meta["language_comment"] == "" && f.Meta["comment"] == "" && f.Meta["foot"] == "" {
		if b, ok := appendYAMLDoc(make([]byte, 0, yamlSizeHint(f, o.Language)), langKey, tree, sorted); ok {
			return b, nil
		}
	}
	return encodeYAMLNodes(f, langKey, tree, sorted)
}

// yamlBuild places f's entries in a tree by the rule in doc.go; langKey is the root key.
func yamlBuild(f *File, o Options) (tree *yamlTree, langKey *yaml.Node, sorted bool, err error) {
	lang := o.Language
	if lang == "" || lang == AllLanguages {
		if len(f.Languages) == 0 {
			return nil, nil, false, fmt.Errorf("formats: yaml: no language")
		}
		lang = f.Languages[0]
	}
	fileLang := lang
	if l := f.Meta["language"]; l != "" {
		fileLang = l
	}
	byKey := func(a, b int) int { return strings.Compare(f.Entries[a].Key, f.Entries[b].Key) }
	order := make([]int, len(f.Entries))
	for i := range order {
		order[i] = i
	}
	sorted = slices.IsSortedFunc(order, byKey)
	slices.SortStableFunc(order, byKey)
	for j := 1; j < len(order); j++ {
		if f.Entries[order[j]].Key == f.Entries[order[j-1]].Key {
			return nil, nil, false, fmt.Errorf("formats: yaml: duplicate key %q", f.Entries[order[j]].Key)
		}
	}
	tree = newYAMLTree()
	for _, i := range order {
		e := &f.Entries[i]
		v, ok := e.Values[lang]
		if !ok {
			continue // untranslated: left out of a monolingual file
		}
		if e.Key == "" {
			return nil, nil, false, fmt.Errorf("formats: yaml: entry %d has an empty key", i)
		}
		if err := tree.place(e, i, yamlValue(lang, v.Text)); err != nil {
			return nil, nil, false, err
		}
	}
	return tree, yamlString(fileLang, true), sorted, nil
}

// yamlSizeHint is about the size of f's yaml file.
func yamlSizeHint(f *File, lang string) int {
	n := 64
	for i := range f.Entries {
		n += len(f.Entries[i].Key) + len(f.Entries[i].Values[lang].Text) + 16
	}
	return n
}

// encodeYAMLNodes writes the file through yaml.v3's emitter: what appendYAMLDoc cannot
// write (comments, long or multi-line keys, ...).
func encodeYAMLNodes(f *File, langKey *yaml.Node, tree *yamlTree, sorted bool) ([]byte, error) {
	langKey.HeadComment = yamlComment(f.Meta["language_comment"])
	body := tree.node(sorted, true)
	top := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{langKey, body}}
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{top}}
	doc.HeadComment = yamlComment(f.Meta["comment"])
	doc.FootComment = yamlComment(f.Meta["foot"])

	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2) // the Rails convention
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("formats: yaml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("formats: yaml: %w", err)
	}
	return buf.Bytes(), nil
}

// yamlString returns a string scalar. yaml.v3 quotes what YAML 1.2 would read as another
// type, but Rails reads with Psych (YAML 1.1), where yes/no/on/off are booleans, ":x" is a
// Symbol and more; so anything that does not start with a letter, or is one of those words,
// is double-quoted. Other strings are left to the emitter, which quotes for syntax (": ", " #").
func yamlString(s string, isKey bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	multiline := strings.Contains(s, "\n")
	switch {
	case multiline && isKey:
		// A block scalar cannot be a simple key; keep the key on one line with escapes.
		n.Style = yaml.DoubleQuotedStyle
	case multiline && !literalSafe(s):
		// yaml.v3 writes some literal blocks it cannot read back (leading line breaks
		// or tabs, control characters); double quotes with escapes always round-trip.
		n.Style = yaml.DoubleQuotedStyle
	case multiline:
		// The emitter picks a literal block (|), and double quotes when a literal block
		// cannot hold the text (trailing spaces on a line, for one).
	case yaml11Unsafe(s):
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// yaml11Words are the plain scalars that YAML 1.1 (Psych, PyYAML) reads as booleans or null
// (case-insensitively in Psych); the short y/n forms are 1.1 booleans in the spec.
var yaml11Words = map[string]bool{
	"y": true, "n": true, "yes": true, "no": true, "true": true, "false": true,
	"on": true, "off": true, "null": true,
}

// yaml11Unsafe reports whether a plain scalar s could be read as something other than a
// string by a YAML 1.1 reader. Numbers, dates, times, .inf/.nan, ~, :symbols and every
// indicator character start with a non-letter, so the first-letter test covers them.
func yaml11Unsafe(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	if s == "" || !unicode.IsLetter(r) {
		return true
	}
	return len(s) <= 5 && yaml11Words[strings.ToLower(s)] // the longest word is "false"
}

// literalSafe reports whether yaml.v3 writes s as a literal block that reads back exactly:
// no leading whitespace or line break (those need an indentation indicator), no tabs and
// only printable characters (YAML 1.1 also breaks lines at U+0085, U+2028 and U+2029).
func literalSafe(s string) bool {
	if s[0] == ' ' || s[0] == '\n' {
		return false
	}
	for _, r := range s {
		switch {
		case r == '\n':
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff, r > 0xffff:
			return false
		}
	}
	return true
}

func yamlIsTyped(text string) bool { _, ok := yamlTyped(text); return ok }
