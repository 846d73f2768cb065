package formats

import (
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
)

// Apple .stringsdict: an XML property list whose root dict maps each key to a dict with
// NSStringLocalizedFormatKey ("%#@files@ left in %#@folders@") and one dict per variable
// (NSStringFormatSpecTypeKey NSStringPluralRuleType, NSStringFormatValueTypeKey "d", and
// the forms zero, one, two, few, many, other). A key is one ICU value: each %#@var@
// becomes a plural block whose argument is the variable's name, and the text around it
// stays text: "{files, plural, one {%d file} other {%d files}} left in {folders, plural,
// ...}". The forms keep their printf conversions (%d, %ld) as written; a literal '#' or a
// brace is quoted ICU's way. Apple's "zero" applies to 0 in every language, so in a
// language without the zero category it is the explicit form =0, and =0 is written back as
// zero (ZeroExplicit). Encode writes exactly the language's categories; a '#' in a form is
// written as the variable's conversion (%d for value type d). The conversion is shared
// with xcstrings' substitutions and XLIFF's Xcode units (formatkey.go).
//
// A key whose format has no variable is a plain value (written back as a format key
// without variables). A key whose dict is a NSStringVariableWidthRuleType is the text of
// its widest variant, the variants kept in Meta. Other rule types of a variable (device
// variants) are refused, naming the line.
//
// Entry.Meta:
//   - "valueType.<var>": NSStringFormatValueTypeKey of the variable (d, ld, u, @, ...).
//   - "position.<var>": the n of a positional reference %n$#@var@.
//   - "plain": "true" for a format without variables whose text reads as an ICU plural.
//   - "width.<n>": the text of each variant of a NSStringVariableWidthRuleType key; Encode
//     writes the widest one from the value.
//
// The comment (<!-- -->) before a key is Entry.Comment. Encode writes Xcode's layout
// (tabs, the plist DOCTYPE) with its own XML writer, so the output is stable.

var stringsdictCodec = &Codec{Name: "stringsdict", ContentType: "application/x-plist", Extension: "stringsdict", Decode: decodeStringsdict, Encode: encodeStringsdict}

// appleForms are the plural forms of a stringsdict variable, in Apple's order.
var appleForms = []string{"zero", "one", "two", "few", "many", "other"}

// pnode is a property-list value: a dict (keys in file order), a string, or another type.
type pnode struct {
	kind     string // "dict", "string", or the element name of another type
	line     int
	text     string
	keys     []string
	vals     []*pnode
	comments []string // per key, the comment before it
	keyLines []int
	index    map[string]int
}

func (n *pnode) get(k string) *pnode {
	if i, ok := n.index[k]; ok {
		return n.vals[i]
	}
	return nil
}

type plistReader struct {
	d *xml.Decoder
}

func (r *plistReader) line() int {
	l, _ := r.d.InputPos()
	return l
}

func (r *plistReader) token() (xml.Token, error) {
	t, err := r.d.Token()
	if err != nil {
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			return nil, lineError(se.Line, "%s", se.Msg)
		}
		if err == io.EOF {
			return nil, lineError(r.line(), "unexpected end of file")
		}
		return nil, lineError(r.line(), "%v", err)
	}
	return xml.CopyToken(t), nil
}

