package formats

// CSV (format csv), RFC 4180 as encoding/csv reads it: a header row, then one row per key.
// The first column is the key whatever its header says ("key", "KEYS", "id"); every other
// column is headed by a language code (spaces around it ignored). Options.Language "all" reads every language column
// (File.Languages in column order); another language reads that column only, and a file
// without it is a FileError. An empty cell is an untranslated value (the language is
// absent from Values); a cell holds the value as lokal does, ICU plurals included. The
// column of Options.SourceLanguage, when the file has one, also fills Entry.Source (and
// File.SourceLanguage).
//
// Encode writes the key column, then File.Languages ("all"), or File.SourceLanguage's
// column (Entry.Source; when set and not the language written) and the language's column. Fields are quoted when they hold a comma, a double quote (doubled), a
// line break, or leading whitespace (as encoding/csv's Writer does). File.Meta: "key_header" is the key
// column's header when it is not "key"; "newline" is "\r\n" for a file whose rows end in
// CRLF (line breaks inside quoted cells are kept as written); "bom" is "true" when the
// file starts with a UTF-8 byte order mark. A row with another number of cells than the
// header, an empty or repeated key, or a repeated or empty language header is a FileError
// naming the line.
//
// Formulas: a spreadsheet evaluates a cell that starts with =, +, -, @, a tab or a carriage
// return (OWASP's CSV injection list), so Encode guards every such cell with a leading
// single quote, which spreadsheets show as text, and also a cell that starts with a quote
// followed by one of those characters or by another quote. Decode takes that one quote off
// a cell that starts with a quote followed by a formula character or a quote, and leaves
// any other cell ("'tis") as it is: decoding what Encode wrote gives every text back
// exactly ("-5" is written '-5 and read -5). Options.RawCells writes and reads cells
// unguarded.

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

var csvCodec = &Codec{Name: "csv", ContentType: "text/csv; charset=utf-8", Extension: "csv", Bilingual: true, Multilingual: true, Decode: decodeCSV, Encode: encodeCSV, Merge: mergeCSV}

func decodeCSV(data []byte, o Options) (*File, error) {
	f := &File{Entries: []Entry{}}
	if rest, ok := bytes.CutPrefix(data, []byte("\xef\xbb\xbf")); ok {
		data = rest
		setMetaText(&f.Meta, "bom", "true", true)
	}
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return nil, offsetError(data, int64(i), "invalid UTF-8 (save the file as UTF-8)")
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = 0 // every row as many cells as the header
	header, err := r.Read()
	if err == io.EOF {
		return nil, lineError(1, "empty file: want a header row (key, then one column per language)")
	}
	if err != nil {
		return nil, csvError(err)
	}
	csvNormalizeCells(header)
	csvUnguardCells(header, o.RawCells)
	if csvLineEnd(data) == "\r\n" {
		setMetaText(&f.Meta, "newline", "\r\n", true)
	}
	setMetaText(&f.Meta, "key_header", header[0], header[0] != "key")
	langs := header[1:]
	for i, l := range langs {
		l = strings.TrimSpace(l) // "en, de" as some spreadsheets write it
		langs[i] = l
		if l == "" {
			return nil, lineError(1, "column %d has no language code in the header", i+2)
		}
		if slices.Contains(langs[:i], l) {
			return nil, lineError(1, "language %q heads two columns", l)
		}
	}
	// cols are the indexes (in langs) of the languages read.
	var cols []int
	switch o.Language {
	case AllLanguages, "":
		for i := range langs {
			cols = append(cols, i)
		}
	default:
		i := slices.Index(langs, o.Language)
		if i < 0 {
			return nil, lineError(1, "no column for language %q (the header has %s)", o.Language, strings.Join(langs, ", "))
		}
		cols = []int{i}
	}
	for _, c := range cols {
		f.Languages = append(f.Languages, langs[c])
	}
	src := -1
	if o.SourceLanguage != "" {
		src = slices.Index(langs, o.SourceLanguage)
	}
	if src >= 0 {
		f.SourceLanguage = o.SourceLanguage
	}

	seen := map[string]int{}
	for {
		row, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(err)
		}
		line, _ := r.FieldPos(0)
		csvNormalizeCells(row)
		csvUnguardCells(row, o.RawCells)
		key := row[0]
		if key == "" {
			return nil, lineError(line, "empty key")
		}
		if first, dup := seen[key]; dup {
			return nil, lineError(line, "key %q is already on line %d", key, first)
		}
		seen[key] = line
		e := Entry{Key: key, Values: map[string]Value{}}
		for _, c := range cols {
			if cell := row[c+1]; cell != "" {
				e.Values[langs[c]] = Value{Text: cell}
			}
		}
		if src >= 0 {
			e.Source = row[src+1]
		}
		f.Entries = append(f.Entries, e)
	}
	return f, nil
}

