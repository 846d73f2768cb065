package formats

// XLIFF 1.2 (format "xliff"): Angular's and Xcode's exports, and what other tools write.
//
// Keys and texts: a <trans-unit>'s id is its key; in a document with several <file>s the
// unit's Meta "file" is its file's original (an id an earlier file used is keyed
// "ORIGINAL/ID", Meta "id" the id: xlfiles.go), and encoding writes each unit in the file
// its Meta names (a file the File's Meta lacks gets the usual attributes), so the
// document comes back with its files and unit ids; units inside <group>s are read too.
// Entry.Source is <source>; Values[target language] is <target>, the target language
// being Options.Language (the language imported into), or the first <file>'s
// target-language when Options.Language is unset, "all" or the file's source language
// (an import of the source text, which reads Entry.Source). A missing source-language
// is Options.SourceLanguage. A unit without <target> has no value;
// an empty value (lokal's export of an untranslated key) is written <target/>.
// Entry.Comment is the text of the <note>s that follow <source>/<target>, joined by "\n".
// translate="no" is DoNotTranslate. Encoding writes the target language of File.Languages
// (else Options.Language) and puts it in every <file> that named the first file's.
//
// Inline markup: the value of <source>/<target> is its text with XML escapes undone, and
// its inline elements (x, g, bx, ex, ph, bpt, ept, it, mrk, sub, and XML comments) kept as
// the raw XML they were written as, e.g. `Hi <x id="INTERPOLATION" equiv-text="{{ name }}"/>`:
// lokal's message model reads them as tags (with the HTML syntax), and encoding writes
// them back as elements (paired <g>/<mrk> hold text, which is escaped again). Text that
// only looks like one of these elements is written as an element too; any other '<' is
// escaped. An ICU expression (Angular's {VAR_PLURAL, plural, ...}) is text and stays one
// ICU value.
//
// States (target state= to Value.State): translated, final, signed-off -> translated;
// needs-review-translation, new, needs-translation, needs-adaptation, needs-l10n,
// needs-review-adaptation, needs-review-l10n -> needs_review; none or x-* -> none. XLIFF 1.2
// has no state for a translation made against an older source, so a stale value is written
// needs-review-translation, as a needs_review one is, and reads back as needs_review (both
// are "not final" to lokal). Encoding keeps the state as written while it maps to the
// value's State, and otherwise writes translated or needs-review-translation (none: no
// state attribute).
//
// Xcode plurals: the units Xcode derives from a .stringsdict
// ("/KEY:dict/NSStringLocalizedFormatKey:dict/:string" and
// "/KEY:dict/VAR:dict/CATEGORY:dict/:string") and from a String Catalog
// ("KEY|==|plural.CATEGORY", "KEY|==|substitutions.VAR.plural.CATEGORY" beside a unit
// "KEY") become one entry KEY whose value is the format text with each %#@VAR@ replaced by
// an ICU plural block on VAR (a catalog's bare plural is on "count"), built as the
// stringsdict and xcstrings codecs build theirs (formatkey.go: Xcode's zero for a language
// without it is =0, a literal '#' or brace quoted) with the forms in CLDR order; encoding
// writes a form's '#' as %d, %lld or %arg (stringsdict, catalog plural, substitution).
// Units that do not make one value (a variable the format text lacks, a positional
// reference) stay entries of their own. Encoding writes a unit per category of the
// value's forms in the target language (=0 as zero) and per form of the source text;
// a category the value lacks has no <target>, never invented text; stringsdict units are
// sorted by id as Xcode does; a form the source text lacks takes its "other" text.
//
// Layout: the canonical spelling is the one encoding writes (two-space indentation, the
// XML declaration, <file original source-language target-language datatype>, <body>);
// what a file has beyond it is kept in Meta so that encoding gives the file back byte for
// byte. Lost (equal in meaning): character references and quoting spelled otherwise,
// <seg-source>, notes before <source>, whitespace inside a unit outside its elements.
//
// File.Meta: "prolog" (what precedes <xliff>, when not the usual XML declaration),
// "epilog" (what follows </xliff>, when not one newline), "attrs" (<xliff>'s attributes
// as written), "file.N.attrs" (the N-th <file>'s attributes as written, for every file
// when there are several), "file.N.header" (its <header> element as written).
//
// Entry.Meta: "file" and "id" (above), "attrs" (the <trans-unit>'s attributes but id, as
// written: resname and xml:space among them), "source.attrs"
// and "target.attrs" (those of <source> and <target>, state included), "source.cdata" and
// "target.cdata" ("true" when the text was one CDATA section), "xml" (everything in the
// unit after <target> as written: notes, context groups, alt-trans; rewritten with one
// <note> when the Comment changed), "group" (the start tags of the <group>s around the
// unit), "xcode" ("stringsdict" or "catalog": the unit shape a plural came in). "none"
// stands for a kept value that was empty.

