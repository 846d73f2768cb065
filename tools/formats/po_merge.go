package formats

import (
	"bytes"
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// mergePO writes theirs into local, a PO or POT file as the repository has it (Codec.Merge).
//
//   - An entry whose value and state are unchanged keeps its bytes.
//   - A changed value rewrites only its msgstr lines (of a plural, only the msgstr[n] whose
//     text changed), split as the file splits strings: at 79 columns as gettext's tools do,
//     or not at all when the file's long strings are on one line (poFileWraps). Its state
//     adds or removes only "fuzzy" on its "#," line, the other flags kept in order; clearing
//     fuzzy also drops the "#|" previous msgid, as translation tools and msgmerge do, since
//     it describes only a fuzzy entry.
//   - An entry theirs lacks becomes obsolete ("#~", at the end of the file), as msgmerge
//     makes an entry the template dropped: the translation is kept for msgmerge's fuzzy
//     matching should the string come back, and gettext never compiles it. One without a
//     translation goes, as msgmerge drops it too.
//   - A new entry is written after the nearest entry before it in theirs that local has.
//   - The header is local's, untouched (no PO-Revision-Date or X-Generator rewritten),
//     except in a template (poIsTemplate: xgettext's header): as msginit does, Language
//     and a placeholder Plural-Forms are set for the language, and charset=CHARSET becomes
//     UTF-8, without which msgfmt mangles every non-ASCII translation.
func mergePO(local []byte, theirs *File, o Options) ([]byte, error) {
	data := local
	lines := strings.Split(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	p, err := parsePOLines(lines)
	if err != nil {
		return nil, err
	}
	lf, err := p.file(o)
	if err != nil {
		return nil, err
	}
	lang := lf.Languages[0]
	theirLang := lang
	if len(theirs.Languages) > 0 && theirs.Languages[0] != "" {
		theirLang = theirs.Languages[0]
	}
	if lang == "" {
		lang = theirLang
	}
	m := &poMerger{data: data, lines: lines, lang: lang, wrap: poFileWraps(p.kept)}
	m.starts = make([]int, len(lines)+1)
	at := 0
	for i, l := range lines {
		m.starts[i] = at
		at += len(l) + 1
	}
	m.starts[len(lines)] = min(at, len(data))
	_, pluralForms := poHeaderFields(lf.Meta["header"])
	template := p.header != nil && poIsTemplate(p.header)
	if template && lang != "" {
		m.header(p.header)
		pluralForms = ""
	}
	pmFor := func() (*poPluralMap, error) {
		if m.pm == nil {
			pm, err := poPluralsFor(lang, pluralForms)
			if err != nil {
				return nil, err
			}
			m.pm = pm
		}
		return m.pm, nil
	}

	theirByKey := make(map[string]int, len(theirs.Entries))
	for i, e := range theirs.Entries {
		theirByKey[e.Key] = i
	}
	localAt := make(map[string]int, len(lf.Entries))
	var obsolete []string
	for i, le := range lf.Entries {
		localAt[le.Key] = i
		pe := p.kept[i]
		ti, ok := theirByKey[le.Key]
		if !ok {
			if blk := m.obsolete(pe); blk != "" {
				obsolete = append(obsolete, blk)
			}
			m.drop(pe)
			continue
		}
		te := theirs.Entries[ti]
		tv := te.Values[theirLang]
		if SameValue(le, Entry{Values: map[string]Value{lang: tv}}, lang) {
			continue
		}
		lv := le.Values[lang]
		if isPlural := poIsPlural(te, theirLang); isPlural != pe.hasPlural {
			// A plural that became a single string, or the other way: its msgid_plural
			// and msgstr lines are written anew.
			var b bytes.Buffer
			if isPlural {
				pm, err := pmFor()
				if err != nil {
					return nil, lineError(pe.line, "po: Plural-Forms: %v", err)
				}
				_, _, idPlural, _ := poEntryIDs(te, lf.Meta["keys"] == "msgid", true)
				writePOWrapped(&b, "msgid_plural", cmp.Or(idPlural, pe.id), "", m.wrap)
				for i, s := range pm.fromICU(tv.Text, le.Meta) {
					writePOWrapped(&b, "msgstr["+strconv.Itoa(i)+"]", s, "", m.wrap)
				}
			} else {
				writePOWrapped(&b, "msgstr", tv.Text, "", m.wrap)
			}
			m.replaceForms(pe, b.String())
		} else if tv.Text != lv.Text {
			if pe.hasPlural {
				pm, err := pmFor()
				if err != nil {
					return nil, lineError(pe.line, "po: Plural-Forms: %v", err)
				}
				m.plural(pe, pm.fromICU(tv.Text, le.Meta))
			} else {
				m.replaceString(pe, "msgstr", tv.Text)
			}
		}
		if tv.Text != "" {
			m.fuzzy(pe, tv.State == StateNeedsReview || tv.State == StateStale)
		}
	}

	// New entries, each after the nearest entry before it that local has.
	byMsgid := lf.Meta["keys"] == "msgid"
	after := -1 // the local entry the next new one follows; -1 for the file's start
	for _, te := range theirs.Entries {
		if i, ok := localAt[te.Key]; ok {
			after = i
			continue
		}
		isPlural := poIsPlural(te, theirLang)
		var pm *poPluralMap
		if isPlural {
			if pm, err = pmFor(); err != nil {
				return nil, err
			}
		}
		ctx, id, idPlural, hasCtx := poEntryIDs(te, byMsgid, isPlural)
		var b bytes.Buffer
		writePOEntry(&b, te, te.Values[theirLang], ctx, id, idPlural, hasCtx, isPlural, pm, m.wrap)
		m.insertAfter(p, after, b.String())
	}
	if len(obsolete) > 0 {
		text := ""
		for _, blk := range obsolete {
			text += "\n" + blk
		}
		end := len(data)
		if end > 0 && data[end-1] != '\n' {
			text = "\n" + text
		}
		m.edits = append(m.edits, Edit{Start: end, End: end, Text: text})
	}
	// An insert goes before a replacement that starts where it is (Splice orders them so).
	return Splice(data, m.edits)
}

type poMerger struct {
	data   []byte
	lines  []string
	starts []int // byte offset of each line, and the end
	lang   string
	wrap   bool
	pm     *poPluralMap
	edits  []Edit
}

// span is the bytes of lines [from, to).
func (m *poMerger) span(from, to int) (int, int) { return m.starts[from], m.starts[to] }

func (m *poMerger) replaceLines(from, to int, text string) {
	s, e := m.span(from, to)
	if e > len(m.data) { // the last line has no "\n"
		e = len(m.data)
		text = strings.TrimSuffix(text, "\n")
	}
	m.edits = append(m.edits, Edit{Start: s, End: e, Text: text})
}

// stringLines writes kw and s as the file splits strings.
func (m *poMerger) stringLines(kw, s string) string {
	var b bytes.Buffer
	writePOWrapped(&b, kw, s, "", m.wrap)
	return b.String()
}

// replaceString rewrites the lines of one keyword of e.
func (m *poMerger) replaceString(e *poEntry, kw, s string) {
	for _, l := range e.layout {
		if l.kw == kw {
			m.replaceLines(l.line, l.line+len(l.parts), m.stringLines(kw, s))
			return
		}
	}
}

// plural rewrites the msgstr[n] whose text changed; a different number of forms rewrites
// them all.
func (m *poMerger) plural(e *poEntry, strs []string) {
	if len(strs) != len(e.strs) {
		var first, last = -1, -1
		for _, l := range e.layout {
			if strings.HasPrefix(l.kw, "msgstr[") {
				if first < 0 {
					first = l.line
				}
				last = l.line + len(l.parts)
			}
		}
		var b strings.Builder
		for i, s := range strs {
			b.WriteString(m.stringLines("msgstr["+strconv.Itoa(i)+"]", s))
		}
		m.replaceLines(first, last, b.String())
		return
	}
	for i, s := range strs {
		if s != e.strs[i] {
			m.replaceString(e, "msgstr["+strconv.Itoa(i)+"]", s)
		}
	}
}

// replaceForms rewrites e's msgid_plural and msgstr lines as text.
func (m *poMerger) replaceForms(e *poEntry, text string) {
	first, last := -1, -1
	for _, l := range e.layout {
		if l.kw == "msgid_plural" || strings.HasPrefix(l.kw, "msgstr") {
			if first < 0 || l.line < first {
				first = l.line
			}
			last = max(last, l.line+len(l.parts))
		}
	}
	if first >= 0 {
		m.replaceLines(first, last, text)
	}
}

// fuzzy adds or removes the fuzzy flag of e.
func (m *poMerger) fuzzy(e *poEntry, want bool) {
	if e.fuzzy == want {
		return
	}
	if want {
		if len(e.flagLines) > 0 {
			i := e.flagLines[0]
			body := strings.TrimSpace(m.lines[i][2:])
			m.replaceLines(i, i+1, "#, fuzzy, "+body+"\n")
			return
		}
		// gettext writes flags after the comments and references, before "#|" and msgctxt.
		at := e.start
		for at < e.end && (strings.TrimSpace(m.lines[at]) == "" || poIsCommentBefore(m.lines[at])) {
			at++
		}
		s, _ := m.span(at, at)
		m.edits = append(m.edits, Edit{Start: s, End: s, Text: "#, fuzzy\n"})
		return
	}
	for _, i := range e.flagLines {
		var keep []string
		for f := range strings.SplitSeq(strings.TrimSpace(m.lines[i][2:]), ",") {
			if f = strings.TrimSpace(f); f != "fuzzy" && f != "" {
				keep = append(keep, f)
			}
		}
		if len(keep) == len(strings.Split(strings.TrimSpace(m.lines[i][2:]), ",")) {
			continue // no fuzzy on this line
		}
		text := ""
		if len(keep) > 0 {
			text = "#, " + strings.Join(keep, ", ") + "\n"
		}
		m.replaceLines(i, i+1, text)
	}
	for _, i := range e.prevLines {
		m.replaceLines(i, i+1, "")
	}
}

// poIsCommentBefore: a line gettext writes before the flags (translator and extracted
// comments, references).
func poIsCommentBefore(l string) bool {
	l = strings.TrimLeft(l, " \t")
	if !strings.HasPrefix(l, "#") {
		return false
	}
	return !strings.HasPrefix(l, "#,") && !strings.HasPrefix(l, "#|") && !strings.HasPrefix(l, "#~")
}

// lastLine is the last non-blank line of e.
func (m *poMerger) lastLine(e *poEntry) int {
	last := e.end - 1
	for last > e.start && strings.TrimSpace(m.lines[last]) == "" {
		last--
	}
	return last
}

// drop removes e's lines (comments included) and the blank line that separated it.
func (m *poMerger) drop(e *poEntry) {
	m.replaceLines(e.start, e.end, "")
}

// obsolete is e as msgmerge writes an obsolete entry: translator comments, "#, fuzzy",
// the previous lines as "#~|", and every keyword line behind "#~ "; "" when e has no
// translation.
func (m *poMerger) obsolete(e *poEntry) string {
	if e.str == "" && strings.Join(e.strs, "") == "" {
		return ""
	}
	var b strings.Builder
	for i := e.start; i <= m.lastLine(e); i++ {
		l := m.lines[i]
		t := strings.TrimLeft(l, " \t")
		switch {
		case t == "":
		case strings.HasPrefix(t, "#|"):
			b.WriteString("#~|" + t[2:] + "\n")
		case strings.HasPrefix(t, "#,"):
			if e.fuzzy && i == e.flagLines[0] {
				b.WriteString("#, fuzzy\n")
			}
		case strings.HasPrefix(t, "#.") || strings.HasPrefix(t, "#:"):
		case strings.HasPrefix(t, "#"):
			b.WriteString(l + "\n")
		default:
			b.WriteString("#~ " + l + "\n")
		}
	}
	return b.String()
}

// insertAfter writes text (an entry, without the blank line before it) after local entry
// i, or before the first entry (after the header) when i is -1.
func (m *poMerger) insertAfter(p *poParser, i int, text string) {
	var prev *poEntry
	switch {
	case i >= 0:
		prev = p.kept[i]
	case p.header != nil:
		prev = p.header
	}
	if prev == nil {
		at := 0
		if len(p.kept) > 0 {
			at = m.starts[p.kept[0].start]
		}
		m.edits = append(m.edits, Edit{Start: at, End: at, Text: text + "\n"})
		return
	}
	_, at := m.span(m.lastLine(prev), m.lastLine(prev)+1)
	if at > len(m.data) {
		at = len(m.data)
		text = "\n" + text
	}
	m.edits = append(m.edits, Edit{Start: at, End: at, Text: "\n" + text})
}

// header sets a template's Language, Plural-Forms placeholder and CHARSET for m.lang,
// rewriting only those lines of the header's msgstr.
func (m *poMerger) header(h *poEntry) {
	var l poLayout
	for _, x := range h.layout {
		if x.kw == "msgstr" {
			l = x
		}
	}
	want := map[string]string{"Language": m.lang}
	if pf := poHeaderValue(h.str, "Plural-Forms"); pf == "" || strings.Contains(pf, "INTEGER") {
		want["Plural-Forms"] = poDefaultPluralForms(m.lang)
	}
	if ct := poHeaderValue(h.str, "Content-Type"); strings.Contains(ct, "charset=CHARSET") {
		want["Content-Type"] = strings.Replace(ct, "charset=CHARSET", "charset=UTF-8", 1)
	}
	var fields []string
	for line := range strings.Lines(h.str) {
		fields = append(fields, line)
	}
	if !slices.Equal(l.parts[1:], poHeaderLayout(h.str)[1:]) || len(l.parts) == 0 || l.parts[0] != 0 {
		// Not one line per field: rewrite the header's msgstr whole.
		m.replaceLines(l.line, l.line+len(l.parts), m.headerText(h.str, want))
		return
	}
	done := map[string]bool{}
	for k, line := range fields {
		name, _, _ := strings.Cut(line, ":")
		v, ok := want[strings.TrimSpace(name)]
		if !ok {
			continue
		}
		done[strings.TrimSpace(name)] = true
		i := l.line + 1 + k
		m.replaceLines(i, i+1, `"`+poEscape(strings.TrimSpace(name)+": "+v+"\n")+`"`+"\n")
	}
	var add strings.Builder
	for _, name := range []string{"Language", "Plural-Forms"} {
		if v, ok := want[name]; ok && !done[name] {
			add.WriteString(`"` + poEscape(name+": "+v+"\n") + `"` + "\n")
		}
	}
	if add.Len() > 0 {
		s, _ := m.span(l.line+len(l.parts), l.line+len(l.parts))
		m.edits = append(m.edits, Edit{Start: s, End: s, Text: add.String()})
	}
}

func (m *poMerger) headerText(h string, want map[string]string) string {
	var b strings.Builder
	done := map[string]bool{}
	b.WriteString("msgstr \"\"\n")
	for line := range strings.Lines(h) {
		name, _, _ := strings.Cut(line, ":")
		if v, ok := want[strings.TrimSpace(name)]; ok {
			line = strings.TrimSpace(name) + ": " + v + "\n"
			done[strings.TrimSpace(name)] = true
		}
		b.WriteString(`"` + poEscape(line) + `"` + "\n")
	}
	for _, name := range []string{"Language", "Plural-Forms"} {
		if v, ok := want[name]; ok && !done[name] {
			b.WriteString(`"` + poEscape(name+": "+v+"\n") + `"` + "\n")
		}
	}
	return b.String()
}

// poIsTemplate: the header is a template's, as xgettext writes it: no Language, and a
// fuzzy header or the CHARSET or INTEGER placeholders. A translation's header without
// Language (gettext before 0.18 wrote none) is kept as it is.
func poIsTemplate(h *poEntry) bool {
	if poHeaderValue(h.str, "Language") != "" {
		return false
	}
	return h.fuzzy || strings.Contains(h.str, "charset=CHARSET") || strings.Contains(poHeaderValue(h.str, "Plural-Forms"), "INTEGER")
}

// poHeaderValue is the value of a header field, "" when absent.
func poHeaderValue(h, name string) string {
	for line := range strings.Lines(h) {
		k, v, ok := strings.Cut(strings.TrimRight(line, "\n"), ":")
		if ok && strings.TrimSpace(k) == name {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// poFileWraps says whether the file's strings are split as gettext's tools split them (at
// 79 columns) rather than kept on one line, by the strings whose two spellings differ;
// without any, gettext's default.
func poFileWraps(entries []*poEntry) bool {
	wraps, flat := 0, 0
	for _, e := range entries {
		for _, l := range e.layout {
			s := e.stringOf(l.kw)
			gnu, one := poWrapParts(l.kw, s), poCanonicalLayout(s)
			if slices.Equal(gnu, one) {
				continue
			}
			switch {
			case slices.Equal(l.parts, gnu):
				wraps++
			case slices.Equal(l.parts, one):
				flat++
			}
		}
	}
	return wraps >= flat
}

// stringOf is the text of one keyword of e.
func (e *poEntry) stringOf(kw string) string {
	switch kw {
	case "msgctxt":
		return e.ctx
	case "msgid":
		return e.id
	case "msgid_plural":
		return e.idPlural
	case "msgstr":
		return e.str
	}
	k, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(kw, "msgstr["), "]"))
	if k >= 0 && k < len(e.strs) {
		return e.strs[k]
	}
	return ""
}

// poHeaderField finds a header line of a PO file's first entry ("Language: de\n").
var poHeaderField = regexp.MustCompile(`(?m)^"(Language|Plural-Forms): [^"\\]*(?:\\.[^"\\]*)*"\r?\n`)

// poTargetHeader gives the header of merged (a template's) the Language and Plural-Forms
// lines of the export's header, replacing or adding them.
func poTargetHeader(merged, exported []byte) []byte {
	head := func(b []byte) int { // the end of the header entry: the first blank line
		if i := bytes.Index(b, []byte("\n\n")); i >= 0 {
			return i + 1
		}
		return len(b)
	}
	mh, eh := head(merged), head(exported)
	out := merged[:mh:mh]
	for _, field := range []string{"Language", "Plural-Forms"} {
		var want []byte
		for _, m := range poHeaderField.FindAllSubmatch(exported[:eh], -1) {
			if string(m[1]) == field {
				want = m[0]
			}
		}
		if want == nil {
			continue
		}
		replaced := false
		locs := poHeaderField.FindAllSubmatchIndex(out, -1)
		for _, l := range locs {
			if string(out[l[2]:l[3]]) == field {
				out = slices.Concat(out[:l[0]], want, out[l[1]:])
				replaced = true
				break
			}
		}
		if !replaced {
			// After the last header line ("...\n" right before the blank line).
			out = slices.Concat(bytes.TrimRight(out, "\n"), []byte("\n"), want)
			if !bytes.HasSuffix(out, []byte("\n")) {
				out = append(out, '\n')
			}
		}
	}
	return slices.Concat(out, merged[mh:])
}
