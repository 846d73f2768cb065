package formats

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/message"
)

// Android res/values*/strings.xml. Decode reads <string>, <plurals> and <string-array>
// children of <resources> (other resources, such as <integer> or <color>, are not text to
// translate and are skipped). A value is the text Android reads: its escapes (\' \" \n \t
// \@ \? \\ \uXXXX), its double quotes (which keep white space as written) and XML's
// entities and CDATA are decoded, and white space outside quotes collapses to one space,
// as aapt2 does, and is trimmed at both ends (Encode quotes a value's own leading and
// trailing spaces, so they survive whichever reading). A value with inline markup (<b>, <i>,
// <xliff:g>, <a href>) keeps the markup as XML text: "Tap <b>Save</b> &amp; go".
//
// Encode writes the reverse so that Android reads the same string: quotes around a
// segment with leading, trailing or doubled spaces, \' \" \\ \n \t escaped, a leading @ or
// ? escaped (unless the value is a resource reference, androidReference, which is written
// as it is), control characters as \uXXXX, & and < as entities. Without Meta saying
// otherwise (androidSpelling), a value that is an XML fragment of Android's style tags
// (<b>, <i>, <a>, <xliff:g>: androidStyleTags) is written as markup, one with any other
// tag (<br/>, <p>: HTML for Html.fromHtml) as CDATA, anything else as escaped text.
//
// <string-array name="days"> becomes the keys days.0, days.1, ...; Encode writes a run of
// keys base.0, base.1, ... (from 0, same attributes, in index or byte order: days.10 may
// come before days.2) back as one array, an index the run lacks as an empty <item/> so the
// others keep their places. The comment before the array is the comment of item 0; a
// comment before an <item> that item's.
//
// <plurals> is one ICU value under its name, argument "count": {count, plural, one {%d
// file} other {%d files}}. Item text is the form's text with ICU's quoting where needed
// (a literal '#' is '#' quoted), and %d stays as written. Android selects only the CLDR
// categories of the language, so an item of a category the language lacks (quantity="zero"
// in English) is never shown: it is kept under its own name (not as =0, which Android
// cannot express) so that nothing is lost on import and a QA check can report it, and
// Encode, which writes exactly the language's categories, leaves it out. A '#' in a form
// (from another format) is written as %d. Items that were all CDATA are written as CDATA
// (Meta "content"); comments inside <plurals> and any other item spelling are not kept, and
// Meta "lost" says so.
//
// A string defined again for another product (product="tablet") is the key name#product.
//
// translatable="false" is Entry.DoNotTranslate. androidUnkept (Codec.Unkept) names what only
// Meta keeps and Android would read differently without it, for the import's warnings.
// Entry.Meta:
//   - "@<attribute>": any other attribute of the element, by its name as written
//     ("@formatted": "false", "@tools:ignore": "MissingTranslation"); written after name
//     and translatable, sorted by name.
//   - "content": the file's spelling when Encode would choose another: "cdata" (one CDATA
//     section), "text" (&lt;b&gt; where markup or CDATA would be written), "markup" (tags
//     other than style tags), "literal" (\@string/x: text, not a reference), "reference"
//     (an unescaped @ or ? value androidReference does not match), "empty" (<item/>).
//   - "cdata": a CDATA section's text as written, when Encode would write it otherwise
//     (aapt2 drops its double quotes: href="x" reads as href=x); used while it reads the same.
//   - "lost": what of a <plurals> is not kept, in words.
//   - "type": "string" for a <string> whose text is itself an ICU plural (so that Encode
//     does not write it as <plurals>).
//
// File.Meta: "@<attribute>" for the attributes of <resources> (xmlns:tools); "header" for
// comments before <resources>; "trailer" for comments after the last element. Comments are
// trimmed of surrounding white space; several before one element are joined by "\n".
// Blank lines and indentation are not kept: Encode indents by four spaces.

var androidCodec = &Codec{Name: "android", SourceFallback: true, ContentType: "application/xml", Extension: "xml", Decode: decodeAndroid, Encode: encodeAndroid, Unkept: androidUnkept, Merge: mergeAndroid}

