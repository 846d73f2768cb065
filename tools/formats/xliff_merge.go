package formats

import "strings"

// Merge of XLIFF 1.2 (Codec.Merge): the repository's document with lokal's values written
// into the <target>s that changed. A unit whose value (and state) is unchanged keeps its
// bytes; a changed one gets its <target>'s content and state attribute rewritten (a
// <target> added after <source>, or removed, as the value appears or goes), an Xcode
// plural's units are written again; a unit lokal no longer has goes with its line and the
// comment lines right above it; a new one is written after the unit of the entry before
// it in theirs, indented as that one is (first in its <file>'s <body> when none is; a
// <file> without a <body>, or with an empty one, gets one made for its new units).
// Everything else (headers, notes, groups, attributes) is kept as written.

// xlSlot is where an entry of a local document is: its units' elements and its <file>.
type xlSlot struct {
	entry Entry
	nodes []*xlNode
	file  int
}

// xlMergeSet is what mergeXLIFF and mergeXLIFF2 share: the local document, its entries'
// slots in file order, the <file>s' names and the elements new units go into.
type xlMergeSet struct {
	doc    *xlDoc
	data   []byte
	slots  map[string]*xlSlot
	order  []string // keys in document order
	names  []string // each <file>'s name (1.2 original, 2.0 id)
	files  []*xlNode
	bodies []*xlNode // per file, what its units are in (1.2's <body>, nil when it has none; 2.0's <file>)
	heads  []int     // per file, where a unit with none before it goes (-1: first in its body)
	wrap   string    // the element a <file> needs around its units ("body" in 1.2)
	tl     string
}

// xlTheirs is theirs' entries with their values under the local document's target
// language (an export may spell it otherwise).
func xlTheirs(theirs *File, tl string) []Entry {
	if len(theirs.Languages) == 0 || theirs.Languages[0] == tl || tl == "" {
		return theirs.Entries
	}
	out := make([]Entry, len(theirs.Entries))
	for i, e := range theirs.Entries {
		e.Values = map[string]Value{}
		if v, ok := theirs.Entries[i].Values[theirs.Languages[0]]; ok {
			e.Values[tl] = v
		}
		out[i] = e
	}
	return out
}

// merge runs the three rules over theirs: change, remove, insert. change gives the edits
// of an entry both have whose value differs; render writes a new entry at indent.
func (m *xlMergeSet) merge(theirs []Entry, change func(s *xlSlot, t Entry) []Edit, render func(t Entry, base int) string, base int) ([]byte, error) {
	var edits []Edit
	inTheirs := map[string]bool{}
	for _, t := range theirs {
		inTheirs[t.Key] = true
	}
	for _, k := range m.order {
		if !inTheirs[k] {
			for _, n := range m.slots[k].nodes {
				edits = append(edits, xmlRemoval(m.data, n.start, n.end))
			}
		}
	}
	prev := map[int]*xlSlot{} // per file, the last entry of theirs local has
	pending := map[int][]Entry{}
	lastFile := -1
	for _, t := range theirs {
		if s, ok := m.slots[t.Key]; ok {
			prev[s.file], lastFile = s, s.file
			if !SameValue(s.entry, t, m.tl) || (t.Source != "" && t.Source != s.entry.Source) {
				edits = append(edits, change(s, t)...)
			}
			continue
		}
		// In the file theirs names, else with the entry before it, else in the first.
		fi := -1
		if name, ok := t.Meta["file"]; ok {
			for i, n := range m.names {
				if n == name && fi < 0 {
					fi = i
				}
			}
		}
		if fi < 0 {
			fi = lastFile
		}
		if fi < 0 {
			fi = 0 // the caller sees to it that there is a <file>
		}
		body := m.bodies[fi]
		if body == nil || body.innerStart == body.end {
			pending[fi] = append(pending[fi], t) // no <body>, or an empty one: written below
			continue
		}
		at, indent := body.innerStart, ""
		if s := prev[fi]; s != nil {
			last := s.nodes[len(s.nodes)-1]
			at, indent = last.end, xmlIndent(m.data, s.nodes[0].start)
		} else if els := m.units(fi); len(els) > 0 {
			indent = xmlIndent(m.data, els[0].start)
			if m.heads[fi] >= 0 {
				at = m.heads[fi]
			}
		} else {
			indent = xmlIndent(m.data, body.start) + xmlStep(m.data, body)
			if m.heads[fi] >= 0 {
				at = m.heads[fi]
			}
		}
		edits = append(edits, Edit{Start: at, End: at, Text: xmlReindent(render(t, base), base, indent, m.step())})
	}
	for fi, ts := range pending {
		edits = append(edits, m.open(fi, ts, render, base))
	}
	return Splice(m.data, edits)
}

