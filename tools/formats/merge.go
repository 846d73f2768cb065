package formats

import (
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
)

// Edit replaces local[Start:End] with Text; Start == End inserts.
type Edit struct {
	Start, End int
	Text       string
}

// Splice applies edits to local. Edits may come in any order; inserts at the same offset
// keep the order given and go before a replacement that starts there. Edits that overlap
// or fall outside local are an error (a Merge's bug, which must not become a garbled file).
func Splice(local []byte, edits []Edit) ([]byte, error) {
	if len(edits) == 0 {
		return local, nil
	}
	sorted := slices.Clone(edits)
	slices.SortStableFunc(sorted, func(a, b Edit) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return isReplace(a) - isReplace(b)
	})
	var out bytes.Buffer
	out.Grow(len(local))
	at := 0
	for _, e := range sorted {
		if e.Start < at || e.End < e.Start || e.End > len(local) {
			return nil, fmt.Errorf("formats: merge edit [%d:%d] overlaps another or falls outside the file (%d bytes)", e.Start, e.End, len(local))
		}
		out.Write(local[at:e.Start])
		out.WriteString(e.Text)
		at = e.End
	}
	out.Write(local[at:])
	if out.Len() == 0 {
		return []byte{}, nil // never nil: MergeFile's nil is "no file"
	}
	return out.Bytes(), nil
}

func isReplace(e Edit) int {
	if e.End > e.Start {
		return 1
	}
	return 0
}

// SameValue says whether a and b hold the same value of lang: text and state, a state
// None meaning Translated. Merge keeps the bytes of an entry for which it holds.
func SameValue(a, b Entry, lang string) bool {
	av, aok := a.Values[lang]
	bv, bok := b.Values[lang]
	return aok == bok && av.Text == bv.Text && normState(av.State) == normState(bv.State)
}

func normState(s State) State {
	if s == StateNone {
		return StateTranslated
	}
	return s
}

// MergeFile writes the export exported into local, the repository's file, in the named
// format (Codec.Merge): the result is local itself, byte for byte, when nothing changed.
// Without a local file (nil), or without a Merge of its codec, it is the export.
//
// MergeFile undoes local's encoding before Codec.Merge and redoes it after, so a codec
// sees UTF-8 with "\n" line ends whatever the file is: a UTF-8 or UTF-16 byte order mark
// (UTF-16 also without one, when its zero bytes show it), CRLF line ends (a file mixing
// them keeps each untouched line's own), and a file that is not UTF-8: in the charset its
// PO header or XML declaration names (golang.org/x/text's IANA names), and a .properties
// file in ISO-8859-1, as Java 8 reads it. A character the file's charset cannot hold is
// written \uXXXX in a .properties file and is an error naming it otherwise.
//
// Before Codec.Merge, theirs is made what the file should hold: its entries in
// o.SourceOrder's order first (the source file's keys, so that Merge places a new key where
// the source file has it), the keys it lacks after in the export's order; the file's
// entries the export lacks kept where they are unless o.Prune (keepLocalOnly); in a
// translation file, no new key without a translation (leaveUntranslated); in a bilingual
// file of the source language, the file's own target side (keepSourceFileValues). A local
// file that does not decode is a *FileError naming the line: a hand-written file is never
// replaced by the export.
func MergeFile(format string, local, exported []byte, o Options) ([]byte, error) {
	c, ok := Lookup(format)
	if !ok {
		return nil, unknownFormat(format)
	}
	if local == nil {
		return exported, nil
	}
	text, lay, err := readText(c.Name, local)
	if err != nil {
		return nil, err
	}
	mine, err := c.Decode([]byte(text), o)
	if err != nil {
		return nil, err
	}
	if c.Merge == nil {
		return exported, nil
	}
	theirs, err := c.Decode(exported, o)
	if err != nil {
		return nil, fmt.Errorf("the server's export does not read: %w", err)
	}
	sortBySource(theirs, o.SourceOrder)
	if c.Bilingual && o.Language != AllLanguages && o.Language == o.SourceLanguage {
		keepSourceFileValues(theirs, mine, o.Language)
	}
	if !o.Prune {
		keepLocalOnly(theirs, mine)
	}
	if !c.Multilingual && o.Language != o.SourceLanguage {
		leaveUntranslated(theirs, mine, o.Language)
	}
	out, err := c.Merge([]byte(text), theirs, o)
	if err != nil {
		return nil, err
	}
	if string(out) == text {
		return local, nil
	}
	return lay.write(string(out), text)
}

