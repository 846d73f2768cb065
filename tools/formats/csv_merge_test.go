package formats

import "testing"

// TestMergeCSV: rows keep their bytes (quoting, a cell with a line break); a changed cell
// rewrites its row in the row's quoting; rows come and go whole.
func TestMergeCSV(t *testing.T) {
	t.Parallel()
	local := "id,en,de\n\"greeting\",\"Hello\",\"Hallo\"\nfarewell,Bye,\"Bis\nbald\"\nthanks,Thanks,Danke\nold,Old,Alt\n"
	both := func(kv ...string) []Entry {
		var out []Entry
		for i := 0; i+2 < len(kv); i += 3 {
			out = append(out, Entry{Key: kv[i], Values: map[string]Value{"en": {Text: kv[i+1]}, "de": {Text: kv[i+2]}}})
		}
		return out
	}
	checkMerges(t, "csv", Options{Language: AllLanguages}, []mergeCase{
		{"unchanged", local, both("greeting", "Hello", "Hallo", "farewell", "Bye", "Bis\nbald", "thanks", "Thanks", "Danke", "old", "Old", "Alt"), local},
		{"one cell", local, both("greeting", "Hello", "Hallo, du", "farewell", "Bye", "Bis\nbald", "thanks", "Thanks", "=Danke", "old", "Old", "Alt"),
			"id,en,de\n\"greeting\",\"Hello\",\"Hallo, du\"\nfarewell,Bye,\"Bis\nbald\"\nthanks,Thanks,'=Danke\nold,Old,Alt\n"},
		{"added and removed", local, both("greeting", "Hello", "Hallo", "new", "New", "Neu", "farewell", "Bye", "Bis\nbald", "thanks", "Thanks", "Danke"),
			"id,en,de\n\"greeting\",\"Hello\",\"Hallo\"\n\"new\",\"New\",\"Neu\"\nfarewell,Bye,\"Bis\nbald\"\nthanks,Thanks,Danke\n"},
	})
}
