package formats

// XLIFF 2.0 (format "xliff2"): Angular's xliff2 export and what other tools write.
//
// Keys and texts: a <unit>'s id is its key; with several <file>s, Meta "file" is its
// file's id (and Meta "id" the unit id of a key prefixed "FILE/" because an earlier file
// used the id), as in format xliff; units inside <group>s are read too. Entry.Source
// is the unit's <source> text and Values[target language] its <target> text (an empty
// value is written <target/>), the target language chosen as in format xliff
// (Options.Language unless unset, "all" or the source language; else trgLang); a missing
// srcLang is Options.SourceLanguage. A unit with several <segment>s (and <ignorable>s) has their
// texts joined, the split kept in Meta so that encoding writes the same segments while
// the texts still fit it (one segment otherwise). Entry.Comment is the text of the
// <note>s before the first segment but those of category "location" (Angular's source
// references, kept when the comment changes), joined by "\n". translate="no" on the unit
// is DoNotTranslate. ICU in a segment is text and stays one ICU value.
//
// Inline markup (ph, pc, sc, ec, mrk, sm, em, cp, and XML comments) is kept in the value
// as the raw XML it was written as, `Hi <ph id="0" equiv="INTERPOLATION" disp="{{ name }}"/>`,
// as in format xliff; the text of <pc> and <mrk> is read as text.
//
// States (the first segment's state= to Value.State): translated, reviewed, final ->
// translated; initial -> needs_review, or stale with subState="lokal:stale"; none -> none.
// Encoding keeps the state as written while it maps to the value's State, and otherwise
// writes translated, initial, or initial with subState="lokal:stale".
//
// File.Meta: "prolog", "epilog", "attrs" (<xliff>'s attributes as written; srcLang and
// trgLang are updated from the File where they are not empty), "file.N.attrs" (the N-th <file>'s attributes as
// written), "file.N.head" (what the file holds before its first unit: notes, skeleton,
// metadata, as written).
//
// Entry.Meta: "file" and "id" (above), "attrs" (the <unit>'s attributes but id: name among them), "xml" (what the unit holds before
// its first segment: notes, originalData, as written), "xml.end" (what follows its last
// segment), "segment.attrs", "source.attrs", "target.attrs", "source.cdata",
// "target.cdata" (as in format xliff), "segments" (the split of several segments:
// comma-separated "s" or "i" for segment or ignorable, the source text's byte length, "/",
// the target text's byte length or "-" for none), "group" (the <group> start tags around
// the unit). "none" stands for a kept value that was empty.

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

var xliff2Codec = &Codec{Name: "xliff2", ContentType: "application/xliff+xml", Extension: "xlf", Bilingual: true, Decode: decodeXLIFF2, Encode: encodeXLIFF2, Merge: mergeXLIFF2}

const (
	xliff2Prolog = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	xliff2NS     = "urn:oasis:names:tc:xliff:document:2.0"
)

var xliff2Inline = xmlInlineSet{
	paired: map[string]bool{"pc": true, "mrk": true},
	atoms:  map[string]bool{"ph": true, "sc": true, "ec": true, "sm": true, "em": true, "cp": true},
}

func xliff2RootAttrs(sl, tl string) string {
	s := ` xmlns="` + xliff2NS + `" version="2.0"`
	if sl != "" {
		s += ` srcLang="` + xmlEscapeAttr(sl) + `"`
	}
	if tl != "" {
		s += ` trgLang="` + xmlEscapeAttr(tl) + `"`
	}
	return s
}

func xliff2State(attrs string) State {
	st, _ := xmlGetAttr(attrs, "state")
	switch st {
	case "translated", "reviewed", "final":
		return StateTranslated
	case "initial":
		if sub, _ := xmlGetAttr(attrs, "subState"); sub == "lokal:stale" {
			return StateStale
		}
		return StateNeedsReview
	}
	return StateNone
}

func xliff2StateAttrs(s State) string {
	switch s {
	case StateTranslated:
		return ` state="translated"`
	case StateNeedsReview:
		return ` state="initial"`
	case StateStale:
		return ` state="initial" subState="lokal:stale"`
	}
	return ""
}

