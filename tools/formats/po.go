package formats

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/leonelquinteros/gotext/plurals"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/message/plural"
)

// GNU gettext PO (and POT), read by a strict parser of our own: gettext libraries drop
// comments and flags, and a round trip must keep them.
//
// Keys. A file in which every entry has a msgctxt and no two share one (lokal's own export)
// is keyed by msgctxt, with Source = msgid. Any other file is keyed by msgid, prefixed with
// msgctxt and U+0004 when the entry has one; File.Meta["keys"] = "msgid" says so, and
// Encode then writes msgctxt/msgid from the key (without it Encode writes msgctxt = key).
// Values[language] is msgstr: an untranslated entry keeps its place with Text "" and no
// state; "#, fuzzy" on a translated entry (gettext's "needs checking", which msgfmt leaves
// out of the compiled catalog) is StateNeedsReview, or StateStale when the entry also has
// "#|" lines, with which msgmerge says the translation was made for an older msgid. Fuzzy
// on an empty msgstr stays a flag in Meta, since there is no translation to review. Encode
// writes "#, fuzzy" for both states, before the other flags, and the "#|" lines kept in
// Meta after them (a stale value lokal exports has no previous msgid to write, so it reads
// back as needs_review: both are "not final" to lokal).
//
// Comments. Extracted comments ("#.", the developer's note) are Entry.Comment, one line per
// "#." line; everything else lives in Entry.Meta:
//
//	comment     translator comments ("# "), one line per "#" line
//	references  "#:" lines, as written, one per line
//	flags       "#," flags other than fuzzy, joined by ", " (c-format, python-format, ...)
//	previous    "#|" lines (the previous msgctxt/msgid of a fuzzy entry), as written
//	msgstr[N]   the text of a plural index that maps to no CLDR category of the language
//	wrap        how strings not split the way Encode splits them were split over lines:
//	            "msgid=0,72,30 msgstr=..." (the byte length of each quoted piece), used
//	            while the text still fits it
//
// File.Meta keeps the header entry and what cannot be a key:
//
//	header            the header's msgstr, every field in order ("Language: ru\n...")
//	header.comment    translator comments above the header (the licence notice)
//	header.flags      its flags ("fuzzy" in a POT)
//	header.wrap       how the header was split, when not one line per field (see wrap)
//	keys              "msgid" for a file keyed by msgid (see above); without it, as for
//	                  lokal's own export, Encode writes msgctxt = key
//	obsolete          obsolete ("#~") entries as written, blank-line separated; written
//	                  back at the end of the file, where gettext keeps them
//	trailing          comment lines after the last entry, as written
//
// Language is Options.Language, else the header's Language. Encode writes the header from
// Meta["header"] as it is, or lokal's own (Language, MIME-Version, Content-Type: UTF-8,
// Content-Transfer-Encoding, Plural-Forms when there are plurals, X-Generator: lokal); a
// file with lokal's header, or none, has no Meta["header"].
//
// Plurals. msgid_plural and msgstr[n] become one ICU plural value. Which CLDR category a
// gettext index stands for is found by evaluating the file's Plural-Forms expression (with
// gotext's plurals package; without one, the usual Plural-Forms of the language,
// poPluralTable) and the language's CLDR rules on the numbers 0..1000: each index stands
// for the category its numbers fall in most, and an index no whole number reaches (Django's
// fourth Russian form, for fractions) for a category left, "other" first. When no index
// stands for "other", ICU's required fallback, "other" takes the text of the last index.
// Form texts become ICU with message.NativeToICU (ICU arguments such as python-brace-format's
// {name} kept, '#' and stray braces quoted), and back with message.ICUToNative, an ICU '#'
// written as "%d". The source side is the source language's plural from msgid (one) and
// msgid_plural (other). Encode writes an entry whose source or value is one ICU plural as
// msgid_plural and exactly nplurals msgstr[n]; a category the value lacks is an empty
// msgstr[n]. A template's "nplurals=INTEGER" placeholder counts as no Plural-Forms.
//
// Merge (mergePO, po_merge.go) writes lokal's export into the repository's file, keeping
// the bytes of every unchanged entry and the header; changed msgstrs are split at 79 columns
// as gettext's tools split them (powrap.go) when the file is.
//
// Spelling. Encode writes gettext's order (comments, msgctxt, msgid, msgid_plural, msgstr),
// a blank line between entries, C escapes, raw UTF-8, and a string on one line unless it
// has a line break before its end; then "" and one line per "\n"-terminated segment. A file
// in that spelling comes back byte for byte, and so does one split otherwise (wrapped at
// 79 columns by gettext's tools), through Meta "wrap", while the text is unchanged. CRLF
// line ends, a UTF-8 byte order mark, a comment without its space and escapes gettext does
// not write (\x41, \1) are read, and written in the canonical spelling.

var poCodec = &Codec{Name: "po", ContentType: "text/x-gettext-translation", Extension: "po", Bilingual: true, Decode: decodePO, Encode: encodePO, Merge: mergePO}

// poArg is the argument name of the ICU plurals a PO file becomes (gettext has none).
const poArg = "count"

// ---- decoding ----

type poEntry struct {
	start, end int // line indexes [start, end) of the entry, comments included
	line       int // 1-based line of msgid (or of the first keyword)

	tcomments, xcomments, refs, flags, prev []string
	fuzzy                                   bool

	hasCtx, hasID, hasPlural, hasStr bool
	ctx, id, idPlural, str           string
	strs                             []string
	obsolete                         bool
	obsStr                           bool
	layout                           []poLayout
	flagLines, prevLines             []int // line indexes of its "#," and "#|" lines (Merge)
}

// poLayout is how a string was split over lines: the byte length of each quoted piece.
type poLayout struct {
	kw    string
	parts []int
	line  int // the line index of kw
}

func (e *poEntry) started() bool { return e.hasCtx || e.hasID || e.hasStr || len(e.strs) > 0 }