// androidUnkept is what of e only its Meta keeps: a spelling Android reads differently
// from the one Encode chooses without it (what the decoder could not keep at all, Meta
// "lost", is a File.Warnings entry). A spelling that reads the same (CDATA or &lt; around
// plain text, <item/>) is not named.
func androidUnkept(e Entry) []string {
	var out []string
	var v string
	for _, x := range e.Values {
		v = x.Text
	}
	switch c, def := e.Meta["content"], androidSpelling(v); {
	case c == "cdata" && e.Meta["lost"] == "" && strings.Contains(v, "plural,"):
		out = append(out, "the <plurals> items are CDATA in the file; written without it, their tags become styled text")
	case c == "cdata" && def == "markup":
		out = append(out, "the value is CDATA in the file; written without it, its tags become styled text, not HTML")
	case c == "text" && def == "markup":
		out = append(out, "the value's tags are escaped text in the file; written without it, they become styled text")
	case c == "markup" && def == "cdata":
		out = append(out, "the value's tags are markup in the file; written without it, it becomes CDATA (HTML text)")
	case c == "literal":
		out = append(out, "the value is escaped text in the file (\\"+v[:1]+"); written without it, it becomes a resource reference")
	case c == "reference":
		out = append(out, "the value is a resource reference lokal does not recognise; written without the file, it becomes escaped text")
	}
	return out
}

// androidQuantities are the quantity names Android knows.
var androidQuantities = []string{"zero", "one", "two", "few", "many", "other"}

// androidDecoder reads a strings.xml from the tree xmlParse makes of it.
type androidDecoder struct {
	doc  *xlDoc
	lang string
	// cdata: the value content last read was one CDATA section.
	cdata bool
}

// textLine is the line where the text of kid k (not white space) begins.
func (a *androidDecoder) textLine(k xlKid) int {
	raw := a.doc.raw(k.start, k.end)
	return a.doc.lineAt(k.start + strings.Index(raw, strings.TrimSpace(raw)))
}

func decodeAndroid(data []byte, o Options) (*File, error) {
	doc, err := xmlParse(data)
	if err != nil {
		var fe *FileError
		if errors.As(err, &fe) && fe.Msg == "no root element" {
			return nil, lineError(fe.Line, "no <resources> element")
		}
		return nil, err
	}
	a := &androidDecoder{doc: doc, lang: o.Language}
	root := doc.root
	if root.name != "resources" {
		return nil, lineError(root.line, "the root element is <%s>, want <resources>", root.name)
	}
	f := &File{Languages: []string{o.Language}, Entries: []Entry{}}
	fmeta := map[string]string{}
	for _, at := range root.attrs {
		fmeta["@"+xmlRawName(at.Name)] = at.Value
	}
	// Comments before <resources> are the header; those after its last element, and after
	// it, the trailer.
	var header, comments []string
	for _, k := range doc.misc {
		if c, ok := xmlComment(doc, k); ok && k.end <= root.start {
			header = appendComment(header, c)
		}
	}
	if len(header) > 0 {
		fmeta["header"] = strings.Join(header, "\n")
	}
	seen := map[string]int{}
	add := func(e Entry, line int) error {
		if p := e.Meta["@product"]; p != "" && seen[e.Key] > 0 {
			// The same string for another product (product="tablet"): its own key.
			e.Key += "#" + p
		}
		if l, dup := seen[e.Key]; dup {
			return lineError(line, "%q is defined twice (first on line %d)", e.Key, l)
		}
		seen[e.Key] = line
		f.Entries = append(f.Entries, e)
		return nil
	}
	for _, k := range root.kids {
		if k.atom {
			if c, ok := xmlComment(doc, k); ok {
				comments = appendComment(comments, c)
			}
			continue
		}
		el := k.el
		if el == nil {
			continue // text between elements is not read
		}
		comment := strings.Join(comments, "\n")
		comments = nil
		kind := el.name
		switch kind {
		case "string", "plurals", "string-array":
		default:
			continue // not text to translate
		}
		name, dnt, meta, err := androidAttrs(el)
		if err != nil {
			return nil, err
		}
		switch kind {
		case "string":
			text, content, err := a.content(el)
			if err != nil {
				return nil, err
			}
			meta = contentMeta(meta, content)
			if _, ok := SinglePlural(text); ok {
				meta = setMeta(meta, "type", "string")
			}
			e := Entry{Key: name, Values: map[string]Value{o.Language: {Text: text}}, Comment: comment, DoNotTranslate: dnt, Meta: meta}
			if err := add(e, el.line); err != nil {
				return nil, err
			}
		case "plurals":
			value, content, lost, err := a.plurals(el)
			if err != nil {
				return nil, err
			}
			if content != "" {
				meta = setMeta(meta, "content", content)
			}
			if lost != "" {
				meta = setMeta(meta, "lost", lost)
				f.Warnings = append(f.Warnings, Warning{Key: name, Message: "lokal does not keep the " + lost + " of this <plurals>"})
			}
			e := Entry{Key: name, Values: map[string]Value{o.Language: {Text: value}}, Comment: comment, DoNotTranslate: dnt, Meta: meta}
			if err := add(e, el.line); err != nil {
				return nil, err
			}
		case "string-array":
			if err := a.array(el, name, comment, dnt, meta, add); err != nil {
				return nil, err
			}
		}
	}
	for _, k := range doc.misc {
		if c, ok := xmlComment(doc, k); ok && k.start >= root.end {
			comments = appendComment(comments, c)
		}
	}
	if len(comments) > 0 {
		fmeta["trailer"] = strings.Join(comments, "\n")
	}
	if len(fmeta) > 0 {
		f.Meta = fmeta
	}
	return f, nil
}