func decodeXLIFF2(data []byte, o Options) (*File, error) {
	doc, err := xmlParse(data)
	if err != nil {
		return nil, err
	}
	root := doc.root
	if root.local() != "xliff" {
		return nil, lineError(root.line, "the root element is <%s>, not <xliff>", root.name)
	}
	if v, _ := root.attr("version"); !strings.HasPrefix(v, "2") {
		return nil, lineError(root.line, "XLIFF version %q: read XLIFF 1.2 with format xliff", v)
	}
	f := &File{}
	sl, _ := root.attr("srcLang")
	tl, _ := root.attr("trgLang")
	f.SourceLanguage = sl
	if doc.prolog != xliff2Prolog {
		xlKeepMeta(&f.Meta, "prolog", doc.prolog)
	}
	if doc.epilog != "\n" {
		xlKeepMeta(&f.Meta, "epilog", doc.epilog)
	}
	if root.rawAttrs != xliff2RootAttrs(sl, tl) {
		xlKeepMeta(&f.Meta, "attrs", root.rawAttrs)
	}
	fileTL := tl
	tl = xliffTarget(tl, sl, o)
	if v, ok := f.Meta["attrs"]; ok && fileTL != "" && fileTL != tl {
		f.Meta["attrs"] = xmlSetAttr(v, "trgLang", tl) // the kept attributes say the values' language
		if f.Meta["attrs"] == xliff2RootAttrs(sl, tl) {
			delete(f.Meta, "attrs")
		}
	}
	if f.SourceLanguage == "" {
		f.SourceLanguage = o.SourceLanguage // required by XLIFF; the project's when missing
	}
	if tl != "" {
		f.Languages = []string{tl}
	}
	if len(f.Meta) == 0 {
		f.Meta = nil
	}
	var files []*xlNode
	for _, el := range root.elements() {
		if el.local() == "file" {
			files = append(files, el)
		}
	}
	seen := map[string]string{}
	for i, fl := range files {
		n := "file." + strconv.Itoa(i)
		if len(files) > 1 || fl.rawAttrs != ` id="f1"` {
			xlKeepMeta(&f.Meta, n+".attrs", fl.rawAttrs)
		}
		fid, _ := fl.attr("id")
		// What precedes the first unit or group.
		headEnd := -1
		for _, k := range fl.kids {
			if k.el == nil {
				continue
			}
			if l := k.el.local(); l == "unit" || l == "group" {
				break
			}
			headEnd = k.el.end
		}
		if headEnd >= 0 {
			xlSetMeta(&f.Meta, n+".head", doc.raw(fl.innerStart, headEnd))
		}
		var es []Entry
		if err := doc.units2(fl, "", tl, &es); err != nil {
			return nil, err
		}
		es, err := xlFileKeys(es, fid, len(files) > 1, seen)
		if err != nil {
			return nil, err
		}
		f.Entries = append(f.Entries, es...)
	}
	return f, nil
}

// xlKeepMeta sets m[k] = v, "none" standing for an empty v.
func xlKeepMeta(m *map[string]string, k, v string) {
	if v == "" {
		v = "none"
	}
	xlSetMeta(m, k, v)
}

func (d *xlDoc) units2(n *xlNode, group, tl string, out *[]Entry) error {
	for _, el := range n.elements() {
		switch el.local() {
		case "group":
			if err := d.units2(el, group+d.raw(el.start, el.innerStart), tl, out); err != nil {
				return err
			}
		case "unit":
			e, err := d.unit2(el, group, tl)
			if err != nil {
				return err
			}
			*out = append(*out, e)
		}
	}
	return nil
}

// xl2CommentNote: every note but Angular's source references makes the Comment.
func xl2CommentNote(n *xlNode) bool {
	c, _ := n.attr("category")
	return c != "location"
}

