package formats

import (
	"slices"
	"strings"
	"testing"
)

// mergeEdited decodes local, lets edit change it as lokal would, exports it, and merges
// the export into local (MergeFile, as pull does). It asserts that the merged file reads
// back as the export does, in every language of the export.
func mergeEdited(t *testing.T, format, local string, o Options, edit func(f *File)) string {
	t.Helper()
	f, err := Decode(format, []byte(local), o)
	if err != nil {
		t.Fatal(err)
	}
	edit(f)
	exported, err := Encode(format, f, o)
	if err != nil {
		t.Fatal(err)
	}
	o.Prune = true // entries the export lacks go, as with pull --prune
	out, err := MergeFile(format, []byte(local), exported, o)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := Decode(format, exported, o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(format, out, o)
	if err != nil {
		t.Fatalf("merged file does not read: %v\n%s", err, out)
	}
	if a, b := entryValues(theirs), entryValues(got); !slices.Equal(a, b) {
		t.Errorf("merged file reads\n%s\nthe export reads\n%s\nmerged:\n%s", strings.Join(b, "\n"), strings.Join(a, "\n"), out)
	}
	return string(out)
}

// entryValues lists every key's values and states, sorted, to compare two files' meaning.
func entryValues(f *File) []string {
	var out []string
	for _, e := range f.Entries {
		for lang, v := range e.Values {
			out = append(out, e.Key+"\x00"+lang+"\x00"+v.Text+"\x00"+string(normState(v.State)))
		}
	}
	slices.Sort(out)
	return out
}

// setValue sets key's value in lang, adding the entry after the entry named after ("" for
// the end) when the file lacks it.
func setValue(f *File, key, lang, text string, state State, after string) {
	for i := range f.Entries {
		if f.Entries[i].Key == key {
			if f.Entries[i].Values == nil {
				f.Entries[i].Values = map[string]Value{}
			}
			f.Entries[i].Values[lang] = Value{Text: text, State: state}
			return
		}
	}
	e := Entry{Key: key, Values: map[string]Value{lang: {Text: text, State: state}}}
	at := len(f.Entries)
	for i := range f.Entries {
		if f.Entries[i].Key == after {
			at = i + 1
		}
	}
	f.Entries = slices.Insert(f.Entries, at, e)
}

func deleteEntry(f *File, key string) {
	f.Entries = slices.DeleteFunc(f.Entries, func(e Entry) bool { return e.Key == key })
}

// checkMerged asserts the merged file is want, byte for byte.
func checkMerged(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("merged:\n%s\nwant:\n%s", got, want)
	}
}

const jsonMergeLocal = `{
    "app": {
        "title": "Lokal",
        "greeting": "Hello, {name}!",
        "path": "a\/b"
    },
    "bye": "Bye \u00e9",
    "flat.key": "Flat"
}
`

func TestJSONMergeUnchanged(t *testing.T) {
	t.Parallel()
	got := mergeEdited(t, "json", jsonMergeLocal, Options{Language: "fr"}, func(*File) {})
	checkMerged(t, got, jsonMergeLocal)
}

// A changed value rewrites its own line only, in the file's escaping (\/ and \u escapes).
func TestJSONMergeChangedValue(t *testing.T) {
	t.Parallel()
	got := mergeEdited(t, "json", jsonMergeLocal, Options{Language: "fr"}, func(f *File) {
		setValue(f, "app.greeting", "fr", "Salut, {name}/é !", StateNone, "")
	})
	checkMerged(t, got, strings.Replace(jsonMergeLocal, `"Hello, {name}!"`, `"Salut, {name}\/\u00e9 !"`, 1))
}

// A new key goes after its predecessor inside its parent, indented like its neighbours;
// one under a parent the file lacks creates it; a removed key takes its comma along.
func TestJSONMergeAddRemove(t *testing.T) {
	t.Parallel()
	got := mergeEdited(t, "json", jsonMergeLocal, Options{Language: "fr"}, func(f *File) {
		setValue(f, "app.subtitle", "fr", "Sous-titre", StateNone, "app.title")
		deleteEntry(f, "bye")
		setValue(f, "menu.file.open", "fr", "Ouvrir", StateNone, "")
		setValue(f, "menu.file.close", "fr", "Fermer", StateNone, "")
	})
	checkMerged(t, got, `{
    "app": {
        "title": "Lokal",
        "subtitle": "Sous-titre",
        "greeting": "Hello, {name}!",
        "path": "a\/b"
    },
    "flat.key": "Flat",
    "menu": {
        "file": {
            "open": "Ouvrir",
            "close": "Fermer"
        }
    }
}
`)
}

// A flat file stays flat, and a file whose last keys go keeps its other members intact.
func TestJSONMergeFlat(t *testing.T) {
	t.Parallel()
	local := "{\"a\":\"1\",\"b.c\":\"2\",\"d\":\"3\"}"
	got := mergeEdited(t, "json", local, Options{Language: "en"}, func(f *File) {
		deleteEntry(f, "a")
		deleteEntry(f, "b.c")
		setValue(f, "b.e", "en", "4", StateNone, "d")
	})
	checkMerged(t, got, "{\"d\":\"3\",\"b.e\":\"4\"}")
}
