package formats

import (
	"fmt"
	"strings"
)

// File is a translation file read by a codec, or to be written by one: its entries in file
// order, the languages it holds and what it says of itself.
type File struct {
	// SourceLanguage is the language of Entry.Source in a bilingual file (PO's source is
	// untagged; XLIFF's source-language; xcstrings' sourceLanguage); "" when unknown.
	SourceLanguage string
	// Languages are the languages whose values the file holds, in the order the file has
	// them: one for every format but xcstrings and a multi-language CSV.
	Languages []string
	// Entries in file order. Encode writes them in the order given.
	Entries []Entry
	// Meta is what the file says of itself that lokal has no field for, kept so that
	// encoding a decoded file gives it back: PO header fields, ARB "@@" keys, the xcstrings
	// version, XLIFF file attributes. Keys are codec-specific and documented in doc.go.
	Meta map[string]string
	// Warnings are what Decode read but could not keep as the file has it (an import
	// reports them); Encode ignores them.
	Warnings []Warning
}

// Warning is something of a file a codec could not keep; Key is "" for the file as a whole.
type Warning struct {
	Key     string
	Message string
}

// Entry is one key of a file.
type Entry struct {
	Key string
	// Source is the source-language text of a bilingual file (msgid, <source>, the
	// source localization); "" in monolingual formats.
	Source string
	// Values maps a language to its value. A plural is one ICU value
	// ("{count, plural, one {# file} other {# files}}"), whatever the file's native form.
	Values map[string]Value
	// Comment is the note for translators (PO "#." and "#", ARB description, a .strings
	// comment, an XLIFF note, an Android comment before the element); "" when none.
	Comment string
	// DoNotTranslate: the file says the key is not to be translated (Android
	// translatable="false", xcstrings shouldTranslate false, XLIFF translate="no").
	DoNotTranslate bool
	// Meta is what the file says of the entry beyond the fields above (PO flags and
	// references, ARB placeholders, xcstrings extractionState), codec-specific keys.
	Meta map[string]string
}

// Value is one language's value of an entry.
type Value struct {
	Text  string
	State State
}

// State is what a file says of a value beyond its text.
type State string

// States. A file's native states map onto these; lokal maps them onto its statuses:
// Translated (and None) is approved; NeedsReview and Stale (a translation made against an
// older source text) are needs_review. A format with one "not final" mark (PO fuzzy, XLIFF
// 1.2 needs-review-translation) writes both with it and reads it as NeedsReview (PO: Stale
// when "#|" names the older msgid); XLIFF 2 and xcstrings keep them apart.
const (
	StateNone        State = ""
	StateTranslated  State = "translated"
	StateNeedsReview State = "needs_review"
	StateStale       State = "stale"
)

// Options say what a codec cannot learn from the file.
type Options struct {
	// Language is the language the values are in (monolingual formats) or the target
	// language (bilingual ones); AllLanguages for every language of a multi-language file.
	// Its CLDR plural categories decide which native forms a plural has.
	Language string
	// SourceLanguage is the project's source language.
	SourceLanguage string
	// RawCells writes and reads CSV cells as they are, without the guard against
	// spreadsheet formulas (csvGuard), for tools that need the cells verbatim.
	RawCells bool
	// SourceOrder is, for MergeFile, the keys of the source-language file in its order:
	// theirs.Entries follow it, so that a new key goes where the source file has it.
	SourceOrder []string
	// Prune: MergeFile removes the entries of the local file that the export lacks. Without
	// it they are kept as the file has them: a key the project never had (a translation
	// of a key the source file lacks, one not pushed yet) is the repository's, not lokal's
	// to delete.
	Prune bool
}

// AllLanguages is the Language of an import or export of every language a multi-language
// file (xcstrings, csv) holds.
const AllLanguages = "all"