import (
	"bytes"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
)

var xliffCodec = &Codec{Name: "xliff", ContentType: "application/xliff+xml", Extension: "xlf", Bilingual: true, Decode: decodeXLIFF, Encode: encodeXLIFF, Merge: mergeXLIFF}

const (
	xliff12Prolog = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	xliff12Attrs  = ` version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"`
)

var xliff12Inline = xmlInlineSet{
	paired: map[string]bool{"g": true, "mrk": true},
	atoms:  map[string]bool{"x": true, "bx": true, "ex": true, "ph": true, "bpt": true, "ept": true, "it": true, "sub": true},
}

// xunit is one <trans-unit> as read.
type xunit struct {
	id, attrs            string
	source, target       string
	srcAttrs, tgtAttrs   string
	srcCDATA, tgtCDATA   bool
	hasTarget            bool
	tail, comment, group string
	dnt                  bool
	state                State
	node                 *xlNode // the element, for Merge
}

func xliffState(s string) State {
	switch s {
	case "translated", "final", "signed-off":
		return StateTranslated
	case "needs-review-translation", "new", "needs-translation", "needs-adaptation", "needs-l10n", "needs-review-adaptation", "needs-review-l10n":
		return StateNeedsReview
	}
	return StateNone
}

var xliffStateName = map[State]string{StateTranslated: "translated", StateStale: "needs-review-translation", StateNeedsReview: "needs-review-translation"}

func decodeXLIFF(data []byte, o Options) (*File, error) {
	doc, err := xmlParse(data)
	if err != nil {
		return nil, err
	}
	root := doc.root
	if root.local() != "xliff" {
		return nil, lineError(root.line, "the root element is <%s>, not <xliff>", root.name)
	}
	if v, _ := root.attr("version"); strings.HasPrefix(v, "2") {
		return nil, lineError(root.line, "XLIFF %s: read it with format xliff2", v)
	}
	f := &File{}
	if doc.prolog != xliff12Prolog {
		xlKeepMeta(&f.Meta, "prolog", doc.prolog)
	}
	if doc.epilog != "\n" {
		xlKeepMeta(&f.Meta, "epilog", doc.epilog)
	}
	if root.rawAttrs != xliff12Attrs {
		xlKeepMeta(&f.Meta, "attrs", root.rawAttrs)
	}
	var files []*xlNode
	for _, el := range root.elements() {
		if el.local() == "file" {
			files = append(files, el)
		}
	}
	target := ""
	for i, fl := range files {
		sl, _ := fl.attr("source-language")
		tl, _ := fl.attr("target-language")
		if i == 0 {
			f.SourceLanguage = sl
			target = tl
		}
		if len(files) > 1 || fl.rawAttrs != xliffFileAttrs("lokal", sl, tl) {
			xlKeepMeta(&f.Meta, "file."+strconv.Itoa(i)+".attrs", fl.rawAttrs)
		}
		if h := fl.child("header"); h != nil {
			xlSetMeta(&f.Meta, "file."+strconv.Itoa(i)+".header", doc.raw(h.start, h.end))
		}
	}
	target = xliffTarget(target, f.SourceLanguage, o)
	if f.SourceLanguage == "" {
		f.SourceLanguage = o.SourceLanguage // required by XLIFF; the project's when missing
	}
	if target != "" {
		f.Languages = []string{target}
	}
	if len(files) > 0 {
		if fileTL, _ := files[0].attr("target-language"); fileTL != "" && fileTL != target {
			// The kept attributes say the language the values are under.
			for i := range files {
				k := "file." + strconv.Itoa(i) + ".attrs"
				if v, ok := f.Meta[k]; ok {
					if t, _ := xmlGetAttr(v, "target-language"); t == fileTL {
						f.Meta[k] = xmlSetAttr(v, "target-language", target)
					}
					if sl, _ := xmlGetAttr(f.Meta[k], "source-language"); len(files) == 1 && f.Meta[k] == xliffFileAttrs("lokal", sl, target) {
						delete(f.Meta, k)
					}
				}
			}
		}
	}
	if len(f.Meta) == 0 {
		f.Meta = nil
	}
	seen := map[string]string{}
	for _, fl := range files {
		orig, _ := fl.attr("original")
		var units []xunit
		body := fl.child("body")
		if body == nil {
			continue
		}
		if err := doc.units(body, "", &units); err != nil {
			return nil, err
		}
		es, err := xlFileKeys(xliffEntries(units, f.SourceLanguage, target), orig, len(files) > 1, seen)
		if err != nil {
			return nil, err
		}
		f.Entries = append(f.Entries, es...)
	}
	return f, nil
}

