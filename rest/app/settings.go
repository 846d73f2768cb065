package app

import (
	"net/http"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// A project's settings page (title, languages, editable and auto-translated languages,
// syntax) and the projects page's form that creates a project. Each form calls the
// catalogue operation the command line calls (lokal project create, lokal project set);
// the catalogue decides who may: owners create projects, managers and owners change them.

// setupPages are the templates of the project's setup (settings.go, terminology.go,
// checkups.go), parsed with pageNames.
var setupPages = []string{"settings", "terminology", "checkups"}

// refuseInPlace shows a refused form again on its page, beside the form (at) with what was
// typed, when the refusal is about the input or the caller's rights; anything else (not
// found, not signed in, a fault) gets the error page as everywhere.
func (h *handler) refuseInPlace(w http.ResponseWriter, r *http.Request, err error, at string, page func(status int, n notice)) {
	status := httpx.Status(err)
	if wantsJSON(r) || isFragment(r) || !inPlace(status) {
		h.fail(w, r, err)
		return
	}
	httpx.SetRetryAfter(w, err)
	page(status, notice{Error: model.ErrorMessage(err), ErrorAt: at})
}

// projectOf is the project of the request's path among the signed-in user's projects.
func projectOf(r *http.Request) (model.Project, error) {
	id := r.PathValue("project")
	for _, p := range sessionFrom(r.Context()).projects {
		if p.ID == id {
			return p, nil
		}
	}
	return model.Project{}, model.Errorf(model.CodeNotFound, "project not found")
}

// createProject makes a project from the projects page and opens it.
func (h *handler) createProject(w http.ResponseWriter, r *http.Request) {
	in := tools.CreateProjectIn{Title: r.PostFormValue("title"), SourceLanguage: r.PostFormValue("source"),
		Languages: splitCodes(r.PostFormValue("languages"))}
	p, err := h.cat.CreateProject(r.Context(), in)
	if err != nil {
		h.refuseInPlace(w, r, err, "create", func(status int, n notice) { h.projectsPage(w, r, status, n) })
		return
	}
	http.Redirect(w, r, "/app/p/"+p.ID+"/settings", http.StatusSeeOther)
}

// splitCodes reads language codes separated by commas or spaces ("nb, de pt-BR").
func splitCodes(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' || r == '\t' || r == '\n' || r == '\r' })
}

// projectsPage renders the list of projects, with the form that creates one for those
// who may (the catalogue refuses the others all the same).
func (h *handler) projectsPage(w http.ResponseWriter, r *http.Request, status int, n notice) {
	projects := sessionFrom(r.Context()).projects
	// No project in sight: an empty workspace, or no role yet and the owners to ask.
	var owners tools.WorkspaceOwnersOut
	if len(projects) == 0 {
		var err error
		if owners, err = h.cat.WorkspaceOwners(r.Context()); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	h.render(w, r, status, "projects", map[string]any{"Projects": projects, "Workspace": owners,
		"MayCreate": h.cat.MayOnWorkspace(r.Context(), model.OpCreateProject), "Languages": tools.LanguageList(),
		"Error": n.Error, "Form": r.PostForm})
}

func (h *handler) settings(w http.ResponseWriter, r *http.Request) {
	h.settingsPage(w, r, http.StatusOK, notice{})
}

// settingsPage renders the settings of the path's project; ShowProject refuses those who
// do not manage it.
func (h *handler) settingsPage(w http.ResponseWriter, r *http.Request, status int, n notice) {
	view, err := h.cat.ShowProject(r.Context(), r.PathValue("project"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	p := view.Project
	// CLDR's list, and the languages this project had and took off, to be offered back.
	addable := tools.LanguageList()
	for _, l := range p.Languages {
		if !l.Enabled && !slices.ContainsFunc(addable, func(a tools.LanguageInfo) bool { return a.Code == l.Code }) {
			if info, err := tools.ParseLanguage(l.Code); err == nil {
				addable = append(addable, info)
			}
		}
	}
	addable = slices.DeleteFunc(addable, func(l tools.LanguageInfo) bool { return p.HasLanguage(l.Code) })
	slices.SortFunc(addable, func(a, b tools.LanguageInfo) int { return strings.Compare(a.Code, b.Code) })
	var targets []model.Language
	for _, l := range p.Languages {
		if l.Enabled {
			targets = append(targets, l)
		}
	}
	role, err := h.cat.MyRoleOn(r.Context(), p.ID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.render(w, r, status, "settings", map[string]any{"Project": p, "Targets": targets, "Addable": addable,
		"Syntax": view.Settings.Syntax, "Notice": n, "Form": r.PostForm, "Owner": role.Owner})
}

// setProject applies one form of the settings page: in names what the form changes.
func (h *handler) setProject(w http.ResponseWriter, r *http.Request, at string, in tools.SetProjectIn) {
	if _, err := h.cat.SetProject(r.Context(), r.PathValue("project"), in); err != nil {
		h.refuseInPlace(w, r, err, at, func(status int, n notice) { h.settingsPage(w, r, status, n) })
		return
	}
	http.Redirect(w, r, "/app/p/"+r.PathValue("project")+"/settings#"+at, http.StatusSeeOther)
}

func (h *handler) setTitle(w http.ResponseWriter, r *http.Request) {
	title := r.PostFormValue("title")
	h.setProject(w, r, "title", tools.SetProjectIn{Title: &title})
}

func (h *handler) setSyntax(w http.ResponseWriter, r *http.Request) {
	syntax := r.PostFormValue("syntax")
	h.setProject(w, r, "syntax", tools.SetProjectIn{Syntax: &syntax})
}

// addLanguage turns a language on, or back on with the translations it had.
func (h *handler) addLanguage(w http.ResponseWriter, r *http.Request) {
	_, err := h.cat.EnableLanguage(r.Context(), tools.EnableLanguageIn{ProjectArg: tools.ProjectArg{ProjectID: r.PathValue("project")},
		Language: r.PostFormValue("language")})
	if err != nil {
		h.refuseInPlace(w, r, err, "languages", func(status int, n notice) { h.settingsPage(w, r, status, n) })
		return
	}
	http.Redirect(w, r, "/app/p/"+r.PathValue("project")+"/settings#languages", http.StatusSeeOther)
}

// removeLanguage turns a language off: the project's enabled languages without it. Its
// translations stay (nothing is deleted) for when it is turned on again; a language with
// translations needs the confirm field, which the refusal's form sends.
func (h *handler) removeLanguage(w http.ResponseWriter, r *http.Request) {
	p, err := projectOf(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	code := r.PostFormValue("language")
	langs := slices.DeleteFunc(slices.Clone(p.EnabledLanguages), func(l string) bool { return l == code || l == p.SourceLanguage })
	in := tools.SetProjectIn{Languages: &langs, ConfirmRemove: r.PostForm["confirm"]}
	if _, err := h.cat.SetProject(r.Context(), p.ID, in); err != nil {
		// A language with translations: the catalogue's refusal, with a button that confirms.
		at := "languages"
		if model.ErrorCode(err) == model.CodeConflict {
			at = "remove"
		}
		h.refuseInPlace(w, r, err, at, func(status int, n notice) { h.settingsPage(w, r, status, n) })
		return
	}
	http.Redirect(w, r, "/app/p/"+p.ID+"/settings#languages", http.StatusSeeOther)
}

// setLanguageFlags sets which languages people edit and which the AI translates: both
// lists are sent whole, so that an unticked box clears.
func (h *handler) setLanguageFlags(w http.ResponseWriter, r *http.Request) {
	editable := append([]string{}, r.PostForm["editable"]...)
	auto := append([]string{}, r.PostForm["auto"]...)
	h.setProject(w, r, "flags", tools.SetProjectIn{Editable: &editable, AutoTranslate: &auto})
}