// units is the elements of file fi's body after its head: its units and groups.
func (m *xlMergeSet) units(fi int) []*xlNode {
	var out []*xlNode
	for _, el := range m.bodies[fi].elements() {
		if m.heads[fi] < 0 || el.start >= m.heads[fi] {
			out = append(out, el)
		}
	}
	return out
}

// open writes new units into file fi whose units have nowhere to go yet: into its empty
// (self-closed) body, else into a body made for them (a self-closed <file> opened).
func (m *xlMergeSet) open(fi int, ts []Entry, render func(t Entry, base int) string, base int) Edit {
	file, step := m.files[fi], m.step()
	outer := xmlIndent(m.data, file.start)
	container, wrap := file, m.wrap
	if b := m.bodies[fi]; b != nil {
		container, wrap = b, ""
		outer = xmlIndent(m.data, b.start)
	}
	indent := outer + step
	if wrap != "" {
		indent += step
	}
	var b strings.Builder
	if wrap != "" {
		b.WriteString("\n" + outer + step + "<" + wrap + ">")
	}
	for _, t := range ts {
		b.WriteString(xmlReindent(render(t, base), base, indent, step))
	}
	if wrap != "" {
		b.WriteString("\n" + outer + step + "</" + wrap + ">")
	}
	if container.innerStart == container.end { // <body/>, <file .../>
		return Edit{Start: container.start, End: container.end, Text: "<" + container.name + container.rawAttrs + ">" + b.String() + "\n" + outer + "</" + container.name + ">"}
	}
	at := xmlWSStart(m.data, container.innerEnd)
	if at <= container.innerStart {
		at = container.innerEnd
	}
	return Edit{Start: at, End: at, Text: b.String()}
}

// step is the file's indentation step around units.
func (m *xlMergeSet) step() string {
	for _, k := range m.order {
		if s := m.slots[k]; len(s.nodes) > 0 {
			return xmlStep(m.data, s.nodes[0])
		}
	}
	return "  "
}

// xlReplaceElement rewrites element n (a <target>, a <source>) with attrs and content:
// only the start tag when only the attributes changed, only the content when only it did.
func xlReplaceElement(data []byte, n *xlNode, attrs, content string) []Edit {
	if n.innerStart == n.end { // self-closed
		if content == "" && attrs == n.rawAttrs {
			return nil
		}
		return []Edit{{Start: n.start, End: n.end, Text: xmlElement(n.name, attrs, content)}}
	}
	var out []Edit
	if attrs != n.rawAttrs {
		out = append(out, Edit{Start: n.start, End: n.innerStart, Text: "<" + n.name + attrs + ">"})
	}
	if string(data[n.innerStart:n.innerEnd]) != content {
		out = append(out, Edit{Start: n.innerStart, End: n.innerEnd, Text: content})
	}
	return out
}

// xlTargetEdits makes the target after src say text, or removes it when has is false:
// rewritten in place with attrs when tg exists, or written after src with newAttrs, on a
// line of its own when src has one.
func xlTargetEdits(data []byte, src, tg *xlNode, has bool, text, attrs, newAttrs string, set xmlInlineSet) []Edit {
	switch {
	case has && tg != nil:
		return xlReplaceElement(data, tg, attrs, xmlWriteContent(text, xlCDATA(tg), set))
	case has:
		el := xmlElement("target", newAttrs, xmlEncodeInline(text, set))
		if in := xmlIndent(data, src.start); in != "" {
			el = "\n" + in + el
		}
		return []Edit{{Start: src.end, End: src.end, Text: el}}
	case tg != nil:
		return []Edit{xmlRemoval(data, tg.start, tg.end)}
	}
	return nil
}

