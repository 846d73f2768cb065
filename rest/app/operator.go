package app

import (
	"net/http"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// The owners' verbs in the editor: archive, restore and delete a project from its settings
// page, disable, enable and delete users from the members page. The catalogue decides who
// may; these forms only ask for the confirmation a person gives.

func (h *handler) archiveProject(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("project")
	archive := r.PostFormValue("archive") == "1"
	var err error
	if archive {
		_, err = h.cat.ArchiveProject(r.Context(), id)
	} else {
		_, err = h.cat.RestoreProject(r.Context(), id)
	}
	if err != nil {
		h.refuseInPlace(w, r, err, "archive", func(status int, n notice) { h.settingsPage(w, r, status, n) })
		return
	}
	http.Redirect(w, r, "/app/p/"+id+"/settings#archive", http.StatusSeeOther)
}

// deleteProject deletes the project when its title is typed back, then shows the list.
func (h *handler) deleteProject(w http.ResponseWriter, r *http.Request) {
	if _, err := h.cat.DeleteProject(r.Context(), r.PathValue("project"), r.PostFormValue("confirm_title")); err != nil {
		h.refuseInPlace(w, r, err, "archive", func(status int, n notice) { h.settingsPage(w, r, status, n) })
		return
	}
	http.Redirect(w, r, "/app/", http.StatusSeeOther)
}

// setUserState disables, enables or deletes a user of the workspace; deleting needs the
// confirmation box.
func (h *handler) setUserState(w http.ResponseWriter, r *http.Request) {
	user, verb := r.PostFormValue("user"), r.PostFormValue("state")
	var s tools.UserState
	var err error
	done := ""
	switch verb {
	case "disable":
		s, err = h.cat.DisableUser(r.Context(), user)
		done = s.Email + " is disabled"
	case "enable":
		s, err = h.cat.EnableUser(r.Context(), user)
		done = s.Email + " is enabled"
	case "delete":
		if err = confirmedTo(r, "tick the box to confirm: deleting a user cannot be undone"); err == nil {
			s, err = h.cat.DeleteUser(r.Context(), user)
		}
		done = s.Email + " is deleted; their history keeps their email"
	default:
		err = model.Errorf(model.CodeInvalid, "choose disable, enable or delete")
	}
	if err != nil {
		h.memberFail(w, r, err, memberForm{Form: "owner", User: user})
		return
	}
	h.memberDone(w, r, done)
}
