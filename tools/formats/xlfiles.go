package formats

import (
	"fmt"
	"strings"
)

// The <file>s of an XLIFF document (1.2 and 2.0) with several: a unit's key is its id, the
// file it belongs to is Entry.Meta "file" (1.2's original, 2.0's id), so that the document
// comes back with the same files and unit ids (Xcode imports nothing else). An id another
// file already used is keyed "FILE/ID", Meta "id" holding the id.

// xlFileKeys gives the entries of one <file> (named name) their keys; seen holds the keys
// of the files before, with the file each came from.
func xlFileKeys(es []Entry, name string, multi bool, seen map[string]string) ([]Entry, error) {
	for i := range es {
		e := &es[i]
		if multi {
			xlSetMeta(&e.Meta, "file", name)
			if from, dup := seen[e.Key]; dup && from != name {
				xlSetMeta(&e.Meta, "id", e.Key)
				e.Key = name + "/" + e.Key
			}
		}
		if _, dup := seen[e.Key]; dup {
			return nil, &FileError{Offset: -1, Msg: fmt.Sprintf("two units with the key %q", e.Key)}
		}
		seen[e.Key] = name
	}
	return es, nil
}

// xlSplitFiles says which file each entry is written in and with which unit id. names are
// the files the File's Meta keeps (1.2's originals, 2.0's ids), in order; a file an entry
// names that they lack is added (the caller writes it with the usual attributes). An entry
// without Meta "file" goes where its key's "FILE/" prefix says (keys of older exports), else
// with the entry before it.
func xlSplitFiles(entries []Entry, names []string) (in []int, ids []string, all []string) {
	all = append([]string(nil), names...)
	index := func(name string) int {
		for i, n := range all {
			if n == name {
				return i
			}
		}
		all = append(all, name)
		return len(all) - 1
	}
	in, ids = make([]int, len(entries)), make([]string, len(entries))
	prev := -1
	for j, e := range entries {
		fi, id := -1, e.Key
		if name, ok := e.Meta["file"]; ok {
			fi = index(name)
			if v, ok := e.Meta["id"]; ok {
				id = v
			}
		} else if len(names) > 1 {
			best := -1
			for i, n := range names {
				if strings.HasPrefix(e.Key, n+"/") && (best < 0 || len(n) > len(names[best])) {
					best = i
				}
			}
			if best >= 0 {
				fi, id = best, e.Key[len(names[best])+1:]
			}
		}
		switch {
		case fi >= 0:
		case prev >= 0:
			fi = prev
		case len(all) > 0:
			fi = 0
		default:
			fi = index("")
		}
		in[j], ids[j], prev = fi, id, fi
	}
	if len(all) == 0 {
		all = []string{""}
	}
	return in, ids, all
}
