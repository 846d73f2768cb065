package storage

// SetSearchCandidates changes how many rows a substring index may name before Search
// walks instead, so that tests reach both ways with a few rows; it returns the undo.
func SetSearchCandidates(n int) func() {
	old := searchCandidates.Swap(int64(n))
	return func() { searchCandidates.Store(old) }
}
