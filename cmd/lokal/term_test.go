package main_test

// The terminology commands run as a process: term add (glossary pair and do-not-translate),
// substitution add and term list, on both databases.

import (
	"strings"
	"testing"
)

// TestCLITerminology adds each kind, lists with and without --locale (rules for all are
// always listed), and refuses duplicates, bad locales and missing or clashing flags.
func TestCLITerminology(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		p := []string{"--project", f.project, "--database", dsn}
		run := func(fields []string, args ...string) map[string]any {
			t.Helper()
			return jsonObject(t, fields, append(append(args, p...), "--json")...)
		}
		pair := []string{"source_term", "target_term", "locale"}
		rule := []string{"from", "to", "locale"}

		wantJSON(t, "glossary for all", run(pair, "term", "add", "--source", "Cart", "--target", "Handlekurv"),
			`{"source_term":"Cart","target_term":"Handlekurv","locale":"all"}`)
		wantJSON(t, "glossary for nb", run(pair, "term", "add", "--source", "Sign in", "--target", "Logg inn", "--locale", "nb"),
			`{"source_term":"Sign in","target_term":"Logg inn","locale":"nb"}`)
		run(pair, "term", "add", "--source", "Sign in", "--target", "Logga in", "--locale", "sv")
		wantJSON(t, "do not translate", run([]string{"term"}, "term", "add", "--dnt", "lokal"), `{"term":"lokal"}`)
		wantJSON(t, "substitution for all", run(rule, "substitution", "add", "--from", "...", "--to", "…"),
			`{"from":"...","to":"…","locale":"all"}`)
		wantJSON(t, "substitution kept exactly", run(rule, "substitution", "add", "--from", " !", "--to", "\u00a0!", "--locale", "sv"),
			`{"from":" !","to":"\u00a0!","locale":"sv"}`)
		wantJSON(t, "substitution that deletes", run(rule, "substitution", "add", "--from", "®", "--to=", "--locale", "nb"),
			`{"from":"®","to":"","locale":"nb"}`)

		fields := []string{"glossary", "do_not_translate", "substitutions"}
		wantJSON(t, "every locale", run(fields, "term", "list"), `{
			"glossary":[{"source_term":"Cart","target_term":"Handlekurv","locale":"all"},
				{"source_term":"Sign in","target_term":"Logg inn","locale":"nb"},
				{"source_term":"Sign in","target_term":"Logga in","locale":"sv"}],
			"do_not_translate":["lokal"],
			"substitutions":[{"from":"...","to":"…","locale":"all"},{"from":" !","to":"\u00a0!","locale":"sv"},
				{"from":"®","to":"","locale":"nb"}]}`)
		wantJSON(t, "nb and all", run(fields, "term", "list", "--locale", "nb"), `{
			"glossary":[{"source_term":"Cart","target_term":"Handlekurv","locale":"all"},
				{"source_term":"Sign in","target_term":"Logg inn","locale":"nb"}],
			"do_not_translate":["lokal"],
			"substitutions":[{"from":"...","to":"…","locale":"all"},{"from":"®","to":"","locale":"nb"}]}`)
		wantJSON(t, "a locale with no own rules still has all", run(fields, "term", "list", "--locale", "de"), `{
			"glossary":[{"source_term":"Cart","target_term":"Handlekurv","locale":"all"}],
			"do_not_translate":["lokal"],
			"substitutions":[{"from":"...","to":"…","locale":"all"}]}`)

		// Another project's list is empty, with arrays, not nulls.
		other := str(t, jsonObject(t, projectFields, "project", "create", "--workspace", f.workspace, "--title", "Other",
			"--source", "en", "--json", "--database", dsn), "id")
		wantJSON(t, "another project", jsonObject(t, fields, "term", "list", "--project", other, "--database", dsn, "--json"),
			`{"glossary":[],"do_not_translate":[],"substitutions":[]}`)

		for _, tt := range []struct {
			name string
			args []string
			want string
		}{
			{"duplicate pair", []string{"term", "add", "--source", "Cart", "--target", "Handlekurv", "--locale", "all"},
				`the glossary already has "Cart" → "Handlekurv" for all languages`},
			{"second translation of a term", []string{"term", "add", "--source", "CART", "--target", "Kurv", "--locale", "all"},
				`the glossary already translates "Cart" as "Handlekurv" for all languages: remove that pair first`},
			{"duplicate dnt", []string{"term", "add", "--dnt", "lokal"}, `"lokal" is already a do-not-translate term`},
			{"identical rule", []string{"substitution", "add", "--from", "...", "--to", "…"}, `the rule "..." → "…" for all exists already`},
			{"second rule for a text", []string{"substitution", "add", "--from", "...", "--to", ".", "--locale", "all"},
				`"..." is already replaced with "…" for all`},
			{"bad glossary locale", []string{"term", "add", "--source", "a", "--target", "b", "--locale", "xx"},
				`locale "xx" is neither all nor a BCP 47 language tag`},
			{"bad rule locale", []string{"substitution", "add", "--from", "a", "--to", "b", "--locale", "klingon"},
				`locale "klingon" is neither all nor a BCP 47 language tag`},
			{"bad list locale", []string{"term", "list", "--locale", "xx"}, `--locale "xx" is neither all nor a BCP 47 language tag`},
			{"no kind", []string{"term", "add"}, "give --source and --target (a glossary pair) or --dnt"},
			{"both kinds", []string{"term", "add", "--source", "a", "--target", "b", "--dnt", "c"},
				"give either --source and --target or --dnt, not both"},
			{"source alone", []string{"term", "add", "--source", "a"}, "--target is required with --source"},
			{"target alone", []string{"term", "add", "--target", "a"}, "--source is required with --target"},
			{"dnt with a locale", []string{"term", "add", "--dnt", "a", "--locale", "nb"}, "--locale is for glossary pairs"},
			{"no from", []string{"substitution", "add", "--to", "b"}, "--from is required"},
			{"no to", []string{"substitution", "add", "--from", "a"}, "--to is required"},
			{"blank term", []string{"term", "add", "--dnt", " "}, "term must be 1 to 500 characters of text"},
			{"long target", []string{"term", "add", "--source", "a", "--target", strings.Repeat("x", 501)},
				"target_term must be 1 to 500 characters of text"},
			{"control character", []string{"substitution", "add", "--from", "a\x01", "--to", "b"}, "from must be 1 to 500 characters of text"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				msg := fails(t, nil, append(tt.args, p...)...)
				if !strings.Contains(msg, tt.want) {
					t.Errorf("lokal %s: %q, want it to say %q", strings.Join(tt.args, " "), msg, tt.want)
				}
			})
		}
		t.Run("project named", func(t *testing.T) {
			for _, args := range [][]string{{"term", "add", "--dnt", "x"}, {"term", "list"},
				{"substitution", "add", "--from", "a", "--to", "b"}} {
				if msg := fails(t, nil, append(args, "--database", dsn)...); !strings.Contains(msg, "--project is required") {
					t.Errorf("lokal %s without --project: %q", strings.Join(args, " "), msg)
				}
			}
			msg := fails(t, nil, "term", "add", "--dnt", "x", "--project", "00000000-0000-0000-0000-000000000000", "--database", dsn)
			if !strings.Contains(msg, "not found") {
				t.Errorf("an unknown project: %q", msg)
			}
		})

		// Nothing refused was stored.
		got := run(fields, "term", "list")
		if n := len(got["glossary"].([]any)) + len(got["do_not_translate"].([]any)) + len(got["substitutions"].([]any)); n != 7 {
			t.Errorf("after the refusals the project has %d entries, want 7: %v", n, got)
		}
	})
}

// TestCLITerminologyHelp: every terminology command lists its flags under -h.
func TestCLITerminologyHelp(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		cmd   []string
		flags []string
	}{
		{[]string{"term", "add"}, []string{"--project", "--source", "--target", "--locale", "--dnt", "--json", "--database"}},
		{[]string{"term", "list"}, []string{"--project", "--locale", "--json", "--database"}},
		{[]string{"substitution", "add"}, []string{"--project", "--from", "--to", "--locale", "--json", "--database"}},
	} {
		r := lokal(t, nil, append(tt.cmd, "-h")...)
		if r.code != 0 {
			t.Errorf("lokal %s -h exited %d: %s", strings.Join(tt.cmd, " "), r.code, r.stderr)
		}
		for _, f := range tt.flags {
			if !strings.Contains(r.stdout, "  "+f+" ") && !strings.Contains(r.stdout, "  "+f+"[") {
				t.Errorf("lokal %s -h does not list %s:\n%s", strings.Join(tt.cmd, " "), f, r.stdout)
			}
		}
	}
}
