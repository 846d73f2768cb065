package main_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestCLIProjectLanguages: project create and set take any BCP 47 tag, as gettext or Java
// spell it too, and store it in canonical case; what is no tag is refused, naming it, and
// creates nothing.
func TestCLIProjectLanguages(t *testing.T) {
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		p := jsonObject(t, projectFields, "project", "create", "--workspace", f.workspace, "--title", "Every language",
			"--source", "pt_BR", "--languages", "br,tok,es-CL,nb-NO,pa-PK,sr-latn,zh_Hant_HK", "--json", "--database", dsn)
		if got, want := fmt.Sprint(p["source_language"], " ", p["enabled_languages"]), "pt-BR [pt-BR br tok es-CL nb-NO pa-PK sr-Latn zh-Hant-HK]"; got != want {
			t.Errorf("created with %s, want %s", got, want)
		}
		p = jsonObject(t, nil, "project", "set", "--project", p["id"].(string), "--languages", "br,ca-ES-valencia,iw",
			"--json", "--database", dsn)
		if got, want := fmt.Sprint(p["enabled_languages"]), "[pt-BR br ca-ES-valencia he]"; got != want {
			t.Errorf("set to %s, want %s (iw is he)", got, want)
		}

		before := jsonObject(t, nil, "project", "list", "--workspace", f.workspace, "--json", "--database", dsn)
		for _, tt := range []struct{ args, want string }{
			{"--source=xx-!!", `source language "xx-!!" is not a BCP 47 language tag`},
			{"--languages=nb,xx", `language "xx" is not a BCP 47 language tag`},
			{"--languages=und", `language "und" names no language`},
			{"--languages=en-u-nu-arab", `language "en-u-nu-arab" has an extension or private-use part`},
		} {
			args := []string{"project", "create", "--workspace", f.workspace, "--title", "Refused", "--source", "en", tt.args, "--database", dsn}
			if msg := fails(t, nil, args...); !strings.Contains(msg, tt.want) {
				t.Errorf("project create %s: %q, want it to say %q", tt.args, msg, tt.want)
			}
		}
		after := jsonObject(t, nil, "project", "list", "--workspace", f.workspace, "--json", "--database", dsn)
		if len(after["projects"].([]any)) != len(before["projects"].([]any)) {
			t.Errorf("refused creates made projects: %d, want %d", len(after["projects"].([]any)), len(before["projects"].([]any)))
		}
	})
}