// xliffTarget is the language a file's targets are read as: the one the import names
// (Options.Language), unless that is the file's source language (an import of the source
// text, which reads <source>), else the file's own.
func xliffTarget(fileTL, fileSL string, o Options) string {
	if o.Language != "" && o.Language != AllLanguages && (o.Language != fileSL || fileTL == "") {
		return o.Language
	}
	if fileTL == AllLanguages {
		return ""
	}
	return fileTL
}

func xliffFileAttrs(original, sl, tl string) string {
	s := ` original="` + xmlEscapeAttr(original) + `"`
	if sl != "" {
		s += ` source-language="` + xmlEscapeAttr(sl) + `"`
	}
	if tl != "" {
		s += ` target-language="` + xmlEscapeAttr(tl) + `"`
	}
	return s + ` datatype="plaintext"`
}

// units reads the trans-units of a body or group, depth first.
func (d *xlDoc) units(n *xlNode, group string, out *[]xunit) error {
	for _, el := range n.elements() {
		switch el.local() {
		case "group":
			if err := d.units(el, group+d.raw(el.start, el.innerStart), out); err != nil {
				return err
			}
		case "trans-unit":
			u, err := d.unit(el)
			if err != nil {
				return err
			}
			u.group = group
			*out = append(*out, u)
		}
	}
	return nil
}

func (d *xlDoc) unit(el *xlNode) (xunit, error) {
	id, ok := el.attr("id")
	if !ok {
		return xunit{}, lineError(el.line, "<trans-unit> without an id")
	}
	u := xunit{id: id, attrs: xmlDelAttr(el.rawAttrs, "id"), node: el}
	if v, _ := el.attr("translate"); v == "no" {
		u.dnt = true
	}
	src := el.child("source")
	if src == nil {
		return xunit{}, lineError(el.line, "<trans-unit id=%q> without <source>", id)
	}
	u.source, u.srcCDATA = d.inner(src)
	u.srcAttrs = src.rawAttrs
	last := src
	if tg := el.child("target"); tg != nil {
		u.hasTarget = true
		u.target, u.tgtCDATA = d.inner(tg)
		u.tgtAttrs = tg.rawAttrs
		st, _ := tg.attr("state")
		u.state = xliffState(st)
		if tg.end > last.end {
			last = tg
		}
	}
	u.tail = d.raw(last.end, el.innerEnd)
	var notes []string
	for _, k := range el.elements() {
		if k.local() == "note" && k.start >= last.end { // encoding writes the notes there
			t, _ := d.inner(k)
			notes = append(notes, t)
		}
	}
	u.comment = strings.Join(notes, "\n")
	return u, nil
}

// xcodeUnit reads an Xcode plural unit id: the key, the variable ("" for a catalog's bare
// plural), the category ("" for the format unit) and the shape.
func xcodeUnit(id string) (key, variable, cat, shape string, ok bool) {
	const sdEnd = ":dict/:string"
	if strings.HasPrefix(id, "/") && strings.HasSuffix(id, sdEnd) {
		parts := strings.Split(id[1:len(id)-len(sdEnd)], ":dict/")
		switch {
		case len(parts) == 2 && parts[1] == "NSStringLocalizedFormatKey":
			return parts[0], "", "", "stringsdict", true
		case len(parts) == 3 && xcodeCategory(parts[2]):
			return parts[0], parts[1], parts[2], "stringsdict", true
		}
		return "", "", "", "", false
	}
	k, rest, found := strings.Cut(id, "|==|")
	if !found {
		return "", "", "", "", false
	}
	if c, ok := strings.CutPrefix(rest, "plural."); ok && xcodeCategory(c) {
		return k, "", c, "catalog", true
	}
	if r, ok := strings.CutPrefix(rest, "substitutions."); ok {
		if v, c, ok := strings.Cut(r, ".plural."); ok && v != "" && xcodeCategory(c) {
			return k, v, c, "catalog", true
		}
	}
	return "", "", "", "", false
}

func xcodeCategory(s string) bool {
	switch s {
	case "zero", "one", "two", "few", "many", "other":
		return true
	}
	return false
}

// xcodeCatalogArg is the argument of a String Catalog plural that has no variable name.
const xcodeCatalogArg = "count"

