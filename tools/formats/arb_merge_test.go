package formats

import (
	"strings"
	"testing"
)

const arbMergeLocal = `{
    "@@locale": "pt_BR",
    "@@last_modified": "2026-11-01T10:00:00Z",
    "title": "Arquivos",
    "@title": {
        "description": "The app's title"
    },
    "count": "{n, plural, =0{Nenhum arquivo} one{Um arquivo} other{{n} arquivos}}",
    "@count": {
        "placeholders": {
            "n": {
                "type": "int",
                "format": "compact"
            }
        }
    },
    "bye": "Tchau"
}
`

func TestARBMergeUnchanged(t *testing.T) {
	t.Parallel()
	got := mergeEdited(t, "arb", arbMergeLocal, Options{Language: "pt-BR"}, func(*File) {})
	checkMerged(t, got, arbMergeLocal)
}

// A changed plural rewrites its value only; its "@count" metadata, with the placeholder's
// type and format, stays as it is, even when the export lacks it.
func TestARBMergeChangedPlural(t *testing.T) {
	t.Parallel()
	got := mergeEdited(t, "arb", arbMergeLocal, Options{Language: "pt-BR"}, func(f *File) {
		setValue(f, "count", "pt-BR", "{n, plural, =0{Nenhum arquivo} one{Um arquivo} other{{n} ficheiros}}", StateNone, "")
		for i := range f.Entries {
			f.Entries[i].Meta = nil // a server that kept no Meta
		}
	})
	checkMerged(t, got, strings.Replace(arbMergeLocal, "other{{n} arquivos}", "other{{n} ficheiros}", 1))
}

// A new key comes with its metadata after its predecessor's "@key"; a removed key takes
// its "@key" along; "@@" members stay.
func TestARBMergeAddRemove(t *testing.T) {
	t.Parallel()
	got := mergeEdited(t, "arb", arbMergeLocal, Options{Language: "pt-BR"}, func(f *File) {
		deleteEntry(f, "title")
		setValue(f, "greet", "pt-BR", "Olá {name}", StateNone, "count")
		f.Entries[len(f.Entries)-2].Comment = "Greets"
		f.Entries[len(f.Entries)-2].Meta = map[string]string{"metadata": `{"placeholders":{"name":{"type":"String"}}}`}
	})
	checkMerged(t, got, `{
    "@@locale": "pt_BR",
    "@@last_modified": "2026-11-01T10:00:00Z",
    "count": "{n, plural, =0{Nenhum arquivo} one{Um arquivo} other{{n} arquivos}}",
    "@count": {
        "placeholders": {
            "n": {
                "type": "int",
                "format": "compact"
            }
        }
    },
    "greet": "Olá {name}",
    "@greet": {
        "description": "Greets",
        "placeholders": {
            "name": {
                "type": "String"
            }
        }
    },
    "bye": "Tchau"
}
`)
}

// Encode writes @@locale for the export's language when the file kept none, and the
// placeholders' types come back from Meta.
func TestARBLocaleAndPlaceholders(t *testing.T) {
	t.Parallel()
	f := &File{Languages: []string{"pt-BR"}, Entries: []Entry{{Key: "n", Values: map[string]Value{"pt-BR": {Text: "{n}"}}, Meta: map[string]string{"metadata": `{"placeholders":{"n":{"type":"int"}}}`}}}}
	out, err := Encode("arb", f, Options{Language: "pt-BR"})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"@@locale\": \"pt_BR\",\n  \"n\": \"{n}\",\n  \"@n\": {\n    \"placeholders\": {\n      \"n\": {\n        \"type\": \"int\"\n      }\n    }\n  }\n}\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if u := arbUnkept(f.Entries[0]); len(u) != 1 || !strings.Contains(u[0], "placeholders") {
		t.Errorf("Unkept = %q, want the placeholders named", u)
	}
}

// A translation's file that leaves the descriptions to the template gets none from the
// export: a key the file has keeps its "@key", or its lack of one.
func TestARBMergeKeepsMissingMetadata(t *testing.T) {
	t.Parallel()
	local := "{\n  \"@@locale\": \"pt_BR\",\n  \"greeting\": \"Olá\",\n  \"farewell\": \"Tchau\"\n}\n"
	got := mergeEdited(t, "arb", local, Options{Language: "pt-BR"}, func(f *File) {
		for i := range f.Entries {
			f.Entries[i].Comment = "Shown first"
			f.Entries[i].Meta = map[string]string{"metadata": `{"placeholders":{}}`}
		}
	})
	checkMerged(t, got, local)
}