// contentMeta records a value's spelling (from content) in its entry's Meta: "content",
// and "cdata" for a CDATA section's text as written.
func contentMeta(m map[string]string, content string) map[string]string {
	switch {
	case strings.HasPrefix(content, "cdata:"):
		return setMeta(m, "cdata", content[len("cdata:"):])
	case content != "":
		return setMeta(m, "content", content)
	}
	return m
}

func setMeta(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[k] = v
	return m
}

// androidAttrs reads an element's name, translatable and other attributes.
func androidAttrs(el *xlNode) (name string, dnt bool, meta map[string]string, err error) {
	hasName := false
	for _, at := range el.attrs {
		switch n := xmlRawName(at.Name); n {
		case "name":
			name, hasName = at.Value, true
		case "translatable":
			dnt = at.Value == "false"
			if at.Value != "false" && at.Value != "true" {
				meta = setMeta(meta, "@"+n, at.Value)
			}
		default:
			meta = setMeta(meta, "@"+n, at.Value)
		}
	}
	if !hasName || name == "" {
		return "", false, nil, lineError(el.line, "<%s> without a name", el.name)
	}
	return name, dnt, meta, nil
}

// segment is a run of an element's content: text (decoded XML) or a markup tag as written.
type segment struct {
	text  string
	tag   string
	cdata bool
}

// androidSegments adds the content of n to segs: text runs (decoded, one run where text
// meets text, cdata when it is one CDATA section) and the tags of its elements as written.
// other is set when the content holds a comment or processing instruction (which are
// not part of a value).
func androidSegments(d *xlDoc, n *xlNode, segs []segment, other *bool) []segment {
	for _, k := range n.kids {
		switch {
		case k.atom:
			*other = true
		case k.el == nil:
			if l := len(segs); l > 0 && segs[l-1].tag == "" {
				segs[l-1].text += k.text
				segs[l-1].cdata = false
			} else {
				segs = append(segs, segment{text: k.text, cdata: k.cdata})
			}
		default:
			segs = append(segs, segment{tag: d.raw(k.el.start, k.el.innerStart)})
			if k.el.innerStart == k.el.end {
				continue // <br/>: no end tag
			}
			segs = androidSegments(d, k.el, segs, other)
			segs = append(segs, segment{tag: d.raw(k.el.innerEnd, k.el.end)})
		}
	}
	return segs
}

