package formats

import (
	"slices"
	"strings"
)

// Merge of Apple .stringsdict (Codec.Merge): a changed key is compared, element by
// element, with the same value as Encode writes it, and only what differs is rewritten:
// the NSStringLocalizedFormatKey <string> when the text around the variables changed, in
// each variable's dict the <string> of a changed plural form, a form the value gains
// written after the one before it, one it loses (of the language's categories or zero)
// removed, a variable the value gains written after the one before it. A variable's
// NSStringFormatSpecTypeKey and NSStringFormatValueTypeKey, and keys lokal does not read,
// stay as written; what cannot be patched (a string that became a plural dict, a width
// rule) is written again whole. A key lokal no longer has goes with its value and the
// comment lines above it; a new one follows the key of the entry before it in theirs.

// sdMerge is the local document a merge patches.
type sdMerge struct {
	data []byte
	step string
	lang string
}

func mergeStringsdict(local []byte, theirs *File, o Options) ([]byte, error) {
	lf, err := decodeStringsdict(local, o)
	if err != nil {
		return nil, err
	}
	doc, err := xmlParse(local)
	if err != nil {
		return nil, err
	}
	root, err := plistRoot(doc)
	if err != nil {
		return nil, err
	}
	lang := lf.Languages[0]
	tes := xlTheirs(theirs, lang)
	if root.el == nil {
		// <plist/>: no dict to write into, the export is the file.
		return encodeStringsdict(&File{Languages: []string{lang}, Entries: tes}, Options{Language: lang})
	}
	m := &sdMerge{data: doc.data, lang: lang, step: "\t"}
	if len(root.keyEls) > 0 {
		m.step = xmlStep(m.data, root.el)
	}
	byKey := map[string]Entry{}
	for _, e := range lf.Entries {
		byKey[e.Key] = e
	}
	inTheirs := map[string]bool{}
	for _, t := range tes {
		inTheirs[t.Key] = true
	}
	var edits []Edit
	for i, k := range root.keys {
		if !inTheirs[k] {
			edits = append(edits, xmlRemoval(m.data, root.keyEls[i].start, root.vals[i].el.end))
		}
	}
	after := -1 // where the value of the last entry of theirs local has ends
	for _, t := range tes {
		if i, ok := root.index[t.Key]; ok {
			lv := root.vals[i]
			after = lv.el.end
			if le := byKey[t.Key]; !SameValue(le, t, lang) {
				edits = append(edits, m.change(lv, le, t)...)
			}
			continue
		}
		if _, has := t.Values[lang]; !has {
			continue // untranslated: an export leaves it out
		}
		rd, rroot := m.render(t)
		if rroot == nil || len(rroot.keys) == 0 {
			continue
		}
		at := after
		if at < 0 {
			at = root.el.innerStart
		}
		// With its comment: from the end of the root dict's start tag.
		text := rd.raw(rroot.el.innerStart, rroot.vals[0].el.end)
		edits = append(edits, Edit{Start: at, End: at, Text: m.reindent(text, 1, m.indent(root))})
	}
	return Splice(m.data, edits)
}

// render is t as Encode writes it, read back: the document and its root dict (nil when
// Encode writes nothing of it).
func (m *sdMerge) render(t Entry) (*xlDoc, *pnode) {
	t.Values = map[string]Value{m.lang: t.Values[m.lang]}
	out, err := encodeStringsdict(&File{Languages: []string{m.lang}, Entries: []Entry{t}}, Options{Language: m.lang})
	if err != nil {
		return nil, nil
	}
	rd, err := xmlParse(out)
	if err != nil {
		return nil, nil
	}
	root, err := plistRoot(rd)
	if err != nil {
		return nil, nil
	}
	return rd, root
}

// indent is the indentation of d's keys in the file (one step more than d when it has none).
func (m *sdMerge) indent(d *pnode) string {
	if len(d.keyEls) > 0 {
		return xmlIndent(m.data, d.keyEls[0].start)
	}
	return xmlIndent(m.data, d.el.start) + m.step
}