// MergeTemplate writes the export of a language whose file the repository lacks, taking
// the source-language file template as the local file where the format allows it: the new
// file then has the source file's order, comments and style, with the export's values,
// and without the keys the export lacks. A PO template's header gets the export's Language
// and Plural-Forms, as msginit does; a Rails file's root key becomes the language. Formats
// whose file names its language in ways a merge does not rewrite (ARB's @@locale, XLIFF's
// target-language) and multi-language ones get the export itself, and so does an export
// with no entry (a template pruned of every key would be no file of the format's usual
// shape). template nil: the export.
func MergeTemplate(format string, template, exported []byte, o Options) ([]byte, error) {
	c, ok := Lookup(format)
	if !ok {
		return nil, unknownFormat(format)
	}
	if template == nil || c.Merge == nil || !templated[c.Name] {
		return exported, nil
	}
	if f, err := c.Decode(exported, o); err != nil || len(f.Entries) == 0 {
		return exported, nil // an export that does not read is MergeFile's to refuse
	}
	o.Prune = true // the template's keys the export lacks are not this language's
	out, err := MergeFile(c.Name, template, exported, o)
	if err != nil {
		return nil, err
	}
	if c.Name == "po" {
		out = poTargetHeader(out, exported)
	}
	return out, nil
}

// templated are the formats whose source-language file is a fair template for another
// language's: nothing in them names the language but the path, or Merge rewrites what
// does (Rails YAML's root key).
var templated = map[string]bool{
	"json": true, "i18next": true, "po": true, "android": true, "strings": true,
	"stringsdict": true, "properties": true, "yaml": true,
}

// keepSourceFileValues: in a bilingual file of the source language (a gettext en.po, an
// XLIFF without targets) the source text is the entry's Source, which is what lokal
// imports; the target side is the file's own (Django's en.po leaves every msgstr empty).
// An entry the file has keeps its value, and a new one gets an empty value when every
// value of the file is empty.
func keepSourceFileValues(theirs, mine *File, lang string) {
	type had struct {
		v       Value
		present bool
	}
	local := make(map[string]had, len(mine.Entries))
	empty := true
	for _, e := range mine.Entries {
		v, ok := e.Values[lang]
		local[e.Key] = had{v, ok}
		empty = empty && v.Text == ""
	}
	for i, e := range theirs.Entries {
		h, ok := local[e.Key]
		switch {
		case ok:
		case empty && len(mine.Entries) > 0:
			h = had{Value{}, true}
		default:
			continue
		}
		vals := maps.Clone(e.Values)
		if vals == nil {
			vals = map[string]Value{}
		}
		if h.present {
			vals[lang] = h.v
		} else {
			delete(vals, lang)
		}
		theirs.Entries[i].Values = vals
	}
}

// leaveUntranslated drops the entries of theirs that the local file lacks and that have
// no translation in lang (a bilingual export lists them with an empty target): pull adds
// a key to a translation file when it has a translation, as a monolingual export does.
func leaveUntranslated(theirs, mine *File, lang string) {
	has := make(map[string]bool, len(mine.Entries))
	for _, e := range mine.Entries {
		has[e.Key] = true
	}
	theirs.Entries = slices.DeleteFunc(theirs.Entries, func(e Entry) bool {
		return !has[e.Key] && e.Values[lang].Text == ""
	})
}