// content reads an element's content: the value, and "cdata" or "text" when the value
// needs that said to be written back the same way.
func (a *androidDecoder) content(el *xlNode) (string, string, error) {
	a.cdata = false
	if el.innerStart == el.end {
		return "", "empty", nil // <item/>: written back self-closing
	}
	var other bool
	segs := androidSegments(a.doc, el, nil, &other)
	markup := len(el.elements()) > 0
	return a.value(segs, markup, el.line)
}

// value is the element's value from its content, and the spelling Encode needs told to
// write it back as the file has it ("" when Encode's own choice, androidSpelling, is the
// file's).
func (a *androidDecoder) value(segs []segment, markup bool, line int) (string, string, error) {
	if !markup {
		var text string
		cdata := len(segs) == 1 && segs[0].cdata
		if len(segs) > 0 {
			text = segs[0].text
		}
		v, err := androidUnescape(text, true, true)
		if err != nil {
			return "", "", lineError(line, "%v", err)
		}
		def := androidSpelling(v)
		a.cdata = cdata
		switch {
		case cdata:
			if def != "cdata" {
				return v, "cdata", nil
			}
			if inner := text; androidWriteValue(v, "", "") != "<![CDATA["+inner+"]]>" {
				return v, "cdata:" + inner, nil // as written, when ours would differ (href="x")
			}
			return v, "", nil
		case def == "reference" || def == "":
			// aapt2 reads an unescaped leading @ or ? as a resource reference.
			ref := strings.HasPrefix(strings.TrimLeft(text, " \t\n\r"), "@") || strings.HasPrefix(strings.TrimLeft(text, " \t\n\r"), "?")
			switch {
			case ref && def == "":
				return v, "reference", nil
			case !ref && def == "reference":
				return v, "literal", nil
			}
			return v, "", nil
		case def != "":
			return v, "text", nil // &lt;b&gt;: text that would otherwise be written as markup or CDATA
		}
		return v, "", nil
	}
	var b strings.Builder
	texts := 0
	for _, s := range segs {
		if s.tag == "" {
			texts++
		}
	}
	n := 0
	for _, s := range segs {
		if s.tag != "" {
			b.WriteString(s.tag)
			continue
		}
		n++
		v, err := androidUnescape(s.text, n == 1 && segs[0].tag == "", n == texts && segs[len(segs)-1].tag == "")
		if err != nil {
			return "", "", lineError(line, "%v", err)
		}
		b.WriteString(androidText(v))
	}
	if v := b.String(); androidSpelling(v) != "markup" {
		return v, "markup", nil // tags Encode would write as CDATA (<br/>, <p>)
	}
	return b.String(), "", nil
}

// plurals reads a <plurals>' items: the ICU value; "cdata" when every item was a CDATA
// section (Encode writes them so); and, in words, what of the element lokal does not keep
// (comments between items, an item's own spelling).
func (a *androidDecoder) plurals(el *xlNode) (value, content, lost string, err error) {
	var forms []PluralForm
	allCDATA := true
	var lose []string
	for _, k := range el.kids {
		switch {
		case k.atom:
			if _, ok := xmlComment(a.doc, k); ok && !slices.Contains(lose, "comments between its items") {
				lose = append(lose, "comments between its items")
			}
		case k.el == nil:
			if strings.TrimSpace(k.text) != "" {
				return "", "", "", lineError(a.textLine(k), "text inside <plurals>")
			}
		default:
			it := k.el
			if it.name != "item" {
				return "", "", "", lineError(it.line, "<%s> inside <plurals>, want <item>", it.name)
			}
			q := ""
			for _, at := range it.attrs {
				if xmlRawName(at.Name) == "quantity" {
					q = at.Value // the last of a repeated one
				}
			}
			if !slices.Contains(androidQuantities, q) {
				return "", "", "", lineError(it.line, "<item> quantity %q is not one of %s", q, strings.Join(androidQuantities, ", "))
			}
			if hasSelector(forms, q) {
				return "", "", "", lineError(it.line, "quantity %q appears twice", q)
			}
			text, spelling, err := a.content(it)
			if err != nil {
				return "", "", "", err
			}
			allCDATA = allCDATA && a.cdata
			if spelling != "" && spelling != "cdata" {
				lose = append(lose, fmt.Sprintf("the %s item's spelling", q))
			}
			forms = append(forms, PluralForm{Selector: q, Text: text})
		}
	}
	if len(forms) == 0 {
		return "", "", "", lineError(el.line, "<plurals> without an <item>")
	}
	v, err := androidPluralValue(forms, el.line)
	if allCDATA {
		content = "cdata"
	}
	return v, content, strings.Join(lose, ", "), err
}