type poParser struct {
	lines   []string
	entries []*poEntry
	cur     *poEntry
	target  *string // the string a continuation line appends to

	header *poEntry   // the header entry, if any
	kept   []*poEntry // the entries of File.Entries, in order
}

func decodePO(data []byte, o Options) (*File, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		data = poFromLatin1(data)
	}
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, w := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && w == 1 {
				break
			}
			off += w
		}
		return nil, offsetError(data, int64(off), "po: not UTF-8 text (lokal reads PO files in UTF-8)")
	}
	text := string(data)
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	p, err := parsePOLines(lines)
	if err != nil {
		return nil, err
	}
	return p.file(o)
}

// poFromLatin1 converts a file whose header declares ISO-8859-1 to UTF-8, and says so in
// its header (lokal writes UTF-8); any other file is returned as it is.
func poFromLatin1(data []byte) []byte {
	head := data[:min(len(data), 8192)]
	i := bytes.Index(head, []byte("charset="))
	if i < 0 {
		return data
	}
	j := i + len("charset=")
	k := j
	for k < len(head) && (poIsHex(head[k]) || head[k] >= 'g' && head[k] <= 'z' || head[k] >= 'G' && head[k] <= 'Z' || head[k] == '-' || head[k] == '_') {
		k++
	}
	switch strings.ToLower(string(head[j:k])) {
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "iso_8859-1":
	default:
		return data
	}
	out := make([]byte, 0, len(data)+len(data)/8)
	for _, c := range data[:j] {
		out = utf8.AppendRune(out, rune(c))
	}
	out = append(out, "UTF-8"...)
	for _, c := range data[k:] {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}

func (p *poParser) flush(at int) error {
	e := p.cur
	p.target = nil
	p.cur = &poEntry{start: at}
	if e.obsolete {
		e.end = at
		p.entries = append(p.entries, e)
		return nil
	}
	if !e.started() {
		if e.start < at && (len(e.tcomments)+len(e.xcomments)+len(e.refs)+len(e.flags)+len(e.prev) > 0 || e.fuzzy) {
			e.end = at
			p.entries = append(p.entries, e) // comments with no entry: kept as trailing
		}
		return nil
	}
	if !e.hasID {
		return lineError(e.line, "po: msgctxt without msgid")
	}
	if !e.hasStr && len(e.strs) == 0 {
		return lineError(e.line, "po: msgid without msgstr")
	}
	e.end = at
	p.entries = append(p.entries, e)
	return nil
}

func (p *poParser) line(i int, raw string) error {
	n := i + 1
	l := strings.TrimLeft(raw, " \t")
	e := p.cur
	switch {
	case l == "":
		return nil
	case strings.HasPrefix(l, "#~"):
		pay := strings.TrimLeft(l[2:], " \t")
		if !e.obsolete && e.started() {
			if err := p.flush(i); err != nil {
				return err
			}
			e = p.cur
		} else if e.obsolete && e.obsStr && (strings.HasPrefix(pay, "msgid") || strings.HasPrefix(pay, "msgctxt") || strings.HasPrefix(pay, "|")) {
			if err := p.flush(i); err != nil {
				return err
			}
			e = p.cur
		}
		e.obsolete = true
		if strings.HasPrefix(pay, "msgstr") {
			e.obsStr = true
		}
		return nil
	case l[0] == '#':
		if e.started() || e.obsolete {
			if err := p.flush(i); err != nil {
				return err
			}
			e = p.cur
		}
		p.target = nil
		rest := l[1:]
		kind := byte(' ')
		if rest != "" {
			kind = rest[0]
		}
		switch kind {
		case '.', ':', ',', '|':
			body := strings.TrimPrefix(rest[1:], " ")
			switch kind {
			case '.':
				e.xcomments = append(e.xcomments, body)
			case ':':
				e.refs = append(e.refs, body)
			case '|':
				e.prev = append(e.prev, body)
				e.prevLines = append(e.prevLines, i)
			case ',':
				e.flagLines = append(e.flagLines, i)
				for f := range strings.SplitSeq(body, ",") {
					f = strings.TrimSpace(f)
					switch f {
					case "":
					case "fuzzy":
						e.fuzzy = true
					default:
						e.flags = append(e.flags, f)
					}
				}
			}
		default:
			e.tcomments = append(e.tcomments, strings.TrimPrefix(rest, " "))
		}
		return nil
	case l[0] == '"':
		if p.target == nil {
			return lineError(n, "po: a string outside an entry")
		}
		s, err := poUnquote(l, n)
		if err != nil {
			return err
		}
		*p.target += s
		if k := len(e.layout); k > 0 {
			e.layout[k-1].parts = append(e.layout[k-1].parts, len(s))
		}
		return nil
	}
	kw, rest, _ := strings.Cut(l, " ")
	if j := strings.IndexAny(kw, "\t\""); j >= 0 {
		kw, rest = l[:j], l[j:]
	}
	rest = strings.TrimLeft(rest, " \t")
	if e.obsolete && (kw == "msgctxt" || kw == "msgid" || strings.HasPrefix(kw, "msgstr")) {
		if err := p.flush(i); err != nil {
			return err
		}
		e = p.cur
	}
	var dst *string
	switch {
	case kw == "msgctxt":
		if e.started() {
			if !e.hasStr && len(e.strs) == 0 {
				return lineError(n, "po: msgctxt inside an entry (before its msgstr)")
			}
			if err := p.flush(i); err != nil {
				return err
			}
			e = p.cur
		}
		e.hasCtx, e.line, dst = true, n, &e.ctx
	case kw == "msgid":
		if e.hasID {
			if !e.hasStr && len(e.strs) == 0 {
				return lineError(e.line, "po: msgid without msgstr")
			}
			if err := p.flush(i); err != nil {
				return err
			}
			e = p.cur
		}
		if !e.hasCtx {
			e.line = n
		}
		e.hasID, dst = true, &e.id
	case kw == "msgid_plural":
		if !e.hasID || e.hasStr || len(e.strs) > 0 || e.hasPlural {
			return lineError(n, "po: msgid_plural out of place (it follows msgid, before msgstr[0])")
		}
		e.hasPlural, dst = true, &e.idPlural
	case kw == "msgstr":
		if !e.hasID {
			return lineError(n, "po: msgstr without msgid")
		}
		if e.hasPlural {
			return lineError(n, "po: a plural entry (msgid_plural) needs msgstr[0], msgstr[1], ...")
		}
		if e.hasStr {
			return lineError(n, "po: a second msgstr in one entry")
		}
		e.hasStr, dst = true, &e.str
	case strings.HasPrefix(kw, "msgstr["):
		if !e.hasID {
			return lineError(n, "po: msgstr without msgid")
		}
		if !e.hasPlural {
			return lineError(n, "po: msgstr[n] in an entry without msgid_plural")
		}
		idx, ok := strings.CutSuffix(kw[len("msgstr["):], "]")
		k, err := strconv.Atoi(idx)
		if !ok || err != nil || k != len(e.strs) {
			return lineError(n, "po: bad msgstr index %q (want msgstr[%d])", kw, len(e.strs))
		}
		e.strs = append(e.strs, "")
		dst = &e.strs[k]
	default:
		return lineError(n, "po: unexpected %q (want a comment, msgctxt, msgid, msgid_plural, msgstr or a string)", poCut(l, 40))
	}
	if !strings.HasPrefix(rest, `"`) {
		return lineError(n, "po: %s needs a string in double quotes", kw)
	}
	s, err := poUnquote(rest, n)
	if err != nil {
		return err
	}
	*dst = s
	p.target = dst
	e.layout = append(e.layout, poLayout{kw: kw, parts: []int{len(s)}, line: i})
	return nil
}

func poCut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// poUnquote reads one "..." string with C escapes; only blanks may follow it.
func poUnquote(s string, line int) (string, error) {
	var b strings.Builder
	i := 1
	for {
		if i >= len(s) {
			return "", lineError(line, "po: unterminated string")
		}
		c := s[i]
		if c == '"' {
			if strings.Trim(s[i+1:], " \t") != "" {
				return "", lineError(line, "po: unexpected text after the string: %q", poCut(s[i+1:], 40))
			}
			out := b.String()
			if strings.ContainsAny(out, "\x00\x04") {
				// C strings end at NUL, and EOT joins msgctxt to msgid in a .mo file.
				return "", lineError(line, "po: NUL and EOT cannot be in a gettext string")
			}
			if !utf8.ValidString(out) {
				return "", lineError(line, "po: escapes that are not UTF-8")
			}
			return out, nil
		}
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		if i+1 >= len(s) {
			return "", lineError(line, "po: unterminated string")
		}
		c = s[i+1]
		i += 2
		if e, ok := cControl(c); ok {
			b.WriteByte(e)
			continue
		}
		switch c {
		case '\\', '"', '\'', '?':
			b.WriteByte(c)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(c - '0')
			for k := 0; k < 2 && i < len(s) && s[i] >= '0' && s[i] <= '7'; k++ {
				v = v*8 + int(s[i]-'0')
				i++
			}
			if v > 0xff {
				return "", lineError(line, "po: octal escape out of range")
			}
			b.WriteByte(byte(v))
		case 'x':
			v, k := 0, 0
			for ; i < len(s) && k < 2 && poIsHex(s[i]); k++ {
				v = v*16 + poHexVal(s[i])
				i++
			}
			if k == 0 {
				return "", lineError(line, `po: bad escape \x without hex digits`)
			}
			b.WriteByte(byte(v))
		default:
			return "", lineError(line, "po: bad escape \\%c", c)
		}
	}
}

func poIsHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
func poHexVal(c byte) int {
	switch {
	case c <= '9':
		return int(c - '0')
	case c >= 'a':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// file builds the File of the parsed entries.
// parsePOLines reads a PO file's lines (without their line ends) into its entries.
func parsePOLines(lines []string) (*poParser, error) {
	p := &poParser{lines: lines, cur: &poEntry{}}
	for i, l := range lines {
		if err := p.line(i, l); err != nil {
			return nil, err
		}
	}
	if err := p.flush(len(lines)); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *poParser) file(o Options) (*File, error) {
	f := &File{SourceLanguage: o.SourceLanguage}
	meta := map[string]string{}
	var entries []*poEntry
	var obsolete, trailing []string
	for i, e := range p.entries {
		raw := strings.Join(poTrimBlank(p.lines[e.start:e.end]), "\n")
		switch {
		case e.obsolete:
			obsolete = append(obsolete, raw)
		case !e.started():
			trailing = append(trailing, raw)
		case i == 0 && !e.hasCtx && e.id == "" && e.hasStr:
			p.header = e
			meta["header"] = e.str
			if c := strings.Join(e.tcomments, "\n"); c != "" {
				meta["header.comment"] = c
			}
			if fl := e.allFlags(); fl != "" {
				meta["header.flags"] = fl
			}
			for _, l := range e.layout {
				if l.kw == "msgstr" && !slices.Equal(l.parts, poHeaderLayout(e.str)) {
					meta["header.wrap"] = poJoinInts(l.parts)
				}
			}
		case !e.hasCtx && e.id == "":
			return nil, lineError(e.line, "po: an entry with an empty msgid (only the header has one, first in the file)")
		default:
			entries = append(entries, e)
		}
	}
	if len(obsolete) > 0 {
		meta["obsolete"] = strings.Join(obsolete, "\n\n")
	}
	if len(trailing) > 0 {
		meta["trailing"] = strings.Join(trailing, "\n\n")
	}
	lang := o.Language
	hdrLang, pluralForms := poHeaderFields(meta["header"])
	if lang == "" || lang == AllLanguages {
		lang = hdrLang
	}
	f.Languages = []string{lang}

	byCtx := true
	ctxs := make(map[string]bool, len(entries))
	for _, e := range entries {
		if !e.hasCtx || ctxs[e.ctx] {
			byCtx = false
			break
		}
		ctxs[e.ctx] = true
	}
	if !byCtx {
		meta["keys"] = "msgid"
	}
	var pm *poPluralMap
	for _, e := range entries {
		if e.hasPlural {
			var err error
			if pm, err = poPluralsFor(lang, pluralForms); err != nil {
				return nil, lineError(p.headerLine(), "po: Plural-Forms: %v", err)
			}
			break
		}
	}
	// lokal's own header (or none, for which Encode writes lokal's) is left out of Meta, so
	// that lokal's export decodes to the File it was written from.
	def := ""
	if pm != nil {
		def = poDefaultPluralForms(lang)
	}
	if h, ok := meta["header"]; !ok || h == poDefaultHeader(lang, def) {
		delete(meta, "header")
		delete(meta, "header.wrap")
	}
	srcLang := o.SourceLanguage
	if srcLang == "" {
		srcLang = "en"
	}
	p.kept = entries
	seen := make(map[string]int, len(entries))
	f.Entries = make([]Entry, 0, len(entries))
	for _, e := range entries {
		key := e.id
		if byCtx {
			key = e.ctx
		} else if e.hasCtx {
			key = e.ctx + "\x04" + e.id
		}
		if prev, dup := seen[key]; dup {
			return nil, lineError(e.line, "po: duplicate entry (the same msgctxt and msgid as line %d)", prev)
		}
		seen[key] = e.line
		id := e.id
		if byCtx && id == "" {
			id = key // what Encode writes for a key without a source text
		}
		out := Entry{Key: key, Source: id, Comment: strings.Join(e.xcomments, "\n")}
		em := map[string]string{}
		// A lone empty comment line is no comment.
		for k, ls := range [...][]string{e.tcomments, e.refs, e.prev} {
			if c := strings.Join(ls, "\n"); c != "" {
				em[[...]string{"comment", "references", "previous"}[k]] = c
			}
		}
		if w := e.wrap(); w != "" {
			em["wrap"] = w
		}
		flags := e.flags
		v := Value{Text: e.str}
		if e.hasPlural {
			if len(e.strs) > pm.n {
				// A template has two empty forms whatever the language: nothing is lost.
				if strings.Join(e.strs[pm.n:], "") != "" {
					return nil, lineError(e.line, "po: %d msgstr forms, but Plural-Forms says nplurals=%d", len(e.strs), pm.n)
				}
				e.strs = e.strs[:pm.n]
			}
			out.Source = poSourcePlural(srcLang, id, e.idPlural)
			v.Text = pm.toICU(e.strs, em)
		}
		if e.fuzzy {
			switch {
			case v.Text != "" && em["previous"] != "":
				v.State = StateStale
			case v.Text != "":
				v.State = StateNeedsReview
			default:
				flags = append([]string{"fuzzy"}, flags...)
			}
		}
		if len(flags) > 0 {
			em["flags"] = strings.Join(flags, ", ")
		}
		if len(em) > 0 {
			out.Meta = em
		}
		out.Values = map[string]Value{lang: v}
		f.Entries = append(f.Entries, out)
	}
	if len(meta) > 0 {
		f.Meta = meta
	}
	return f, nil
}

// wrap describes the strings of e not split the way Encode splits them, "kw=n,n,..." each,
// space-separated.
func (e *poEntry) wrap() string {
	var out []string
	for _, l := range e.layout {
		var s string
		switch {
		case l.kw == "msgctxt":
			s = e.ctx
		case l.kw == "msgid":
			s = e.id
		case l.kw == "msgid_plural":
			s = e.idPlural
		case l.kw == "msgstr":
			s = e.str
		default:
			k, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(l.kw, "msgstr["), "]"))
			s = e.strs[k]
		}
		if !(len(l.parts) == 1 && (strings.IndexByte(s, '\n') < 0 || strings.IndexByte(s, '\n') == len(s)-1)) &&
			!slices.Equal(l.parts, poCanonicalLayout(s)) {
			out = append(out, l.kw+"="+poJoinInts(l.parts))
		}
	}
	return strings.Join(out, " ")
}

// poCanonicalLayout is how writePOString splits s.
func poCanonicalLayout(s string) []int {
	if i := strings.IndexByte(s, '\n'); i < 0 || i == len(s)-1 {
		return []int{len(s)}
	}
	out := []int{0}
	for line := range strings.Lines(s) {
		out = append(out, len(line))
	}
	return out
}

// poHeaderLayout is how Encode splits a header: "" and one line per field.
func poHeaderLayout(h string) []int {
	out := []int{0}
	for line := range strings.Lines(h) {
		out = append(out, len(line))
	}
	return out
}

func poJoinInts(xs []int) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x))
	}
	return b.String()
}

