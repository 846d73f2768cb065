package formats

import (
	"bytes"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fixture is a realistic project: nested keys, a leaf that is also a prefix ("nav" and
// "nav.home"), page-text keys, markup, placeholders, multi-line text, unicode and values a
// YAML reader would mistake for booleans, null, numbers or syntax.
var fixture = []Row{
	{Key: "auth.login.title", Source: "Sign in", Value: "Logg inn"},
	{Key: "auth.login.submit", Source: "Sign in", Value: "Logg inn"},
	{Key: "auth.login.forgot", Source: "Forgot your password?", Value: "Glemt passordet?"},
	{Key: "cart.items", Source: "{count} items", Value: "{count} varer"},
	{Key: "greeting", Source: "Hello %{name}!", Value: "Hei %{name}!"},
	{Key: "home.hero.body", Source: "Translate your site.\nShip it today.", Value: "Oversett nettstedet ditt.\nLever det i dag."},
	{Key: "home.hero.cta", Source: "<strong>Start</strong> free trial & more", Value: "<strong>Start</strong> gratis prøveperiode & mer"},
	{Key: `Welcome to "lokal". Sign in.`, Source: `Welcome to "lokal". Sign in.`, Value: "Velkommen til «lokal». Logg inn."},
	{Key: "nav", Source: "Menu", Value: "Meny"},
	{Key: "nav.home", Source: "Home", Value: "Hjem"},
	{Key: "settings.toggle.yes", Source: "yes", Value: "yes"},
	{Key: "settings.toggle.no", Source: "no", Value: "no"},
	{Key: "settings.toggle.on", Source: "On", Value: "On"},
	{Key: "settings.none", Source: "null", Value: "null"},
	{Key: "stats.count", Source: "123", Value: "123"},
	{Key: "misc.colon", Source: ": x", Value: ": x"},
	{Key: "misc.hash", Source: "# y", Value: "# y"},
	{Key: "misc.unicode", Source: "Japanese — ñ", Value: "日本語 — ñ 👍"},
	{Key: "legacy.key", Source: "", Value: "Gammel tekst"},
}

var goldenExt = map[string]string{"json": "json", "yml": "yml", "po": "po", "strings": "strings"}

func TestGolden(t *testing.T) {
	for _, format := range renderFormats {
		t.Run(format, func(t *testing.T) {
			got, err := Render(format, "nb", fixture)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "fixture."+goldenExt[format])
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from golden %s:\n--- got\n%s\n--- want\n%s", format, path, got, want)
			}
		})
	}
}

// TestDeterministic checks that input order never shows in the output.
func TestDeterministic(t *testing.T) {
	for _, format := range renderFormats {
		want, err := Render(format, "nb", fixture)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(1, 2))
		for range 20 {
			shuffled := slices.Clone(fixture)
			r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			got, err := Render(format, "nb", shuffled)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: output depends on input order", format)
			}
		}
	}
	// Render must not reorder the caller's slice.
	in := []Row{{Key: "b"}, {Key: "a"}}
	if _, err := Render("json", "nb", in); err != nil {
		t.Fatal(err)
	}
	if in[0].Key != "b" {
		t.Error("Render sorted the caller's slice")
	}
}

