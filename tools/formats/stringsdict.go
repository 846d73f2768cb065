package formats

import (
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

var stringsdictCodec = &Codec{Name: "stringsdict", SourceFallback: true, ContentType: "application/x-plist", Extension: "stringsdict", Decode: decodeStringsdict, Encode: encodeStringsdict, Merge: mergeStringsdict}

// appleForms are the plural forms of a stringsdict variable, in Apple's order.
var appleForms = []string{"zero", "one", "two", "few", "many", "other"}

// pnode is a property-list value: a dict (keys in file order), a string, or another type.
type pnode struct {
	kind     string // "dict", "string", or the element name of another type
	el       *xlNode
	line     int
	text     string
	keys     []string
	vals     []*pnode
	comments []string // per key, the comment before it
	keyEls   []*xlNode
	keyLines []int
	index    map[string]int
}

func (n *pnode) get(k string) *pnode {
	if i, ok := n.index[k]; ok {
		return n.vals[i]
	}
	return nil
}

// plistValue reads the value whose element is el; doc is the document it is in.
func plistValue(doc *xlDoc, el *xlNode) (*pnode, error) {
	n := &pnode{kind: el.local(), el: el, line: el.line}
	switch n.kind {
	case "dict":
		var comment []string
		var key *xlNode // a <key> read, its value not yet
		for _, k := range el.kids {
			switch {
			case k.atom:
				if c, ok := xmlComment(doc, k); ok && key == nil {
					comment = appendComment(comment, c)
				}
			case k.el == nil:
				raw := doc.raw(k.start, k.end)
				t := strings.TrimSpace(raw)
				if t == "" {
					continue
				}
				if key != nil {
					return nil, lineError(doc.lineAt(k.start+strings.Index(raw, t)), "unexpected text %q", strings.TrimSpace(k.text))
				}
				return nil, lineError(doc.lineAt(k.end), "text inside <dict>")
			case key == nil:
				if k.el.local() != "key" {
					return nil, lineError(k.el.line, "<%s> where a <key> belongs", k.el.name)
				}
				key = k.el
			default:
				name, err := plistText(doc, key)
				if err != nil {
					return nil, err
				}
				v, err := plistValue(doc, k.el)
				if err != nil {
					return nil, err
				}
				if n.get(name) != nil {
					return nil, lineError(key.line, "key %q appears twice in one dict", name)
				}
				if n.index == nil {
					n.index = map[string]int{}
				}
				n.index[name] = len(n.keys)
				n.keys, n.vals = append(n.keys, name), append(n.vals, v)
				n.keyEls, n.keyLines = append(n.keyEls, key), append(n.keyLines, key.line)
				n.comments = append(n.comments, strings.Join(comment, "\n"))
				comment, key = nil, nil
			}
		}
		if key != nil {
			name, _ := plistText(doc, key)
			return nil, lineError(doc.lineAt(el.innerEnd), "<key>%s</key> without a value", name)
		}
	case "string":
		s, err := plistText(doc, el)
		if err != nil {
			return nil, err
		}
		n.text = s
	}
	return n, nil // any other type: not read
}

// plistText is the text of a <key> or <string>.
func plistText(doc *xlDoc, el *xlNode) (string, error) {
	var b strings.Builder
	for _, k := range el.kids {
		switch {
		case k.el != nil:
			return "", lineError(k.el.line, "<%s> inside <%s>", k.el.name, el.local())
		case !k.atom:
			b.WriteString(k.text)
		}
	}
	return b.String(), nil
}

// plistRoot is the root dict of a property list.
func plistRoot(doc *xlDoc) (*pnode, error) {
	el := doc.root
	if el.local() == "plist" {
		el = nil
		for _, k := range doc.root.kids {
			if k.el != nil {
				el = k.el
				break
			}
			if raw := doc.raw(k.start, k.end); !k.atom && strings.TrimSpace(raw) != "" {
				return nil, lineError(doc.lineAt(k.start+strings.Index(raw, strings.TrimSpace(raw))), "unexpected text %q", strings.TrimSpace(k.text))
			}
		}
		if el == nil {
			return &pnode{kind: "dict"}, nil
		}
	}
	if el.local() != "dict" {
		return nil, lineError(el.line, "the property list holds <%s>, want <dict>", el.name)
	}
	return plistValue(doc, el)
}

func decodeStringsdict(data []byte, o Options) (*File, error) {
	doc, err := xmlParse(data)
	if err != nil {
		return nil, err
	}
	root, err := plistRoot(doc)
	if err != nil {
		return nil, err
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

func encodeStringsdict(f *File, o Options) ([]byte, error) {
	lang := fileLanguage(f, o)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n")
	b.WriteString(`<plist version="1.0">` + "\n<dict>\n")
	kv := func(indent, k, v string) {
		b.WriteString(indent + "<key>" + xmlEscapeText(k) + "</key>\n" + indent + "<string>" + xmlEscapeText(v) + "</string>\n")
	}
	for _, e := range f.Entries {
		val, ok := e.Values[lang]
		if !ok {
			continue // untranslated keys are left out
		}
		androidComment(&b, "\t", e.Comment)
		b.WriteString("\t<key>" + xmlEscapeText(e.Key) + "</key>\n\t<dict>\n")
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
			b.WriteString("\t\t<key>" + xmlEscapeText(p.Arg) + "</key>\n\t\t<dict>\n")
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