// poLayoutOf reads the layout of kw from a wrap description, if it still fits s: the
// pieces add up to len(s) and split no character.
func poLayoutOf(wrap, kw, s string) []int {
	if wrap == "" {
		return nil
	}
	for spec := range strings.SplitSeq(wrap, " ") {
		k, v, ok := strings.Cut(spec, "=")
		if !ok || k != kw {
			continue
		}
		var parts []int
		at := 0
		for f := range strings.SplitSeq(v, ",") {
			n, err := strconv.Atoi(f)
			if err != nil || n < 0 || at+n > len(s) || at+n < len(s) && !utf8.RuneStart(s[at+n]) {
				return nil
			}
			at += n
			parts = append(parts, n)
		}
		if at != len(s) || len(parts) == 0 {
			return nil
		}
		return parts
	}
	return nil
}

func (p *poParser) headerLine() int {
	for _, e := range p.entries {
		if !e.obsolete && e.started() {
			return e.line
		}
	}
	return 1
}

func (e *poEntry) allFlags() string {
	fl := e.flags
	if e.fuzzy {
		fl = append([]string{"fuzzy"}, fl...)
	}
	return strings.Join(fl, ", ")
}

func poTrimBlank(ls []string) []string {
	for len(ls) > 0 && strings.TrimSpace(ls[len(ls)-1]) == "" {
		ls = ls[:len(ls)-1]
	}
	for len(ls) > 0 && strings.TrimSpace(ls[0]) == "" {
		ls = ls[1:]
	}
	return ls
}

