package evals

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/lokal-dev/lokal/ai"
	"github.com/lokal-dev/lokal/ai/aitest"
)

var update = flag.Bool("update", false, "record fresh answers from the live model (LOKAL_EVAL_*) and rewrite want.json")

type rules struct {
	SourceLanguage string    `json:"source_language"`
	TargetLanguage string    `json:"target_language"`
	Glossary       []ai.Term `json:"glossary,omitempty"`
	DoNotTranslate []string  `json:"do_not_translate,omitempty"`
	Substitutions  []ai.Sub  `json:"substitutions,omitempty"`
	Instructions   string    `json:"instructions,omitempty"`
	// Family names the kind of text or misbehaviour the case tests; the
	// table is printed per family.
	Family   string `json:"family"`
	Scripted bool   `json:"scripted,omitempty"`
	Broken   bool   `json:"broken,omitempty"`
}

type outcome struct {
	Value  *string `json:"value,omitempty"`
	Failed bool    `json:"failed,omitempty"`
}

type evalCase struct {
	name    string
	path    string
	archive *txtar.Archive
	rules   rules
	source  map[string]string
	answers []string
	want    map[string]outcome
}

func loadCase(t *testing.T, path string) *evalCase {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	c := &evalCase{name: strings.TrimSuffix(filepath.Base(path), ".txtar"), path: path, archive: a}
	answers := map[int]string{}
	for _, f := range a.Files {
		switch {
		case f.Name == "rules.json":
			mustJSON(t, path, f.Data, &c.rules)
		case f.Name == "source.json":
			mustJSON(t, path, f.Data, &c.source)
		case f.Name == "want.json":
			mustJSON(t, path, f.Data, &c.want)
		case strings.HasPrefix(f.Name, "answer."):
			var n int
			if _, err := fmt.Sscanf(f.Name, "answer.%d", &n); err != nil || n < 1 {
				t.Fatalf("%s: bad file name %q", path, f.Name)
			}
			answers[n] = strings.TrimSuffix(string(f.Data), "\n")
		default:
			t.Fatalf("%s: unknown file %q", path, f.Name)
		}
	}
	if c.rules.Family == "" {
		t.Fatalf("%s: rules.json has no family", path)
	}
	for n := 1; n <= len(answers); n++ {
		a, ok := answers[n]
		if !ok {
			t.Fatalf("%s: answer.%d missing", path, n)
		}
		c.answers = append(c.answers, a)
	}
	return c
}

