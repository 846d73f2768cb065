package app

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/lokal-dev/lokal/tools"
)

// progressPart is one category of a language's progress as the page draws it: its count
// and percentage in text, and its place on the bar (X and W in percent of the bar).
type progressPart struct {
	Name, Class string
	Count, Pct  int
	X, W        string
}

type progressRow struct {
	Language  string
	Namespace string
	Total     int
	Parts     []progressPart
	Summary   string // the bar's text alternative
	HeldBack  int    // rows held back from readers, apart from the categories
}

// progress is the progress view: every target language in approved, AI drafts, needs
// review, stale and missing, for everyone who may read the project (the counters the
// write path keeps, so its cost does not grow with the project); with ?lang= also that
// language per namespace.
func (h *handler) progress(w http.ResponseWriter, r *http.Request) {
	id, lang := r.PathValue("project"), r.URL.Query().Get("lang")
	out, err := h.cat.GetProgress(r.Context(), tools.ProgressIn{ProjectArg: tools.ProjectArg{ProjectID: id}, Language: lang})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	proj, _ := projectOf(r) // admitted by the catalogue above; untitled if the session's list lags
	rows := make([]progressRow, 0, len(out.Languages))
	for _, l := range out.Languages {
		rows = append(rows, progressRowOf(l, langName(l.Language)))
	}
	var nss []progressRow
	for _, n := range out.Namespaces {
		nss = append(nss, progressRowOf(n, n.Namespace))
	}
	h.render(w, r, http.StatusOK, "progress", map[string]any{"Project": proj, "Rows": rows, "Source": out.SourceLanguage,
		"Lang": lang, "Namespaces": nss})
}

// progressRowOf lays out l's categories, named name in the bar's text alternative.
func progressRowOf(l tools.LanguageProgress, name string) progressRow {
	row := progressRow{Language: l.Language, Namespace: l.Namespace, Total: l.Total, HeldBack: l.HeldBack}
	x := 0.0
	var said []string
	for _, c := range []struct {
		name, class string
		n           int
	}{
		{"Approved", "approved", l.Approved}, {"AI drafts", "ai", l.AIDrafts}, {"Needs review", "review", l.NeedsReview},
		{"Stale", "stale", l.Stale}, {"Missing", "missing", l.Missing},
	} {
		wd := 0.0
		if l.Total > 0 {
			wd = float64(c.n) * 100 / float64(l.Total)
		}
		row.Parts = append(row.Parts, progressPart{Name: c.name, Class: c.class, Count: c.n, Pct: l.Percent(c.n),
			X: fmt.Sprintf("%.3f", x), W: fmt.Sprintf("%.3f", wd)})
		said = append(said, fmt.Sprintf("%s %d (%d%%)", strings.ToLower(c.name), c.n, l.Percent(c.n)))
		x += wd
	}
	row.Summary = fmt.Sprintf("%s: %d keys; %s", name, l.Total, strings.Join(said, ", "))
	return row
}