// xlCDATA says whether an element's content is one CDATA section.
func xlCDATA(n *xlNode) bool { return len(n.kids) == 1 && n.kids[0].cdata }

// newXLMergeSet reads local, an XLIFF document of either version, with decode and as a
// tree: the merge set of its units (none placed yet) and the decoded file. wrap is the
// element a file's units are in ("body" in 1.2; "" in 2.0, the <file> itself).
func newXLMergeSet(local []byte, o Options, decode func([]byte, Options) (*File, error), wrap string) (*xlMergeSet, *File, error) {
	lf, err := decode(local, o)
	if err != nil {
		return nil, nil, err
	}
	doc, err := xmlParse(local)
	if err != nil {
		return nil, nil, err
	}
	tl := ""
	if len(lf.Languages) > 0 {
		tl = lf.Languages[0]
	}
	return &xlMergeSet{doc: doc, data: doc.data, slots: map[string]*xlSlot{}, wrap: wrap, tl: tl}, lf, nil
}

func mergeXLIFF(local []byte, theirs *File, o Options) ([]byte, error) {
	m, lf, err := newXLMergeSet(local, o, decodeXLIFF, "body")
	if err != nil {
		return nil, err
	}
	doc, tl, sl := m.doc, m.tl, lf.SourceLanguage
	var files []*xlNode
	for _, el := range doc.root.elements() {
		if el.local() == "file" {
			files = append(files, el)
		}
	}
	if len(files) == 0 {
		return encodeXLIFF(&File{SourceLanguage: lf.SourceLanguage, Languages: lf.Languages, Meta: lf.Meta, Entries: xlTheirs(theirs, tl)}, o) // nothing to patch
	}
	seen := map[string]string{}
	for fi, fl := range files {
		orig, _ := fl.attr("original")
		body := fl.child("body")
		m.names, m.files, m.bodies, m.heads = append(m.names, orig), append(m.files, fl), append(m.bodies, body), append(m.heads, -1)
		if body == nil {
			continue
		}
		var units []xunit
		if err := doc.units(body, "", &units); err != nil {
			return nil, err
		}
		es, err := xlFileKeys(xliffEntries(units, sl, tl), orig, len(files) > 1, seen)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			s := &xlSlot{entry: e, file: fi}
			id, shape := e.Key, e.Meta["xcode"]
			if v, ok := e.Meta["id"]; ok {
				id = v
			}
			for _, u := range units {
				k, _, _, sh, ok := xcodeUnit(u.id)
				if (shape == "" && u.id == id) || (shape != "" && ((ok && k == id && sh == shape) || (shape == "catalog" && u.id == id))) {
					s.nodes = append(s.nodes, u.node)
				}
			}
			m.slots[e.Key] = s
			m.order = append(m.order, e.Key)
		}
	}
	change := func(s *xlSlot, t Entry) []Edit {
		if s.entry.Meta["xcode"] != "" || len(s.nodes) != 1 {
			return xliffRewrite(m, s, t, sl)
		}
		n := s.nodes[0]
		var edits []Edit
		src := n.child("source")
		if t.Source != "" && t.Source != s.entry.Source {
			edits = append(edits, xlReplaceElement(m.data, src, src.rawAttrs, xmlWriteContent(t.Source, xlCDATA(src), xliff12Inline))...)
		}
		if SameValue(s.entry, t, tl) {
			return edits
		}
		v, has := t.Values[tl]
		if lv := s.entry.Values[tl]; normState(lv.State) == normState(v.State) {
			v.State = lv.State // translated and none are one: the file's spelling stays
		}
		tg := n.child("target")
		var attrs string
		if tg != nil {
			attrs = xliffTargetAttrs(tg.rawAttrs, true, v.State)
		}
		return append(edits, xlTargetEdits(m.data, src, tg, has, v.Text, attrs, xliffStateAttr(v.State), xliff12Inline)...)
	}
	render := func(t Entry, base int) string {
		var b strings.Builder
		id := t.Key
		if v, ok := t.Meta["id"]; ok {
			id = v
		}
		e := t
		if e.Meta != nil {
			e.Meta = map[string]string{}
			for k, v := range t.Meta {
				if k != "group" { // written where the entry before it is, in its group
					e.Meta[k] = v
				}
			}
		}
		writeXLIFFEntry(&b, &e, id, sl, tl)
		return b.String()
	}
	return m.merge(xlTheirs(theirs, tl), change, render, 6)
}