func (d *xlDoc) unit2(el *xlNode, group, tl string) (Entry, error) {
	id, ok := el.attr("id")
	if !ok {
		return Entry{}, lineError(el.line, "<unit> without an id")
	}
	e := Entry{Key: id, Values: map[string]Value{}}
	attrs := xmlDelAttr(el.rawAttrs, "id")
	if v, _ := el.attr("translate"); v == "no" {
		e.DoNotTranslate = true
	}
	canon := ""
	if e.DoNotTranslate {
		canon = ` translate="no"`
	}
	if attrs != canon {
		xlKeepMeta(&e.Meta, "attrs", attrs)
	}
	indent := 4 + 2*xlGroupDepth(group)
	var segs []*xlNode
	for _, k := range el.elements() {
		if l := k.local(); l == "segment" || l == "ignorable" {
			segs = append(segs, k)
		}
	}
	if len(segs) == 0 {
		return Entry{}, lineError(el.line, "<unit id=%q> without <segment>", id)
	}
	head := d.raw(el.innerStart, segs[0].start)
	e.Comment = xl2NotesText(head)
	if head != xliff2Head(e.Comment, indent) {
		xlKeepMeta(&e.Meta, "xml", head)
	}
	if end := d.raw(segs[len(segs)-1].end, el.innerEnd); end != "\n"+strings.Repeat(" ", indent) {
		xlKeepMeta(&e.Meta, "xml.end", end)
	}
	var src, tgt strings.Builder
	var split []string
	hasTarget := false
	state := StateNone
	for i, s := range segs {
		sn := s.child("source")
		if sn == nil {
			return Entry{}, lineError(s.line, "<%s> without <source>", s.name)
		}
		st, scd := d.inner(sn)
		src.WriteString(st)
		piece := s.local()[:1] + strconv.Itoa(len(st)) + "/"
		tn := s.child("target")
		if tn != nil {
			tt, tcd := d.inner(tn)
			tgt.WriteString(tt)
			piece += strconv.Itoa(len(tt))
			hasTarget = true
			if i == 0 {
				xlSetMeta(&e.Meta, "target.attrs", tn.rawAttrs)
				if tcd && tt != "" {
					xlSetMeta(&e.Meta, "target.cdata", "true")
				}
			}
		} else {
			piece += "-"
		}
		split = append(split, piece)
		if i == 0 {
			state = xliff2State(s.rawAttrs)
			if s.rawAttrs != xliff2StateAttrs(state) {
				xlKeepMeta(&e.Meta, "segment.attrs", s.rawAttrs)
			}
			xlSetMeta(&e.Meta, "source.attrs", sn.rawAttrs)
			if scd && st != "" {
				xlSetMeta(&e.Meta, "source.cdata", "true")
			}
		}
	}
	if len(segs) > 1 {
		xlSetMeta(&e.Meta, "segments", strings.Join(split, ","))
	}
	e.Source = src.String()
	if hasTarget && tl != "" {
		e.Values[tl] = Value{Text: tgt.String(), State: state}
	}
	xlSetMeta(&e.Meta, "group", group)
	return e, nil
}

// xliff2Head is what encoding writes in a unit before its first segment.
func xliff2Head(comment string, indent int) string {
	pad := "\n" + strings.Repeat(" ", indent+2)
	if comment == "" {
		return pad
	}
	return pad + "<notes>" + pad + "  " + xmlElement("note", "", xmlEscapeText(comment)) + pad + "</notes>" + pad
}