// value reads the value whose start element is se.
func (r *plistReader) value(se xml.StartElement) (*pnode, error) {
	n := &pnode{kind: se.Name.Local, line: r.line()}
	switch n.kind {
	case "dict":
		var comment []string
		for {
			t, err := r.token()
			if err != nil {
				return nil, err
			}
			switch x := t.(type) {
			case xml.Comment:
				comment = appendComment(comment, x)
			case xml.EndElement:
				return n, nil
			case xml.CharData:
				if strings.TrimSpace(string(x)) != "" {
					return nil, lineError(r.line(), "text inside <dict>")
				}
			case xml.StartElement:
				if x.Name.Local != "key" {
					return nil, lineError(r.line(), "<%s> where a <key> belongs", x.Name.Local)
				}
				kl := r.line()
				k, err := r.text("key")
				if err != nil {
					return nil, err
				}
				vs, err := r.nextStart()
				if err != nil {
					return nil, err
				}
				if vs == nil {
					return nil, lineError(r.line(), "<key>%s</key> without a value", k)
				}
				v, err := r.value(*vs)
				if err != nil {
					return nil, err
				}
				if n.get(k) != nil {
					return nil, lineError(kl, "key %q appears twice in one dict", k)
				}
				if n.index == nil {
					n.index = map[string]int{}
				}
				n.index[k] = len(n.keys)
				n.keys, n.vals, n.keyLines = append(n.keys, k), append(n.vals, v), append(n.keyLines, kl)
				n.comments = append(n.comments, strings.Join(comment, "\n"))
				comment = nil
			}
		}
	case "string":
		s, err := r.text("string")
		if err != nil {
			return nil, err
		}
		n.text = s
		return n, nil
	}
	// Any other type: skip it whole.
	depth := 1
	for depth > 0 {
		t, err := r.token()
		if err != nil {
			return nil, err
		}
		switch t.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return n, nil
}

// text reads character data up to the end of the element.
func (r *plistReader) text(name string) (string, error) {
	var b strings.Builder
	for {
		t, err := r.token()
		if err != nil {
			return "", err
		}
		switch x := t.(type) {
		case xml.CharData:
			b.Write(x)
		case xml.StartElement:
			return "", lineError(r.line(), "<%s> inside <%s>", x.Name.Local, name)
		case xml.EndElement:
			return b.String(), nil
		}
	}
}

// nextStart skips white space and comments to the next start element; nil at an end.
func (r *plistReader) nextStart() (*xml.StartElement, error) {
	for {
		before := r.line()
		t, err := r.token()
		if err != nil {
			return nil, err
		}
		switch x := t.(type) {
		case xml.StartElement:
			return &x, nil
		case xml.EndElement:
			return nil, nil
		case xml.CharData:
			if t := strings.TrimSpace(string(x)); t != "" {
				at := before + strings.Count(string(x)[:strings.Index(string(x), t)], "\n")
				return nil, lineError(at, "unexpected text %q", t)
			}
		}
	}
}

func decodeStringsdict(data []byte, o Options) (*File, error) {
	text := strings.TrimPrefix(string(data), "\ufeff") // encoding/xml does not skip a BOM
	r := &plistReader{d: xml.NewDecoder(strings.NewReader(text))}
	r.d.Strict = true
	var root *pnode
	for root == nil {
		t, err := r.token()
		if err != nil {
			return nil, err
		}
		se, ok := t.(xml.StartElement)
		if !ok {
			if cd, ok := t.(xml.CharData); ok && strings.TrimSpace(string(cd)) != "" {
				return nil, lineError(r.line(), "text outside <plist>")
			}
			continue
		}
		if se.Name.Local == "plist" {
			vs, err := r.nextStart()
			if err != nil {
				return nil, err
			}
			if vs == nil {
				root = &pnode{kind: "dict"}
				break
			}
			se = *vs
		}
		if se.Name.Local != "dict" {
			return nil, lineError(r.line(), "the property list holds <%s>, want <dict>", se.Name.Local)
		}
		if root, err = r.value(se); err != nil {
			return nil, err
		}
	}
	f := &File{Languages: []string{o.Language}, Entries: []Entry{}}
	for i, key := range root.keys {
		v := root.vals[i]
		e := Entry{Key: key, Comment: root.comments[i]}
		var text string
		var err error
		switch v.kind {
		case "string":
			text = v.text
			if _, ok := SinglePlural(text); ok || len(Pieces(text)) > 1 {
				e.Meta = map[string]string{"plain": "true"}
			}
		case "dict":
			text, e.Meta, err = stringsdictValue(v, o.Language, root.keyLines[i])
			if err != nil {
				return nil, err
			}
		default:
			return nil, lineError(root.keyLines[i], "%q is a <%s>, want <dict>", key, v.kind)
		}
		e.Values = map[string]Value{o.Language: {Text: text}}
		f.Entries = append(f.Entries, e)
	}
	return f, nil
}

// stringsdictValue is the ICU value of one key's dict.
func stringsdictValue(d *pnode, lang string, line int) (string, map[string]string, error) {
	if w := d.get("NSStringVariableWidthRuleType"); w != nil && d.get("NSStringLocalizedFormatKey") == nil {
		return widthValue(w, line)
	}
	fk := d.get("NSStringLocalizedFormatKey")
	if fk == nil || fk.kind != "string" {
		return "", nil, lineError(line, "no NSStringLocalizedFormatKey string")
	}
	format := fk.text
	parts := splitFormatKey(format)
	var meta map[string]string
	if parts == nil {
		if _, ok := SinglePlural(format); ok || len(Pieces(format)) > 1 {
			meta = map[string]string{"plain": "true"}
		}
		return format, meta, nil
	}
	for p := range parts {
		ref := &parts[p]
		if ref.arg == "" {
			continue
		}
		vd := d.get(ref.arg)
		if vd == nil || vd.kind != "dict" {
			return "", nil, lineError(fk.line, "%%#@%s@ has no dict for the variable", ref.arg)
		}
		if st := vd.get("NSStringFormatSpecTypeKey"); st == nil || st.text != "NSStringPluralRuleType" {
			got := ""
			if st != nil {
				got = st.text
			}
			return "", nil, lineError(vd.line, "variable %q has rule type %q, only NSStringPluralRuleType is read", ref.arg, got)
		}
		vt := "d"
		if t := vd.get("NSStringFormatValueTypeKey"); t != nil {
			vt = t.text
		}
		meta = setMeta(meta, "valueType."+ref.arg, vt)
		if ref.pos != "" {
			meta = setMeta(meta, "position."+ref.arg, ref.pos)
		}
		for i, k := range vd.keys {
			if slices.Contains(appleForms, k) {
				if vd.vals[i].kind != "string" {
					return "", nil, lineError(vd.keyLines[i], "form %q is a <%s>, want <string>", k, vd.vals[i].kind)
				}
				ref.forms = append(ref.forms, PluralForm{Selector: k, Text: vd.vals[i].text})
			}
		}
		if len(ref.forms) == 0 {
			return "", nil, lineError(vd.line, "variable %q has no plural forms", ref.arg)
		}
	}
	if v, ok := formatKeyICU(lang, parts); ok {
		return v, meta, nil
	}
	return "", nil, lineError(fk.line, "the format key and its variables cannot be written as one ICU value")
}

// braceProblems says whether v has a brace ICU reads as unclosed or unmatched: such text
// is written with its braces quoted instead.
func braceProblems(v string) bool {
	for _, p := range message.Parse(v, valueSyntax).Problems {
		if p.Code == message.UnclosedBrace || p.Code == message.UnmatchedBrace {
			return true
		}
	}
	return false
}

// plistText escapes a plist <key> or <string>'s text.
func plistText(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\r':
			b.WriteString("&#13;")
		default:
			if xmlCharOK(r) {
				b.WriteRune(r)
			} else {
				b.WriteRune('\uFFFD')
			}
		}
	}
	return b.String()
}