// keepLocalOnly adds to theirs the entries of mine (the local file, decoded) that theirs
// lacks, each right after the entry mine has before it, so that Merge finds them unchanged
// and keeps their bytes.
func keepLocalOnly(theirs, mine *File) {
	has := make(map[string]bool, len(theirs.Entries))
	for _, e := range theirs.Entries {
		has[e.Key] = true
	}
	var out []Entry
	at := map[string]int{} // where each key of theirs is in out
	place := func(e Entry) {
		at[e.Key] = len(out)
		out = append(out, e)
	}
	// Local-only entries waiting for the entry before them to be placed.
	after := map[string][]Entry{}
	var first []Entry
	prev := ""
	for _, e := range mine.Entries {
		if !has[e.Key] {
			if prev == "" {
				first = append(first, e)
			} else {
				after[prev] = append(after[prev], e)
			}
		}
		prev = e.Key
	}
	if len(first) == 0 && len(after) == 0 {
		return
	}
	var drain func(key string)
	drain = func(key string) {
		for _, e := range after[key] {
			place(e)
		}
		delete(after, key)
	}
	for _, e := range first {
		place(e)
	}
	for _, e := range theirs.Entries {
		place(e)
		drain(e.Key)
	}
	// Chains: a local-only entry after another local-only one, or after an entry neither
	// file places (mine's order is kept among them).
	for changed := true; changed; {
		changed = false
		for key := range after {
			if _, ok := at[key]; ok {
				i := at[key] + 1
				ins := after[key]
				delete(after, key)
				out = slices.Insert(out, i, ins...)
				for j := range out {
					at[out[j].Key] = j
				}
				changed = true
			}
		}
	}
	theirs.Entries = out
}

// sortBySource orders f's entries as order has their keys; the others follow, in f's order.
func sortBySource(f *File, order []string) {
	if len(order) == 0 {
		return
	}
	at := make(map[string]int, len(order))
	for i, k := range order {
		if _, dup := at[k]; !dup {
			at[k] = i
		}
	}
	rank := func(e Entry) int {
		if i, ok := at[e.Key]; ok {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(f.Entries, func(a, b Entry) int { return rank(a) - rank(b) })
}

// textLayout is how a file spells its text in bytes: what MergeFile undoes and redoes.
type textLayout struct {
	format string
	bom    []byte
	enc    encoding.Encoding // nil: UTF-8
	name   string            // the charset's name, for errors
	// lineEnds are local's line ends, per line ("\n" or "\r\n"); crlf is the one most
	// lines have, written on new lines.
	lineEnds []string
	crlf     bool
}

// readText is data as UTF-8 with "\n" line ends, and how to write it back.
func readText(format string, data []byte) (string, textLayout, error) {
	lay := textLayout{format: format}
	var text string
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		lay.bom, data = data[:3], data[3:]
		if !utf8.Valid(data) {
			return "", lay, notUTF8(data, "after a UTF-8 byte order mark")
		}
		text = string(data)
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}):
		lay.bom = data[:2]
		lay.enc, lay.name = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "UTF-16LE"
		if data[0] == 0xfe {
			lay.enc, lay.name = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "UTF-16BE"
		}
		s, err := lay.enc.NewDecoder().Bytes(data[2:])
		if err != nil || len(data)%2 != 0 {
			return "", lay, &FileError{Offset: int64(len(data)), Msg: "not UTF-16 text (an odd number of bytes)"}
		}
		text = string(s)
	default:
		enc, name := declaredCharset(format, data)
		// UTF-16 without a BOM whose text starts in ASCII is valid UTF-8 too: it is told
		// by the zero byte of every one of its first characters.
		switch {
		case enc != nil:
		case asciiUTF16(data, 0):
			enc, name = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "UTF-16BE"
		case asciiUTF16(data, 1):
			enc, name = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "UTF-16LE"
		case utf8.Valid(data):
		case len(data) >= 2 && data[0] == 0 && data[1] != 0:
			enc, name = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "UTF-16BE"
		case len(data) >= 2 && data[0] != 0 && data[1] == 0:
			enc, name = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "UTF-16LE"
		case format == "properties":
			enc, name, _ = latin1()
		default:
			return "", lay, notUTF8(data, "and it names no charset")
		}
		if enc == nil {
			text = string(data)
			break
		}
		lay.enc, lay.name = enc, name
		s, err := enc.NewDecoder().Bytes(data)
		if err != nil {
			return "", lay, &FileError{Offset: -1, Msg: fmt.Sprintf("not %s text: %v", name, err)}
		}
		text = string(s)
	}
	if !strings.Contains(text, "\r\n") {
		return text, lay, nil
	}
	crlf := 0
	lines := strings.SplitAfter(text, "\n")
	lay.lineEnds = make([]string, len(lines))
	for i, l := range lines {
		switch {
		case strings.HasSuffix(l, "\r\n"):
			lay.lineEnds[i] = "\r\n"
			crlf++
		case strings.HasSuffix(l, "\n"):
			lay.lineEnds[i] = "\n"
		}
	}
	lay.crlf = 2*crlf >= strings.Count(text, "\n")
	return strings.ReplaceAll(text, "\r\n", "\n"), lay, nil
}