// androidPluralValue is the ICU value of a <plurals>' items (native text, in file order).
func androidPluralValue(forms []PluralForm, line int) (string, error) {
	for _, quoteBraces := range []bool{false, true} {
		p := &Plural{Arg: "count"}
		for _, f := range forms {
			p.Forms = append(p.Forms, PluralForm{Selector: f.Selector, Text: nativeLiteral(f.Text, true, quoteBraces)})
		}
		v := p.String()
		back, ok := SinglePlural(v)
		if !ok || len(back.Forms) != len(forms) || !quoteBraces && braceProblems(v) {
			continue
		}
		same := true
		for i, f := range back.Forms {
			t, pounds := message.ICUToNative(f.Text, "#"), formPounds(f.Text)
			if f.Selector != forms[i].Selector || t != forms[i].Text || pounds > 0 {
				same = false
			}
		}
		if same {
			return v, nil
		}
	}
	return "", lineError(line, "the plural's items cannot be written as one ICU value")
}

func (a *androidDecoder) array(el *xlNode, name, comment string, dnt bool, meta map[string]string, add func(Entry, int) error) error {
	i := 0
	var comments []string
	if comment != "" {
		comments = []string{comment}
	}
	for _, k := range el.kids {
		switch {
		case k.atom:
			if c, ok := xmlComment(a.doc, k); ok {
				comments = appendComment(comments, c)
			}
		case k.el == nil:
			if strings.TrimSpace(k.text) != "" {
				return lineError(a.textLine(k), "text inside <string-array>")
			}
		default:
			it := k.el
			if it.name != "item" {
				return lineError(it.line, "<%s> inside <string-array>, want <item>", it.name)
			}
			text, content, err := a.content(it)
			if err != nil {
				return err
			}
			m := contentMeta(cloneMeta(meta), content)
			if _, ok := SinglePlural(text); ok {
				m = setMeta(m, "type", "string")
			}
			e := Entry{Key: name + "." + strconv.Itoa(i), Values: map[string]Value{a.lang: {Text: text}}, Comment: strings.Join(comments, "\n"), DoNotTranslate: dnt, Meta: m}
			comments = nil
			if err := add(e, it.line); err != nil {
				return err
			}
			i++
		}
	}
	return nil
}