// xliffEntries turns a file's units into entries, one per Xcode plural key.
func xliffEntries(units []xunit, sl, tl string) []Entry {
	type plural struct {
		shape              string
		format             *xunit
		vars               []string
		src, tgt           map[string][]PluralForm
		first              *xunit
		hasTarget, emitted bool
		bad                bool  // the units do not make one value: kept as they are
		state              State // of the first unit with a target
		entry              Entry
	}
	plurals := map[string]*plural{}
	for i := range units {
		u := &units[i]
		key, v, cat, shape, ok := xcodeUnit(u.id)
		if !ok {
			continue
		}
		p := plurals[key]
		if p == nil {
			p = &plural{shape: shape, src: map[string][]PluralForm{}, tgt: map[string][]PluralForm{}, first: u}
			plurals[key] = p
		}
		if p.shape != shape {
			continue
		}
		if cat == "" {
			p.format = u
			continue
		}
		if shape == "catalog" && v == "" {
			v = xcodeCatalogArg
		}
		if !slices.Contains(p.vars, v) {
			p.vars = append(p.vars, v)
		}
		p.src[v] = append(p.src[v], PluralForm{Selector: cat, Text: u.source})
		if u.hasTarget {
			p.tgt[v] = append(p.tgt[v], PluralForm{Selector: cat, Text: u.target})
			if !p.hasTarget {
				p.state = u.state
			}
			p.hasTarget = true
		}
	}
	// A catalog's unit "KEY" is the format of KEY's substitutions.
	for i := range units {
		if p := plurals[units[i].id]; p != nil && p.shape == "catalog" && p.format == nil && !slices.Contains(p.vars, xcodeCatalogArg) {
			p.format = &units[i]
		}
	}
	ids := map[string]bool{}
	for i := range units {
		if _, _, _, _, ok := xcodeUnit(units[i].id); !ok {
			ids[units[i].id] = true
		}
	}
	for key, p := range plurals {
		// A plural whose key is another unit's id stays units, so no key is lost.
		if len(p.vars) == 0 || (ids[key] && (p.format == nil || p.format.id != key)) {
			p.bad = true
			continue
		}
		base := p.format
		if base == nil {
			base = p.first
		}
		e := xliffUnitEntry(base, key, tl)
		e.Meta = nil
		if base.attrs != "" {
			xlSetMeta(&e.Meta, "attrs", base.attrs)
		}
		xlSetMeta(&e.Meta, "group", base.group)
		if base.tail != xliffTail(e.Comment, 6+2*xlGroupDepth(base.group)) {
			xlKeepMeta(&e.Meta, "xml", base.tail)
		}
		xlSetMeta(&e.Meta, "xcode", p.shape)
		srcFormat, tgtFormat := "%#@"+p.vars[0]+"@", ""
		if p.format != nil {
			srcFormat = p.format.source
		}
		tgtFormat = srcFormat
		if p.format != nil && p.format.hasTarget {
			tgtFormat = p.format.target
		}
		var ok bool
		if e.Source, ok = xcodeValue(srcFormat, p.vars, p.src, sl); !ok {
			p.bad = true
			continue
		}
		e.Values = map[string]Value{}
		if ((p.format != nil && p.format.hasTarget) || p.hasTarget) && tl != "" {
			st := p.state
			if p.format != nil && p.format.hasTarget {
				st = p.format.state
			}
			text, ok := xcodeValue(tgtFormat, p.vars, p.tgt, tl)
			if !ok {
				p.bad = true
				continue
			}
			e.Values[tl] = Value{Text: text, State: st}
		}
		p.entry = e
	}
	var out []Entry
	for i := range units {
		u := &units[i]
		key, _, _, shape, ok := xcodeUnit(u.id)
		p := plurals[key]
		if !ok || p == nil || p.bad || p.shape != shape {
			if q := plurals[u.id]; q != nil && !q.bad && q.format == u {
				continue // written with its plural
			}
			out = append(out, xliffUnitEntry(u, u.id, tl))
			continue
		}
		if !p.emitted {
			p.emitted = true
			out = append(out, p.entry)
		}
	}
	return out
}

// xcodeNative is the Xcode category of an ICU selector ("=0" is zero).
func xcodeNative(sel string) string {
	for cat, exp := range explicitFor {
		if sel == exp {
			return cat
		}
	}
	return sel
}

