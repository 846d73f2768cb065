package formats

import (
	"bytes"
	"io"
	"slices"

	"github.com/go-json-experiment/json/jsontext"
)

// eachJSON is json's DecodeEach: the file's strings are read straight off jsontext's
// Decoder, keyed by their dotted path, and handed on one by one; no jsonNode tree is built.
// It refuses what parseJSON and flattenJSON refuse, with the same messages: a file that is
// not JSON (that error first, wherever it is), one that is not an object, a value that is
// not a string or an object, a key given twice in one object or flat and nested.
func eachJSON(data []byte, o Options, fn func(Entry) error) (*File, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	// The decoder's own check of names given twice keeps a set per object, 180 bytes a
	// name; seen does it for the root here, beside the check of keys flat and nested.
	s := &jsonStream{jsonParser: jsonParser{data: data, dec: jsontext.NewDecoder(bytes.NewBuffer(data), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))},
		seen: map[string]uint8{}, lang: o.Language, vals: map[string]Value{}, fn: fn}
	if s.dec.PeekKind() == 0 {
		if _, err := s.dec.ReadToken(); err == io.EOF {
			return nil, offsetError(data, int64(len(data)), "empty file, want a JSON object")
		}
	}
	if s.dec.PeekKind() != '{' {
		n, err := s.value(0)
		if err != nil {
			return nil, err
		}
		if err := s.end(n.End); err != nil {
			return nil, err
		}
		return nil, offsetError(data, n.Start, "the file is %s, want a JSON object", n.Kind)
	}
	if _, err := s.dec.ReadToken(); err != nil {
		return nil, s.fail(err)
	}
	if err := s.object("", 1); err != nil {
		return nil, err
	}
	if err := s.end(s.dec.InputOffset()); err != nil {
		return nil, err
	}
	if s.refused != nil {
		return nil, s.refused
	}
	return &File{Languages: []string{o.Language}}, nil
}

// jsonStream is the state of eachJSON.
type jsonStream struct {
	jsonParser
	seen map[string]uint8 // dotted keys read: seenRoot, seenLeaf
	lang string
	vals map[string]Value // the Values of every entry handed on, reused
	fn   func(Entry) error
	// refused is the first value that is not a string (or key given twice): the reading
	// goes on, so that a file that is not JSON says so first, as the tree reader does.
	refused error
}

// What seen says of a dotted key: a member of the root object has it as its name; a
// string was handed on under it.
const (
	seenRoot uint8 = 1 << iota
	seenLeaf
)

// end checks that nothing but space follows the value that ended at end.
func (s *jsonStream) end(end int64) error {
	if _, err := s.dec.ReadToken(); err != io.EOF {
		rest := bytes.TrimLeft(s.data[end:], " \t\r\n")
		return offsetError(s.data, int64(len(s.data)-len(rest)), "data after the JSON value")
	}
	return nil
}

// object reads the members of an object whose '{' was read, prefix its dotted key with
// the dot ("" at the root).
func (s *jsonStream) object(prefix string, depth int) error {
	var names []string // of an object within the root: few, scanned
	var nameSet map[string]bool
	for s.dec.PeekKind() != '}' {
		raw, err := s.dec.ReadValue()
		if err != nil {
			return s.fail(err)
		}
		at, name := s.dec.InputOffset()-int64(len(raw)), s.str(raw)
		key := prefix + name
		twice := false
		switch {
		case depth == 1:
			twice = s.seen[key]&seenRoot != 0
			s.seen[key] |= seenRoot
		case nameSet != nil:
			twice = nameSet[name]
			nameSet[name] = true
		default:
			twice = slices.Contains(names, name)
			if names = append(names, name); len(names) > 16 {
				nameSet = make(map[string]bool, 2*len(names))
				for _, n := range names {
					nameSet[n] = true
				}
			}
		}
		if twice {
			return offsetError(s.data, at, "key %q is given twice in one object", name)
		}
		switch s.dec.PeekKind() {
		case '{':
			if depth >= maxJSONDepth {
				return offsetError(s.data, s.dec.InputOffset(), "JSON nested more than %d levels deep", maxJSONDepth)
			}
			if _, err := s.dec.ReadToken(); err != nil {
				return s.fail(err)
			}
			if err := s.object(key+".", depth+1); err != nil {
				return err
			}
		case '"':
			raw, err := s.dec.ReadValue()
			if err != nil {
				return s.fail(err)
			}
			if err := s.leaf(key, s.dec.InputOffset()-int64(len(raw)), s.str(raw)); err != nil {
				return err
			}
		default:
			n, err := s.value(depth)
			if err != nil {
				return err
			}
			if s.refused == nil {
				s.refused = offsetError(s.data, n.Start, "value of %q must be a string, not %s", key, n.Kind)
			}
		}
	}
	if _, err := s.dec.ReadToken(); err != nil {
		return s.fail(err)
	}
	return nil
}

// leaf hands on the string at offset at of key.
func (s *jsonStream) leaf(key string, at int64, text string) error {
	if s.refused != nil {
		return nil
	}
	if s.seen[key]&seenLeaf != 0 {
		s.refused = offsetError(s.data, at, "key %q is given twice (flat and nested)", key)
		return nil
	}
	s.seen[key] |= seenLeaf
	clear(s.vals)
	s.vals[s.lang] = Value{Text: text}
	return s.fn(Entry{Key: key, Values: s.vals})
}