func cloneMeta(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// androidUnescape is the text aapt2 makes of an XML text run: escapes decoded, double
// quotes removed (keeping the white space between them), other runs of white space one
// space; trimmed at the start of the string (first) and at its end (last).
func androidUnescape(s string, first, last bool) (string, error) {
	var b strings.Builder
	quote, lastSpace, endSpace := false, false, false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if !quote && r < utf8.RuneSelf && isASCIISpace(byte(r)) {
			if !lastSpace && (b.Len() > 0 || !first) {
				b.WriteByte(' ')
				endSpace = true
			}
			lastSpace = true
			continue
		}
		lastSpace, endSpace = false, false
		switch {
		case r == '\\':
			if i >= len(s) {
				continue
			}
			e, n := utf8.DecodeRuneInString(s[i:])
			i += n
			switch e {
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'u':
				if i+4 > len(s) {
					return "", fmt.Errorf("invalid unicode escape \\u%s", s[i:])
				}
				v, err := strconv.ParseUint(s[i:i+4], 16, 32)
				if err != nil {
					return "", fmt.Errorf("invalid unicode escape \\u%s", s[i:i+4])
				}
				i += 4
				b.WriteRune(rune(v))
			default:
				b.WriteRune(e)
			}
		case r == '"':
			quote = !quote
		default:
			b.WriteRune(r)
		}
	}
	out := b.String()
	if last && endSpace {
		out = out[:len(out)-1]
	}
	return out, nil
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// androidText escapes text as Android's files write it: > left as it is but in "]]>".
func androidText(s string) string { return xmlEscape(s, false, false) }

// androidMarkup splits a value into text and tags when it is an XML fragment holding at
// least one element; nil otherwise.
func androidMarkup(v string) []segment {
	if !strings.Contains(v, "<") {
		return nil
	}
	doc, err := xmlParse([]byte("<r>" + v + "</r>"))
	if err != nil || len(doc.root.elements()) == 0 {
		return nil
	}
	var other bool
	segs := androidSegments(doc, doc.root, nil, &other)
	if other {
		return nil // comments, processing instructions: not a value's markup
	}
	return segs
}

// androidEscape writes text so that aapt2 reads it back: first and last say whether the
// text starts and ends the string.
func androidEscape(s string, first, last bool) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	quote := strings.Contains(s, "  ") || first && strings.HasPrefix(s, " ") || last && strings.HasSuffix(s, " ")
	var b strings.Builder
	if quote {
		b.WriteByte('"')
	}
	for i, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\'':
			b.WriteString(`\'`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '@', '?':
			if first && i == 0 {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		default:
			if r < 0x20 || r == 0x7f || !xmlValidRune(r) {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	if quote {
		b.WriteByte('"')
	}
	return b.String()
}

// androidStyleTags are the elements a string resource holds as markup (aapt2 keeps them as
// styled spans; xliff:g marks text not to translate). A value with any other element
// (<br>, <p>, <div>) is HTML for Html.fromHtml, which a file holds as CDATA.
var androidStyleTags = []string{"b", "i", "u", "s", "tt", "big", "small", "sup", "sub", "strike", "del",
	"font", "a", "annotation", "span", "li", "ul", "ol", "xliff:g"}

// androidReference matches a value that is a resource reference, written unescaped:
// @[+][package:]type/name, @null, @empty, ?[package:]attr/name, ?package:name. A bare
// ?name is left out: as text it is too likely a word.
var androidReference = regexp.MustCompile(`^(@\*?\+?([A-Za-z][A-Za-z0-9_.]*:)?[a-z][a-z-]*/[A-Za-z0-9_.]+|@null|@empty|\?([A-Za-z][A-Za-z0-9_.]*:)?attr/[A-Za-z0-9_.]+|\?[A-Za-z][A-Za-z0-9_.]*:[A-Za-z0-9_.]+)$`)

// hasTag reports whether v has anything the message model reads as an HTML tag or comment.
func hasTag(v string) bool {
	if !strings.Contains(v, "<") {
		return false
	}
	found := false
	message.Walk(message.Parse(v, message.HTML), func(n message.Node, _ message.Path) bool {
		if _, ok := n.(*message.Tag); ok {
			found = true
		}
		return !found
	})
	return found
}

// androidSpelling is how Encode writes value v when the entry does not say otherwise:
// "reference" unescaped, "markup" as elements (only style tags, well formed), "cdata" as a
// CDATA section (any other '<': HTML), "" as escaped text.
func androidSpelling(v string) string {
	switch {
	case v != "" && (v[0] == '@' || v[0] == '?') && androidReference.MatchString(v):
		return "reference"
	case !hasTag(v):
		return "" // no '<' or one that starts no tag (<3): escaped text
	}
	segs := androidMarkup(v)
	if segs == nil {
		return "cdata"
	}
	for _, sg := range segs {
		if sg.tag == "" || strings.HasPrefix(sg.tag, "</") {
			continue
		}
		name := strings.TrimLeft(sg.tag, "<")
		if i := strings.IndexAny(name, " \t\r\n/>"); i >= 0 {
			name = name[:i]
		}
		if !slices.Contains(androidStyleTags, name) {
			return "cdata"
		}
	}
	return "markup"
}

// androidWriteValue writes a value as an element's content, spelled as content says (a
// decoded entry's Meta "content") or else as androidSpelling chooses; cdata is a CDATA
// section's text as the file had it, written when it still reads as v.
func androidWriteValue(v, content, cdata string) string {
	switch {
	case content == "empty" && v == "":
		return ""
	case content == "reference" && (strings.HasPrefix(v, "@") || strings.HasPrefix(v, "?")) && !strings.ContainsAny(v, "\"'\\ \t\n"):
		content = "reference"
	case content == "" || content == "empty" || content == "reference":
		content = androidSpelling(v)
	}
	switch content {
	case "reference":
		return androidText(v)
	case "cdata":
		if cdata != "" && !strings.Contains(cdata, "]]>") {
			if back, err := androidUnescape(cdata, true, true); err == nil && back == v {
				return "<![CDATA[" + cdata + "]]>"
			}
		}
		return "<![CDATA[" + strings.ReplaceAll(androidEscape(v, true, true), "]]>", "]]]]><![CDATA[>") + "]]>"
	case "text", "literal":
		return androidText(androidEscape(v, true, true))
	}
	segs := androidMarkup(v)
	if segs == nil {
		return androidText(androidEscape(v, true, true))
	}
	var b strings.Builder
	for i, s := range segs {
		if s.tag != "" {
			b.WriteString(s.tag)
			continue
		}
		b.WriteString(androidText(androidEscape(s.text, i == 0, i == len(segs)-1)))
	}
	return b.String()
}

func androidComment(b *strings.Builder, indent, c string) {
	if c == "" {
		return
	}
	c = strings.ReplaceAll(c, "--", "- -")
	if strings.HasSuffix(c, "-") {
		c += " "
	}
	b.WriteString(indent + "<!-- " + c + " -->\n")
}

// androidAttrString writes name, translatable and the "@" attributes of meta.
func androidAttrString(name string, dnt bool, meta map[string]string) string {
	var b strings.Builder
	if p := meta["@product"]; p != "" {
		name = strings.TrimSuffix(name, "#"+p)
	}
	if name != "" {
		b.WriteString(` name="` + xmlEscapeAttr(name) + `"`)
	}
	if dnt {
		b.WriteString(` translatable="false"`)
	}
	var keys []string
	for k := range meta {
		if strings.HasPrefix(k, "@") && len(k) > 1 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		b.WriteString(" " + k[1:] + `="` + xmlEscapeAttr(meta[k]) + `"`)
	}
	return b.String()
}

// arrayKey splits "base.n" (n a number without leading zeros) into base and n.
func arrayKey(key string) (string, int, bool) {
	dot := strings.LastIndexByte(key, '.')
	if dot <= 0 || dot == len(key)-1 || key[dot+1] == '0' && dot+2 < len(key) {
		return "", 0, false
	}
	n, err := strconv.Atoi(key[dot+1:])
	if err != nil || n < 0 || strconv.Itoa(n) != key[dot+1:] {
		return "", 0, false
	}
	return key[:dot], n, true
}

// attrsOf is the "@" attributes of meta, for comparing array items.
func attrsOf(meta map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range meta {
		if strings.HasPrefix(k, "@") {
			out[k] = v
		}
	}
	return out
}

func sameAttrs(a, b map[string]string) bool {
	x, y := attrsOf(a), attrsOf(b)
	if len(x) != len(y) {
		return false
	}
	for k, v := range x {
		if y[k] != v {
			return false
		}
	}
	return true
}

// arrayRun is the string-array starting at entries[i] (key base.0): the run of entries
// after it that are items of the same array (same attributes and do-not-translate), which
// may come in byte order of their keys (base.10 before base.2), and the entries' indexes
// in item order, -1 for an item the run lacks (written as an empty item, so that the
// others keep their places). n is 0 when entries[i] starts no array.
func arrayRun(entries []Entry, i int, lang string) (base string, n int, items []int) {
	base, n0, ok := arrayKey(entries[i].Key)
	if !ok || n0 != 0 {
		return "", 0, nil
	}
	at := map[int]int{}
	last := 0
	for j := i; j < len(entries); j++ {
		e := entries[j]
		b, k, ok := arrayKey(e.Key)
		v, has := e.Values[lang]
		if !ok || b != base || !has || e.DoNotTranslate != entries[i].DoNotTranslate || !sameAttrs(e.Meta, entries[i].Meta) {
			break
		}
		if _, plural := SinglePlural(v.Text); plural && e.Meta["type"] != "string" {
			break
		}
		if _, dup := at[k]; dup {
			break
		}
		at[k] = j
		last = max(last, k)
		n++
	}
	for k := 0; k <= last; k++ {
		if j, ok := at[k]; ok {
			items = append(items, j)
		} else {
			items = append(items, -1)
		}
	}
	return base, n, items
}

func encodeAndroid(f *File, o Options) ([]byte, error) {
	lang := fileLanguage(f, o)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n")
	androidComment(&b, "", f.Meta["header"])
	b.WriteString("<resources" + androidAttrString("", false, f.Meta) + ">\n")
	entries := make([]Entry, 0, len(f.Entries))
	size := 0
	for _, e := range f.Entries {
		if v, ok := e.Values[lang]; ok {
			entries = append(entries, e) // untranslated keys are left out
			size += len(e.Key) + len(v.Text) + 40
		}
	}
	b.Grow(size)
	for i := 0; i < len(entries); {
		e := entries[i]
		if base, n, items := arrayRun(entries, i, lang); n > 0 {
			androidComment(&b, "    ", e.Comment)
			b.WriteString("    <string-array" + androidAttrString(base, e.DoNotTranslate, e.Meta) + ">\n")
			for _, j := range items {
				if j < 0 {
					b.WriteString("        <item/>\n")
					continue
				}
				if j > i {
					androidComment(&b, "        ", entries[j].Comment)
				}
				b.WriteString("        " + androidElement("item", "", entries[j].Values[lang].Text, entries[j].Meta))
			}
			b.WriteString("    </string-array>\n")
			i += n
			continue
		}
		i++
		v := e.Values[lang].Text
		androidComment(&b, "    ", e.Comment)
		var forms []PluralForm
		if p, ok := SinglePlural(v); ok && !p.Ordinal && e.Meta["type"] != "string" {
			forms, _, _ = ToNative(lang, p, nil)
		}
		if len(forms) > 0 {
			b.WriteString("    <plurals" + androidAttrString(e.Key, e.DoNotTranslate, e.Meta) + ">\n")
			for _, fm := range forms {
				b.WriteString(`        <item quantity="` + fm.Selector + `">` + androidWriteValue(message.ICUToNative(fm.Text, "%d"), e.Meta["content"], "") + "</item>\n")
			}
			b.WriteString("    </plurals>\n")
			continue
		}
		b.WriteString("    " + androidElement("string", androidAttrString(e.Key, e.DoNotTranslate, e.Meta), v, e.Meta))
	}
	androidComment(&b, "    ", f.Meta["trailer"])
	b.WriteString("</resources>\n")
	return []byte(b.String()), nil
}

// androidElement writes one <string> or <item> line: self-closing when the value is empty
// and the file had it so.
func androidElement(name, attrs, v string, meta map[string]string) string {
	if v == "" && meta["content"] == "empty" {
		return "<" + name + attrs + "/>\n"
	}
	return "<" + name + attrs + ">" + androidWriteValue(v, meta["content"], meta["cdata"]) + "</" + name + ">\n"
}

// appendComment adds a comment's text, trimmed, unless it is empty.
func appendComment(comments []string, c string) []string {
	if t := strings.TrimSpace(c); t != "" {
		return append(comments, t)
	}
	return comments
}