// poHeaderFields reads Language and Plural-Forms from a header msgstr.
func poHeaderFields(h string) (lang, pluralForms string) {
	for line := range strings.Lines(h) {
		k, v, ok := strings.Cut(strings.TrimRight(line, "\n"), ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "Language":
			lang = strings.TrimSpace(v)
		case "Plural-Forms":
			pluralForms = strings.TrimSpace(v)
		}
	}
	return lang, pluralForms
}

// ---- encoding ----

// poKeysAreMsgids reports whether every key is its entry's msgid (with msgctxt and U+0004
// before it when it has one): the keys of a msgid-keyed file imported into lokal, or page
// text harvested by the Embed. Such a file is written back keyed by msgid, as gettext
// programs look entries up, even when the File no longer carries Meta["keys"].
func poKeysAreMsgids(f *File, plurals []bool) bool {
	for i, e := range f.Entries {
		id := e.Key
		if _, rest, ok := strings.Cut(e.Key, "\x04"); ok {
			id = rest
		}
		source := e.Source
		if plurals[i] {
			source, _ = poSourceForms(e.Source)
		}
		if id == "" || id != source {
			return false
		}
	}
	return len(f.Entries) > 0
}

func encodePO(f *File, o Options) ([]byte, error) {
	lang := o.Language
	if (lang == "" || lang == AllLanguages) && len(f.Languages) > 0 {
		lang = f.Languages[0]
	}
	var b bytes.Buffer
	b.Grow(64 + len(f.Entries)*96)

	// Plural entries need the Plural-Forms of the file's language.
	hdr, hasHdr := f.Meta["header"]
	_, pluralForms := poHeaderFields(hdr)
	var pm *poPluralMap
	anyPlural := false
	plurals := make([]bool, len(f.Entries))
	for i, e := range f.Entries {
		plurals[i] = poIsPlural(e, lang)
		anyPlural = anyPlural || plurals[i]
	}
	if anyPlural {
		var err error
		if pm, err = poPluralsFor(lang, pluralForms); err != nil {
			return nil, fmt.Errorf("formats: po: Plural-Forms: %v", err)
		}
	}

	byMsgid := f.Meta["keys"] == "msgid" || (f.Meta["keys"] == "" && poKeysAreMsgids(f, plurals))

	if c, ok := f.Meta["header.comment"]; ok {
		writePOComments(&b, "#", c)
	}
	if fl := f.Meta["header.flags"]; fl != "" {
		b.WriteString("#, " + fl + "\n")
	}
	b.WriteString("msgid \"\"\nmsgstr \"\"\n")
	if !hasHdr {
		forms := ""
		if anyPlural {
			forms = pm.forms
		}
		hdr = poDefaultHeader(lang, forms)
	}
	if parts := poLayoutOf("msgstr="+f.Meta["header.wrap"], "msgstr", hdr); parts != nil && f.Meta["header.wrap"] != "" {
		b.Truncate(b.Len() - len("msgstr \"\"\n"))
		writePOParts(&b, "msgstr", hdr, parts)
	} else {
		for line := range strings.Lines(hdr) {
			b.WriteString(`"` + poEscape(line) + `"` + "\n")
		}
	}

	ctxs := make(map[string]string, len(f.Entries))
	for i, e := range f.Entries {
		ctx, id, idPlural, hasCtx := poEntryIDs(e, byMsgid, plurals[i])
		// gettext tells entries apart by msgctxt (a key-based file) or by msgctxt and msgid.
		ident := poEscape(ctx)
		if byMsgid {
			if !hasCtx && id == "" {
				return nil, fmt.Errorf("formats: po: an empty key would be read as the header")
			}
			ident = strconv.FormatBool(hasCtx) + "\x04" + ident + "\x04" + poEscape(id)
		}
		if other, dup := ctxs[ident]; dup {
			return nil, fmt.Errorf("formats: po: keys %q and %q are the same in gettext (NUL and EOT are not allowed)", other, e.Key)
		}
		ctxs[ident] = e.Key
		b.WriteByte('\n')
		writePOEntry(&b, e, e.Values[lang], ctx, id, idPlural, hasCtx, plurals[i], pm, false)
	}
	if obs := f.Meta["obsolete"]; obs != "" {
		for blk := range strings.SplitSeq(obs, "\n\n") {
			b.WriteString("\n" + blk + "\n")
		}
	}
	if tr := f.Meta["trailing"]; tr != "" {
		b.WriteString("\n" + tr + "\n")
	}
	return b.Bytes(), nil
}

