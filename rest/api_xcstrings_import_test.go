package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

// xcJapaneseCatalog is a String Catalog as Xcode writes it for an app in English and
// Japanese: a plural whose Japanese localization has Xcode's one beside other (Japanese
// selects other alone), and the empty-key entry Xcode extracts from Text("").
const xcJapaneseCatalog = `{
  "sourceLanguage" : "en",
  "strings" : {
    "" : {
      "shouldTranslate" : false
    },
    "%lld photos" : {
      "localizations" : {
        "en" : {
          "variations" : {
            "plural" : {
              "one" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld photo"
                }
              },
              "other" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld photos"
                }
              }
            }
          }
        },
        "ja" : {
          "variations" : {
            "plural" : {
              "one" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld枚の写真"
                }
              },
              "other" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld枚の写真"
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
`

// TestAPIImportXCStringsJapanesePlural: the Japanese plural of a catalog Xcode wrote is
// imported (its other form, the one Japanese selects) and exported as Xcode writes it, one
// beside other; the empty key is not imported, with a warning that says it stays in the
// file (the file's stored metadata gives it back on export), and is the only warning.
func TestAPIImportXCStringsJapanesePlural(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, s *server) {
		familyServer(t, s)
		out := s.importFile(t, "all", "catalog", "format=xcstrings", xcJapaneseCatalog)
		if out.Summary.Created != 1 || out.Summary.Plurals != 1 || len(out.Created) != 1 || out.Created[0] != "%lld photos" {
			t.Errorf("summary %+v, created %q", out.Summary, out.Created)
		}
		if len(out.Warnings) != 1 || out.Warnings[0].Key != "" || !strings.Contains(out.Warnings[0].Message, "stays in the file") {
			t.Errorf("warnings %+v, want one saying the empty key stays in the file", out.Warnings)
		}
		s.wantFlat(t, "ja", "catalog", map[string]string{"%lld photos": "{count, plural, other {%lld枚の写真}}"})
		r := s.call(t, "GET", s.readPath("all", "catalog")+"?format=xcstrings", tokenAuth(s.ro), nil).wantStatus(t, http.StatusOK)
		// The empty key is no key of lokal's, but the file's metadata keeps it: the export
		// is the catalog as Xcode wrote it.
		if string(r.body) != xcJapaneseCatalog {
			t.Errorf("the export:\n%s\nwant:\n%s", r.body, xcJapaneseCatalog)
		}
	})
}