// reindent writes text, Encode's lines indented by tabs from base tabs, at indent and the
// file's step per level.
func (m *sdMerge) reindent(text string, base int, indent string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		k := len(l) - len(strings.TrimLeft(l, "\t"))
		lines[i] = strings.Repeat("  ", k) + l[k:]
	}
	return xmlReindent(strings.Join(lines, "\n"), 2*base, indent, m.step)
}

// change gives the edits that make local value lv (of entry le) read as t's value.
func (m *sdMerge) change(lv *pnode, le, t Entry) []Edit {
	rd, rroot := m.render(t)
	if rroot == nil || len(rroot.vals) == 0 {
		return nil
	}
	rv := rroot.vals[0]
	// A plain string stays a <string> while the value has no variable.
	if lv.kind == "string" && rv.kind == "dict" && len(rv.keys) == 1 && rv.keys[0] == "NSStringLocalizedFormatKey" {
		rv = rv.vals[0]
	}
	width := func(d *pnode) bool { return d.kind == "dict" && d.get("NSStringVariableWidthRuleType") != nil }
	if width(lv) || width(rv) {
		return m.replace(lv, rd, rv)
	}
	// What of the key's dict lokal reads: the format key and its variables.
	own := func(k string) bool {
		_, isVar := le.Meta["valueType."+k]
		return k == "NSStringLocalizedFormatKey" || isVar || (rv.kind == "dict" && rv.get(k) != nil)
	}
	cats := append([]string{"zero"}, Categories(m.lang, false)...)
	form := func(k string) bool { return slices.Contains(cats, k) }
	return m.patch(lv, rd, rv, own, func(string) func(string) bool { return form })
}

// patch makes local value lv read as rv (a value of rendered document rd): a string's text
// rewritten, a dict's keys that own says lokal reads patched one by one (one rv lacks
// removed, one lv lacks written after the one before it), anything else written again.
// sub gives the own of the dict under a key.
func (m *sdMerge) patch(lv *pnode, rd *xlDoc, rv *pnode, own func(string) bool, sub func(string) func(string) bool) []Edit {
	switch {
	case lv.kind == "string" && rv.kind == "string":
		if lv.text == rv.text {
			return nil
		}
		return xlReplaceElement(m.data, lv.el, lv.el.rawAttrs, xmlEscapeText(rv.text))
	case lv.kind != "dict" || rv.kind != "dict":
		return m.replace(lv, rd, rv)
	}
	var edits []Edit
	after := -1
	for j, k := range rv.keys {
		if i, ok := lv.index[k]; ok {
			after = lv.vals[i].el.end
			if !own(k) {
				continue // a key lokal does not read (a variable's type keys): as the file has it
			}
			next := func(string) bool { return false }
			if sub != nil {
				next = sub(k)
			}
			edits = append(edits, m.patch(lv.vals[i], rd, rv.vals[j], next, nil)...)
			continue
		}
		if !own(k) {
			continue
		}
		at := after
		if at < 0 {
			at = lv.el.innerStart
		}
		text := rd.raw(xmlWSStart(rd.data, rv.keyEls[j].start), rv.vals[j].el.end)
		base := len(xmlIndent(rd.data, rv.keyEls[j].start))
		edits = append(edits, Edit{Start: at, End: at, Text: m.reindent(text, base, m.indent(lv))})
	}
	for i, k := range lv.keys {
		if rv.get(k) == nil && own(k) {
			edits = append(edits, xmlRemoval(m.data, lv.keyEls[i].start, lv.vals[i].el.end))
		}
	}
	return edits
}

// replace writes local value lv again as rv.
func (m *sdMerge) replace(lv *pnode, rd *xlDoc, rv *pnode) []Edit {
	// The text starts mid-line: its first line stays, the others follow the file's indentation.
	text := rd.raw(rv.el.start, rv.el.end)
	return []Edit{{Start: lv.el.start, End: lv.el.end, Text: m.reindent(text, len(xmlIndent(rd.data, rv.el.start)), xmlIndent(m.data, lv.el.start))}}
}