// Codec reads and writes one format.
type Codec struct {
	Name        string // the format= name
	ContentType string
	Extension   string // the usual file extension, without the dot
	// Bilingual formats carry the source text beside the target (PO, XLIFF, xcstrings, CSV).
	Bilingual bool
	// Multilingual formats hold any number of languages in one file (xcstrings, CSV).
	Multilingual bool
	// SourceFallback: the platform reads a key a translation file lacks from the source
	// language's (Android's values/, Apple's development language), so a key not to
	// translate belongs in the source file alone.
	SourceFallback bool
	// Decode reads a file. A file that does not parse is a *FileError naming where.
	Decode func(data []byte, o Options) (*File, error)
	// DecodeEach, when set, reads a file as a stream, handing its entries on one by one
	// (Codec.Each, each.go); nil for a codec that decodes whole.
	DecodeEach func(data []byte, o Options, fn func(Entry) error) (*File, error)
	// Encode writes a file; decoding what it writes gives back the same File.
	Encode func(f *File, o Options) ([]byte, error)
	// Unkept says, in words, what of a decoded entry's meaning is in its Meta alone, so that
	// a store keeping only its key, values, comment and do-not-translate mark would write
	// it back meaning something else; nil when nothing is. lokal stores Meta, so an import
	// names these only for an entry whose Meta it could not store (over its size cap); what
	// a codec cannot keep even in Meta is one of the File's Warnings instead.
	Unkept func(e Entry) []string
	// Merge writes theirs (lokal's export of the same file, decoded) into local (the file
	// as the repository has it, already UTF-8 without a BOM and with "\n" line ends: the
	// caller, MergeFile, undoes and redoes the file's encoding). An entry whose value and
	// state are unchanged keeps its bytes; a changed one rewrites its own lines; an entry
	// theirs lacks goes; a new one is placed after the entry before it in theirs.Entries
	// (which MergeFile orders as the source file has them). What local says of itself
	// (headers, comments, obsolete entries) is kept. nil: MergeFile writes the export.
	Merge func(local []byte, theirs *File, o Options) ([]byte, error)
}

// FileError says where a file does not parse: a line (1-based) when the format has lines,
// else a byte offset.
type FileError struct {
	Line   int   // 0 when unknown
	Offset int64 // -1 when unknown
	Msg    string
}

func (e *FileError) Error() string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	case e.Offset >= 0:
		return fmt.Sprintf("byte %d: %s", e.Offset, e.Msg)
	}
	return e.Msg
}

// lineError is a FileError at a line.
func lineError(line int, format string, args ...any) *FileError {
	return &FileError{Line: line, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

// offsetError is a FileError at a byte offset; its line is computed from data.
func offsetError(data []byte, offset int64, format string, args ...any) *FileError {
	e := &FileError{Offset: offset, Msg: fmt.Sprintf(format, args...)}
	if offset >= 0 && offset <= int64(len(data)) {
		e.Line = 1 + strings.Count(string(data[:offset]), "\n")
	}
	return e
}

// codecs is every format, in the order the contract lists them.
var codecs = []*Codec{
	jsonCodec, i18nextCodec, poCodec, xliffCodec, xliff2Codec, androidCodec, stringsCodec,
	stringsdictCodec, xcstringsCodec, arbCodec, yamlCodec, propertiesCodec, csvCodec,
}

// aliases are older names still accepted.
var aliases = map[string]string{"yml": "yaml", "xliff12": "xliff", "xlf": "xliff"}

// Lookup returns the codec of a format name (or an alias such as yml).
func Lookup(name string) (*Codec, bool) {
	if a, ok := aliases[name]; ok {
		name = a
	}
	for _, c := range codecs {
		if c.Name == name {
			return c, true
		}
	}
	return nil, false
}

// Names lists the format names in the contract's order.
func Names() []string {
	out := make([]string, len(codecs))
	for i, c := range codecs {
		out[i] = c.Name
	}
	return out
}

// Decode reads data in the named format.
func Decode(format string, data []byte, o Options) (*File, error) {
	c, ok := Lookup(format)
	if !ok {
		return nil, unknownFormat(format)
	}
	return c.Decode(data, o)
}

// Encode writes f in the named format.
func Encode(format string, f *File, o Options) ([]byte, error) {
	c, ok := Lookup(format)
	if !ok {
		return nil, unknownFormat(format)
	}
	return c.Encode(f, o)
}

func unknownFormat(name string) error {
	return fmt.Errorf("formats: unknown format %q (want one of %s)", name, strings.Join(Names(), ", "))
}
