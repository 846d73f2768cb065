package app

import (
	"encoding/json"
	"fmt"
	"html/template"
	"net/url"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/checkup"
	"github.com/lokal-dev/lokal/tools/message"
)

var pageNames = []string{"signin", "error", "projects", "project", "import", "review", "rowpage", "connect", "members", "invite", "progress", "consent", "oautherror", "incontext"}

func parsePages() map[string]*template.Template {
	funcs := template.FuncMap{
		"highlight":    highlight,
		"placeholders": placeholders,
		"actor":        actorLabel,
		"who":          nameOf,
		"filterLabel":  filterLabel,
		"plural":       plural,
		"words":        func(code any) string { return strings.ReplaceAll(fmt.Sprint(code), "_", " ") },
		"langName":     langName,
		"kindLabel":    checkup.KindLabel, // a finding's kind in plain words
		"dir":          message.Direction, // a language's writing direction, for dir=
		"langNames": func(codes []string) string {
			out := make([]string, len(codes))
			for i, c := range codes {
				out[i] = langName(c)
			}
			return strings.Join(out, ", ")
		},
		"filters":  func() []string { return tools.ReviewFilters },
		"join":     strings.Join,
		"rowValue": func(it tools.ReviewItem) string { return it.Namespace + "\t" + it.Key + "\t" + it.Version },
		"deref":    func(p *string) string { return *p },
		"intp": func(p *int) string {
			if p == nil {
				return ""
			}
			return itoa(*p)
		},
		"fv": func(v url.Values, k string) string { return v.Get(k) },
		"dict": func(kv ...any) map[string]any {
			m := map[string]any{}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		},
		"rowData": rowDataOf,
		// formTexts is a suggestion cut into the fields of a row edited as fields, as JSON.
		"formTexts": func(value, language string, syn message.Syntax) string {
			b, _ := json.Marshal(tools.FormTexts(value, language, syn))
			return string(b)
		},
	}
	out := map[string]*template.Template{}
	for _, name := range append(pageNames, setupPages...) {
		out[name] = template.Must(template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/partials.html", "templates/"+name+".html"))
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func urlEscape(s string) string { return url.QueryEscape(s) }

// highlight escapes s and marks its placeholders and tags, which must survive translation:
// the syntax message.Spans finds in s read in syn, the project's syntax (ReviewItem.Syntax).
// Entities are left as text, since the character they stand for is as good.
func highlight(s string, syn message.Syntax) template.HTML {
	m := message.Parse(s, syn)
	var b strings.Builder
	last := 0
	for _, sp := range message.Spans(m) {
		class, title := "ph", "placeholder"
		switch sp.Node.(type) {
		case *message.Entity:
			continue
		case *message.Tag, *message.Link:
			class, title = "tag", "markup"
		}
		b.WriteString(template.HTMLEscapeString(s[last:sp.Start]))
		b.WriteString(`<mark class="` + class + `" title="` + title + `">` + template.HTMLEscapeString(s[sp.Start:sp.End]) + `</mark>`)
		last = sp.End
	}
	b.WriteString(template.HTMLEscapeString(s[last:]))
	return template.HTML(b.String())
}

// placeholders lists, in order, the pieces of syntax of s a translation carries over as
// they are (arguments, #, tags and links' pieces; never a plural or select block's own
// pieces): what Ctrl+Shift+P inserts into a translation box, one at a time.
func placeholders(s string, syn message.Syntax) string {
	out := []string{}
	for _, sp := range message.Spans(message.Parse(s, syn)) {
		switch sp.Node.(type) {
		case *message.Arg, *message.Pound, *message.Tag, *message.Link:
			out = append(out, s[sp.Start:sp.End])
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// nameOf names actor a by the catalogue's names (tools.RowDetail.Users), else by actorLabel.
func nameOf(names map[string]string, a string) string {
	if n, ok := names[a]; ok {
		return n
	}
	return actorLabel(a)
}

// actorLabel names who made a change for people when the catalogue gave no name (the
// user or key is gone, or of another workspace): the AI with its model, else a kind,
// never an internal id.
func actorLabel(a string) string {
	switch {
	case strings.HasPrefix(a, "ai:"):
		return "AI (" + strings.TrimPrefix(a, "ai:") + ")"
	case strings.HasPrefix(a, "user:"):
		return "a former user"
	case strings.HasPrefix(a, "key:"):
		return "a deleted API key"
	}
	return a
}

// plural counts n things in English: "1 comment", "2 comments", "3 deliveries".
func plural(n any, one string) string {
	var c int64
	switch v := n.(type) {
	case int:
		c = int64(v)
	case int64:
		c = v
	}
	if c == 1 {
		return "1 " + one
	}
	many := one + "s"
	if strings.HasSuffix(one, "y") && !strings.ContainsAny(one[max(len(one)-2, 0):len(one)-1], "aeiou") { // key: keys
		many = strings.TrimSuffix(one, "y") + "ies"
	}
	return strconv.FormatInt(c, 10) + " " + many
}

// langName names a language code for people in English, the code first: "nb — Norwegian
// Bokmål". A code CLDR cannot name stays the code alone.
func langName(code string) string {
	name, _ := tools.LanguageName(code)
	if name == "" || strings.EqualFold(name, code) {
		return code
	}
	return code + " — " + name
}

func filterLabel(f string) string {
	switch f {
	case tools.FilterAll:
		return "All rows"
	case tools.FilterAIDrafts:
		return "AI drafts"
	case tools.FilterNeedsReview:
		return "Needs review"
	case tools.FilterHeld:
		return "Held back from readers"
	case tools.FilterApproved:
		return "Approved"
	case tools.FilterStale:
		return "Stale"
	case tools.FilterMissing:
		return "Missing"
	case tools.FilterQA:
		return "Has QA findings"
	case tools.FilterComments:
		return "Has comments"
	}
	return f
}
