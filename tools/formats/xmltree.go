package formats

// The one XML reader and escaper of the XML codecs (XLIFF 1.2 and 2.0, Android,
// stringsdict): a small order-keeping tree. encoding/xml's RawToken reads the tokens (so
// prefixes such as xml:space stay as written); the tree remembers the byte range of every
// element so that what lokal has no field for is kept verbatim and Merge can patch in
// place. xmlEscape writes text and attributes, xmlUnescape reads attributes back.

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

type xlNode struct {
	name     string // as written, prefix included
	rawAttrs string // the start tag's attributes as written, leading whitespace included
	attrs    []xml.Attr
	// Byte offsets: the start tag begins at start, content is [innerStart, innerEnd), the
	// element ends at end. A self-closed element has innerStart == innerEnd == end.
	start, innerStart, innerEnd, end int
	line                             int
	kids                             []xlKid
}

// xlKid is an element, character data or an atom (comment, processing instruction).
type xlKid struct {
	el         *xlNode
	text       string // unescaped character data
	cdata      bool
	start, end int // the bytes as written (text and atoms)
	atom       bool
}

type xlDoc struct {
	data           []byte
	root           *xlNode
	prolog, epilog string
	misc           []xlKid // comments, processing instructions, directives outside the root
}

func (n *xlNode) attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if xmlRawName(a.Name) == name {
			return a.Value, true
		}
	}
	return "", false
}

// local is the element name without its prefix.
func (n *xlNode) local() string {
	if i := strings.LastIndexByte(n.name, ':'); i >= 0 {
		return n.name[i+1:]
	}
	return n.name
}

func (n *xlNode) elements() []*xlNode {
	var out []*xlNode
	for _, k := range n.kids {
		if k.el != nil {
			out = append(out, k.el)
		}
	}
	return out
}

func (n *xlNode) child(local string) *xlNode {
	for _, k := range n.kids {
		if k.el != nil && k.el.local() == local {
			return k.el
		}
	}
	return nil
}

func (d *xlDoc) raw(from, to int) string { return string(d.data[from:to]) }

// lineAt is the line (from 1) byte offset at is on.
func (d *xlDoc) lineAt(at int) int { return 1 + bytes.Count(d.data[:at], []byte("\n")) }

// xmlComment is the text of an atom that is a comment.
func xmlComment(d *xlDoc, k xlKid) (string, bool) {
	raw := d.raw(k.start, k.end)
	if !strings.HasPrefix(raw, "<!--") || !strings.HasSuffix(raw, "-->") || len(raw) < 7 {
		return "", false
	}
	return raw[4 : len(raw)-3], true
}

