package formats

import (
	"fmt"
	"slices"
	"strconv"
)

// json: lokal's own flat file, one object of key to value, the value in ICU (a plural is
// one ICU value, as inside lokal). Encode writes the entries in the order given (Render
// gives them sorted by key, so its output is the sorted object it has always been),
// indented by two spaces, ": " between key and value, a newline at the end; <, > and & are
// not escaped, because values carry markup. A key the entry has no value for in the
// language is left out (an empty value is written as "").
//
// Decode also reads a nested file, as lokal's sync endpoint does: {"a": {"b": "x"}} is the
// key "a.b". Encoding such a file writes it flat, which means the same to lokal. A value
// that is not a string (number, boolean, null, array) is refused with its line, as is a key
// given twice, flat and nested ("a.b" beside {"a": {"b"}}). json keeps no Meta. It is read
// as a stream (json_each.go), entry by entry, with no tree of the file. Merge
// patches values in place (json_merge.go); a new key in a nested file is nested.
var jsonCodec = &Codec{
	Name:        "json",
	ContentType: "application/json",
	Extension:   "json",
	Decode:      collect(eachJSON),
	DecodeEach:  eachJSON,
	Encode:      encodeJSON,
	Merge:       mergeJSON,
}

func encodeJSON(f *File, o Options) ([]byte, error) {
	lang := fileLanguage(f, o)
	root := jsonObj()
	seen := make(map[string]bool, len(f.Entries))
	for _, e := range f.Entries {
		v, ok := e.Values[lang]
		if !ok {
			continue
		}
		if seen[e.Key] {
			return nil, fmt.Errorf("formats: json: duplicate key %q", e.Key)
		}
		seen[e.Key] = true
		root.Keys = append(root.Keys, e.Key)
		root.Vals = append(root.Vals, jsonStr(v.Text))
	}
	return writeJSONFile(root, ": "), nil
}

// writeJSONFile writes root indented by two spaces, members in node order, with a newline
// at the end: the spelling of json, i18next and ARB files.
func writeJSONFile(root *jsonNode, colon string) []byte {
	w := jsonWriter{colon: colon}
	w.node(root, 0)
	w.b.WriteByte('\n')
	return w.b.Bytes()
}

// mergeJSON patches local, flat or nested, value by value (Codec.Merge).
func mergeJSON(local []byte, theirs *File, o Options) ([]byte, error) {
	root, err := parseJSON(local)
	if err != nil {
		return nil, err
	}
	leaves, _, err := flattenJSONPaths(local, root, false, true)
	if err != nil {
		return nil, err
	}
	lang := fileLanguage(theirs, o)
	var wants []jsonWant
	for _, e := range theirs.Entries {
		if v, ok := e.Values[lang]; ok {
			wants = append(wants, jsonWant{key: e.Key, text: v.Text})
		}
	}
	return mergeJSONLeaves(local, root, leavesAt(leaves), wants, isNestedJSON(root), nil)
}

// isNestedJSON: the file nests (one of its members is an object), so a new dotted key
// is nested too.
func isNestedJSON(root *jsonNode) bool {
	for _, v := range root.Vals {
		if v.Kind == jsonObject {
			return true
		}
	}
	return false
}

// jsonLeaf is one string of a nested JSON file with its dotted key and the containers
// and member indexes leading to it.
type jsonLeaf struct {
	key  string
	node *jsonNode
	path []jsonStep
}

func leavesAt(leaves []jsonLeaf) []jsonLeafAt {
	out := make([]jsonLeafAt, len(leaves))
	for i, l := range leaves {
		out[i] = jsonLeafAt{key: l.key, node: l.node, path: l.path}
	}
	return out
}

// flattenJSON lists the strings of a (possibly nested) object in file order, keyed by
// their path joined with dots. With arrays, an array's items are keyed by their index
// (key.0, key.1) and the array is listed in arrays when every item holds a string (an
// empty item is not written back, and the rest could then not be an array); without, an
// array is refused like any other value that is not a string.
func flattenJSON(data []byte, root *jsonNode, arrays bool) (leaves []jsonLeaf, arrayList []jsonArrayKey, err error) {
	return flattenJSONPaths(data, root, arrays, false)
}

// flattenJSONPaths is flattenJSON giving each leaf its path too (with paths), for Merge.
func flattenJSONPaths(data []byte, root *jsonNode, arrays, paths bool) (leaves []jsonLeaf, arrayList []jsonArrayKey, err error) {
	if root.Kind != jsonObject {
		return nil, nil, offsetError(data, root.Start, "the file is %s, want a JSON object", root.Kind)
	}
	fl := &flattener{data: data, keepArray: arrays, seen: map[string]bool{}, paths: paths}
	for i, k := range root.Keys {
		fl.path = append(fl.path[:0], jsonStep{root, i})
		if err := fl.add(k, root.Vals[i]); err != nil {
			return nil, nil, err
		}
	}
	return fl.out, fl.arrays, nil
}

// jsonArrayKey is an array of a nested file: its dotted key and how many strings it holds.
type jsonArrayKey struct {
	key    string
	leaves int
}

type flattener struct {
	data      []byte
	keepArray bool
	seen      map[string]bool
	out       []jsonLeaf
	arrays    []jsonArrayKey
	path      []jsonStep
	paths     bool
}

func (fl *flattener) add(key string, v *jsonNode) error {
	switch {
	case v.Kind == jsonString:
		if fl.seen[key] {
			return offsetError(fl.data, v.Start, "key %q is given twice (flat and nested)", key)
		}
		fl.seen[key] = true
		l := jsonLeaf{key: key, node: v}
		if fl.paths {
			l.path = slices.Clone(fl.path)
		}
		fl.out = append(fl.out, l)
	case v.Kind == jsonObject:
		for i, k := range v.Keys {
			fl.path = append(fl.path, jsonStep{v, i})
			if err := fl.add(key+"."+k, v.Vals[i]); err != nil {
				return err
			}
			fl.path = fl.path[:len(fl.path)-1]
		}
	case v.Kind == jsonArray && fl.keepArray:
		at := len(fl.arrays)
		fl.arrays = append(fl.arrays, jsonArrayKey{key: key})
		start := len(fl.out)
		whole := true
		for i, item := range v.Vals {
			before := len(fl.out)
			fl.path = append(fl.path, jsonStep{v, i})
			if err := fl.add(key+"."+strconv.Itoa(i), item); err != nil {
				return err
			}
			fl.path = fl.path[:len(fl.path)-1]
			whole = whole && len(fl.out) > before
		}
		if !whole || len(v.Vals) == 0 {
			fl.arrays = slices.Delete(fl.arrays, at, at+1)
		} else {
			fl.arrays[at].leaves = len(fl.out) - start
		}
	default:
		return offsetError(fl.data, v.Start, "value of %q must be a string, not %s", key, v.Kind)
	}
	return nil
}
