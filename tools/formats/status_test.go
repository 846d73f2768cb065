package formats

import (
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools/formats/formatstest"
)

// statusFile has one entry per state lokal exports: approved, needs_review, stale (made
// against an older source text) and untranslated.
func statusFile(languages ...string) *File {
	v := func(text string, s State) map[string]Value {
		m := map[string]Value{"de": {Text: text, State: s}}
		if len(languages) > 1 {
			m["en"] = Value{Text: strings.ToUpper(text[:1]) + "-en", State: StateTranslated}
		}
		return m
	}
	return &File{SourceLanguage: "en", Languages: languages, Entries: []Entry{
		{Key: "approved", Source: "A-en", Values: v("Fertig", StateTranslated)},
		{Key: "draft", Source: "D-en", Values: v("Entwurf", StateNeedsReview)},
		{Key: "old", Source: "O-en", Values: v("Alt", StateStale)},
	}}
}

// TestStatusesBothWays: each bilingual format writes a needs_review and a stale value with
// its own "not final" mark, an approved one without, and reads the marks back as lokal's
// states. PO and XLIFF 1.2 have one such mark, so a stale value reads back as needs_review
// (lokal stores both as needs_review); XLIFF 2 and xcstrings keep the two apart.
func TestStatusesBothWays(t *testing.T) {
	t.Parallel()
	tests := []struct {
		format          string
		languages       []string
		approved, draft string // what the file says of an approved and a needs_review value
		stale           string // and of a stale one
		staleBack       State
		approvedBack    State // PO has no mark for a final translation: no state is final
	}{
		{"po", []string{"de"}, "", "#, fuzzy\nmsgctxt \"draft\"", "#, fuzzy\nmsgctxt \"old\"", StateNeedsReview, StateNone},
		{"xliff", []string{"de"}, `<target state="translated">Fertig`, `<target state="needs-review-translation">Entwurf`,
			`<target state="needs-review-translation">Alt`, StateNeedsReview, StateTranslated},
		{"xliff2", []string{"de"}, `<segment state="translated">`, `<segment state="initial">`,
			`<segment state="initial" subState="lokal:stale">`, StateStale, StateTranslated},
		{"xcstrings", []string{"en", "de"}, `"state" : "translated",
            "value" : "Fertig"`, `"state" : "needs_review",
            "value" : "Entwurf"`, `"state" : "stale",
            "value" : "Alt"`, StateStale, StateTranslated},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			t.Parallel()
			o := Options{Language: "de", SourceLanguage: "en"}
			data, err := Encode(tt.format, statusFile(tt.languages...), o)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{tt.approved, tt.draft, tt.stale} {
				if !strings.Contains(string(data), want) {
					t.Errorf("the file lacks %q:\n%s", want, data)
				}
			}
			if tt.format == "po" {
				if strings.Count(string(data), "fuzzy") != 2 {
					t.Errorf("want exactly the draft and the stale entry fuzzy:\n%s", data)
				}
				formatstest.CompiledShips(t, data, []string{"Fertig"}, []string{"Entwurf", "Alt"})
			}
			back, err := Decode(tt.format, data, o)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]State{}
			for _, e := range back.Entries {
				got[e.Key] = e.Values["de"].State
			}
			if got["approved"] != tt.approvedBack || got["draft"] != StateNeedsReview || got["old"] != tt.staleBack {
				t.Errorf("states read back %v, want approved %q, draft needs_review, old %s", got, tt.approvedBack, tt.staleBack)
			}
		})
	}
}

// TestStatesRead: every state a bilingual format's files use is read as lokal's.
func TestStatesRead(t *testing.T) {
	t.Parallel()
	xliff2 := func(state string) string {
		return `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="de"><file id="f"><unit id="k"><segment state="` +
			state + `"><source>a</source><target>b</target></segment></unit></file></xliff>`
	}
	xcstrings := func(state string) string {
		return `{"sourceLanguage":"en","strings":{"k":{"localizations":{"de":{"stringUnit":{"state":"` + state + `","value":"b"}}}}},"version":"1.0"}`
	}
	for _, tt := range []struct {
		format, file string
		want         State
	}{
		{"xliff2", xliff2("initial"), StateNeedsReview},
		{"xliff2", xliff2("translated"), StateTranslated},
		{"xliff2", xliff2("reviewed"), StateTranslated},
		{"xliff2", xliff2("final"), StateTranslated},
		{"xcstrings", xcstrings("needs_review"), StateNeedsReview},
		{"xcstrings", xcstrings("translated"), StateTranslated},
		{"xcstrings", xcstrings("new"), StateNone},
		{"xcstrings", xcstrings("stale"), StateStale},
	} {
		f, err := Decode(tt.format, []byte(tt.file), Options{Language: "de", SourceLanguage: "en"})
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if len(f.Entries) != 1 || f.Entries[0].Values["de"].State != tt.want {
			t.Errorf("%s: entries %#v, want state %q", tt.file, f.Entries, tt.want)
		}
	}
}
