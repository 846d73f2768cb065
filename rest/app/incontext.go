package app

import (
	"net/http"
	"slices"

	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"

	"github.com/lokal-dev/lokal/tools/model"
)

// Review in context: the panel a site in edit mode opens in a popup (a top-level page of
// lokal's origin, never framed). The site and the panel speak by postMessage; the panel
// talks to the one origin it was opened for, which the catalogue checks against the
// workspace's authorized hosts before the page carries it to its script. Every read and
// write is the panel's own, same-origin, with the person's session: nothing the site sends
// grants one.

// incontextBase is the panel's path for a language.
func incontextBase(projectID, lang string) string {
	return "/app/p/" + projectID + "/incontext/" + lang
}

// incontext renders the panel. An origin that is malformed or not authorized gets a page
// that says so and carries no origin, so its script listens to nothing.
func (h *handler) incontext(w http.ResponseWriter, r *http.Request) {
	id, lang := r.PathValue("project"), r.PathValue("lang")
	q := r.URL.Query()
	data := map[string]any{"ProjectID": id, "Language": lang, "Namespace": q.Get("ns")}
	origin, err := h.cat.SiteOrigin(r.Context(), id, q.Get("origin"))
	if err != nil {
		switch model.ErrorCode(err) {
		case model.CodeInvalid, model.CodeForbidden:
			data["OriginError"] = model.ErrorMessage(err)
			h.render(w, r, http.StatusForbidden, "incontext", data)
		default:
			h.fail(w, r, err)
		}
		return
	}
	role, err := h.cat.MyRoleOn(r.Context(), id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	proj, _ := projectOf(r)
	// The switch offers the languages the person edits; the panel's own language stays
	// in it (read-only) when it is not one of them.
	var langs []string
	for _, l := range proj.EditableLanguages {
		if role.Editable[l] || l == lang {
			langs = append(langs, l)
		}
	}
	if !slices.Contains(langs, lang) {
		langs = append(langs, lang)
	}
	data["Origin"], data["Project"], data["Languages"], data["Editable"] = origin, proj, langs, role.Editable[lang]
	h.render(w, r, http.StatusOK, "incontext", data)
}

// incontextRow is the panel's fragment for one key: the review row with its suggestions,
// history and comments, as on the row's own page, and the value and status the panel
// posts back to the site after a save.
func (h *handler) incontextRow(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	row, err := h.rowData(r, q.Get("ns"), q.Get("key"), "", nil)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.renderFragment(w, r, "incontext", "panel", row)
}

// pageContextIn is a text's context as the page measured it (the contract's `context`).
type pageContextIn struct {
	URL      string  `json:"url"`
	Title    string  `json:"title"`
	Role     string  `json:"role"`
	Before   string  `json:"before"`
	After    string  `json:"after"`
	Width    float64 `json:"width"`
	Box      float64 `json:"box"`
	Position int     `json:"position"`
}

func (p pageContextIn) context() tools.PageContext {
	return tools.PageContext{URL: p.URL, Title: p.Title, Role: p.Role, Before: p.Before, After: p.After, Width: p.Width, Box: p.Box, Position: p.Position}
}

type openIn struct {
	Origin    string        `json:"origin"`
	Namespace string        `json:"ns"`
	Key       *string       `json:"key"`
	Text      string        `json:"text"`
	Context   pageContextIn `json:"context"`
}

// incontextOpen answers the key a page's `open` names, by its key or (Embed pages) its
// source text, and records where it was seen. Recording is help, not the answer: when it
// is refused the key still opens, and the answer says why it was not kept.
func (h *handler) incontextOpen(w http.ResponseWriter, r *http.Request) {
	var in openIn
	if err := decodeJSON(w, r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	id := r.PathValue("project")
	origin, err := h.cat.SiteOrigin(r.Context(), id, in.Origin)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	key := ""
	if in.Key != nil {
		key = *in.Key
	} else {
		found, err := h.cat.FindKeys(r.Context(), id, in.Namespace, []string{in.Text})
		if err != nil {
			h.fail(w, r, err)
			return
		}
		if key = found[in.Text]; key == "" {
			h.fail(w, r, model.Errorf(model.CodeNotFound, "no key of namespace %s has this text as its source: it is not translated by lokal yet", model.Truncate(in.Namespace, 60)))
			return
		}
	}
	out := map[string]any{"namespace": in.Namespace, "key": key, "recorded": false}
	if rec, err := h.cat.RecordContext(r.Context(), tools.RecordContextIn{ProjectID: id, Namespace: in.Namespace, Origin: origin,
		Items: []tools.ContextItem{{Key: key, PageContext: in.Context.context()}}}); err != nil {
		if httpx.Status(err) == http.StatusInternalServerError {
			h.fail(w, r, err)
			return
		}
		out["record_error"] = model.ErrorMessage(err)
	} else {
		out["recorded"] = len(rec.Keys) == 1 && rec.Keys[0] == key
	}
	writeJSON(w, r, http.StatusOK, out)
}

type seenIn struct {
	Origin    string `json:"origin"`
	Namespace string `json:"ns"`
	Items     []struct {
		Key     *string       `json:"key"`
		Text    string        `json:"text"`
		Context pageContextIn `json:"context"`
	} `json:"items"`
}

// pageKeyOut is a key of the page, in its order there.
type pageKeyOut struct {
	Namespace string `json:"namespace"`
	Key       string `json:"key"`
	Source    string `json:"source"`
	Position  int    `json:"position"`
}

// incontextSeen records the texts a page in edit mode shows and answers the page's keys in
// their order, for the panel's walk.
func (h *handler) incontextSeen(w http.ResponseWriter, r *http.Request) {
	var in seenIn
	if err := decodeJSON(w, r, &in); err != nil {
		h.fail(w, r, err)
		return
	}
	id := r.PathValue("project")
	origin, err := h.cat.SiteOrigin(r.Context(), id, in.Origin)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	rec := tools.RecordContextIn{ProjectID: id, Namespace: in.Namespace, Origin: origin}
	page := ""
	for _, it := range in.Items {
		page = it.Context.URL
		ci := tools.ContextItem{Text: it.Text, PageContext: it.Context.context()}
		if it.Key != nil {
			ci.Key = *it.Key
		}
		rec.Items = append(rec.Items, ci)
	}
	out := []pageKeyOut{}
	if page == "" {
		writeJSON(w, r, http.StatusOK, map[string]any{"keys": out})
		return
	}
	if _, err := h.cat.RecordContext(r.Context(), rec); err != nil {
		h.fail(w, r, err)
		return
	}
	keys, err := h.cat.PageKeys(r.Context(), id, page)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	for _, k := range keys {
		out = append(out, pageKeyOut{Namespace: k.Namespace, Key: k.Key, Source: k.Source, Position: k.Position})
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"keys": out})
}