// csvNormalizeCells makes a cell's "\r\n" (a CR before a line break) "\n", as the reader does
// with the line breaks themselves: a quoted cell cannot hold "\r\n" otherwise.
func csvNormalizeCells(row []string) {
	for i, c := range row {
		for strings.Contains(c, "\r\n") { // "\r\r\n" too
			c = strings.ReplaceAll(c, "\r\n", "\n")
		}
		row[i] = c
	}
}

// csvFormulaStart reports whether a spreadsheet evaluates a cell that starts with c.
func csvFormulaStart(c byte) bool { return strings.IndexByte("=+-@\t\r", c) >= 0 }

// csvGuard is the cell that holds s in a file a spreadsheet opens: s after one more
// leading quote when s starts with a formula character, or with a quote followed by one
// or by another quote (so that csvUnguard can tell the quote it added from the text's own).
func csvGuard(s string) string {
	if s != "" && (csvFormulaStart(s[0]) || (s[0] == '\'' && len(s) > 1 && (csvFormulaStart(s[1]) || s[1] == '\''))) {
		return "'" + s
	}
	return s
}

// csvUnguard is the text of a cell csvGuard wrote: without the quote it added.
func csvUnguard(cell string) string {
	if len(cell) > 1 && cell[0] == '\'' && (csvFormulaStart(cell[1]) || cell[1] == '\'') {
		return cell[1:]
	}
	return cell
}

// csvUnguardCells reads each cell of a row as csvUnguard does, unless the file is raw.
func csvUnguardCells(row []string, raw bool) {
	for i := range row {
		if !raw {
			row[i] = csvUnguard(row[i])
		}
	}
}

// csvError turns a reader error into a FileError with its line.
func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		msg := pe.Err.Error()
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			msg = "this row has another number of cells than the header"
		}
		if pe.StartLine != pe.Line && pe.StartLine > 0 {
			msg += fmt.Sprintf(" (in the row that starts on line %d)", pe.StartLine)
		}
		return lineError(max(pe.Line, 1), "%s", msg)
	}
	return &FileError{Offset: -1, Msg: err.Error()}
}

// csvLineEnd is the line ending of the header row.
func csvLineEnd(data []byte) string {
	quoted := false
	for i, c := range data {
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\n' && !quoted:
			if i > 0 && data[i-1] == '\r' {
				return "\r\n"
			}
			return "\n"
		}
	}
	return "\n"
}

func encodeCSV(f *File, o Options) ([]byte, error) {
	var langs []string
	switch o.Language {
	case AllLanguages, "":
		langs = f.Languages
	default:
		langs = []string{o.Language}
	}
	// The source column: a language written, whose cells are its Values or else the
	// Source, or a column of its own before the language's.
	src := f.SourceLanguage
	srcCol := src != "" && !slices.Contains(langs, src)
	header := []string{"key"}
	if h := f.Meta["key_header"]; h != "" {
		header[0] = h
	}
	if srcCol {
		header = append(header, src)
	}
	header = append(header, langs...)
	for i, l := range header[1:] {
		if l == "" || slices.Contains(header[1:i+1], l) {
			return nil, fmt.Errorf("formats: csv: empty or repeated language %q", l)
		}
	}
	nl := "\n"
	if f.Meta["newline"] == "\r\n" {
		nl = "\r\n"
	}
	var b strings.Builder
	if f.Meta["bom"] == "true" {
		b.WriteString("\ufeff")
	}
	writeCSVRow(&b, header, nl, o.RawCells)
	seen := map[string]bool{}
	row := make([]string, len(header))
	for i, e := range f.Entries {
		if e.Key == "" {
			return nil, fmt.Errorf("formats: csv: entry %d has an empty key", i)
		}
		k := strings.ToValidUTF8(e.Key, "\uFFFD")
		if seen[k] {
			return nil, fmt.Errorf("formats: csv: duplicate key %q", e.Key)
		}
		seen[k] = true
		row = row[:0]
		row = append(row, e.Key)
		if srcCol {
			row = append(row, e.Source)
		}
		for _, l := range langs {
			text := e.Values[l].Text
			if l == src && text == "" {
				text = e.Source
			}
			row = append(row, text)
		}
		writeCSVRow(&b, row, nl, o.RawCells)
	}
	return []byte(b.String()), nil
}

// writeCSVRow writes one record by RFC 4180, each cell guarded (csvGuard) unless raw.
// encoding/csv's Writer is not used because it rewrites line breaks inside quoted cells
// (\n to \r\n with UseCRLF, and drops \r).
func writeCSVRow(b *strings.Builder, fields []string, nl string, raw bool) {
	for i, s := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		s = strings.ToValidUTF8(s, "\uFFFD") // the file is UTF-8, and decode refuses anything else
		if !raw {
			s = csvGuard(s)
		}
		if !csvNeedsQuotes(s) {
			b.WriteString(s)
			continue
		}
		b.WriteByte('"')
		b.WriteString(strings.ReplaceAll(s, `"`, `""`))
		b.WriteByte('"')
	}
	b.WriteString(nl)
}

func csvNeedsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if strings.ContainsAny(s, ",\"\r\n") {
		return true
	}
	first, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(first)
}
