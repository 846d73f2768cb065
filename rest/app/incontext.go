package app

import (
	"net/http"
	"slices"

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