func TestRender(t *testing.T) {
	tests := []struct {
		name     string
		format   string
		language string
		entries  []Row
		want     string
	}{
		{
			name: "json empty", format: "json", language: "nb",
			want: "{}\n",
		},
		{
			name: "json no html escaping", format: "json", language: "nb",
			entries: []Row{{Key: "b", Value: "<b>&amp;</b>"}, {Key: "a", Value: "x\ny\"\\"}},
			want:    "{\n  \"a\": \"x\\ny\\\"\\\\\",\n  \"b\": \"<b>&amp;</b>\"\n}\n",
		},
		{
			name: "yml empty", format: "yml", language: "nb",
			want: "nb: {}\n",
		},
		{
			name: "yml nests dotted keys", format: "yml", language: "pt-BR",
			entries: []Row{{Key: "a.b.c", Value: "x"}, {Key: "a.d", Value: "y"}},
			want:    "pt-BR:\n  a:\n    b:\n      c: x\n    d: \"y\"\n",
		},
		{
			name: "yml language no is quoted", format: "yml", language: "no",
			entries: []Row{{Key: "on", Value: "off"}},
			want:    "\"no\":\n  \"on\": \"off\"\n",
		},
		{
			name: "yml leaf and prefix", format: "yml", language: "nb",
			entries: []Row{{Key: "a", Value: "1"}, {Key: "a.b", Value: "2"}, {Key: "a.b.c", Value: "3"}, {Key: "x.y", Value: "4"}, {Key: "x.y.z", Value: "5"}},
			want:    "nb:\n  a: \"1\"\n  a.b: \"2\"\n  a.b.c: \"3\"\n  x:\n    \"y\": \"4\"\n    y.z: \"5\"\n",
		},
		{
			name: "yml keys that cannot nest stay flat at the top", format: "yml", language: "nb",
			entries: []Row{
				{Key: "a..b", Value: "v1"}, {Key: ".a", Value: "v2"}, {Key: "a.", Value: "v3"},
				{Key: "Sign in. Now", Value: "v4"}, {Key: "x.Sign in", Value: "v5"}, {Key: "x.y", Value: "v6"},
			},
			want: "nb:\n  \".a\": v2\n  Sign in. Now: v4\n  a.: v3\n  a..b: v1\n  x:\n    \"y\": v6\n  x.Sign in: v5\n",
		},
		{
			name: "yml multi-line value is a literal block", format: "yml", language: "nb",
			entries: []Row{{Key: "a", Value: "line 1\nline 2\n"}, {Key: "b", Value: "line 1\nline 2"}},
			want:    "nb:\n  a: |\n    line 1\n    line 2\n  b: |-\n    line 1\n    line 2\n",
		},
		{
			name: "po empty", format: "po", language: "nb",
			want: poHeader("nb"),
		},
		{
			name: "po source falls back to key", format: "po", language: "nb",
			entries: []Row{{Key: "a.b", Value: "x"}, {Key: "c", Source: "C", Value: ""}},
			want:    poHeader("nb") + "\nmsgctxt \"a.b\"\nmsgid \"a.b\"\nmsgstr \"x\"\n\nmsgctxt \"c\"\nmsgid \"C\"\nmsgstr \"\"\n",
		},
		{
			name: "po escapes and wraps", format: "po", language: "nb",
			entries: []Row{{Key: `k"\`, Source: "one\ntwo\n", Value: "tab\there\r\x01\x7f\nend"}},
			want: poHeader("nb") + "\nmsgctxt \"k\\\"\\\\\"\nmsgid \"\"\n\"one\\n\"\n\"two\\n\"\n" +
				"msgstr \"\"\n\"tab\\there\\r\\001\\177\\n\"\n\"end\"\n",
		},
		{
			name: "po trailing newline stays on one line", format: "po", language: "nb",
			entries: []Row{{Key: "k", Source: "line\n", Value: "linje\n"}},
			want:    poHeader("nb") + "\nmsgctxt \"k\"\nmsgid \"line\\n\"\nmsgstr \"linje\\n\"\n",
		},
		{
			name: "po untranslated, stale and current entries", format: "po", language: "nb",
			entries: []Row{
				{Key: "a.current", Source: "Home", Value: "Hjem"},
				{Key: "b.untranslated", Source: "Cart", Value: ""},
				{Key: "c.stale", Source: "Start", Value: "Hjem", Stale: true},
				{Key: "d.stale.but.empty", Source: "Help", Value: "", Stale: true},
			},
			want: poHeader("nb") +
				"\nmsgctxt \"a.current\"\nmsgid \"Home\"\nmsgstr \"Hjem\"\n" +
				"\nmsgctxt \"b.untranslated\"\nmsgid \"Cart\"\nmsgstr \"\"\n" +
				"\n#, fuzzy\nmsgctxt \"c.stale\"\nmsgid \"Start\"\nmsgstr \"Hjem\"\n" +
				"\nmsgctxt \"d.stale.but.empty\"\nmsgid \"Help\"\nmsgstr \"\"\n",
		},
		{
			name: "stale does not show in json", format: "json", language: "nb",
			entries: []Row{{Key: "k", Source: "Start", Value: "Hjem", Stale: true}},
			want:    "{\n  \"k\": \"Hjem\"\n}\n",
		},
		{
			name: "strings empty", format: "strings", language: "nb",
			want: "/* Language: nb */\n",
		},
		{
			name: "strings escapes", format: "strings", language: "nb",
			entries: []Row{{Key: `k"\`, Source: "a */ b\nc", Value: "l1\nl2\t\"q\" \\ \r\x01"}},
			want:    "/* Language: nb */\n\n/* a *\\/ b\\nc */\n\"k\\\"\\\\\" = \"l1\\nl2\\t\\\"q\\\" \\\\ \\r\\U0001\";\n",
		},
		{
			name: "strings no comment without source", format: "strings", language: "nb",
			entries: []Row{{Key: "b", Value: "B"}, {Key: "a", Source: "A", Value: "Å"}},
			want:    "/* Language: nb */\n\n/* A */\n\"a\" = \"Å\";\n\n\"b\" = \"B\";\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Render(tt.format, tt.language, tt.entries)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func poHeader(lang string) string {
	return "msgid \"\"\nmsgstr \"\"\n\"Language: " + lang + "\\n\"\n\"MIME-Version: 1.0\\n\"\n" +
		"\"Content-Type: text/plain; charset=UTF-8\\n\"\n\"Content-Transfer-Encoding: 8bit\\n\"\n\"X-Generator: lokal\\n\"\n"
}

func TestRenderErrors(t *testing.T) {
	tests := []struct {
		name     string
		format   string
		language string
		entries  []Row
		wantErr  string
	}{
		{name: "unknown format", format: "xml", language: "nb", wantErr: "unknown format"},
		{name: "format names are exact", format: "YAML", language: "nb", wantErr: "unknown format"},
		{name: "empty language", format: "json", language: "", wantErr: "empty language"},
		{name: "language with newline", format: "po", language: "nb\nX-Evil: 1", wantErr: "invalid language"},
		{name: "empty key", format: "json", language: "nb", entries: []Row{{Key: "", Value: "x"}}, wantErr: "empty key"},
		{name: "duplicate key", format: "strings", language: "nb", entries: []Row{{Key: "a"}, {Key: "b"}, {Key: "a"}}, wantErr: "duplicate key"},
		{name: "po keys equal after NUL and EOT repair", format: "po", language: "nb", entries: []Row{{Key: "a\x00"}, {Key: "a\x04"}}, wantErr: "are the same in gettext"},
		{name: "keys equal after utf-8 repair", format: "yml", language: "nb", entries: []Row{{Key: "a\xff"}, {Key: "a\xfe"}}, wantErr: "duplicate key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render(tt.format, tt.language, tt.entries)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

// renderFormats are the formats Render's own tests cover (the export of get_translations
// before the codecs).
var renderFormats = []string{"json", "yml", "po", "strings"}

func TestContentType(t *testing.T) {
	want := map[string]string{
		"json":    "application/json",
		"yml":     "application/x-yaml",
		"po":      "text/x-gettext-translation",
		"strings": "text/plain; charset=utf-8",
		"xml":     "",
	}
	for format, ct := range want {
		if got := ContentType(format); got != ct {
			t.Errorf("ContentType(%q) = %q, want %q", format, got, ct)
		}
	}
	if !slices.Equal(Formats, []string{"json", "i18next", "po", "xliff", "xliff2", "android", "strings", "stringsdict", "xcstrings", "arb", "yaml", "properties", "csv"}) {
		t.Errorf("Formats = %v", Formats)
	}
	for _, f := range Formats {
		if ContentType(f) == "" {
			t.Errorf("no content type for %q", f)
		}
	}
}