// poEntryIDs are the msgctxt, msgid and msgid_plural Encode writes for e.
func poEntryIDs(e Entry, byMsgid, isPlural bool) (ctx, id, idPlural string, hasCtx bool) {
	key := strings.ToValidUTF8(e.Key, "\uFFFD")
	ctx, id, hasCtx = key, e.Source, true
	if byMsgid {
		ctx, id, hasCtx = "", key, false
		if c, rest, ok := strings.Cut(key, "\x04"); ok {
			ctx, id, hasCtx = c, rest, true
		}
	}
	if isPlural {
		one, other := poSourceForms(e.Source)
		if !byMsgid {
			id = one
		}
		idPlural = other
	}
	if id == "" && !byMsgid {
		// gettext needs a msgid; the key is the best stand-in, and msgctxt keeps the
		// entry unique even when several keys share a source text.
		id = key
		if isPlural && idPlural == "" {
			idPlural = key
		}
	}
	return ctx, id, idPlural, hasCtx
}

// writePOEntry writes one entry in gettext's order: comments, flags, previous, msgctxt,
// msgid, msgid_plural, msgstr. gnuWrap splits long strings as gettext's tools do (Merge
// into a file they wrote) where Meta "wrap" does not say how.
func writePOEntry(b *bytes.Buffer, e Entry, v Value, ctx, id, idPlural string, hasCtx, isPlural bool, pm *poPluralMap, gnuWrap bool) {
	writePOComments(b, "#", e.Meta["comment"])
	writePOComments(b, "#.", e.Comment)
	writePOComments(b, "#:", e.Meta["references"])
	var flags []string
	if (v.State == StateStale || v.State == StateNeedsReview) && v.Text != "" {
		// msgfmt leaves fuzzy entries out of the .mo unless --use-fuzzy: a draft or an
		// outdated translation then shows the source text, as an untranslated one does.
		flags = append(flags, "fuzzy")
	}
	if fl := e.Meta["flags"]; fl != "" {
		flags = append(flags, fl)
	}
	if len(flags) > 0 {
		b.WriteString("#, " + strings.Join(flags, ", ") + "\n")
	}
	writePOComments(b, "#|", e.Meta["previous"])
	wrap := e.Meta["wrap"]
	if hasCtx {
		writePOWrapped(b, "msgctxt", ctx, wrap, gnuWrap)
	}
	writePOWrapped(b, "msgid", id, wrap, gnuWrap)
	if !isPlural {
		writePOWrapped(b, "msgstr", v.Text, wrap, gnuWrap)
		return
	}
	writePOWrapped(b, "msgid_plural", idPlural, wrap, gnuWrap)
	for i, s := range pm.fromICU(v.Text, e.Meta) {
		writePOWrapped(b, "msgstr["+strconv.Itoa(i)+"]", s, wrap, gnuWrap)
	}
}