func mustJSON(t *testing.T, path string, data []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// replay serves the recorded answers in order. A call beyond them gets the
// last one again, as a model asked twice tends to answer: a correct answer
// that is refused is then refused with its own reason.
func replay(t *testing.T, answers []string) *aitest.Server {
	return aitest.New(t, func(c aitest.Call) aitest.Reply {
		if len(answers) == 0 {
			return aitest.Reply{Status: http.StatusTeapot, Body: `{"error":{"message":"no recorded answer"}}`}
		}
		return aitest.Reply{Content: answers[min(c.N, len(answers))-1], PromptTokens: 100, CompletionTokens: 50}
	})
}

// recorder forwards calls to the live model and keeps each answer's content.
type recorder struct {
	mu      sync.Mutex
	answers []string
}

func (r *recorder) server(t *testing.T, base, key string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		out, err := http.NewRequestWithContext(req.Context(), http.MethodPost, strings.TrimRight(base, "/")+"/chat/completions", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		out.Header.Set("Content-Type", "application/json")
		if key != "" {
			out.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		var parsed struct {
			Choices []struct {
				Message struct{ Content string } `json:"message"`
			} `json:"choices"`
		}
		if resp.StatusCode == http.StatusOK && json.Unmarshal(data, &parsed) == nil && len(parsed.Choices) > 0 {
			r.mu.Lock()
			r.answers = append(r.answers, parsed.Choices[0].Message.Content)
			r.mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(resp.StatusCode)
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// tally counts the outcomes of strings. A string is judged against its
// want.json outcome: a legit answer should be stored as want.json says, a
// broken one refused (failed, or repaired by its retry).
type tally struct {
	cases, brokenCases, strings    int
	storedIntact, refusedCorrectly int
	wronglyStored, wronglyRefused  int
}

func (a *tally) add(b tally) {
	a.cases += b.cases
	a.brokenCases += b.brokenCases
	a.strings += b.strings
	a.storedIntact += b.storedIntact
	a.refusedCorrectly += b.refusedCorrectly
	a.wronglyStored += b.wronglyStored
	a.wronglyRefused += b.wronglyRefused
}

type totals struct {
	tally
	calls, refused, repaired      int
	stored, storedAsWant          int
	glossaryChecked, glossaryKept int
	dntChecked, dntKept           int
	families                      map[string]*tally
	wrong                         map[string][]string // family to "case/id: what went wrong"
}

func TestEvals(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no cases in testdata: %v", err)
	}
	live := *update && os.Getenv("LOKAL_EVAL_BASE_URL") != ""
	if *update && !live {
		t.Log("-update without LOKAL_EVAL_BASE_URL: replaying recorded answers and rewriting want.json only")
	}
	tot := totals{families: map[string]*tally{}, wrong: map[string][]string{}}
	var rows []string
	for _, path := range paths {
		c := loadCase(t, path)
		row := fmt.Sprintf("%-44s", c.name)
		if !t.Run(c.name, func(t *testing.T) { row = runCase(t, c, live, &tot) }) {
			row += " FAILED"
		}
		rows = append(rows, row)
	}
	pct := func(a, b int) string {
		if b == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%d/%d (%.0f%%)", a, b, 100*float64(a)/float64(b))
	}
	var b strings.Builder
	if testing.Verbose() {
		fmt.Fprintf(&b, "\n%-44s %s\n", "case", "stored/failed/repaired/calls")
		for _, r := range rows {
			b.WriteString(r + "\n")
		}
	}
	families := make([]string, 0, len(tot.families))
	for f := range tot.families {
		families = append(families, f)
	}
	slices.Sort(families)
	line := func(name string, f tally) {
		fmt.Fprintf(&b, "%-20s %5d %7d %8d %9d %8d %8d\n", name, f.cases, f.strings,
			f.storedIntact, f.refusedCorrectly, f.wronglyStored, f.wronglyRefused)
	}
	fmt.Fprintf(&b, "\n%-20s %5s %7s %8s %9s %8s %8s\n", "family", "cases", "strings",
		"stored", "refused", "wrongly", "wrongly")
	fmt.Fprintf(&b, "%-20s %5s %7s %8s %9s %8s %8s\n", "", "", "", "intact", "correctly", "stored", "refused")
	for _, f := range families {
		line(f, *tot.families[f])
	}
	line("total", tot.tally)
	fmt.Fprintf(&b, "\ncases                          %d (%d with broken answers)\n", tot.cases, tot.brokenCases)
	fmt.Fprintf(&b, "strings                        %d in %d model calls\n", tot.strings, tot.calls)
	fmt.Fprintf(&b, "stored values as want.json     %s\n", pct(tot.storedAsWant, tot.stored))
	fmt.Fprintf(&b, "glossary target verbatim       %s\n", pct(tot.glossaryKept, tot.glossaryChecked))
	fmt.Fprintf(&b, "do-not-translate verbatim      %s\n", pct(tot.dntKept, tot.dntChecked))
	fmt.Fprintf(&b, "refusals (strings not stored)  %d\n", tot.refused)
	fmt.Fprintf(&b, "retries that repaired          %d\n", tot.repaired)
	if len(tot.wrong) > 0 {
		b.WriteString("\nwrong outcomes:\n")
		for _, f := range families {
			for _, w := range tot.wrong[f] {
				fmt.Fprintf(&b, "  %-18s %s\n", f, w)
			}
		}
	}
	// Printed, not logged: `cd evals && go test` shows it without -v.
	fmt.Print(b.String())
	if !*update && tot.wronglyStored+tot.wronglyRefused > 0 {
		t.Errorf("%d strings wrongly stored, %d wrongly refused", tot.wronglyStored, tot.wronglyRefused)
	}
	if len(paths) < 170 {
		t.Errorf("%d cases, want at least 170", len(paths))
	}
	for _, f := range families {
		if ft := tot.families[f]; ft.brokenCases == 0 || ft.brokenCases == ft.cases {
			t.Errorf("family %s lacks a side: %d cases, %d of them broken", f, ft.cases, ft.brokenCases)
		}
	}
}

func runCase(t *testing.T, c *evalCase, live bool, tot *totals) string {
	record := live && !c.rules.Scripted
	var base string
	var rec *recorder
	if record {
		rec = &recorder{}
		base = rec.server(t, os.Getenv("LOKAL_EVAL_BASE_URL"), os.Getenv("LOKAL_EVAL_API_KEY"))
	} else {
		base = replay(t, c.answers).URL
	}
	model := "replay"
	if record {
		model = os.Getenv("LOKAL_EVAL_MODEL")
	}
	p, err := ai.NewProvider(ai.Config{BaseURL: base, Model: model, MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Translate(t.Context(), ai.Request{
		SourceLang: c.rules.SourceLanguage, TargetLang: c.rules.TargetLanguage, Strings: c.source,
		Glossary: c.rules.Glossary, DoNotTranslate: c.rules.DoNotTranslate,
		Substitutions: c.rules.Substitutions, Instructions: c.rules.Instructions,
	})
	if err != nil {
		t.Fatalf("translating: %v", err)
	}

	got := map[string]outcome{}
	for id := range c.source {
		if v, ok := res.Translated[id]; ok {
			got[id] = outcome{Value: &v}
		} else {
			got[id] = outcome{Failed: true}
		}
	}
	// A scripted case's want.json is a judgement of its hand-made answers:
	// -update never rewrites it from what the pipeline did.
	if *update && !c.rules.Scripted {
		rewrite(t, c, got, rec)
	}
	fam := tot.families[c.rules.Family]
	if fam == nil {
		fam = &tally{}
		tot.families[c.rules.Family] = fam
	}
	var ct tally
	ct.cases = 1
	if c.rules.Broken {
		ct.brokenCases = 1
	}
	ids := make([]string, 0, len(c.source))
	for id := range c.source {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		ct.strings++
		w, g := c.want[id], got[id]
		var wrong string
		switch {
		case w.Value == nil && !w.Failed:
			t.Fatalf("%s: want.json has no outcome", id)
		case w.Failed && g.Failed:
			ct.refusedCorrectly++
		case w.Failed:
			ct.wronglyStored++
			wrong = fmt.Sprintf("stored %q", *g.Value)
		case g.Failed:
			ct.wronglyRefused++
			wrong = fmt.Sprintf("refused (%s)", res.Failed[id])
		case *g.Value != *w.Value:
			ct.wronglyStored++
			wrong = fmt.Sprintf("stored %q, want %q", *g.Value, *w.Value)
		case slices.Contains(res.Repaired, id):
			// The broken first answer was refused; its retry is stored.
			ct.refusedCorrectly++
		default:
			ct.storedIntact++
		}
		if wrong != "" && !*update {
			t.Errorf("%s: %s", id, wrong)
			tot.wrong[c.rules.Family] = append(tot.wrong[c.rules.Family], c.name+"/"+id+": "+wrong)
		}
	}
	// An answer left unused means the case did not run as written.
	if !*update && !record && ct.wronglyStored+ct.wronglyRefused == 0 && len(res.Calls) < len(c.answers) {
		t.Errorf("made %d calls, the case has %d recorded answers", len(res.Calls), len(c.answers))
	}
	fam.add(ct)
	tot.add(ct)

	tot.calls += len(res.Calls)
	if c.rules.Broken {
		invented := 0
		for _, r := range res.Calls {
			invented += r.InventedIDs
		}
		// A broken answer must show: refused, repaired, or ignored ids.
		if len(res.Failed)+len(res.Repaired)+invented == 0 {
			t.Errorf("a broken answer was neither refused nor repaired")
		}
	}
	tot.refused += len(res.Failed)
	tot.repaired += len(res.Repaired)
	for id, v := range res.Translated {
		tot.stored++
		if w := c.want[id].Value; w != nil && *w == v {
			tot.storedAsWant++
		}
		src := c.source[id]
		for _, g := range c.rules.Glossary {
			if applies(g.Locale, c.rules.TargetLanguage) && containsFold(src, g.Source) {
				tot.glossaryChecked++
				if containsFold(v, g.Target) {
					tot.glossaryKept++
				}
			}
		}
		for _, d := range c.rules.DoNotTranslate {
			if strings.Contains(src, d) {
				tot.dntChecked++
				if strings.Count(v, d) >= strings.Count(src, d) {
					tot.dntKept++
				}
			}
		}
	}
	return fmt.Sprintf("%-44s %d/%d/%d/%d", c.name, len(res.Translated), len(res.Failed), len(res.Repaired), len(res.Calls))
}

func applies(locale, lang string) bool {
	locale = strings.ToLower(locale)
	return locale == "" || locale == "all" || locale == strings.ToLower(lang) || strings.HasPrefix(strings.ToLower(lang), locale+"-")
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

func deref(s *string) string {
	if s == nil {
		return "<failed>"
	}
	return *s
}

func rewrite(t *testing.T, c *evalCase, got map[string]outcome, rec *recorder) {
	t.Helper()
	var files []txtar.File
	for _, f := range c.archive.Files {
		if f.Name == "want.json" || rec != nil && strings.HasPrefix(f.Name, "answer.") {
			continue
		}
		files = append(files, f)
	}
	if rec != nil {
		for i, a := range rec.answers {
			files = append(files, txtar.File{Name: fmt.Sprintf("answer.%d", i+1), Data: []byte(a + "\n")})
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(got); err != nil {
		t.Fatal(err)
	}
	files = append(files, txtar.File{Name: "want.json", Data: b.Bytes()})
	c.archive.Files = files
	if err := os.WriteFile(c.path, txtar.Format(c.archive), 0o644); err != nil {
		t.Fatal(err)
	}
}
