package app

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// The members page (who has which role on a project, and invitations) and the page an
// invitation's link opens. The catalogue decides who may see and send them.

func (h *handler) members(w http.ResponseWriter, r *http.Request) {
	h.membersPage(w, r, http.StatusOK, nil, "")
}

// membersPage renders the members page; inv is an invitation just made (its link shown
// this once), formErr an error of the invitation form, shown beside it with what was typed.
func (h *handler) membersPage(w http.ResponseWriter, r *http.Request, status int, inv *tools.Invited, formErr string) {
	ctx, id := r.Context(), r.PathValue("project")
	st, err := h.cat.GetProjectStatus(ctx, tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	ms, err := h.cat.ListMembers(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	var targets []string
	for _, l := range st.EnabledLanguages {
		if l != st.SourceLanguage {
			targets = append(targets, l)
		}
	}
	h.render(w, r, status, "members", map[string]any{"Project": map[string]string{"ID": id, "Title": st.Title}, "Members": ms,
		"Languages": targets, "Roles": tools.ProjectRoles, "Invited": inv, "Error": formErr, "Form": r.PostForm})
}

func (h *handler) invite(w http.ResponseWriter, r *http.Request) {
	in := tools.InviteIn{ProjectID: r.PathValue("project"), Email: r.PostFormValue("email"), Role: r.PostFormValue("role"), Languages: r.PostForm["languages"]}
	inv, err := h.cat.Invite(r.Context(), in)
	if err != nil {
		if c := model.ErrorCode(err); c == model.CodeInvalid || c == model.CodeConflict {
			h.membersPage(w, r, httpx.Status(err), nil, model.ErrorMessage(err))
			return
		}
		h.fail(w, r, err)
		return
	}
	if !strings.HasPrefix(inv.Link, "http") {
		// No base URL configured: the link is this server's.
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		inv.Link = scheme + "://" + r.Host + inv.Link
	}
	// Shown in this answer only: a reload does not show it again.
	h.membersPage(w, r, http.StatusCreated, &inv, "")
}

func (h *handler) inviteForm(w http.ResponseWriter, r *http.Request) {
	inv, err := h.cat.Invitation(r.Context(), r.PathValue("token"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	tok := randomToken()
	h.cookie(w, r, signinCookie, tok, 3600)
	h.render(w, r, http.StatusOK, "invite", map[string]any{"SigninCSRF": tok, "Email": inv.Email, "Token": r.PathValue("token")})
}

func (h *handler) acceptInvite(w http.ResponseWriter, r *http.Request) {
	if err := readBody(r, 64<<10); err != nil {
		h.fail(w, r, err)
		return
	}
	c, err := r.Cookie(signinCookie)
	if err != nil || c.Value == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(r.PostFormValue("csrf"))) != 1 {
		h.fail(w, r, model.Errorf(model.CodeForbidden, "the form expired; reload it and try again"))
		return
	}
	token := r.PathValue("token")
	pw := r.PostFormValue("password")
	if pw != r.PostFormValue("password2") {
		err = model.Errorf(model.CodeInvalid, "the two passwords differ")
	}
	var out tools.SignedIn
	if err == nil {
		out, err = h.cat.AcceptInvitation(r.Context(), tools.AcceptIn{Token: token, Password: pw, ClientIP: h.opts.ClientIP(r)})
	}
	if err != nil {
		if model.ErrorCode(err) == model.CodeInvalid {
			inv, ierr := h.cat.Invitation(r.Context(), token)
			if ierr == nil {
				h.render(w, r, http.StatusBadRequest, "invite", map[string]any{"SigninCSRF": c.Value, "Email": inv.Email, "Token": token,
					"Error": model.ErrorMessage(err)})
				return
			}
		}
		h.fail(w, r, err)
		return
	}
	h.cookie(w, r, sessionCookie, out.Token, int(tools.SessionLifetime.Seconds()))
	h.cookie(w, r, signinCookie, "", -1)
	http.Redirect(w, r, "/app/", http.StatusSeeOther)
}