func xmlRawName(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// xmlParse reads data into a tree; a file that is not well-formed XML is a *FileError
// naming the line.
func xmlParse(data []byte) (*xlDoc, error) {
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		return nil, offsetError(data, int64(i), "invalid UTF-8")
	}
	// encoding/xml does not skip a byte order mark: it is kept with the prolog.
	bom := ""
	if b, ok := bytes.CutPrefix(data, []byte("\xef\xbb\xbf")); ok {
		bom, data = "\xef\xbb\xbf", b
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	doc := &xlDoc{data: data}
	var stack []*xlNode
	rootEnd := -1
	for {
		pos := int(d.InputOffset())
		line, _ := d.InputPos()
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, lineError(se.Line, "%s", se.Msg)
			}
			return nil, lineError(line, "%v", err)
		}
		end := int(d.InputOffset())
		switch t := tok.(type) {
		case xml.StartElement:
			n := &xlNode{name: xmlRawName(t.Name), start: pos, innerStart: end, innerEnd: end, end: end, line: line}
			n.rawAttrs = xmlTagAttrs(data[pos:end], n.name)
			n.attrs = t.Attr
			if len(stack) == 0 {
				if doc.root != nil {
					return nil, lineError(line, "a second root element <%s>", n.name)
				}
				doc.root = n
				doc.prolog = bom + string(data[:pos])
			} else {
				p := stack[len(stack)-1]
				p.kids = append(p.kids, xlKid{el: n})
			}
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, lineError(line, "</%s> closes nothing", xmlRawName(t.Name))
			}
			top := stack[len(stack)-1]
			if xmlRawName(t.Name) != top.name {
				return nil, lineError(line, "</%s> closes <%s> of line %d", xmlRawName(t.Name), top.name, top.line)
			}
			top.innerEnd, top.end = pos, end
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				rootEnd = end
			}
		case xml.CharData:
			if len(stack) == 0 {
				raw := string(data[pos:end])
				if t := strings.TrimSpace(raw); t != "" {
					return nil, lineError(line+strings.Count(raw[:strings.Index(raw, t)], "\n"), "text outside the root element")
				}
				continue
			}
			p := stack[len(stack)-1]
			p.kids = append(p.kids, xlKid{text: string(t), cdata: bytes.HasPrefix(data[pos:end], []byte("<![CDATA[")), start: pos, end: end})
		default:
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.kids = append(p.kids, xlKid{start: pos, end: end, atom: true})
			} else {
				doc.misc = append(doc.misc, xlKid{start: pos, end: end, atom: true})
			}
		}
	}
	if len(stack) > 0 {
		top := stack[len(stack)-1]
		return nil, lineError(1+bytes.Count(data, []byte("\n")), "<%s> of line %d is not closed", top.name, top.line)
	}
	if doc.root == nil {
		return nil, lineError(1, "no root element")
	}
	doc.epilog = string(data[rootEnd:])
	return doc, nil
}

// xmlTagAttrs is the attribute part of a raw start tag ("<a x='1'/>" gives " x='1'").
func xmlTagAttrs(tag []byte, name string) string {
	s := tag[min(len(tag), 1+len(name)):]
	s = bytes.TrimSuffix(s, []byte(">"))
	return string(bytes.TrimSuffix(s, []byte("/")))
}

// xmlRawAttr is one attribute of a raw attribute string, with its leading whitespace.
type xmlRawAttr struct{ name, value, raw string }

// xmlSplitAttrs reads a raw attribute string; ok is false when it does not parse.
func xmlSplitAttrs(s string) (attrs []xmlRawAttr, trail string, ok bool) {
	i := 0
	for {
		j := i
		for j < len(s) && xmlIsSpace(s[j]) {
			j++
		}
		if j == len(s) {
			return attrs, s[i:], true
		}
		n := j
		for n < len(s) && xmlNameByte(s[n]) {
			n++
		}
		if n == j {
			return nil, "", false
		}
		k := n
		for k < len(s) && xmlIsSpace(s[k]) {
			k++
		}
		if k >= len(s) || s[k] != '=' {
			return nil, "", false
		}
		k++
		for k < len(s) && xmlIsSpace(s[k]) {
			k++
		}
		if k >= len(s) || (s[k] != '"' && s[k] != '\'') {
			return nil, "", false
		}
		q := strings.IndexByte(s[k+1:], s[k])
		if q < 0 {
			return nil, "", false
		}
		end := k + 1 + q + 1
		v, ok := xmlUnescape(s[k+1 : end-1])
		if !ok {
			return nil, "", false
		}
		attrs = append(attrs, xmlRawAttr{name: s[j:n], value: v, raw: s[i:end]})
		i = end
	}
}

