package formats

import "testing"

// TestMergeProperties: comments (# and !), separators, continuation lines, \u escapes and
// a duplicate key are kept; a changed value rewrites its own line(s) in the file's style.
func TestMergeProperties(t *testing.T) {
	t.Parallel()
	local := "# Shop messages\n! do not edit by machine\n\n" +
		"# Front page\ngreeting : Hallo\n" +
		"   intro = Zeile eins\\n\\\n           Zeile zwei\n" +
		"thanks Danke f\\u00fcr alles\n" +
		"# old\nold.key=weg\n" +
		"dup=eins\ndup=zwei\n"
	checkMerges(t, "properties", Options{Language: "de"}, []mergeCase{
		{"unchanged", local, de("greeting", "Hallo", "intro", "Zeile eins\nZeile zwei", "thanks", "Danke für alles", "old.key", "weg", "dup", "zwei"), local},
		{"one value", local, de("greeting", "Hallo", "intro", "Zeile eins\nZeile zwei", "thanks", "Schöner Dank", "old.key", "weg", "dup", "zwei"),
			"# Shop messages\n! do not edit by machine\n\n# Front page\ngreeting : Hallo\n   intro = Zeile eins\\n\\\n           Zeile zwei\n" +
				"thanks Sch\\u00f6ner Dank\n# old\nold.key=weg\ndup=eins\ndup=zwei\n"},
		{"continued value", local, de("greeting", "Hallo", "intro", "Eins\nZwei\nDrei", "thanks", "Danke für alles", "old.key", "weg", "dup", "zwei"),
			"# Shop messages\n! do not edit by machine\n\n# Front page\ngreeting : Hallo\n   intro = Eins\\n\\\n           Zwei\\n\\\n           Drei\n" +
				"thanks Danke f\\u00fcr alles\n# old\nold.key=weg\ndup=eins\ndup=zwei\n"},
		{"added and removed", local, de("greeting", "Hallo", "new.key", " führend", "intro", "Zeile eins\nZeile zwei", "thanks", "Danke für alles", "dup", "drei"),
			"# Shop messages\n! do not edit by machine\n\n# Front page\ngreeting : Hallo\nnew.key : \\ f\\u00fchrend\n   intro = Zeile eins\\n\\\n           Zeile zwei\n" +
				"thanks Danke f\\u00fcr alles\ndup=eins\ndup=drei\n"},
	})
}