// xcodeValue replaces each %#@VAR@ of format by VAR's ICU plural block, as the
// .stringsdict and String Catalog codecs do (formatKeyICU), forms in the order lokal
// writes them; a reference to a variable without forms stays text.
func xcodeValue(format string, vars []string, forms map[string][]PluralForm, lang string) (string, bool) {
	parts := splitFormatKey(format)
	used := map[string]bool{}
	for i := range parts {
		p := &parts[i]
		if p.arg == "" {
			continue
		}
		fs := forms[p.arg]
		if len(fs) == 0 {
			*p = formatPart{text: xcodeRef(p.arg, p.pos)}
			continue
		}
		if p.pos != "" {
			return "", false // Xcode writes none here; written back without it
		}
		used[p.arg] = true
		sorted := xlSortForms(FromNative(lang, p.arg, false, fs), lang)
		p.forms = make([]PluralForm, len(sorted.Forms))
		for j, f := range sorted.Forms {
			p.forms[j] = PluralForm{Selector: xcodeNative(f.Selector), Text: f.Text}
		}
	}
	for _, v := range vars {
		if len(forms[v]) > 0 && !used[v] {
			return "", false // a variable the format text lacks
		}
	}
	// Merge runs of text, so that the parts are what the value reads back as.
	var merged []formatPart
	for _, p := range parts {
		if n := len(merged); n > 0 && p.arg == "" && merged[n-1].arg == "" {
			merged[n-1].text += p.text
			continue
		}
		merged = append(merged, p)
	}
	if len(used) == 0 {
		return format, true
	}
	return formatKeyICU(lang, merged)
}

// xcodeRef writes a %#@var@ reference.
func xcodeRef(name, pos string) string {
	if pos != "" {
		return "%" + pos + "$#@" + name + "@"
	}
	return "%#@" + name + "@"
}

// xlSortForms orders a block's forms as lokal writes them: explicit numbers, then CLDR order.
func xlSortForms(p *Plural, lang string) *Plural {
	order := map[string]int{"zero": 0, "one": 1, "two": 2, "few": 3, "many": 4, "other": 5}
	rank := func(s string) int {
		if strings.HasPrefix(s, "=") {
			return -1
		}
		if r, ok := order[s]; ok {
			return r
		}
		return 6
	}
	sort.SliceStable(p.Forms, func(i, j int) bool { return rank(p.Forms[i].Selector) < rank(p.Forms[j].Selector) })
	return p
}

func xlGroupDepth(group string) int { return strings.Count(group, "<") }

func xliffUnitEntry(u *xunit, key, tl string) Entry {
	e := Entry{Key: key, Source: u.source, Values: map[string]Value{}, Comment: u.comment, DoNotTranslate: u.dnt}
	if u.hasTarget && tl != "" {
		e.Values[tl] = Value{Text: u.target, State: u.state}
	}
	canonAttrs := ""
	if u.dnt {
		canonAttrs = ` translate="no"`
	}
	if u.attrs != canonAttrs {
		xlKeepMeta(&e.Meta, "attrs", u.attrs)
	}
	xlSetMeta(&e.Meta, "source.attrs", u.srcAttrs)
	if u.hasTarget && u.tgtAttrs != xliffStateAttr(u.state) {
		xlKeepMeta(&e.Meta, "target.attrs", u.tgtAttrs)
	}
	if u.srcCDATA && u.source != "" {
		xlSetMeta(&e.Meta, "source.cdata", "true")
	}
	if u.hasTarget && u.tgtCDATA && u.target != "" {
		xlSetMeta(&e.Meta, "target.cdata", "true")
	}
	xlSetMeta(&e.Meta, "group", u.group)
	if u.tail != xliffTail(u.comment, 6+2*xlGroupDepth(u.group)) {
		xlKeepMeta(&e.Meta, "xml", u.tail)
	}
	return e
}

func xliffStateAttr(s State) string {
	if n, ok := xliffStateName[s]; ok {
		return ` state="` + n + `"`
	}
	return ""
}

// xliffTail is what encoding writes after <target> in a unit at indent with comment.
func xliffTail(comment string, indent int) string {
	pad := "\n" + strings.Repeat(" ", indent)
	if comment == "" {
		return pad
	}
	return pad + "  " + xmlElement("note", "", xmlEscapeText(comment)) + pad
}

// xlMeta reads a Meta value kept as written ("none" stands for nothing).
func xlMeta(m map[string]string, k string) (string, bool) {
	v, ok := m[k]
	if v == "none" {
		return "", ok
	}
	return v, ok
}

