package formats

// Each reads data as Decode does, but hands the entries to fn one at a time, in file order,
// instead of keeping them: an import builds its own maps from them, and a 5 MB file of
// tiny keys would otherwise be held as a slice of entries (each with its own Values map,
// some 500 bytes apiece) beside them. A codec with DecodeEach reads the file as a stream
// and never holds more than the entry at hand; the others decode whole and let each entry
// go once fn has it. fn owns the Entry during its call only: its maps may be reused for the
// next one. An error of fn stops the reading and is returned; a file that does not parse
// may have handed some entries to fn first. The File returned has no Entries.
func (c *Codec) Each(data []byte, o Options, fn func(Entry) error) (*File, error) {
	if c.DecodeEach != nil {
		return c.DecodeEach(data, o, fn)
	}
	f, err := c.Decode(data, o)
	if err != nil {
		return nil, err
	}
	entries := f.Entries
	f.Entries = nil
	for i := range entries {
		if err := fn(entries[i]); err != nil {
			return nil, err
		}
		entries[i] = Entry{}
	}
	return f, nil
}

// collect is the Decode of a codec that has a DecodeEach: the entries gathered.
func collect(decodeEach func([]byte, Options, func(Entry) error) (*File, error)) func([]byte, Options) (*File, error) {
	return func(data []byte, o Options) (*File, error) {
		var entries []Entry
		f, err := decodeEach(data, o, func(e Entry) error {
			// DecodeEach may reuse the maps of e: each kept entry gets its own.
			vals := make(map[string]Value, len(e.Values))
			for l, v := range e.Values {
				vals[l] = v
			}
			e.Values = vals
			entries = append(entries, e)
			return nil
		})
		if err != nil {
			return nil, err
		}
		f.Entries = entries
		return f, nil
	}
}
