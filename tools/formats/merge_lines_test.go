package formats

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// mergeSamples are hand-written files in the style teams write them, for the formats that
// have one here; the others' files are written by their codec's Encode. Each holds the key
// "farewell" with the value "Bis bald" on a line of its own.
var mergeSamples = map[string]string{
	"properties": "# Messages of the shop\r\n! generated once, edited by hand since\r\n\r\n" +
		"# Shown on the front page\r\ngreeting : Hallo \\\r\n    Welt\r\nfarewell : Bis bald\r\n" +
		"thanks : Danke f\\u00fcr alles\r\n",
	"strings": "\ufeff/* Shop */\n\n/* Front page */\n\"greeting\" = \"Hallo\";\n\n// Leaving\n" +
		"\"farewell\" = \"Bis bald\";\n\nthanks = \"Danke\";\n",
	"csv": "\ufeffkey,en,de\r\n\"greeting\",\"Hello\",\"Hallo, Welt\"\r\nfarewell,See you,Bis bald\r\n" +
		"thanks,Thanks,\"Danke \"\"sehr\"\"\"\r\n",
}

// mergeSampleOf is a format's local file and the options it is read with.
func mergeSampleOf(t *testing.T, c *Codec) ([]byte, Options) {
	t.Helper()
	o := Options{Language: "de", SourceLanguage: "en"}
	if c.Multilingual {
		o.Language = AllLanguages
	}
	if s, ok := mergeSamples[c.Name]; ok {
		return []byte(s), o
	}
	f := &File{Languages: []string{"de"}, SourceLanguage: "en"}
	if c.Multilingual {
		f.Languages = []string{"en", "de"}
	}
	for _, kv := range [][3]string{{"greeting", "Hello", "Hallo"}, {"farewell", "See you", "Bis bald"}, {"thanks", "Thanks", "Danke"}} {
		e := Entry{Key: kv[0], Source: kv[1], Values: map[string]Value{"de": {Text: kv[2]}}}
		if c.Multilingual {
			e.Values["en"] = Value{Text: kv[1]}
		}
		f.Entries = append(f.Entries, e)
	}
	local, err := c.Encode(f, o)
	if err != nil {
		t.Fatalf("%s: encoding the sample: %v", c.Name, err)
	}
	return local, o
}

// TestMergeChangesOnlyTheEntry: in every format with a Merge, a pull that changed one
// translation changes that entry's lines alone; the table of lines changed is logged.
func TestMergeChangesOnlyTheEntry(t *testing.T) {
	var table []string
	for _, name := range Names() {
		c, _ := Lookup(name)
		if c.Merge == nil {
			t.Errorf("%s has no Merge: pull would write the export over the repository's file", name)
			continue
		}
		local, o := mergeSampleOf(t, c)
		f, err := c.Decode(local, o)
		if err != nil {
			t.Fatalf("%s: decoding the sample: %v", name, err)
		}
		i := slices.IndexFunc(f.Entries, func(e Entry) bool { return e.Key == "farewell" })
		if i < 0 || f.Entries[i].Values["de"].Text != "Bis bald" {
			t.Fatalf("%s: the sample has no farewell = Bis bald: %+v", name, f.Entries)
		}
		f.Entries[i].Values["de"] = Value{Text: "Auf Wiedersehen"}
		exported, err := c.Encode(f, o)
		if err != nil {
			t.Fatalf("%s: encoding the export: %v", name, err)
		}
		merged, err := MergeFile(name, local, exported, o)
		if err != nil {
			t.Fatalf("%s: MergeFile: %v", name, err)
		}
		removed, added := mergeLineDiff(string(local), string(merged))
		if len(removed)+len(added) == 0 {
			t.Errorf("%s: nothing changed", name)
		}
		for _, l := range removed {
			if !strings.Contains(l, "Bis bald") {
				t.Errorf("%s: removed a line of another entry: %q", name, l)
			}
		}
		for _, l := range added {
			if !strings.Contains(l, "Auf Wiedersehen") {
				t.Errorf("%s: added a line of another entry: %q", name, l)
			}
		}
		back, err := c.Decode(merged, o)
		if err != nil {
			t.Fatalf("%s: the merged file does not read: %v\n%s", name, err, merged)
		}
		for _, e := range f.Entries {
			j := slices.IndexFunc(back.Entries, func(b Entry) bool { return b.Key == e.Key })
			if j < 0 || !SameValue(back.Entries[j], e, "de") {
				t.Errorf("%s: %s reads back as %+v, want %+v", name, e.Key, back.Entries[max(j, 0)].Values, e.Values)
			}
		}
		table = append(table, fmt.Sprintf("%-12s %d removed, %d added", name+":", len(removed), len(added)))
	}
	t.Logf("lines changed by a pull after one translation changed:\n%s", strings.Join(table, "\n"))
}

