package formats

import (
	"bytes"
	"fmt"
	"slices"
)

// Edit replaces local[Start:End] with Text; Start == End inserts.
type Edit struct {
	Start, End int
	Text       string
}

// Splice applies edits to local. Edits must not overlap; they may come in any order, and
// inserts at the same offset keep the order given.
func Splice(local []byte, edits []Edit) []byte {
	if len(edits) == 0 {
		return local
	}
	sorted := slices.Clone(edits)
	slices.SortStableFunc(sorted, func(a, b Edit) int { return a.Start - b.Start })
	var out bytes.Buffer
	out.Grow(len(local))
	at := 0
	for _, e := range sorted {
		out.Write(local[at:e.Start])
		out.WriteString(e.Text)
		at = e.End
	}
	out.Write(local[at:])
	return out.Bytes()
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
// format (Codec.Merge): the result is local itself when nothing changed. Without a Merge
// of its codec, or without a local file, it is the export.
func MergeFile(format string, local, exported []byte, o Options) ([]byte, error) {
	c, ok := Lookup(format)
	if !ok {
		return nil, unknownFormat(format)
	}
	if local == nil || c.Merge == nil {
		return exported, nil
	}
	theirs, err := c.Decode(exported, o)
	if err != nil {
		return nil, fmt.Errorf("the server's export does not read: %w", err)
	}
	out, err := c.Merge(local, theirs, o)
	if err != nil {
		return nil, err
	}
	return out, nil
}
