package app

import (
	"encoding/json"
	"html/template"
	"net/url"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/message"
)

var pageNames = []string{"signin", "error", "projects", "project", "import", "review", "rowpage", "connect", "members", "invite"}

func parsePages() map[string]*template.Template {
	funcs := template.FuncMap{
		"highlight":    highlight,
		"placeholders": placeholders,
		"actor":        actorLabel,
		"who": func(users map[string]string, a string) string {
			if e, ok := users[a]; ok {
				return e
			}
			return actorLabel(a)
		},
		"filterLabel": filterLabel,
		"filters":     func() []string { return tools.ReviewFilters },
		"join":        strings.Join,
		"rowValue":    func(it tools.ReviewItem) string { return it.Namespace + "\t" + it.Key + "\t" + it.Version },
		"deref":       func(p *string) string { return *p },
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
		"rowData": func(page map[string]any, it tools.ReviewItem) map[string]any {
			return map[string]any{"Item": it, "ProjectID": page["ProjectID"], "Language": page["Language"], "CSRF": page["CSRF"],
				"Editable": page["Editable"], "Back": page["Back"]}
		},
	}
	out := map[string]*template.Template{}
	for _, name := range pageNames {
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

// actorLabel names who made a change for people: the AI with its model, a user, a key.
func actorLabel(a string) string {
	switch {
	case strings.HasPrefix(a, "ai:"):
		return "AI (" + strings.TrimPrefix(a, "ai:") + ")"
	case strings.HasPrefix(a, "user:"):
		return "user " + strings.TrimPrefix(a, "user:")
	case strings.HasPrefix(a, "key:"):
		return "API key " + strings.TrimPrefix(a, "key:")
	}
	return a
}

func filterLabel(f string) string {
	switch f {
	case tools.FilterAll:
		return "All rows"
	case tools.FilterAIDrafts:
		return "AI drafts"
	case tools.FilterNeedsReview:
		return "Needs review"
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