// lineDiff is a line diff of a and b (a longest common subsequence of lines apart): the
// lines only a has, "-" prefixed, and those only b has, "+" prefixed, in order, line ends
// trimmed.
func lineDiff(a, b string) []string {
	x, y := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	l := make([][]int, len(x)+1)
	for i := range l {
		l[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || l[i+1][j] >= l[i][j+1]):
			out = append(out, "-"+strings.TrimSuffix(x[i], "\n"))
			i++
		default:
			out = append(out, "+"+strings.TrimSuffix(y[j], "\n"))
			j++
		}
	}
	return out
}

// mergeLineDiff is lineDiff as the lines a pull removes and the lines it adds.
func mergeLineDiff(a, b string) (removed, added []string) {
	for _, l := range lineDiff(a, b) {
		if l[0] == '-' {
			removed = append(removed, l[1:])
		} else {
			added = append(added, l[1:])
		}
	}
	return removed, added
}

// TestMergeKeepsWhatTheExportLacks: in every format with a Merge, an entry of the file that
// the export lacks (a key the project never had) stays as the file has it, unless Prune
// asks for it to go; then only its lines go.
func TestMergeKeepsWhatTheExportLacks(t *testing.T) {
	t.Parallel()
	for _, name := range Names() {
		c, _ := Lookup(name)
		if c.Merge == nil {
			continue
		}
		local, o := mergeSampleOf(t, c)
		f, err := c.Decode(local, o)
		if err != nil {
			t.Fatalf("%s: decoding the sample: %v", name, err)
		}
		f.Entries = slices.DeleteFunc(f.Entries, func(e Entry) bool { return e.Key == "farewell" })
		exported, err := c.Encode(f, o)
		if err != nil {
			t.Fatalf("%s: encoding the export: %v", name, err)
		}
		merged, err := MergeFile(name, local, exported, o)
		if err != nil {
			t.Fatalf("%s: MergeFile: %v", name, err)
		}
		if string(merged) != string(local) {
			t.Errorf("%s: the file lost what the export lacks:\n%s\nwant\n%s", name, merged, local)
		}
		o.Prune = true
		pruned, err := MergeFile(name, local, exported, o)
		if err != nil {
			t.Fatalf("%s: MergeFile with Prune: %v", name, err)
		}
		removed, added := mergeLineDiff(string(local), string(pruned))
		if name == "po" {
			// gettext keeps a translation that went as an obsolete "#~" entry.
			added = slices.DeleteFunc(added, func(l string) bool { return l == "" || strings.HasPrefix(l, "#~") })
		}
		back, err := c.Decode(pruned, o)
		if err != nil {
			t.Fatalf("%s: the pruned file does not read: %v", name, err)
		}
		if len(added) != 0 || len(removed) == 0 || slices.ContainsFunc(back.Entries, func(e Entry) bool { return e.Key == "farewell" }) {
			t.Errorf("%s: with Prune, removed %q added %q; farewell must go, nothing be added:\n%s", name, removed, added, pruned)
		}
	}
}