// xmlUnescape undoes the escapes of an attribute value as written.
func xmlUnescape(s string) (string, bool) {
	if !strings.ContainsAny(s, "&<") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		if c == '<' {
			return "", false
		}
		if c != '&' {
			b.WriteByte(c)
			i++
			continue
		}
		e := strings.IndexByte(s[i:], ';')
		if e < 0 {
			return "", false
		}
		ent := s[i+1 : i+e]
		switch ent {
		case "amp":
			b.WriteByte('&')
		case "lt":
			b.WriteByte('<')
		case "gt":
			b.WriteByte('>')
		case "quot":
			b.WriteByte('"')
		case "apos":
			b.WriteByte('\'')
		default:
			var n uint64
			var err error
			switch {
			case strings.HasPrefix(ent, "#x"):
				n, err = strconv.ParseUint(ent[2:], 16, 32)
			case strings.HasPrefix(ent, "#"):
				n, err = strconv.ParseUint(ent[1:], 10, 32)
			default:
				return "", false
			}
			if err != nil || !xmlValidRune(rune(n)) {
				return "", false
			}
			b.WriteRune(rune(n))
		}
		i += e + 1
	}
	return b.String(), true
}

// xmlWriteRawAttr writes an attribute as written, with the space a first one needs (a file
// may run attributes together: a="1"b="2").
func xmlWriteRawAttr(b *strings.Builder, raw string) {
	if b.Len() == 0 && raw != "" && !xmlIsSpace(raw[0]) {
		b.WriteByte(' ')
	}
	b.WriteString(raw)
}

func xmlIsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func xmlGetAttr(s, name string) (string, bool) {
	attrs, _, _ := xmlSplitAttrs(s)
	for _, a := range attrs {
		if a.name == name {
			return a.value, true
		}
	}
	return "", false
}

// xmlSetAttr gives s with name set to value: in place when present, else appended.
func xmlSetAttr(s, name, value string) string {
	attrs, trail, ok := xmlSplitAttrs(s)
	if !ok {
		return s
	}
	var b strings.Builder
	done := false
	for _, a := range attrs {
		if a.name == name {
			if a.value == value {
				b.WriteString(a.raw)
			} else {
				lead := a.raw[:len(a.raw)-len(strings.TrimLeft(a.raw, " \t\r\n"))]
				xmlWriteRawAttr(&b, lead+name+`="`+xmlEscapeAttr(value)+`"`)
			}
			done = true
			continue
		}
		xmlWriteRawAttr(&b, a.raw)
	}
	if !done {
		b.WriteString(" " + name + `="` + xmlEscapeAttr(value) + `"`)
	}
	b.WriteString(trail)
	return b.String()
}

func xmlDelAttr(s, name string) string {
	attrs, trail, ok := xmlSplitAttrs(s)
	if !ok {
		return s
	}
	var b strings.Builder
	for _, a := range attrs {
		if a.name != name {
			xmlWriteRawAttr(&b, a.raw)
		}
	}
	b.WriteString(trail)
	return b.String()
}