func encodeXLIFF(f *File, o Options) ([]byte, error) {
	sl, tl := xlLanguages(f, o)
	var b bytes.Buffer
	b.Grow(xlSize(f))
	prolog, ok := xlMeta(f.Meta, "prolog")
	if !ok {
		prolog = xliff12Prolog
	}
	b.WriteString(prolog)
	attrs, ok := xlMeta(f.Meta, "attrs")
	if !ok {
		attrs = xliff12Attrs
	}
	b.WriteString("<xliff" + attrs + ">")
	// The files: as the Meta says, else one.
	var fileAttrs []string
	for i := 0; ; i++ {
		a, ok := f.Meta["file."+strconv.Itoa(i)+".attrs"]
		if !ok {
			break
		}
		if a == "none" {
			a = ""
		}
		fileAttrs = append(fileAttrs, a)
	}
	keptFiles := len(fileAttrs) > 0
	if !keptFiles {
		fileAttrs = []string{xliffFileAttrs("lokal", sl, tl)}
	}
	originals := make([]string, len(fileAttrs))
	for i, a := range fileAttrs {
		originals[i], _ = xmlGetAttr(a, "original")
	}
	if !keptFiles {
		originals = nil
	}
	in, ids, names := xlSplitFiles(f.Entries, originals)
	for _, n := range names[len(fileAttrs):] {
		if n == "" {
			n = "lokal"
		}
		fileAttrs = append(fileAttrs, xliffFileAttrs(n, sl, tl))
	}
	if !keptFiles && names[0] != "" {
		fileAttrs[0] = xliffFileAttrs(names[0], sl, tl)
	}
	sl0, _ := xmlGetAttr(fileAttrs[0], "source-language")
	tl0, _ := xmlGetAttr(fileAttrs[0], "target-language")
	perFile := make([][]int, len(fileAttrs))
	for j, fi := range in {
		perFile[fi] = append(perFile[fi], j)
	}
	for i, a := range fileAttrs {
		// Languages are updated where the file names them; a file kept as written that
		// does not name them is read with the Options' languages again.
		// Every file that named the first file's languages names the File's.
		if v, _ := xmlGetAttr(a, "source-language"); sl != "" && v != "" && v == sl0 {
			a = xmlSetAttr(a, "source-language", sl)
		}
		if v, _ := xmlGetAttr(a, "target-language"); tl != "" && v != "" && v == tl0 {
			a = xmlSetAttr(a, "target-language", tl)
		}
		b.WriteString("\n  <file" + a + ">")
		if h, ok := f.Meta["file."+strconv.Itoa(i)+".header"]; ok {
			b.WriteString("\n    " + h)
		}
		b.WriteString("\n    <body>")
		open := ""
		for _, j := range perFile[i] {
			e := f.Entries[j]
			if g := e.Meta["group"]; g != open {
				xlSwitchGroups(&b, open, g, 6)
				open = g
			}
			writeXLIFFEntry(&b, &e, ids[j], sl, tl)
		}
		xlSwitchGroups(&b, open, "", 6)
		b.WriteString("\n    </body>\n  </file>")
	}
	b.WriteString("\n</xliff>")
	epilog, ok := xlMeta(f.Meta, "epilog")
	if !ok {
		epilog = "\n"
	}
	b.WriteString(epilog)
	return b.Bytes(), nil
}

// xlSize is about what f takes as XLIFF, so that the buffer is allocated once rather than
// doubled (and copied) a dozen times.
func xlSize(f *File) int {
	n := 512
	for i := range f.Entries {
		e := &f.Entries[i]
		n += 120 + len(e.Key) + len(e.Source) + len(e.Comment)
		for _, v := range e.Values {
			n += len(v.Text) + 40
		}
	}
	return n + n/8
}

// xlGroupTags splits the start tags of nested groups.
func xlGroupTags(g string) []string {
	var out []string
	for g != "" {
		n := xmlTagLen(g)
		if n <= 0 {
			break
		}
		out = append(out, g[:n])
		g = g[n:]
	}
	return out
}

// xmlTagLen is the length of the start tag s begins with.
func xmlTagLen(s string) int {
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '>':
			return i + 1
		}
	}
	return -1
}

// xlSwitchGroups writes the group end and start tags between a unit in groups from and the
// next one in groups to (each the concatenated start tags, outermost first).
func xlSwitchGroups(b xlWriter, from, to string, indent int) {
	ft, tt := xlGroupTags(from), xlGroupTags(to)
	common := 0
	for common < len(ft) && common < len(tt) && ft[common] == tt[common] {
		common++
	}
	for i := len(ft) - 1; i >= common; i-- {
		name := strings.TrimPrefix(ft[i], "<")
		if k := strings.IndexAny(name, " \t\r\n/>"); k >= 0 {
			name = name[:k]
		}
		b.WriteString("\n" + strings.Repeat(" ", indent+2*i) + "</" + name + ">")
	}
	for i := common; i < len(tt); i++ {
		b.WriteString("\n" + strings.Repeat(" ", indent+2*i) + tt[i])
	}
}

func writeXLIFFEntry(b xlWriter, e *Entry, id, sl, tl string) {
	indent := 6 + 2*xlGroupDepth(e.Meta["group"])
	switch e.Meta["xcode"] {
	case "stringsdict", "catalog":
		if writeXcode(b, e, id, sl, tl, indent) {
			return
		}
	}
	v, hasTarget := e.Values[tl]
	if tl == "" {
		hasTarget = false
	}
	writeXLIFFUnit(b, e, id, e.Source, v, hasTarget, indent, e.Comment)
}