func encodeXLIFF2(f *File, o Options) ([]byte, error) {
	sl, tl := xlLanguages(f, o)
	var b strings.Builder
	prolog, ok := xlMeta(f.Meta, "prolog")
	if !ok {
		prolog = xliff2Prolog
	}
	b.WriteString(prolog)
	attrs, ok := xlMeta(f.Meta, "attrs")
	if !ok {
		attrs = xliff2RootAttrs(sl, tl)
	}
	// Kept attributes are updated where they name a language, never added to.
	if v, _ := xmlGetAttr(attrs, "srcLang"); v != "" && f.SourceLanguage != "" {
		attrs = xmlSetAttr(attrs, "srcLang", f.SourceLanguage)
	}
	if v, _ := xmlGetAttr(attrs, "trgLang"); v != "" && tl != "" {
		attrs = xmlSetAttr(attrs, "trgLang", tl)
	}
	b.WriteString("<xliff" + attrs + ">")
	var fileAttrs []string
	for i := 0; ; i++ {
		a, ok := xlMeta(f.Meta, "file."+strconv.Itoa(i)+".attrs")
		if !ok {
			break
		}
		fileAttrs = append(fileAttrs, a)
	}
	kept := make([]string, len(fileAttrs))
	for i, a := range fileAttrs {
		kept[i], _ = xmlGetAttr(a, "id")
	}
	in, unitIDs, names := xlSplitFiles(f.Entries, kept)
	for _, n := range names[len(fileAttrs):] {
		if n == "" {
			n = "f1"
		}
		fileAttrs = append(fileAttrs, ` id="`+xmlEscapeAttr(n)+`"`)
	}
	perFile := make([][]int, len(fileAttrs))
	for j, fi := range in {
		perFile[fi] = append(perFile[fi], j)
	}
	for i, a := range fileAttrs {
		b.WriteString("\n  <file" + a + ">")
		b.WriteString(f.Meta["file."+strconv.Itoa(i)+".head"])
		open := ""
		for _, j := range perFile[i] {
			e := f.Entries[j]
			if g := e.Meta["group"]; g != open {
				xlSwitchGroups(&b, open, g, 4)
				open = g
			}
			writeXLIFF2Unit(&b, &e, unitIDs[j], tl)
		}
		xlSwitchGroups(&b, open, "", 4)
		b.WriteString("\n  </file>")
	}
	b.WriteString("\n</xliff>")
	epilog, ok := xlMeta(f.Meta, "epilog")
	if !ok {
		epilog = "\n"
	}
	b.WriteString(epilog)
	return []byte(b.String()), nil
}

// xl2Segment is one segment (or ignorable) of a unit.
type xl2Segment struct {
	ignorable bool
	src, tgt  string
	hasTarget bool
}

// xl2SegmentSplit reads Meta "segments" against the texts it must split; ok is false when
// they no longer fit it.
func xl2SegmentSplit(spec, src, tgt string, hasTarget bool) ([]xl2Segment, bool) {
	var out []xl2Segment
	for _, p := range strings.Split(spec, ",") {
		if len(p) < 2 || (p[0] != 's' && p[0] != 'i') {
			return nil, false
		}
		sl, tlen, ok := strings.Cut(p[1:], "/")
		if !ok {
			return nil, false
		}
		n, err := strconv.Atoi(sl)
		if err != nil || n < 0 || n > len(src) || !utf8.ValidString(src[:n]) {
			return nil, false
		}
		seg := xl2Segment{ignorable: p[0] == 'i', src: src[:n]}
		src = src[n:]
		if tlen != "-" {
			m, err := strconv.Atoi(tlen)
			if err != nil || !hasTarget || m < 0 || m > len(tgt) || !utf8.ValidString(tgt[:m]) {
				return nil, false
			}
			seg.tgt, seg.hasTarget = tgt[:m], true
			tgt = tgt[m:]
		}
		out = append(out, seg)
	}
	if src != "" || tgt != "" || len(out) == 0 {
		return nil, false
	}
	// Each piece reads back whole: xmlEncodeInline writes a tag cut in two as text.
	return out, true
}

