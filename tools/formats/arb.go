package formats

import (
	"fmt"
	"slices"
	"strings"
)

// arb: Flutter's Application Resource Bundle, a flat JSON object whose values are ICU (a
// plural is already one ICU value; it is kept as written). Rules:
//
//   - "@@locale", "@@context" and every other "@@x" member go to File.Meta["@@x"]: the
//     string, or for a value that is not a string its JSON, with File.Meta["@@x:json"] =
//     "true" (a file that has both "@@x" and "@@x:json" is refused). Encode writes them
//     first, @@locale then the others by name.
//   - "@key" is the metadata of "key": its "description" is Entry.Comment, everything else
//     (placeholders, type, context, ...) is kept, members in file order, as one compact JSON
//     object in Entry.Meta["metadata"]. Encode writes "@key" right after "key",
//     "description" first. A "@key" with no "key" is kept as an entry with no value (Meta
//     and Comment only), which is written back in its place.
//   - Any other value that is not a string is refused with its line, as is a key given twice.
//   - Entries keep file order; a key with no value in the language is left out, unless it
//     carries metadata only.
var arbCodec = &Codec{
	Name:        "arb",
	ContentType: "application/json",
	Extension:   "arb",
	Decode:      decodeARB,
	Encode:      encodeARB,
}

func decodeARB(data []byte, o Options) (*File, error) {
	root, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	if root.Kind != jsonObject {
		return nil, offsetError(data, root.Start, "the file is %s, want a JSON object", root.Kind)
	}
	lang := o.Language
	f := &File{Languages: []string{lang}}
	index := map[string]int{}
	entry := func(key string) *Entry {
		i, ok := index[key]
		if !ok {
			i = len(f.Entries)
			index[key] = i
			f.Entries = append(f.Entries, Entry{Key: key, Values: map[string]Value{}})
		}
		return &f.Entries[i]
	}
	for i, k := range root.Keys {
		v := root.Vals[i]
		switch {
		case strings.HasPrefix(k, "@@"):
			if base, ok := strings.CutSuffix(k, ":json"); ok && root.get(base) != nil {
				// Meta marks a @@ value that is not a string with this name.
				return nil, offsetError(data, v.Start, "%q beside %q cannot be kept", k, base)
			}
			if f.Meta == nil {
				f.Meta = map[string]string{}
			}
			if v.Kind == jsonString {
				f.Meta[k] = v.Str
			} else {
				f.Meta[k] = canonicalJSON(v)
				f.Meta[k+":json"] = "true"
			}
		case strings.HasPrefix(k, "@"):
			if v.Kind != jsonObject {
				return nil, offsetError(data, v.Start, "metadata %q must be an object, not %s", k, v.Kind)
			}
			e := entry(k[1:])
			rest := jsonObj()
			for j, mk := range v.Keys {
				mv := v.Vals[j]
				if mk == "description" && mv.Kind == jsonString {
					e.Comment = mv.Str
					continue
				}
				rest.Keys = append(rest.Keys, mk)
				rest.Vals = append(rest.Vals, mv)
			}
			if len(rest.Keys) > 0 {
				e.Meta = map[string]string{"metadata": canonicalJSON(rest)}
			}
		default:
			if v.Kind != jsonString {
				return nil, offsetError(data, v.Start, "value of %q must be a string, not %s", k, v.Kind)
			}
			entry(k).Values[lang] = Value{Text: v.Str}
		}
	}
	// An empty "@key" of a key the file does not have says nothing.
	f.Entries = slices.DeleteFunc(f.Entries, func(e Entry) bool {
		return len(e.Values) == 0 && e.Comment == "" && e.Meta == nil
	})
	if len(f.Entries) == 0 {
		f.Entries = nil
	}
	return f, nil
}

func encodeARB(f *File, o Options) ([]byte, error) {
	lang := fileLanguage(f, o)
	root := jsonObj()
	var heads []string
	for k := range f.Meta {
		base, marker := strings.CutSuffix(k, ":json")
		if _, hasBase := f.Meta[base]; strings.HasPrefix(k, "@@") && !(marker && hasBase) {
			heads = append(heads, k)
		}
	}
	slices.SortFunc(heads, func(a, b string) int {
		if (a == "@@locale") != (b == "@@locale") {
			if a == "@@locale" {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, k := range heads {
		v := jsonStr(f.Meta[k])
		if f.Meta[k+":json"] == "true" {
			n, err := parseMetaJSON(k, f.Meta[k])
			if err != nil {
				return nil, err
			}
			v = n
		}
		root.Keys = append(root.Keys, k)
		root.Vals = append(root.Vals, v)
	}
	seen := map[string]bool{}
	for _, e := range f.Entries {
		v, hasValue := e.Values[lang]
		hasMeta := e.Comment != "" || e.Meta["metadata"] != ""
		if !hasValue && (len(e.Values) > 0 || !hasMeta) {
			continue // untranslated here: left out of a monolingual file
		}
		if seen[e.Key] || strings.HasPrefix(e.Key, "@") {
			return nil, fmt.Errorf("formats: arb: key %q is given twice or starts with @", e.Key)
		}
		seen[e.Key] = true
		if hasValue {
			root.Keys = append(root.Keys, e.Key)
			root.Vals = append(root.Vals, jsonStr(v.Text))
		}
		if !hasMeta {
			continue
		}
		meta := jsonObj()
		if e.Comment != "" {
			meta.set("description", jsonStr(e.Comment))
		}
		if s := e.Meta["metadata"]; s != "" {
			rest, err := parseMetaJSON("metadata of "+e.Key, s)
			if err != nil {
				return nil, err
			}
			if rest.Kind != jsonObject {
				return nil, fmt.Errorf("formats: arb: metadata of %q is not a JSON object", e.Key)
			}
			for i, k := range rest.Keys {
				meta.set(k, rest.Vals[i])
			}
		}
		root.Keys = append(root.Keys, "@"+e.Key)
		root.Vals = append(root.Vals, meta)
	}
	return writeJSONFile(root, ": "), nil
}
