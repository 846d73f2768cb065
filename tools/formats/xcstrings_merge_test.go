package formats

import (
	"strings"
	"testing"
)

// xcMergeLocal is a catalog as Xcode writes it: `"key" : value`, two-space indent, keys in
// Xcode's order, comments and extractionState, a plural and a substitution.
const xcMergeLocal = `{
  "sourceLanguage" : "en",
  "strings" : {
    "%lld files" : {
      "comment" : "Files in the folder",
      "localizations" : {
        "de" : {
          "variations" : {
            "plural" : {
              "one" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld Datei"
                }
              },
              "other" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld Dateien"
                }
              }
            }
          }
        }
      }
    },
    "Cancel" : {
      "extractionState" : "manual",
      "localizations" : {
        "de" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Abbrechen"
          }
        }
      }
    },
    "Open" : {
      "localizations" : {
        "de" : {
          "stringUnit" : {
            "state" : "needs_review",
            "value" : "Öffnen"
          }
        }
      }
    }
  },
  "version" : "1.0"
}
`

var xcAll = Options{Language: AllLanguages, SourceLanguage: "en"}

func TestXCStringsMergeUnchanged(t *testing.T) {
	t.Parallel()
	got := mergeEdited(t, "xcstrings", xcMergeLocal, xcAll, func(*File) {})
	checkMerged(t, got, xcMergeLocal)
}

// A changed value rewrites its stringUnit's value only; a state changed alone rewrites
// the state only; the comment and extractionState stay even when the export lacks them.
func TestXCStringsMergeValueAndState(t *testing.T) {
	t.Parallel()
	got := mergeEdited(t, "xcstrings", xcMergeLocal, xcAll, func(f *File) {
		setValue(f, "Cancel", "de", "Abbruch", StateTranslated, "")
		setValue(f, "Open", "de", "Öffnen", StateTranslated, "")
		for i := range f.Entries {
			f.Entries[i].Comment, f.Entries[i].Meta = "", nil
		}
	})
	want := strings.Replace(xcMergeLocal, `"value" : "Abbrechen"`, `"value" : "Abbruch"`, 1)
	checkMerged(t, got, strings.Replace(want, `"state" : "needs_review"`, `"state" : "translated"`, 1))
}

// A changed plural form rewrites that form's value; its state changed marks that form.
func TestXCStringsMergePlural(t *testing.T) {
	t.Parallel()
	got := mergeEdited(t, "xcstrings", xcMergeLocal, xcAll, func(f *File) {
		setValue(f, "%lld files", "de", "{count, plural, one {# Datei} other {# Dokumente}}", StateNeedsReview, "")
	})
	want := strings.Replace(xcMergeLocal, `"state" : "translated",
                  "value" : "%lld Datei"`, `"state" : "needs_review",
                  "value" : "%lld Datei"`, 1)
	want = strings.Replace(want, `"state" : "translated",
                  "value" : "%lld Dateien"`, `"state" : "needs_review",
                  "value" : "%lld Dokumente"`, 1)
	checkMerged(t, got, want)
}

// A new language's localization is inserted in Xcode's order and spelling; a new key too;
// a removed key goes with its lines.
func TestXCStringsMergeAddRemove(t *testing.T) {
	t.Parallel()
	got := mergeEdited(t, "xcstrings", xcMergeLocal, xcAll, func(f *File) {
		setValue(f, "Cancel", "fr", "Annuler", StateTranslated, "")
		setValue(f, "Delete", "de", "Löschen", StateNeedsReview, "Cancel")
		deleteEntry(f, "Open")
	})
	checkMerged(t, got, `{
  "sourceLanguage" : "en",
  "strings" : {
    "%lld files" : {
      "comment" : "Files in the folder",
      "localizations" : {
        "de" : {
          "variations" : {
            "plural" : {
              "one" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld Datei"
                }
              },
              "other" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld Dateien"
                }
              }
            }
          }
        }
      }
    },
    "Cancel" : {
      "extractionState" : "manual",
      "localizations" : {
        "de" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Abbrechen"
          }
        },
        "fr" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Annuler"
          }
        }
      }
    },
    "Delete" : {
      "localizations" : {
        "de" : {
          "stringUnit" : {
            "state" : "needs_review",
            "value" : "Löschen"
          }
        }
      }
    }
  },
  "version" : "1.0"
}
`)
}

// A single %#@var@ substitution survives push, pull and push with no Meta kept: the
// source text reads back the same, so no translation turns stale.
func TestXCStringsSingleSubstitutionCycle(t *testing.T) {
	t.Parallel()
	data := []byte(`{
  "sourceLanguage" : "en",
  "strings" : {
    "files" : {
      "localizations" : {
        "en" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "%#@files@"
          },
          "substitutions" : {
            "files" : {
              "argNum" : 1,
              "formatSpecifier" : "lld",
              "variations" : {
                "plural" : {
                  "one" : {
                    "stringUnit" : {
                      "state" : "translated",
                      "value" : "%arg file"
                    }
                  },
                  "other" : {
                    "stringUnit" : {
                      "state" : "translated",
                      "value" : "%arg files"
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  },
  "version" : "1.0"
}
`)
	f, err := Decode("xcstrings", data, xcAll)
	if err != nil {
		t.Fatal(err)
	}
	source := f.Entries[0].Source
	f.Entries[0].Meta = nil // a server that kept no Meta
	out, err := Encode("xcstrings", f, xcAll)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Decode("xcstrings", out, xcAll)
	if err != nil {
		t.Fatal(err)
	}
	if g.Entries[0].Source != source {
		t.Errorf("source %q after the cycle, was %q\n%s", g.Entries[0].Source, source, out)
	}
}

// TestXCStringsMergeSourceAsXcodeWrites: lokal's export of every language writes the source
// localization of each key, with state translated; the catalog keeps Xcode's way of
// writing it (none when it is the key itself, "new" as Xcode left it).
func TestXCStringsMergeSourceAsXcodeWrites(t *testing.T) {
	t.Parallel()
	local := `{
  "sourceLanguage" : "en",
  "strings" : {
    "%@ (%@)" : {
      "localizations" : {
        "en" : {
          "stringUnit" : {
            "state" : "new",
            "value" : "%1$@ (%2$@)"
          }
        }
      },
      "shouldTranslate" : false
    },
    "Open" : {
      "localizations" : {
        "de" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Öffnen"
          }
        }
      }
    }
  },
  "version" : "1.0"
}`
	o := Options{Language: AllLanguages, SourceLanguage: "en"}
	f := &File{SourceLanguage: "en", Languages: []string{"en", "de"}, Entries: []Entry{
		{Key: "%@ (%@)", Source: "%1$@ (%2$@)", DoNotTranslate: true, Values: map[string]Value{"en": {Text: "%1$@ (%2$@)", State: StateTranslated}}},
		{Key: "Open", Source: "Open", Values: map[string]Value{"en": {Text: "Open", State: StateTranslated}, "de": {Text: "Öffnen", State: StateTranslated}}},
	}}
	exported, err := Encode("xcstrings", f, o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := MergeFile("xcstrings", []byte(local), exported, o)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != local {
		t.Errorf("merged:\n%s\nwant the catalog as it was:\n%s\n(export:\n%s)", got, local, exported)
	}
}