// xmlValidRune: XML 1.0 forbids most control characters, even escaped.
func xmlValidRune(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r <= 0xD7FF) ||
		(r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

func xmlClean(s string) string {
	// Most text is ASCII that XML allows: one pass over its bytes, not two over its runes.
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		c := s[i]
		ascii = c < utf8.RuneSelf && (c >= 0x20 || c == '\t' || c == '\n' || c == '\r')
	}
	if ascii {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexFunc(s, func(r rune) bool { return !xmlValidRune(r) }) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if !xmlValidRune(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

// xmlEscape is the one XML escaper of the codecs (xmlUnescape and xmlParse read it back):
// s as character data, or as an attribute value in double quotes when attr is set. & and <
// are escaped, > as &gt; everywhere when gt is set (XLIFF's and Apple's spelling) and else
// only where it would close "]]>" (Android's); " in an attribute; \r, and in an attribute
// \n and \t, which a parser would change, as character references. Invalid UTF-8 and
// characters XML forbids become U+FFFD.
func xmlEscape(s string, attr, gt bool) string {
	s = xmlClean(s)
	if !strings.ContainsAny(s, "&<>\r") && (!attr || !strings.ContainsAny(s, "\"\n\t")) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>' && (gt || attr || strings.HasSuffix(s[:i], "]]")):
			b.WriteString("&gt;")
		case r == '\r':
			b.WriteString("&#xD;")
		case attr && r == '"':
			b.WriteString("&quot;")
		case attr && r == '\n':
			b.WriteString("&#xA;")
		case attr && r == '\t':
			b.WriteString("&#x9;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// xmlEscapeText escapes character data in XLIFF's spelling (> as &gt;).
func xmlEscapeText(s string) string { return xmlEscape(s, false, true) }

func xmlEscapeAttr(s string) string { return xmlEscape(s, true, true) }

// xmlInlineSet names a version's inline elements: paired ones hold text (their content is
// read as the value's text), atoms are kept whole as written.
type xmlInlineSet struct{ paired, atoms map[string]bool }

// inner reads an element's content as a value: text unescaped, inline elements as the raw
// XML they were written as. cdata is true when the content is one CDATA section.
func (d *xlDoc) inner(n *xlNode) (text string, cdata bool) {
	var b strings.Builder
	d.writeInner(&b, n)
	return b.String(), len(n.kids) == 1 && n.kids[0].cdata
}

func (d *xlDoc) writeInner(b *strings.Builder, n *xlNode) {
	for _, k := range n.kids {
		switch {
		case k.el != nil:
			if k.el.innerStart == k.el.end {
				b.WriteString(d.raw(k.el.start, k.el.end))
				continue
			}
			b.WriteString(d.raw(k.el.start, k.el.innerStart))
			d.writeInner(b, k.el)
			b.WriteString(d.raw(k.el.innerEnd, k.el.end))
		case k.atom:
			b.WriteString(d.raw(k.start, k.end))
		default:
			b.WriteString(k.text)
		}
	}
}

// xmlEncodeInline writes a value as element content: the inline elements of set (and XML
// comments) as written, everything else escaped. When the result would not read back as
// the same value (an unclosed <g>, a tag that is not XML), the whole value is written as
// text instead.
func xmlEncodeInline(v string, set xmlInlineSet) string {
	v = xmlClean(v)
	if !strings.Contains(v, "<") {
		return xmlEscapeText(v)
	}
	var b strings.Builder
	tags := false
	for i := 0; i < len(v); {
		j := strings.IndexByte(v[i:], '<')
		if j < 0 {
			b.WriteString(xmlEscapeText(v[i:]))
			break
		}
		b.WriteString(xmlEscapeText(v[i : i+j]))
		i += j
		if n := xmlInlineTagLen(v[i:], set); n > 0 {
			if !xmlEmptyElement(v[i:i+n], set) {
				tags = true // anything but <x .../> is checked below
			}
			b.WriteString(v[i : i+n])
			i += n
			continue
		}
		b.WriteString("&lt;")
		i++
	}
	if !tags {
		return b.String()
	}
	out := b.String()
	if doc, err := xmlParse([]byte("<r>" + out + "</r>")); err == nil {
		if back, _ := doc.inner(doc.root); back == v {
			return out
		}
	}
	return xmlEscapeText(v)
}

// xmlEmptyElement: tag is an atom written <name attrs/> whose attributes are XML, so it reads
// back as itself without a parse to check it.
func xmlEmptyElement(tag string, set xmlInlineSet) bool {
	if !strings.HasSuffix(tag, "/>") || strings.HasPrefix(tag, "<!") {
		return false
	}
	name := tag[1:]
	if k := strings.IndexAny(name, " \t\r\n/"); k >= 0 {
		name = name[:k]
	}
	if !set.atoms[name] {
		return false
	}
	attrs, _, ok := xmlSplitAttrs(tag[1+len(name) : len(tag)-2])
	if !ok {
		return false
	}
	for _, a := range attrs {
		c := a.name[0]
		if !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) || strings.Count(a.name, ":") > 1 {
			return false
		}
	}
	return true
}

// xmlInlineTagLen is the length of the inline tag (or comment) s starts with, 0 for none.
func xmlInlineTagLen(s string, set xmlInlineSet) int {
	if strings.HasPrefix(s, "<!--") {
		if e := strings.Index(s[4:], "-->"); e >= 0 {
			return 4 + e + 3
		}
		return 0
	}
	closing := strings.HasPrefix(s, "</")
	i := 1
	if closing {
		i = 2
	}
	j := i
	for j < len(s) && (xmlNameByte(s[j])) {
		j++
	}
	name := s[i:j]
	local := name
	if k := strings.LastIndexByte(name, ':'); k >= 0 {
		local = name[k+1:]
	}
	if name == "" || !(set.paired[local] || set.atoms[local]) {
		return 0
	}
	if closing {
		if !set.paired[local] {
			return 0
		}
		k := j
		for k < len(s) && xmlIsSpace(s[k]) {
			k++
		}
		if k < len(s) && s[k] == '>' {
			return k + 1
		}
		return 0
	}
	if j < len(s) && !xmlIsSpace(s[j]) && s[j] != '/' && s[j] != '>' {
		return 0
	}
	var q byte
	for k := j; k < len(s); k++ {
		c := s[k]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '<':
			return 0
		case c == '>':
			if s[k-1] == '/' || set.paired[local] {
				return k + 1
			}
			// An atom with content: up to its end tag.
			end := strings.Index(s[k+1:], "</"+name)
			if end < 0 {
				return 0
			}
			e := k + 1 + end + 2 + len(name)
			for e < len(s) && xmlIsSpace(s[e]) {
				e++
			}
			if e < len(s) && s[e] == '>' {
				return e + 1
			}
			return 0
		}
	}
	return 0
}

func xmlNameByte(c byte) bool {
	return c == ':' || c == '_' || c == '-' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// xmlEncodeCDATA writes text as one CDATA section ("]]>" split across two).
func xmlEncodeCDATA(v string) string {
	v = xmlClean(v)
	if strings.Contains(v, "\r") {
		return ""
	}
	return "<![CDATA[" + strings.ReplaceAll(v, "]]>", "]]]]><![CDATA[>") + "]]>"
}

// xmlWriteContent writes a value as element content, as one CDATA section when cdata is set
// and the text allows it.
func xmlWriteContent(v string, cdata bool, set xmlInlineSet) string {
	if cdata && v != "" {
		if s := xmlEncodeCDATA(v); s != "" {
			return s
		}
	}
	return xmlEncodeInline(v, set)
}

// element writes <name attrs>content</name>, self-closed when content is empty.
func xmlElement(name, attrs, content string) string {
	if content == "" {
		return "<" + name + attrs + "/>"
	}
	return "<" + name + attrs + ">" + content + "</" + name + ">"
}

// xlSetMeta sets m[k] = v unless v is "" (meta maps stay nil when empty).
func xlSetMeta(m *map[string]string, k, v string) {
	if v == "" {
		return
	}
	if *m == nil {
		*m = map[string]string{}
	}
	(*m)[k] = v
}

// xlLanguages are the source and target languages an XLIFF file is written with: the
// file's own target language wins (its values are under it), else the options'; the
// file's source language, else the project's.
func xlLanguages(f *File, o Options) (source, target string) {
	target = o.Language
	if len(f.Languages) > 0 {
		target = f.Languages[0]
	}
	if target == AllLanguages {
		target = ""
	}
	source = f.SourceLanguage
	if source == "" {
		source = o.SourceLanguage
	}
	return source, target
}

// errDeclared stops xmlDeclaredEncoding's reader once the declaration is read.
var errDeclared = errors.New("declaration read")

// xmlDeclaredEncoding is the encoding an XML declaration names other than UTF-8, "" when it
// names none: encoding/xml reads the declaration and hands the name to its CharsetReader.
func xmlDeclaredEncoding(data []byte) string {
	var name string
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = func(label string, _ io.Reader) (io.Reader, error) {
		name = label
		return nil, errDeclared
	}
	_, _ = d.Token()
	return name
}