// asciiUTF16: data is UTF-16 whose first (up to 16) characters are ASCII, the zero byte
// of each at zero (0 big-endian, 1 little-endian).
func asciiUTF16(data []byte, zero int) bool {
	if len(data) < 2 || len(data)%2 != 0 {
		return false
	}
	for i := 0; i < len(data) && i < 32; i += 2 {
		if data[i+zero] != 0 || data[i+1-zero] == 0 || data[i+1-zero] >= 0x80 {
			return false
		}
	}
	return true
}

func notUTF8(data []byte, why string) error {
	i := invalidUTF8At(data)
	return offsetError(data, int64(i), "not UTF-8 text (%s)", why)
}

func latin1() (encoding.Encoding, string, error) {
	e, err := ianaindex.IANA.Encoding("ISO-8859-1")
	return e, "ISO-8859-1", err
}

var poCharsetRE = regexp.MustCompile(`charset=([A-Za-z0-9_.:-]+)`)

// declaredCharset is the charset a PO header or an XML declaration names, when it is a
// known one other than UTF-8 (nil otherwise).
func declaredCharset(format string, data []byte) (encoding.Encoding, string) {
	head := data[:min(len(data), 8192)]
	var name string
	switch format {
	case "po":
		if m := poCharsetRE.FindSubmatch(head); m != nil {
			name = string(m[1])
		}
	case "xliff", "xliff2", "android", "stringsdict":
		name = xmlDeclaredEncoding(head)
	}
	if name == "" {
		return nil, ""
	}
	switch strings.ToLower(name) {
	case "utf-8", "utf8", "charset", "us-ascii", "ascii":
		return nil, "" // ASCII is UTF-8; CHARSET is a POT's placeholder
	}
	e, err := ianaindex.IANA.Encoding(name)
	if err != nil || e == nil {
		return nil, ""
	}
	return e, name
}

// write is text (Merge's result, UTF-8 with "\n" line ends) spelled as the local file was;
// orig is local's text as Merge got it, whose lines keep their own line ends.
func (l textLayout) write(text, orig string) ([]byte, error) {
	if l.lineEnds != nil {
		text = l.restoreLineEnds(text, orig)
	}
	out := append([]byte{}, l.bom...) // an empty file is no nil (no file)
	if l.enc == nil {
		return append(out, text...), nil
	}
	enc := l.enc.NewEncoder()
	if b, err := enc.Bytes([]byte(text)); err == nil {
		return append(out, b...), nil
	}
	// Find the character the charset cannot hold, and escape it where the format can.
	var buf [utf8.UTFMax]byte
	line := 1
	for _, r := range text {
		if r == '\n' {
			line++
		}
		n := utf8.EncodeRune(buf[:], r)
		b, err := enc.Bytes(buf[:n])
		if err == nil {
			out = append(out, b...)
			continue
		}
		if l.format != "properties" {
			return nil, &FileError{Line: line, Offset: -1, Msg: fmt.Sprintf("the file is in %s, which cannot hold %q (U+%04X); save it as UTF-8 to pull this translation", l.name, r, r)}
		}
		var sb strings.Builder
		propWriteRuneASCII(&sb, r)
		esc, _ := enc.Bytes([]byte(sb.String()))
		out = append(out, esc...)
	}
	return out, nil
}

// restoreLineEnds gives text's lines local's line ends: the lines before the first and
// after the last line Merge changed keep their own, the others take the usual one.
func (l textLayout) restoreLineEnds(text, orig string) string {
	a := strings.SplitAfter(orig, "\n")
	b := strings.SplitAfter(text, "\n")
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	usual := "\n"
	if l.crlf {
		usual = "\r\n"
	}
	var sb strings.Builder
	sb.Grow(len(text) + len(b))
	for i, line := range b {
		end := usual
		switch {
		case i < pre:
			end = l.lineEnds[i]
		case i >= len(b)-suf:
			end = l.lineEnds[len(a)-(len(b)-i)]
		}
		if strings.HasSuffix(line, "\n") {
			sb.WriteString(line[:len(line)-1])
			sb.WriteString(end)
		} else {
			sb.WriteString(line)
		}
	}
	return sb.String()
}
