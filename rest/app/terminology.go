package app

import (
	"net/http"
	"strconv"

	"github.com/lokal-dev/lokal/tools"
)

// The terminology page: glossary pairs, do-not-translate terms and substitution rules,
// read by everyone on the project, added and removed by its managers and the workspace's
// owners (the catalogue's add_* and remove_* operations decide).

func (h *handler) terminology(w http.ResponseWriter, r *http.Request) {
	h.terminologyPage(w, r, http.StatusOK, notice{})
}

func (h *handler) terminologyPage(w http.ResponseWriter, r *http.Request, status int, n notice) {
	ctx, id := r.Context(), r.PathValue("project")
	terms, err := h.cat.ListTerminology(ctx, tools.TerminologyIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	role, err := h.cat.MyRoleOn(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	p, err := projectOf(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.render(w, r, status, "terminology", map[string]any{"Project": p, "Terms": terms, "Manage": role.Manage,
		"Locales": p.TargetLanguages(), "Notice": n, "Form": r.PostForm})
}

// termDone answers a terminology form: back to its section, or the page with the error
// beside the form.
func (h *handler) termDone(w http.ResponseWriter, r *http.Request, at string, err error) {
	if err != nil {
		h.refuseInPlace(w, r, err, at, func(status int, n notice) { h.terminologyPage(w, r, status, n) })
		return
	}
	http.Redirect(w, r, "/app/p/"+r.PathValue("project")+"/terminology#"+at, http.StatusSeeOther)
}

func (h *handler) addGlossary(w http.ResponseWriter, r *http.Request) {
	_, err := h.cat.AddGlossaryTerm(r.Context(), tools.GlossaryIn{ProjectArg: tools.ProjectArg{ProjectID: r.PathValue("project")},
		SourceTerm: r.PostFormValue("source"), TargetTerm: r.PostFormValue("target"), Locale: r.PostFormValue("locale")})
	h.termDone(w, r, "glossary", err)
}

func (h *handler) removeGlossary(w http.ResponseWriter, r *http.Request) {
	h.termDone(w, r, "glossary", h.cat.RemoveGlossaryTerm(r.Context(), r.PathValue("project"), formID(r)))
}

func (h *handler) addDNT(w http.ResponseWriter, r *http.Request) {
	_, err := h.cat.AddDoNotTranslate(r.Context(), r.PathValue("project"), r.PostFormValue("term"))
	h.termDone(w, r, "dnt", err)
}

func (h *handler) removeDNT(w http.ResponseWriter, r *http.Request) {
	h.termDone(w, r, "dnt", h.cat.RemoveDoNotTranslate(r.Context(), r.PathValue("project"), r.PostFormValue("term")))
}

func (h *handler) addSubstitution(w http.ResponseWriter, r *http.Request) {
	_, err := h.cat.AddSubstitution(r.Context(), r.PathValue("project"), r.PostFormValue("from"), r.PostFormValue("to"), r.PostFormValue("locale"))
	h.termDone(w, r, "substitutions", err)
}

func (h *handler) removeSubstitution(w http.ResponseWriter, r *http.Request) {
	h.termDone(w, r, "substitutions", h.cat.RemoveSubstitution(r.Context(), r.PathValue("project"), formID(r)))
}

// formID reads the id of the entry a remove button names; anything else is 0, which
// names no entry (the catalogue authorizes first, then finds none).
func formID(r *http.Request) int64 {
	id, _ := strconv.ParseInt(r.PostFormValue("id"), 10, 64)
	return id
}