func writeXLIFFUnit(b xlWriter, e *Entry, id, source string, v Value, hasTarget bool, indent int, comment string) {
	// Written piece by piece: joining each line first cost a string per piece of 50,000 units.
	attrs, ok := xlMeta(e.Meta, "attrs")
	if !ok && e.DoNotTranslate {
		attrs = ` translate="no"`
	}
	if e.DoNotTranslate {
		attrs = xmlSetAttr(attrs, "translate", "no")
	} else if t, _ := xmlGetAttr(attrs, "translate"); t == "no" {
		attrs = xmlDelAttr(attrs, "translate")
	}
	xlPad(b, indent)
	b.WriteString(`<trans-unit id="`)
	b.WriteString(xmlEscapeAttr(id))
	b.WriteByte('"')
	b.WriteString(attrs)
	b.WriteByte('>')
	xlPad(b, indent+2)
	xlElement(b, "source", e.Meta["source.attrs"], xmlWriteContent(source, e.Meta["source.cdata"] == "true", xliff12Inline))
	if hasTarget {
		ta, ok := xlMeta(e.Meta, "target.attrs")
		ta = xliffTargetAttrs(ta, ok, v.State)
		xlPad(b, indent+2)
		xlElement(b, "target", ta, xmlWriteContent(v.Text, e.Meta["target.cdata"] == "true", xliff12Inline))
	}
	tail, ok := xlMeta(e.Meta, "xml")
	switch {
	case !ok && comment == "": // xliffTail's, written
		xlPad(b, indent)
	case !ok:
		xlPad(b, indent+2)
		xlElement(b, "note", "", xmlEscapeText(comment))
		xlPad(b, indent)
	default:
		if xlNotesText(tail) != comment {
			tail = xlReplaceNotes(tail, comment, indent, ok)
		}
		b.WriteString(tail)
	}
	b.WriteString("</trans-unit>")
}

// xlWriter is what the XLIFF writers write to: a bytes.Buffer for a file, a
// strings.Builder for a merge's piece.
type xlWriter interface {
	io.StringWriter
	io.ByteWriter
}

const xlSpaces = "                                                                "

// xlPad starts a line indented by indent spaces.
func xlPad(b xlWriter, indent int) {
	b.WriteByte('\n')
	for ; indent > len(xlSpaces); indent -= len(xlSpaces) {
		b.WriteString(xlSpaces)
	}
	b.WriteString(xlSpaces[:indent])
}

// xlElement writes xmlElement(name, attrs, content).
func xlElement(b xlWriter, name, attrs, content string) {
	b.WriteByte('<')
	b.WriteString(name)
	b.WriteString(attrs)
	if content == "" {
		b.WriteString("/>")
		return
	}
	b.WriteByte('>')
	b.WriteString(content)
	b.WriteString("</")
	b.WriteString(name)
	b.WriteByte('>')
}

// xliffTargetAttrs are a <target>'s attributes for a value in state st: kept as written
// while their state maps to st, else with the state set (the usual ones when none kept).
func xliffTargetAttrs(ta string, kept bool, st State) string {
	if !kept {
		return xliffStateAttr(st)
	}
	if was, had := xmlGetAttr(ta, "state"); xliffState(was) != st || (!had && st != StateNone) {
		if n, ok := xliffStateName[st]; ok {
			return xmlSetAttr(ta, "state", n)
		}
		return xmlDelAttr(ta, "state")
	}
	return ta
}

// xlNotesText is the Comment the <note>s of a unit's tail make.
func xlNotesText(tail string) string {
	doc, err := xmlParse([]byte("<r>" + tail + "</r>"))
	if err != nil {
		return ""
	}
	var notes []string
	for _, el := range doc.root.elements() {
		if el.local() == "note" {
			t, _ := doc.inner(el)
			notes = append(notes, t)
		}
	}
	return strings.Join(notes, "\n")
}

// xlReplaceNotes gives a tail whose notes say comment: the canonical tail when there was
// none, else the tail with its notes replaced by one.
func xlReplaceNotes(tail, comment string, indent int, had bool) string {
	doc, err := xmlParse([]byte("<r>" + tail + "</r>"))
	if !had || err != nil {
		return xliffTail(comment, indent)
	}
	pad := "\n" + strings.Repeat(" ", indent+2)
	var b strings.Builder
	written := false
	newNote := func() {
		if !written && comment != "" {
			b.WriteString(pad + xmlElement("note", "", xmlEscapeText(comment)))
		}
		written = true
	}
	kids := doc.root.kids
	for i, k := range kids {
		if k.el != nil && k.el.local() == "note" {
			newNote()
			continue
		}
		if k.el == nil && !k.atom && strings.TrimSpace(k.text) == "" {
			// Whitespace before a note goes with it; the last run closes the unit.
			if i+1 < len(kids) && kids[i+1].el != nil && kids[i+1].el.local() == "note" {
				continue
			}
			if i == len(kids)-1 {
				newNote()
			}
		}
		if k.el != nil {
			b.WriteString(doc.raw(k.el.start, k.el.end))
		} else {
			b.WriteString(doc.raw(k.start, k.end))
		}
	}
	if !written {
		newNote()
		b.WriteString("\n" + strings.Repeat(" ", indent))
	}
	return b.String()
}

