package formats

import (
	"fmt"
	"testing"
)

func TestZZProbe(t *testing.T) {
	data := []byte(`{
  "sourceLanguage" : "en",
  "strings" : {
    "" : {

    },
    "%lld items" : {
      "localizations" : {
        "ja" : {
          "variations" : {
            "plural" : {
              "one" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld 個"
                }
              },
              "other" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld 個の項目"
                }
              }
            }
          }
        }
      }
    },
    "files" : {
      "extractionState" : "manual",
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
	f, err := Decode("xcstrings", data, Options{Language: AllLanguages})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range f.Entries {
		fmt.Printf("%q src=%q vals=%v meta=%v\n", e.Key, e.Source, e.Values, e.Meta)
	}
	out, _ := Encode("xcstrings", f, Options{Language: AllLanguages})
	fmt.Println(string(out) == string(data))
	f2, _ := Decode("xcstrings", out, Options{Language: AllLanguages})
	for _, e := range f2.Entries {
		fmt.Printf("%q src=%q\n", e.Key, e.Source)
	}
	// without meta
	for i := range f.Entries {
		f.Entries[i].Meta = nil
	}
	out, _ = Encode("xcstrings", f, Options{Language: AllLanguages})
	f2, _ = Decode("xcstrings", out, Options{Language: AllLanguages})
	for _, e := range f2.Entries {
		fmt.Printf("nometa %q src=%q\n", e.Key, e.Source)
	}
	fmt.Println(string(out))
}