// xliffRewrite writes an Xcode plural's units again, unit by unit: a unit whose text and
// state are unchanged keeps its bytes, a changed one its <target>'s, a unit the value
// gains is written after the one before it, one it loses goes.
func xliffRewrite(m *xlMergeSet, s *xlSlot, t Entry, sl string) []Edit {
	e := m.withTheirs(s, t)
	id := e.Key
	if v, ok := e.Meta["id"]; ok {
		id = v
	}
	var b strings.Builder
	writeXLIFFEntry(&b, &e, id, sl, m.tl)
	rd, err := xmlParse([]byte("<r>" + b.String() + "</r>"))
	if err != nil {
		return nil // cannot happen: our own encoding; the units stay as they are
	}
	base := 6 + 2*xlGroupDepth(e.Meta["group"])
	indent, step := xmlIndent(m.data, s.nodes[0].start), xmlStep(m.data, s.nodes[0])
	local := map[string]*xlNode{}
	for _, n := range s.nodes {
		uid, _ := n.attr("id")
		local[uid] = n
	}
	var edits []Edit
	at := xmlWSStart(m.data, s.nodes[0].start)
	for _, ru := range rd.root.elements() {
		uid, _ := ru.attr("id")
		ln := local[uid]
		if ln == nil {
			text := xmlReindent(rd.raw(xmlWSStart(rd.data, ru.start), ru.end), base, indent, step)
			edits = append(edits, Edit{Start: at, End: at, Text: text})
			continue
		}
		delete(local, uid)
		at = ln.end
		lsrc, rsrc := ln.child("source"), ru.child("source")
		if lt, _ := m.doc.inner(lsrc); rsrc != nil {
			if rt, _ := rd.inner(rsrc); rt != lt {
				edits = append(edits, xlReplaceElement(m.data, lsrc, lsrc.rawAttrs, xmlWriteContent(rt, xlCDATA(lsrc), xliff12Inline))...)
			}
		}
		ltg, rtg := ln.child("target"), ru.child("target")
		switch {
		case rtg == nil && ltg != nil:
			edits = append(edits, xmlRemoval(m.data, ltg.start, ltg.end))
		case rtg != nil && ltg == nil:
			el := rd.raw(rtg.start, rtg.end)
			if in := xmlIndent(m.data, lsrc.start); in != "" {
				el = "\n" + in + el
			}
			edits = append(edits, Edit{Start: lsrc.end, End: lsrc.end, Text: el})
		case rtg != nil:
			lt, _ := m.doc.inner(ltg)
			rt, _ := rd.inner(rtg)
			lst, _ := ltg.attr("state")
			rst, _ := rtg.attr("state")
			if lt != rt || normState(xliffState(lst)) != normState(xliffState(rst)) {
				edits = append(edits, xlReplaceElement(m.data, ltg, xliffTargetAttrs(ltg.rawAttrs, true, xliffState(rst)), xmlWriteContent(rt, xlCDATA(ltg), xliff12Inline))...)
			}
		}
	}
	for _, n := range s.nodes {
		if uid, _ := n.attr("id"); local[uid] != nil {
			edits = append(edits, xmlRemoval(m.data, n.start, n.end))
		}
	}
	return edits
}

// withTheirs is the local entry of slot s with t's value in the target language and t's
// source text: what a unit written again holds. A state spelled otherwise but the same
// (none and translated) stays as the file spells it.
func (m *xlMergeSet) withTheirs(s *xlSlot, t Entry) Entry {
	e := s.entry
	e.Values = map[string]Value{}
	if v, ok := t.Values[m.tl]; ok {
		if lv := s.entry.Values[m.tl]; normState(lv.State) == normState(v.State) {
			v.State = lv.State
		}
		e.Values[m.tl] = v
	}
	if t.Source != "" {
		e.Source = t.Source
	}
	return e
}
