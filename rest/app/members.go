package app

import (
	"context"
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// The members page (who has which role on a project, and invitations) and the page an
// invitation's link opens. The catalogue decides who may see and send them.

func (h *handler) members(w http.ResponseWriter, r *http.Request) {
	h.membersPage(w, r, http.StatusOK, nil, memberForm{})
}

// shownLink is a link made by a form of the page (an invitation, a password reset), shown
// in that answer only.
type shownLink struct {
	Email, Role, Link string
	Reset             bool
	ExpiresAt         time.Time
}

// memberForm is a refused form of the members page: which (invite, set, remove, owner),
// for which user, and why; the page shows it beside that form with what was typed.
type memberForm struct {
	Form, User, Message string
}

// memberRow is a member as the page shows them, with their role form's fields: their own,
// or what was typed when that form was refused.
type memberRow struct {
	tools.MemberView
	Self     bool // the signed-in manager: stepping down asks first
	FormRole string
	Checked  map[string]bool
	Error    memberForm
}

// userRow is a user of the workspace as its owners see them.
type userRow struct {
	model.User
	Self     bool
	FormRole string // the role the form selects: theirs, or what was chosen when refused
	Error    string
}

// membersPage renders the members page; inv is a link just made (shown this once), fe a
// refused form, shown beside it with what was typed.
func (h *handler) membersPage(w http.ResponseWriter, r *http.Request, status int, inv *shownLink, fe memberForm) {
	ctx, id := r.Context(), r.PathValue("project")
	// The catalogue first: it refuses (403) one who may not see the project, whom the
	// session's project list would only not know (404).
	ms, err := h.cat.ListMembers(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	p, err := projectOf(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	role, err := h.cat.MyRoleOn(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	targets := p.TargetLanguages()
	rows := make([]memberRow, 0, len(ms))
	for _, m := range ms {
		row := memberRow{MemberView: m, FormRole: m.Role, Checked: map[string]bool{}, Self: m.UserID == sessionFrom(ctx).UserID && !role.Owner}
		langs := m.Languages
		if fe.User == m.UserID && (fe.Form == "set" || fe.Form == "remove") {
			row.Error = fe
			if fe.Form == "set" {
				row.FormRole, langs = r.PostFormValue("role"), r.PostForm["languages"]
			}
		}
		for _, l := range langs {
			row.Checked[l] = true
		}
		rows = append(rows, row)
	}
	var pending []tools.InvitationView
	if role.Manage {
		if pending, err = h.cat.ListInvitations(ctx, tools.ListInvitationsIn{ProjectID: id}); err != nil {
			h.fail(w, r, err)
			return
		}
	}
	var users []userRow
	if role.Owner {
		us, err := h.cat.ListUsers(ctx)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		me := sessionFrom(ctx).UserID
		for _, u := range us {
			row := userRow{User: u, Self: u.ID == me, FormRole: u.Role}
			if fe.Form == "owner" && fe.User == u.ID {
				row.Error, row.FormRole = fe.Message, r.PostFormValue("role")
			}
			if fe.Form == "reset" && fe.User == u.ID {
				row.Error = fe.Message
			}
			users = append(users, row)
		}
	}
	formErr, addErr, revokeErr, lost := "", "", "", fe.Message
	switch fe.Form {
	case "invite":
		formErr, lost = fe.Message, ""
	case "add":
		addErr, lost = fe.Message, ""
	case "revoke":
		revokeErr, lost = fe.Message, ""
	}
	for _, m := range rows {
		if m.Error.Message != "" {
			lost = ""
		}
	}
	for _, u := range users {
		if u.Error != "" {
			lost = ""
		}
	}
	form, added := r.PostForm, r.PostForm
	if fe.Form != "invite" {
		form = nil // the invitation form starts empty after another form's answer
	}
	if fe.Form != "add" {
		added = nil
	}
	h.render(w, r, status, "members", map[string]any{"Project": map[string]string{"ID": id, "Title": p.Title}, "Members": rows,
		"Languages": targets, "Roles": tools.ProjectRoles, "WorkspaceRoles": tools.WorkspaceRoles, "Users": users, "Role": role,
		"Invited": inv, "Pending": pending, "RevokeError": revokeErr, "Error": formErr, "Lost": lost, "Form": form, "AddError": addErr, "Added": added, "Flash": r.URL.Query().Get("done")})
}

func (h *handler) invite(w http.ResponseWriter, r *http.Request) {
	in := tools.InviteIn{ProjectID: r.PathValue("project"), Email: r.PostFormValue("email"), Role: r.PostFormValue("role"), Languages: r.PostForm["languages"]}
	inv, err := h.cat.Invite(r.Context(), in)
	if err != nil {
		h.memberFail(w, r, err, memberForm{Form: "invite"})
		return
	}
	// Shown in this answer only: a reload does not show it again.
	h.membersPage(w, r, http.StatusCreated, &shownLink{Email: inv.Email, Role: inv.Role, Link: absolute(r, inv.Link), ExpiresAt: inv.ExpiresAt}, memberForm{})
}

// absolute makes a link this server's when no base URL is configured.
func absolute(r *http.Request, link string) string {
	if strings.HasPrefix(link, "http") {
		return link
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + link
}

// revokeInvitation revokes a pending invitation: its link answers as an expired one.
func (h *handler) revokeInvitation(w http.ResponseWriter, r *http.Request) {
	v, err := h.cat.RevokeInvitation(r.Context(), tools.RevokeInvitationIn{ID: r.PostFormValue("invitation"), ProjectID: r.PathValue("project")})
	if err != nil {
		h.memberFail(w, r, err, memberForm{Form: "revoke"})
		return
	}
	h.memberDone(w, r, "The invitation of "+v.Email+" is revoked: its link no longer works")
}

// resetLink makes a user's password-reset link, shown once to the owner who hands it over.
func (h *handler) resetLink(w http.ResponseWriter, r *http.Request) {
	user := r.PostFormValue("user")
	l, err := h.cat.CreateResetLink(r.Context(), user)
	if err != nil {
		h.memberFail(w, r, err, memberForm{Form: "reset", User: user})
		return
	}
	h.membersPage(w, r, http.StatusCreated, &shownLink{Email: l.Email, Link: absolute(r, l.Link), Reset: true, ExpiresAt: l.ExpiresAt}, memberForm{})
}

// setMember gives a member another role or other languages.
func (h *handler) setMember(w http.ResponseWriter, r *http.Request) {
	user, s := r.PostFormValue("user"), sessionFrom(r.Context())
	var err error
	if (user == s.UserID || strings.EqualFold(user, s.user.Email)) && s.user.Role != model.RoleOwner && r.PostFormValue("role") != model.RoleManager {
		// A manager stepping down loses this page: they say so first.
		err = confirmedTo(r, "tick the box to confirm: you would no longer manage this project")
	}
	var m tools.MemberView
	if err == nil {
		m, err = h.cat.SetMember(r.Context(), tools.SetMemberIn{ProjectID: r.PathValue("project"), User: user,
			Role: r.PostFormValue("role"), Languages: r.PostForm["languages"]})
	}
	if err != nil {
		fe := memberForm{Form: "set", User: user}
		if r.PostFormValue("add") != "" {
			fe = memberForm{Form: "add"} // the form that gives a user of the workspace a role
		}
		h.memberFail(w, r, err, fe)
		return
	}
	h.memberDone(w, r, m.Email+" is now "+m.Role+languagesNote(m))
}

func languagesNote(m tools.MemberView) string {
	if m.Role == model.RoleManager {
		return " (every language)"
	}
	if len(m.Languages) == 0 {
		return " (no language yet: they read, and change nothing)"
	}
	names := make([]string, len(m.Languages))
	for i, l := range m.Languages {
		names[i] = langName(l)
	}
	return " of " + strings.Join(names, ", ")
}

// removeMember takes a member's role away, once the box beside Remove is ticked: they
// lose the project and their tokens with it at once.
func (h *handler) removeMember(w http.ResponseWriter, r *http.Request) {
	user := r.PostFormValue("user")
	var m tools.MemberView
	err := confirmedTo(r, "tick the box beside Remove to confirm: they lose the project at once")
	if err == nil {
		m, err = h.cat.RemoveMember(r.Context(), r.PathValue("project"), user)
	}
	if err != nil {
		h.memberFail(w, r, err, memberForm{Form: "remove", User: user})
		return
	}
	h.memberDone(w, r, m.Email+" no longer has a role on this project")
}

// setUserRole makes a user an owner of the workspace or a member. Giving up one's own
// ownership asks for the box to be ticked; the catalogue keeps the last owner.
func (h *handler) setUserRole(w http.ResponseWriter, r *http.Request) {
	user, role := r.PostFormValue("user"), r.PostFormValue("role")
	var err error
	if user == sessionFrom(r.Context()).UserID && role != model.RoleOwner {
		err = confirmedTo(r, "tick the box to confirm: you would no longer own the workspace")
	}
	var u model.User
	if err == nil {
		u, err = h.cat.SetUserRole(r.Context(), user, role)
	}
	if err != nil {
		h.memberFail(w, r, err, memberForm{Form: "owner", User: user})
		return
	}
	if u.ID == sessionFrom(r.Context()).UserID && u.Role != model.RoleOwner {
		// The page may no longer be theirs: the project list is.
		http.Redirect(w, r, "/app/", http.StatusSeeOther)
		return
	}
	h.memberDone(w, r, u.Email+" is now "+u.Role+" of the workspace")
}

// confirmedTo requires the form's confirmation box, saying msg when it is not ticked.
func confirmedTo(r *http.Request, msg string) error {
	if r.PostFormValue("confirm") != "1" {
		return model.Errorf(model.CodeInvalid, "%s", msg)
	}
	return nil
}

// memberFail answers a refused form of the members page: the page again with the message
// beside the form, unless the caller may not use the page at all (403, 401) or the server
// failed.
func (h *handler) memberFail(w http.ResponseWriter, r *http.Request, err error, fe memberForm) {
	switch model.ErrorCode(err) {
	case model.CodeInvalid, model.CodeConflict, model.CodeNotFound:
		fe.Message = model.ErrorMessage(err)
		h.membersPage(w, r, httpx.Status(err), nil, fe)
	default:
		h.fail(w, r, err)
	}
}

// memberDone sends the browser back to the members page, saying what was done.
func (h *handler) memberDone(w http.ResponseWriter, r *http.Request, msg string) {
	http.Redirect(w, r, "/app/p/"+r.PathValue("project")+"/members?done="+url.QueryEscape(msg), http.StatusSeeOther)
}

// passwordLink is a page a link opens to set a password: an invitation's or a reset's.
type passwordLink struct {
	reset bool
	email func(ctx context.Context, token string) (string, error)
	use   func(ctx context.Context, in tools.AcceptIn) (tools.SignedIn, error)
}

func (h *handler) invitationLink() passwordLink {
	return passwordLink{use: h.cat.AcceptInvitation, email: func(ctx context.Context, token string) (string, error) {
		inv, err := h.cat.Invitation(ctx, token)
		return inv.Email, err
	}}
}

func (h *handler) resetLinkPage() passwordLink {
	return passwordLink{reset: true, email: h.cat.ResetLinkEmail, use: h.cat.ResetPassword}
}

func (h *handler) inviteForm(w http.ResponseWriter, r *http.Request) {
	h.linkForm(w, r, h.invitationLink())
}

func (h *handler) acceptInvite(w http.ResponseWriter, r *http.Request) {
	h.linkPost(w, r, h.invitationLink())
}

func (h *handler) resetForm(w http.ResponseWriter, r *http.Request) {
	h.linkForm(w, r, h.resetLinkPage())
}

func (h *handler) resetPassword(w http.ResponseWriter, r *http.Request) {
	h.linkPost(w, r, h.resetLinkPage())
}

// linkData is what the page of a link shows.
func linkData(l passwordLink, csrf, email, token string) map[string]any {
	action := "/app/invite/"
	if l.reset {
		action = "/app/reset/"
	}
	return map[string]any{"SigninCSRF": csrf, "Email": email, "Token": token, "Action": action + token, "Reset": l.reset}
}

func (h *handler) linkForm(w http.ResponseWriter, r *http.Request, l passwordLink) {
	email, err := l.email(r.Context(), r.PathValue("token"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	tok := randomToken()
	h.cookie(w, r, signinCookie, tok, 3600)
	h.render(w, r, http.StatusOK, "invite", linkData(l, tok, email, r.PathValue("token")))
}

func (h *handler) linkPost(w http.ResponseWriter, r *http.Request, l passwordLink) {
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
		out, err = l.use(r.Context(), tools.AcceptIn{Token: token, Password: pw, ClientIP: h.opts.ClientIP(r)})
	}
	if err != nil {
		if model.ErrorCode(err) == model.CodeInvalid {
			if email, ierr := l.email(r.Context(), token); ierr == nil {
				data := linkData(l, c.Value, email, token)
				data["Error"] = model.ErrorMessage(err)
				h.render(w, r, http.StatusBadRequest, "invite", data)
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