// poIsPlural: an entry is a gettext plural when its source or its value is one ICU plural.
func poIsPlural(e Entry, lang string) bool {
	if v := e.Values[lang].Text; strings.Contains(v, "plural") {
		if _, ok := SinglePlural(v); ok {
			return true
		}
	}
	if strings.Contains(e.Source, "plural") {
		if _, ok := SinglePlural(e.Source); ok {
			return true
		}
	}
	return false
}

// poDefaultHeader is the header lokal writes: the fields a gettext tool needs, and the
// Plural-Forms when the file has plurals.
func poDefaultHeader(lang, pluralForms string) string {
	fields := []string{"Language: " + lang, "MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8", "Content-Transfer-Encoding: 8bit"}
	if pluralForms != "" {
		fields = append(fields, "Plural-Forms: "+pluralForms)
	}
	return strings.Join(append(fields, "X-Generator: lokal"), "\n") + "\n"
}

func writePOComments(b *bytes.Buffer, prefix, text string) {
	if text == "" {
		return
	}
	for line := range strings.SplitSeq(text, "\n") {
		b.WriteString(prefix)
		if line != "" {
			b.WriteByte(' ')
			b.WriteString(strings.ReplaceAll(line, "\r", ""))
		}
		b.WriteByte('\n')
	}
}

// writePOWrapped writes a string split as the decoded file had it (Meta "wrap"), when
// that still fits, else as gettext's tools do (gnuWrap) or as writePOString does.
func writePOWrapped(b *bytes.Buffer, keyword, s, wrap string, gnuWrap bool) {
	if parts := poLayoutOf(wrap, keyword, s); parts != nil {
		writePOParts(b, keyword, s, parts)
		return
	}
	if gnuWrap {
		writePOParts(b, keyword, s, poWrapParts(keyword, s))
		return
	}
	writePOString(b, keyword, s)
}

func writePOParts(b *bytes.Buffer, keyword, s string, parts []int) {
	b.WriteString(keyword + " ")
	for i, n := range parts {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(`"` + poEscape(s[:n]) + `"`)
		s = s[n:]
	}
	b.WriteByte('\n')
}

// writePOString writes one keyword and its string the way GNU gettext does: on one line,
// or, when the text has a line break before its end, as "" followed by one line per
// \n-terminated segment.
func writePOString(b *bytes.Buffer, keyword, s string) {
	if i := strings.IndexByte(s, '\n'); i < 0 || i == len(s)-1 {
		b.WriteString(keyword + ` "` + poEscape(s) + `"` + "\n")
		return
	}
	b.WriteString(keyword + ` ""` + "\n")
	for line := range strings.Lines(s) {
		b.WriteString(`"` + poEscape(line) + `"` + "\n")
	}
}

