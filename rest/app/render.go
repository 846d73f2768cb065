package app

import (
	"html/template"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools"
)

var pageNames = []string{"signin", "error", "projects", "project", "review", "rowpage", "connect"}

func parsePages() map[string]*template.Template {
	funcs := template.FuncMap{
		"highlight": highlight,
		"actor":     actorLabel,
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

// markup matches what the editor highlights in a text: placeholders in the forms the
// checkup recognizes (%{name}, %(name)s, {name}, {{name}}, printf verbs) and HTML tags.
var markup = regexp.MustCompile(`\{\{[^{}]{1,80}\}\}|%\{[^{}]{1,80}\}|%\([A-Za-z0-9_]{1,80}\)[a-z]|\{[A-Za-z0-9_.,\s]{1,80}\}|%(?:[0-9]+\$)?[-+ #0]*[0-9]*(?:\.[0-9]+)?[sdfiuxXoeEgGc@]|</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]{0,300})?/?>`)

// highlight escapes s and marks its placeholders and tags, which must survive translation.
func highlight(s string) template.HTML {
	var b strings.Builder
	last := 0
	for _, m := range markup.FindAllStringIndex(s, -1) {
		b.WriteString(template.HTMLEscapeString(s[last:m[0]]))
		tok := s[m[0]:m[1]]
		class, title := "ph", "placeholder"
		if strings.HasPrefix(tok, "<") {
			class, title = "tag", "markup"
		}
		b.WriteString(`<mark class="` + class + `" title="` + title + `">` + template.HTMLEscapeString(tok) + `</mark>`)
		last = m[1]
	}
	b.WriteString(template.HTMLEscapeString(s[last:]))
	return template.HTML(b.String())
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