func encodeStringsdict(f *File, o Options) ([]byte, error) {
	lang := fileLanguage(f, o)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n")
	b.WriteString(`<plist version="1.0">` + "\n<dict>\n")
	kv := func(indent, k, v string) {
		b.WriteString(indent + "<key>" + plistText(k) + "</key>\n" + indent + "<string>" + plistText(v) + "</string>\n")
	}
	for _, e := range f.Entries {
		val, ok := e.Values[lang]
		if !ok {
			continue // untranslated keys are left out
		}
		androidComment(&b, "\t", e.Comment)
		b.WriteString("\t<key>" + plistText(e.Key) + "</key>\n\t<dict>\n")
		if widths := widthsOf(e.Meta); len(widths) > 0 {
			b.WriteString("\t\t<key>NSStringVariableWidthRuleType</key>\n\t\t<dict>\n")
			for i, w := range widths {
				text := e.Meta["width."+w]
				if i == len(widths)-1 {
					text = val.Text // the widest is the value
				}
				kv("\t\t\t", w, text)
			}
			b.WriteString("\t\t</dict>\n\t</dict>\n")
			continue
		}
		ps := Pieces(val.Text)
		if e.Meta["plain"] == "true" {
			ps = []Piece{{Text: val.Text}}
		}
		format, vars, hasPlural := icuFormatKey(lang, ps, func(arg string) string { return e.Meta["position."+arg] })
		if !hasPlural {
			kv("\t\t", "NSStringLocalizedFormatKey", val.Text)
			b.WriteString("\t</dict>\n")
			continue
		}
		kv("\t\t", "NSStringLocalizedFormatKey", format)
		for _, p := range vars {
			vt := e.Meta["valueType."+p.Arg]
			if vt == "" {
				vt = "d"
			}
			b.WriteString("\t\t<key>" + plistText(p.Arg) + "</key>\n\t\t<dict>\n")
			kv("\t\t\t", "NSStringFormatSpecTypeKey", "NSStringPluralRuleType")
			kv("\t\t\t", "NSStringFormatValueTypeKey", vt)
			for _, fm := range formatKeyForms(lang, p, "%"+vt) {
				kv("\t\t\t", fm.Selector, fm.Text)
			}
			b.WriteString("\t\t</dict>\n")
		}
		b.WriteString("\t</dict>\n")
	}
	b.WriteString("</dict>\n</plist>\n")
	return []byte(b.String()), nil
}

// widthValue reads a NSStringVariableWidthRuleType dict: the value is the widest variant's
// text, and every variant is kept in Meta as "width.<n>".
func widthValue(w *pnode, line int) (string, map[string]string, error) {
	if w.kind != "dict" || len(w.keys) == 0 {
		return "", nil, lineError(line, "NSStringVariableWidthRuleType is not a dict of widths")
	}
	meta := map[string]string{}
	for i, k := range w.keys {
		if _, err := strconv.Atoi(k); err != nil || w.vals[i].kind != "string" {
			return "", nil, lineError(w.keyLines[i], "width %q is not a number with a <string>", k)
		}
		meta["width."+k] = w.vals[i].text
	}
	widths := widthsOf(meta)
	return meta["width."+widths[len(widths)-1]], meta, nil
}

// widthsOf lists the widths kept in meta, narrowest first.
func widthsOf(meta map[string]string) []string {
	var out []string
	for k := range meta {
		if w, ok := strings.CutPrefix(k, "width."); ok {
			if _, err := strconv.Atoi(w); err == nil {
				out = append(out, w)
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return x - y
	})
	return out
}