// writeXcode writes a plural entry as Xcode's units; false when the value is not one.
func writeXcode(b xlWriter, e *Entry, key, sl, tl string, indent int) bool {
	v, hasTarget := e.Values[tl]
	if tl == "" {
		hasTarget = false
	}
	srcPieces := Pieces(e.Source)
	tgtPieces := Pieces(v.Text)
	if !hasTarget {
		tgtPieces = srcPieces
	}
	var vars []string
	srcP, tgtP := map[string]*Plural{}, map[string]*Plural{}
	for _, p := range tgtPieces {
		if p.Plural != nil {
			vars = append(vars, p.Plural.Arg)
			tgtP[p.Plural.Arg] = p.Plural
		}
	}
	for _, p := range srcPieces {
		if p.Plural != nil {
			srcP[p.Plural.Arg] = p.Plural
			if !slices.Contains(vars, p.Plural.Arg) {
				vars = append(vars, p.Plural.Arg)
			}
		}
	}
	if len(vars) == 0 {
		return false
	}
	catalog := e.Meta["xcode"] == "catalog"
	format := func(ps []Piece) string {
		var s strings.Builder
		for _, p := range ps {
			if p.Plural != nil {
				s.WriteString("%#@" + p.Plural.Arg + "@")
			} else {
				t := message.ICUToNative(p.Text, "#")
				s.WriteString(t)
			}
		}
		return s.String()
	}
	type xu struct {
		id, src, tgt string
		has          bool
	}
	var us []xu
	bare := catalog && len(vars) == 1 && vars[0] == xcodeCatalogArg && len(srcPieces) <= 1 && len(tgtPieces) <= 1
	if !bare {
		id := key
		if !catalog {
			id = "/" + key + ":dict/NSStringLocalizedFormatKey:dict/:string"
		}
		us = append(us, xu{id: id, src: format(srcPieces), tgt: format(tgtPieces), has: hasTarget})
	}
	for _, name := range vars {
		tp, sp := tgtP[name], srcP[name]
		if !hasTarget {
			tp = nil
		}
		// The units: the target language's forms of the value, and every form the source
		// has (a decoded file's units all have a source), as Xcode's categories.
		natives := map[string]bool{}
		if tp != nil {
			forms, _, _ := ToNative(tl, tp, ZeroExplicit)
			for _, f := range forms {
				natives[f.Selector] = true
			}
		}
		if sp != nil {
			for _, f := range sp.Forms {
				natives[xcodeNative(f.Selector)] = true
			}
		}
		for _, cat := range []string{"zero", "one", "two", "few", "many", "other"} {
			if !natives[cat] {
				continue
			}
			u := xu{}
			pound := "%d" // '#' as each Xcode codec writes it
			switch {
			case catalog && bare:
				u.id, pound = key+"|==|plural."+cat, "%lld"
			case catalog:
				u.id, pound = key+"|==|substitutions."+name+".plural."+cat, "%arg"
			default:
				u.id = "/" + key + ":dict/" + name + ":dict/" + cat + ":dict/:string"
			}
			if sp != nil {
				// The source language may name the form differently (=1 for one).
				if t, ok := sp.Form(cat); ok {
					u.src = t
				} else if t, ok := sp.Form(explicitFor[cat]); ok {
					u.src = t
				} else {
					u.src, _ = sp.Form("other")
				}
			}
			if tp != nil {
				if u.tgt, u.has = tp.Form(cat); !u.has && !slices.Contains(Categories(tl, false), cat) {
					u.tgt, u.has = tp.Form(explicitFor[cat])
				}
			}
			u.src = message.ICUToNative(u.src, pound)
			u.tgt = message.ICUToNative(u.tgt, pound)
			us = append(us, u)
		}
	}
	if !catalog {
		sort.SliceStable(us, func(i, j int) bool { return us[i].id < us[j].id })
	}
	for _, u := range us {
		writeXLIFFUnit(b, e, u.id, u.src, Value{Text: u.tgt, State: v.State}, u.has, indent, e.Comment)
	}
	return true
}