// poEscape applies the C escapes the gettext lexer reads. Other control characters become
// three-digit octal escapes: gettext reads at most three octal digits, whereas \x would swallow
// any hex digit that follows. Non-ASCII text stays raw UTF-8 (the header declares charset=UTF-8).
// NUL and EOT cannot be stored in a gettext catalog (strings are NUL-terminated, and EOT
// joins msgctxt to msgid in .mo files, so msgfmt rejects it), so they become U+FFFD.
func poEscape(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == '\\' || r == '"' || r == 0x7f || r == utf8.RuneError }) {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch r {
		case 0, 4:
			b.WriteRune(utf8.RuneError)
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\v':
			b.WriteString(`\v`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\%03o`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// ---- plurals ----

// poSourcePlural is the source language's ICU plural of msgid and msgid_plural.
func poSourcePlural(srcLang, one, other string) string {
	p := FromNative(srcLang, poArg, false, []PluralForm{{Selector: "one", Text: poFormICU(one)}, {Selector: "other", Text: poFormICU(other)}})
	return p.String()
}

// poSourceForms returns msgid and msgid_plural of an entry's source: the plural's one (or
// =1) and other forms, or the source text twice.
func poSourceForms(src string) (one, other string) {
	p, ok := SinglePlural(src)
	if !ok {
		return src, src
	}
	o1, ok1 := p.Form("one")
	if !ok1 {
		o1, ok1 = p.Form("=1")
	}
	o2, ok2 := p.Form("other")
	if !ok2 && len(p.Forms) > 0 {
		o2 = p.Forms[len(p.Forms)-1].Text
	}
	if !ok1 {
		o1 = o2
	}
	return poFormText(o1), poFormText(o2)
}

// poFormICU is a gettext text as the text of an ICU plural form: the ICU arguments it
// holds ({name}, as python-brace-format writes them) stay arguments and ICU's other syntax
// ('#', which is no number in gettext, and stray braces) is quoted (message.NativeToICU);
// when that would not read back as the same text, all of it is an ICU literal
// (message.QuoteLiteral). poFormText gives the text back.
func poFormICU(s string) string {
	if q := message.NativeToICU(s, message.ICU); message.ICUToNative(q, "\x00") == s {
		return q
	}
	return message.QuoteLiteral(s, true)
}

// poFormText is the gettext text of an ICU form: quoting undone, '#' written as "%d".
func poFormText(form string) string { return message.ICUToNative(form, "%d") }

// poPluralMap ties a Plural-Forms expression to a language's CLDR categories.
type poPluralMap struct {
	forms string   // the Plural-Forms value written in a new header
	n     int      // nplurals
	cat   []string // the category of each index, "" for none
	other int      // the index "other" takes its text from when no index is "other"
}

var (
	poPluralCache     sync.Map // lang + "\x00" + Plural-Forms -> *poPluralMap or error
	poPluralCacheSize atomic.Int64
)

func poPluralsFor(lang, pluralForms string) (*poPluralMap, error) {
	if pluralForms == "" || strings.Contains(pluralForms, "INTEGER") {
		// No Plural-Forms, or a template's placeholder (nplurals=INTEGER; plural=EXPRESSION;).
		pluralForms = poDefaultPluralForms(lang)
	}
	ck := lang + "\x00" + pluralForms
	if v, ok := poPluralCache.Load(ck); ok {
		if err, isErr := v.(error); isErr {
			return nil, err
		}
		return v.(*poPluralMap), nil
	}
	if len(pluralForms) > 1000 {
		return nil, fmt.Errorf("longer than 1000 bytes")
	}
	pm, err := poBuildPluralMap(lang, pluralForms)
	// Files name few distinct Plural-Forms; the cap keeps uploads from growing the cache.
	if poPluralCacheSize.Add(1) <= 512 {
		if err != nil {
			poPluralCache.Store(ck, err)
		} else {
			poPluralCache.Store(ck, pm)
		}
	}
	return pm, err
}

func poBuildPluralMap(lang, pluralForms string) (*poPluralMap, error) {
	n, expr, err := poParsePluralForms(pluralForms)
	if err != nil {
		return nil, err
	}
	cats := Categories(lang, false)
	counts := make([][]int, n)
	for i := range n {
		counts[i] = make([]int, len(cats))
	}
	for k := 0; k <= 1000; k++ {
		idx := expr.Eval(uint32(k))
		if idx < 0 || idx >= n {
			return nil, fmt.Errorf("plural expression gives %d for n=%d, outside nplurals=%d", idx, k, n)
		}
		if c := slices.Index(cats, plural.Cardinal(lang, k).String()); c >= 0 {
			counts[idx][c]++
		}
	}
	pm := &poPluralMap{forms: pluralForms, n: n, cat: make([]string, n), other: -1}
	taken := make([]bool, len(cats))
	// Greedy: the (index, category) pairs with the most numbers first.
	for {
		bi, bc, best := -1, -1, 0
		for i := range n {
			if pm.cat[i] != "" {
				continue
			}
			for c, v := range counts[i] {
				if !taken[c] && v > best {
					bi, bc, best = i, c, v
				}
			}
		}
		if bi < 0 {
			break
		}
		pm.cat[bi], taken[bc] = cats[bc], true
	}
	// An index no whole number reaches is for fractions (Django's fourth Russian form):
	// it takes a category left, "other" (CLDR's category of fractions) first.
	for i := range n {
		if pm.cat[i] != "" {
			continue
		}
		c := slices.Index(cats, "other")
		if c < 0 || taken[c] {
			c = slices.Index(taken, false)
		}
		if c >= 0 {
			pm.cat[i], taken[c] = cats[c], true
		}
	}
	if !slices.Contains(pm.cat, "other") {
		// gettext's last form is its most general one (Polish and Russian "many").
		pm.other = n - 1
	}
	return pm, nil
}

// toICU builds the ICU value of msgstr[0..]; an index with no category keeps its text in
// meta. All-empty forms are an untranslated entry: "".
func (pm *poPluralMap) toICU(strs []string, meta map[string]string) string {
	empty := true
	for _, s := range strs {
		if s != "" {
			empty = false
		}
	}
	if empty {
		return ""
	}
	byCat := map[string]string{}
	for i, s := range strs {
		if s == "" {
			continue
		}
		if c := pm.cat[i]; c != "" {
			byCat[c] = s
		} else {
			meta["msgstr["+strconv.Itoa(i)+"]"] = s
		}
	}
	if pm.other >= 0 && pm.other < len(strs) && strs[pm.other] != "" {
		byCat["other"] = strs[pm.other]
	}
	p := &Plural{Arg: poArg}
	for _, c := range []string{"zero", "one", "two", "few", "many", "other"} {
		if s, ok := byCat[c]; ok {
			p.Forms = append(p.Forms, PluralForm{Selector: c, Text: poFormICU(s)})
		}
	}
	return p.String()
}

// fromICU writes a value as nplurals msgstr texts.
func (pm *poPluralMap) fromICU(v string, meta map[string]string) []string {
	out := make([]string, pm.n)
	p, ok := SinglePlural(v)
	if !ok {
		if v != "" {
			for i := range out {
				out[i] = v // a plain text stands for every number
			}
		}
		return out
	}
	for i, c := range pm.cat {
		if c == "" {
			out[i] = meta["msgstr["+strconv.Itoa(i)+"]"]
			continue
		}
		if t, ok := p.Form(c); ok {
			out[i] = poFormText(t)
		} else if exp, ok := explicitFor[c]; ok {
			if t, ok := p.Form(exp); ok {
				out[i] = poFormText(t)
			}
		}
	}
	return out
}

// Plural-Forms shared by many languages.
const (
	pfOne      = "nplurals=1; plural=0;"
	pfEnglish  = "nplurals=2; plural=(n != 1);"
	pfFrench   = "nplurals=2; plural=(n > 1);"
	pfRussian  = "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
	pfCzech    = "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;"
	pfFilipino = "nplurals=2; plural=(n==1 || n==2 || n==3 || (n%10!=4 && n%10!=6 && n%10!=9)) ? 0 : 1;"
)

// poPluralTable is the usual Plural-Forms of a language (gettext's and Weblate's tables),
// for a file without one; a language missing here has one form if CLDR gives it only
// "other", else English's two.
var poPluralTable = map[string]string{
	"ja": pfOne, "zh": pfOne, "ko": pfOne, "vi": pfOne, "th": pfOne, "id": pfOne, "ms": pfOne,
	"lo": pfOne, "my": pfOne, "km": pfOne, "jv": pfOne, "yo": pfOne, "bo": pfOne, "ig": pfOne,
	"fr": pfFrench, "pt-BR": pfFrench, "ln": pfFrench, "ak": pfFrench, "am": pfFrench,
	"mg": pfFrench, "br": pfFrench, "hy": pfFrench, "wa": pfFrench, "ti": pfFrench,
	"fil": pfFilipino, "tl": pfFilipino,
	"ru": pfRussian, "uk": pfRussian, "be": pfRussian, "sr": pfRussian, "hr": pfRussian, "bs": pfRussian,
	"cs": pfCzech, "sk": pfCzech,
	"pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
	"ar": "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);",
	"he": "nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);",
	"lt": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);",
	"lv": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);",
	"ro": "nplurals=3; plural=(n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2);",
	"sl": "nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);",
	"ga": "nplurals=5; plural=(n==1 ? 0 : n==2 ? 1 : n<7 ? 2 : n<11 ? 3 : 4);",
	"cy": "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n==3 ? 3 : n==6 ? 4 : 5);",
	"is": "nplurals=2; plural=(n%10!=1 || n%100==11);",
	"mk": "nplurals=2; plural=(n%10==1 && n%100!=11) ? 0 : 1;",
	"gd": "nplurals=4; plural=(n==1 || n==11) ? 0 : (n==2 || n==12) ? 1 : (n > 2 && n < 20) ? 2 : 3;",
	"mt": "nplurals=4; plural=(n==1 ? 0 : n==0 || (n%100>1 && n%100<11) ? 1 : (n%100>10 && n%100<20) ? 2 : 3);",
}

// poDefaultPluralForms is the Plural-Forms of a language without one in its file.
func poDefaultPluralForms(lang string) string {
	norm := strings.ReplaceAll(lang, "_", "-")
	if pf, ok := poPluralTable[norm]; ok {
		return pf
	}
	base, _, _ := strings.Cut(strings.ToLower(norm), "-")
	base, _, _ = strings.Cut(base, "@")
	if pf, ok := poPluralTable[base]; ok {
		return pf
	}
	if cs := Categories(lang, false); len(cs) == 1 {
		return pfOne
	}
	return pfEnglish
}

// ---- Plural-Forms expressions ----

// poParsePluralForms reads "nplurals=N; plural=EXPRESSION;" and compiles the expression
// with gotext's plurals package, which evaluates it on whole numbers, as gettext does.
func poParsePluralForms(s string) (n int, expr plurals.Expression, err error) {
	n = -1
	src := ""
	for part := range strings.SplitSeq(s, ";") {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			if strings.TrimSpace(part) != "" {
				return 0, nil, fmt.Errorf("unexpected %q", strings.TrimSpace(part))
			}
			continue
		}
		switch strings.TrimSpace(k) {
		case "nplurals":
			x, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || x < 1 || x > 16 {
				return 0, nil, fmt.Errorf("bad nplurals %q", strings.TrimSpace(v))
			}
			n = x
		case "plural":
			src = v
		}
	}
	if n < 0 || src == "" {
		return 0, nil, fmt.Errorf("want \"nplurals=N; plural=EXPRESSION;\", got %q", s)
	}
	src = strings.Join(strings.Fields(src), "")
	for len(src) > 2 && src[0] == '(' && src[len(src)-1] == ')' && poParensBalanced(src[1:len(src)-1]) {
		src = src[1 : len(src)-1]
	}
	// gotext skips what it does not know (a '!' that is not "!=", arithmetic): refused
	// here, so that no expression is silently read as another.
	if i := strings.IndexFunc(src, func(r rune) bool { return !strings.ContainsRune("n0123456789()?:|&=!<>%", r) }); i >= 0 {
		return 0, nil, fmt.Errorf("unexpected %q in the plural expression", src[i:])
	}
	if strings.Count(strings.ReplaceAll(src, "!=", ""), "!") > 0 || !poParensBalanced(src) {
		return 0, nil, fmt.Errorf("the plural expression %q is not one gettext reads", src)
	}
	defer func() {
		if r := recover(); r != nil { // gotext panics on some inputs (n%0)
			n, expr, err = 0, nil, fmt.Errorf("the plural expression %q does not evaluate", src)
		}
	}()
	expr, err = plurals.Compile(src)
	if err == nil && expr == nil {
		err = fmt.Errorf("the plural expression %q does not compile", src)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("plural expression: %v", err)
	}
	expr.Eval(0)
	return n, expr, nil
}

// poParensBalanced: every '(' of s closes, in order.
func poParensBalanced(s string) bool {
	depth := 0
	for _, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}
