package tools

import (
	"github.com/lokal-dev/lokal/tools/formats"
	"github.com/lokal-dev/lokal/tools/model"
)

// CSV cells, one option for every door that exports or imports a file (csv_cells): by
// default a CSV file's cells that a spreadsheet would evaluate as a formula are guarded
// (formats' csvGuard, undone by lokal's own import); "raw" writes and reads them as they
// are, for tools that need the cells verbatim.
const (
	CSVCellsGuarded = "guarded"
	CSVCellsRaw     = "raw"
)

// rawCells reads the csv_cells option of a file of codec: whether its cells are raw.
func rawCells(codec *formats.Codec, v string) (bool, error) {
	switch v {
	case "", CSVCellsGuarded:
		return false, nil
	case CSVCellsRaw:
		if codec.Name != "csv" {
			return false, model.Errorf(model.CodeInvalid, "csv_cells=raw is for csv files, not %s", codec.Name)
		}
		return true, nil
	}
	return false, model.Errorf(model.CodeInvalid, "csv_cells must be guarded (the default: cells a spreadsheet would run as a formula start with ') or raw")
}
