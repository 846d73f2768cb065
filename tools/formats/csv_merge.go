package formats

// Merge of a CSV file (Codec.Merge): a row keeps its bytes unless a cell of a column theirs
// holds changed; such a row is written again whole, its cells quoted as the row quoted
// them (every cell, or only where needed). A removed key's row goes; a new one is written
// after the row of the key before it in theirs, in the style of that row. Columns theirs
// does not hold keep their cells; a new row leaves them empty. A language theirs holds
// that the file has no column for is added as the last column, every row written again.

import (
	"bytes"
	"encoding/csv"
	"io"
	"slices"
	"strings"
)

// csvRow is one row of a CSV text.
type csvRow struct {
	cells      []string // as read (normalized and unguarded)
	start, end int
	allQuoted  bool
}

func scanCSV(text string, raw bool) ([]csvRow, error) {
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = 0
	lineStarts := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			lineStarts = append(lineStarts, i+1)
		}
	}
	var out []csvRow
	start := 0
	for {
		cells, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, csvError(err)
		}
		row := csvRow{start: start, end: int(r.InputOffset()), allQuoted: true}
		for i := range cells {
			line, col := r.FieldPos(i)
			at := lineStarts[line-1] + col - 1
			row.allQuoted = row.allQuoted && at < len(text) && text[at] == '"'
		}
		csvNormalizeCells(cells)
		csvUnguardCells(cells, raw)
		row.cells = cells
		// The reader skips blank lines: a row starts at its first field.
		if line, col := r.FieldPos(0); lineStarts[line-1]+col-1 > row.start {
			row.start = lineStarts[line-1] + col - 1
			if row.allQuoted {
				row.start-- // FieldPos is past the opening quote
			}
		}
		start = row.end
		out = append(out, row)
	}
}

func mergeCSV(local []byte, theirs *File, o Options) ([]byte, error) {
	text := string(local)
	rows, err := scanCSV(text, o.RawCells)
	if err != nil || len(rows) == 0 {
		return local, err
	}
	header := rows[0].cells
	langs := make([]string, len(header))
	for i, l := range header[1:] {
		langs[i+1] = strings.TrimSpace(l)
	}
	// A language theirs holds and the file lacks is a new last column.
	for _, l := range append(slices.Clone(theirs.Languages), theirs.SourceLanguage) {
		if l != "" && !slices.Contains(langs[1:], l) {
			langs = append(langs, l)
		}
	}
	// cellOf is theirs' text of a column, and whether theirs holds that column.
	held := func(l string) bool {
		return l != "" && (slices.Contains(theirs.Languages, l) || l == theirs.SourceLanguage)
	}
	cellOf := func(e Entry, l string) string {
		t := e.Values[l].Text
		if t == "" && l == theirs.SourceLanguage {
			t = e.Source
		}
		return t
	}
	byKey := map[string]int{}
	for i, e := range theirs.Entries {
		byKey[e.Key] = i
	}
	nl := "\n"
	write := func(cells []string, like csvRow) string {
		var b strings.Builder
		if like.allQuoted {
			for i, c := range cells {
				if i > 0 {
					b.WriteByte(',')
				}
				if !o.RawCells {
					c = csvGuard(c)
				}
				b.WriteString(`"` + strings.ReplaceAll(c, `"`, `""`) + `"`)
			}
			b.WriteString(nl)
			return b.String()
		}
		writeCSVRow(&b, cells, nl, o.RawCells)
		return b.String()
	}
	// rowText is a row written anew in place of row, without a line end if it had none.
	rowText := func(s string, row csvRow) string {
		if !strings.HasSuffix(text[row.start:row.end], "\n") {
			s = strings.TrimSuffix(s, nl) // the last row had no line end
		}
		return s
	}
	var edits []Edit
	if len(langs) > len(header) {
		cells := append(slices.Clone(header), langs[len(header):]...)
		edits = append(edits, Edit{Start: rows[0].start, End: rows[0].end, Text: rowText(write(cells, rows[0]), rows[0])})
	}
	have := map[string]int{}
	for i, row := range rows[1:] {
		i++
		key := row.cells[0]
		have[key] = i
		at, ok := byKey[key]
		if !ok {
			edits = append(edits, Edit{Start: row.start, End: row.end})
			continue
		}
		cells := slices.Clone(row.cells)
		if len(langs) > len(header) {
			cells = append(cells, make([]string, len(langs)-len(header))...)
		}
		for c := 1; c < len(cells) && c < len(langs); c++ {
			if held(langs[c]) {
				cells[c] = cellOf(theirs.Entries[at], langs[c])
			}
		}
		if !slices.Equal(cells, row.cells) {
			edits = append(edits, Edit{Start: row.start, End: row.end, Text: rowText(write(cells, row), row)})
		}
	}
	anchor := 0
	for _, e := range theirs.Entries {
		if i, ok := have[e.Key]; ok {
			anchor = i
			continue
		}
		cells := make([]string, len(langs))
		cells[0] = e.Key
		for c := 1; c < len(cells); c++ {
			if held(langs[c]) {
				cells[c] = cellOf(e, langs[c])
			}
		}
		like := rows[anchor]
		if anchor == 0 && len(rows) > 1 {
			like = rows[1]
		}
		s := write(cells, like)
		at := rows[anchor].end
		if !bytes.HasSuffix(local[:at], []byte("\n")) {
			s = nl + strings.TrimSuffix(s, nl)
		}
		edits = append(edits, Edit{Start: at, End: at, Text: s})
	}
	return Splice(local, edits)
}