func writeXLIFF2Unit(b *strings.Builder, e *Entry, id, tl string) {
	indent := 4 + 2*xlGroupDepth(e.Meta["group"])
	pad := "\n" + strings.Repeat(" ", indent)
	attrs, ok := xlMeta(e.Meta, "attrs")
	if !ok && e.DoNotTranslate {
		attrs = ` translate="no"`
	}
	if e.DoNotTranslate {
		attrs = xmlSetAttr(attrs, "translate", "no")
	} else if t, _ := xmlGetAttr(attrs, "translate"); t == "no" {
		attrs = xmlDelAttr(attrs, "translate")
	}
	b.WriteString(pad + `<unit id="` + xmlEscapeAttr(id) + `"` + attrs + ">")
	head, ok := xlMeta(e.Meta, "xml")
	if !ok || xl2NotesText(head) != e.Comment {
		head = xl2ReplaceNotes(head, e.Comment, indent, ok)
	}
	b.WriteString(head)
	v, hasTarget := e.Values[tl]
	if tl == "" {
		hasTarget = false
	}
	segs := []xl2Segment{{src: e.Source, tgt: v.Text, hasTarget: hasTarget}}
	if spec, ok := e.Meta["segments"]; ok {
		if s, ok := xl2SegmentSplit(spec, e.Source, v.Text, hasTarget); ok {
			segs = s
		}
	}
	segAttrs, ok := xlMeta(e.Meta, "segment.attrs")
	if !ok {
		segAttrs = xliff2StateAttrs(v.State)
	} else if xliff2State(segAttrs) != v.State {
		segAttrs = xmlDelAttr(xmlDelAttr(segAttrs, "state"), "subState")
		if c := xliff2StateAttrs(v.State); c != "" {
			segAttrs = strings.TrimRight(segAttrs, " \t\r\n") + c
		}
	}
	inner := pad + "    "
	for i, s := range segs {
		if i > 0 {
			b.WriteString(pad + "  ")
		}
		name, sa := "segment", segAttrs
		if i > 0 {
			sa = xmlDelAttr(sa, "id") // ids are unique: the first segment keeps its own
		}
		if s.ignorable {
			name, sa = "ignorable", ""
		}
		srcAttrs, tgtAttrs := e.Meta["source.attrs"], e.Meta["target.attrs"]
		srcCDATA, tgtCDATA := e.Meta["source.cdata"] == "true", e.Meta["target.cdata"] == "true"
		if i > 0 {
			srcAttrs, tgtAttrs, srcCDATA, tgtCDATA = "", "", false, false
		}
		b.WriteString("<" + name + sa + ">")
		b.WriteString(inner + xmlElement("source", srcAttrs, xmlWriteContent(s.src, srcCDATA, xliff2Inline)))
		if s.hasTarget {
			b.WriteString(inner + xmlElement("target", tgtAttrs, xmlWriteContent(s.tgt, tgtCDATA, xliff2Inline)))
		}
		b.WriteString(pad + "  </" + name + ">")
	}
	end, ok := xlMeta(e.Meta, "xml.end")
	if !ok {
		end = pad
	}
	b.WriteString(end + "</unit>")
}

// xl2NotesText is the Comment the notes of a unit's head make.
func xl2NotesText(head string) string {
	doc, err := xmlParse([]byte("<r>" + head + "</r>"))
	if err != nil {
		return ""
	}
	var notes []string
	for _, el := range doc.root.elements() {
		if el.local() != "notes" {
			continue
		}
		for _, n := range el.elements() {
			if n.local() == "note" && xl2CommentNote(n) {
				t, _ := doc.inner(n)
				notes = append(notes, t)
			}
		}
	}
	return strings.Join(notes, "\n")
}

// xl2ReplaceNotes gives a unit head whose notes say comment: the canonical head when there
// was none, else the head with its <notes> rewritten (location notes kept).
func xl2ReplaceNotes(head, comment string, indent int, had bool) string {
	if !had {
		return xliff2Head(comment, indent) // no parse: lokal's own export has no heads
	}
	doc, err := xmlParse([]byte("<r>" + head + "</r>"))
	if err != nil {
		return xliff2Head(comment, indent)
	}
	pad := "\n" + strings.Repeat(" ", indent+2)
	notes := func(keep []string) string {
		if comment != "" {
			keep = append(keep, xmlElement("note", "", xmlEscapeText(comment)))
		}
		if len(keep) == 0 {
			return ""
		}
		return "<notes>" + pad + "  " + strings.Join(keep, pad+"  ") + pad + "</notes>"
	}
	var b strings.Builder
	done := false
	for _, k := range doc.root.kids {
		switch {
		case k.el != nil && k.el.local() == "notes" && !done:
			var keep []string
			for _, n := range k.el.elements() {
				if n.local() == "note" && !xl2CommentNote(n) {
					keep = append(keep, doc.raw(n.start, n.end))
				}
			}
			b.WriteString(notes(keep))
			done = true
		case k.el != nil:
			b.WriteString(doc.raw(k.el.start, k.el.end))
		default:
			b.WriteString(doc.raw(k.start, k.end))
		}
	}
	if !done {
		if n := notes(nil); n != "" {
			return pad + n + b.String()
		}
	}
	return b.String()
}
