package formats

import "strings"

// Merge of XLIFF 2.0 (Codec.Merge), as of XLIFF 1.2 (xliff_merge.go): a unit whose value
// (and state) is unchanged keeps its bytes; a changed one gets its <target>'s content
// rewritten (a <target> added after <source>, or removed, as the value appears or goes) and
// the state on its <segment>; a unit of several segments is written again whole. A unit
// lokal no longer has goes with the comment lines above it; a new one follows the unit of
// the entry before it in theirs, in the <file> its Meta names, else after the file's notes.

func mergeXLIFF2(local []byte, theirs *File, o Options) ([]byte, error) {
	m, lf, err := newXLMergeSet(local, o, decodeXLIFF2, "")
	if err != nil {
		return nil, err
	}
	doc, tl := m.doc, m.tl
	for _, el := range doc.root.elements() {
		if el.local() != "file" {
			continue
		}
		id, _ := el.attr("id")
		head := -1
		for _, k := range el.elements() {
			if l := k.local(); l == "unit" || l == "group" {
				break
			}
			head = k.end
		}
		m.names, m.files, m.bodies, m.heads = append(m.names, id), append(m.files, el), append(m.bodies, el), append(m.heads, head)
	}
	if len(m.files) == 0 {
		return encodeXLIFF2(&File{SourceLanguage: lf.SourceLanguage, Languages: lf.Languages, Meta: lf.Meta, Entries: xlTheirs(theirs, tl)}, o) // nothing to patch
	}
	// The decoded entries are the units in document order.
	i := 0
	for fi, fl := range m.files {
		for _, u := range xl2Units(fl) {
			if i >= len(lf.Entries) {
				break
			}
			e := lf.Entries[i]
			m.slots[e.Key] = &xlSlot{entry: e, nodes: []*xlNode{u}, file: fi}
			m.order = append(m.order, e.Key)
			i++
		}
	}
	render := func(t Entry, base int) string {
		var b strings.Builder
		writeXLIFF2Unit(&b, xl2Ungrouped(t), xl2UnitID(t), tl)
		return b.String()
	}
	change := func(s *xlSlot, t Entry) []Edit {
		n := s.nodes[0]
		var segs []*xlNode
		for _, k := range n.elements() {
			if l := k.local(); l == "segment" || l == "ignorable" {
				segs = append(segs, k)
			}
		}
		if len(segs) != 1 || segs[0].local() != "segment" {
			return xl2RewriteUnit(m, s, t)
		}
		seg := segs[0]
		src, tg := seg.child("source"), seg.child("target")
		var edits []Edit
		if t.Source != "" && t.Source != s.entry.Source {
			edits = append(edits, xlReplaceElement(m.data, src, src.rawAttrs, xmlWriteContent(t.Source, xlCDATA(src), xliff2Inline))...)
		}
		if SameValue(s.entry, t, tl) {
			return edits
		}
		v, has := t.Values[tl]
		if has && normState(xliff2State(seg.rawAttrs)) != normState(v.State) {
			attrs := xmlDelAttr(xmlDelAttr(seg.rawAttrs, "state"), "subState")
			if c := xliff2StateAttrs(v.State); c != "" {
				attrs = strings.TrimRight(attrs, " \t\r\n") + c
			}
			edits = append(edits, Edit{Start: seg.start, End: seg.innerStart, Text: "<" + seg.name + attrs + ">"})
		}
		var attrs string
		if tg != nil {
			attrs = tg.rawAttrs
		}
		return append(edits, xlTargetEdits(m.data, src, tg, has, v.Text, attrs, "", xliff2Inline)...)
	}
	return m.merge(xlTheirs(theirs, tl), change, render, 4)
}

// xl2Units is the units of n, those in its groups included, in document order.
func xl2Units(n *xlNode) []*xlNode {
	var out []*xlNode
	for _, el := range n.elements() {
		switch el.local() {
		case "group":
			out = append(out, xl2Units(el)...)
		case "unit":
			out = append(out, el)
		}
	}
	return out
}

func xl2UnitID(t Entry) string {
	if v, ok := t.Meta["id"]; ok {
		return v
	}
	return t.Key
}

// xl2Ungrouped is t without Meta "group": it is written where the unit before it is.
func xl2Ungrouped(t Entry) *Entry {
	if _, ok := t.Meta["group"]; ok {
		meta := map[string]string{}
		for k, v := range t.Meta {
			if k != "group" {
				meta[k] = v
			}
		}
		t.Meta = meta
	}
	return &t
}

// xl2RewriteUnit writes a unit of several segments again, with the local entry's Meta (its
// notes, attributes and split) and t's texts and state.
func xl2RewriteUnit(m *xlMergeSet, s *xlSlot, t Entry) []Edit {
	e := m.withTheirs(s, t)
	// Written at its depth in its groups, so that the notes it keeps as written stay in line.
	n := s.nodes[0]
	var b strings.Builder
	writeXLIFF2Unit(&b, &e, xl2UnitID(e), m.tl)
	base := 4 + 2*xlGroupDepth(e.Meta["group"])
	return []Edit{{Start: xmlWSStart(m.data, n.start), End: n.end, Text: xmlReindent(b.String(), base, xmlIndent(m.data, n.start), m.step())}}
}
