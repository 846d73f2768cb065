package storage

// SetAnalyzeMin lowers the rows that start a statistics pass, so that a test shows the
// pass with thousands of rows instead of tens of thousands.
func SetAnalyzeMin(db *DB, n int64) { db.analyze.min = n }
