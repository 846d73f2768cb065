package formats

import "testing"

// TestMergeStrings: header and pair comments (/* */ and //), unquoted strings, a key alone
// and the blank lines between pairs are kept; a changed value rewrites its string alone.
func TestMergeStrings(t *testing.T) {
	t.Parallel()
	local := "/* App strings */\n\n/* Front page */\n\"greeting\" = \"Hallo\";\n\n" +
		"// Leaving\n\"farewell\"   =   \"Bis bald\";\n\nOK = OK;\n\n\"Cancel\";\n\n/* Gone */\n\"old\" = \"alt\";\n"
	checkMerges(t, "strings", Options{Language: "de"}, []mergeCase{
		{"unchanged", local, de("greeting", "Hallo", "farewell", "Bis bald", "OK", "OK", "Cancel", "Cancel", "old", "alt"), local},
		{"one value", local, de("greeting", "Hallo", "farewell", "Tschüss \"du\"", "OK", "Gut", "Cancel", "Abbrechen", "old", "alt"),
			"/* App strings */\n\n/* Front page */\n\"greeting\" = \"Hallo\";\n\n" +
				"// Leaving\n\"farewell\"   =   \"Tschüss \\\"du\\\"\";\n\nOK = Gut;\n\n\"Cancel\" = \"Abbrechen\";\n\n/* Gone */\n\"old\" = \"alt\";\n"},
		{"added and removed", local, de("greeting", "Hallo", "new", "Neu", "farewell", "Bis bald", "OK", "OK", "Cancel", "Cancel"),
			"/* App strings */\n\n/* Front page */\n\"greeting\" = \"Hallo\";\n\n\"new\" = \"Neu\";\n\n" +
				"// Leaving\n\"farewell\"   =   \"Bis bald\";\n\nOK = OK;\n\n\"Cancel\";\n"},
	})
}
