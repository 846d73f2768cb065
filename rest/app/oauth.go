package app

import (
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// The consent page of lokal's OAuth authorization server: a client (an MCP connector)
// sends the person here; they sign in if need be, see who asks for what and where they
// will be sent, and approve or deny. The catalogue validates the request and decides.

// workspaceChoice is the project field's value for the whole workspace (project ids are
// UUIDs, so it names none of them).
const workspaceChoice = "workspace"

// authorizeFields are the request's parameters, carried by the consent form as they came.
var authorizeFields = []string{"response_type", "client_id", "redirect_uri", "state", "scope", "resource", "code_challenge", "code_challenge_method"}

func authorizeRequestOf(v url.Values) tools.AuthorizeRequest {
	return tools.AuthorizeRequest{ResponseType: v.Get("response_type"), ClientID: v.Get("client_id"), RedirectURI: v.Get("redirect_uri"),
		State: v.Get("state"), Scope: v.Get("scope"), Resource: v.Get("resource"),
		CodeChallenge: v.Get("code_challenge"), CodeChallengeMethod: v.Get("code_challenge_method")}
}

// authorizeQuery is the request's parameters alone, re-encoded: what sign-in comes back to
// (no stray parameter, no raw character that safeNext refuses).
func authorizeQuery(v url.Values) string {
	q := url.Values{}
	for _, k := range authorizeFields {
		if x, ok := v[k]; ok && len(x) > 0 {
			q.Set(k, x[0])
		}
	}
	return q.Encode()
}

// authorize is GET /app/oauth/authorize. The request is checked before anything else: an
// unknown client or a redirect_uri not the client's is an error page here, never a
// redirect; only then is the person asked to sign in, and brought back to the same request.
func (h *handler) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	req := authorizeRequestOf(q)
	check, err := h.cat.CheckAuthorize(r.Context(), req)
	if err != nil {
		h.oauthFail(w, r, req, err)
		return
	}
	// Sign-in comes back to the request's own parameters only.
	r2 := r.Clone(r.Context())
	r2.URL.RawQuery = authorizeQuery(q)
	h.signedIn(func(w http.ResponseWriter, r *http.Request) {
		h.consentPage(w, r, http.StatusOK, req, check, "")
	})(w, r2)
}

// consentChoice is one option of the consent form's project field.
type consentChoice struct {
	Value, Label string
	Selected     bool
}

// consentPage shows what the client asks for and the person's choices.
func (h *handler) consentPage(w http.ResponseWriter, r *http.Request, status int, req tools.AuthorizeRequest, check tools.AuthorizeCheck, problem string) {
	ctx := r.Context()
	s := sessionFrom(ctx)
	var projects []model.Project
	for _, p := range s.projects {
		if p.ArchivedAt == nil {
			projects = append(projects, p)
		}
	}
	if check.ProjectID != "" {
		// A project endpoint: its project, if the person has a role on it.
		i := slices.IndexFunc(projects, func(p model.Project) bool { return p.ID == check.ProjectID })
		if i < 0 {
			h.oauthFail(w, r, req, model.Errorf(model.CodeForbidden, "you have no role on the project this client asks for; ask an owner of the workspace for one, or connect the client to the workspace endpoint"))
			return
		}
		projects = projects[i : i+1]
	}
	// Read and write is offered when the person may change something in a project they
	// may choose; the catalogue narrows a grant to the role all the same.
	mayWrite := false
	for _, p := range projects {
		if role, err := h.cat.MyRoleOn(ctx, p.ID); err == nil && (role.Manage || slices.Contains(slices.Collect(maps.Values(role.Editable)), true)) {
			mayWrite = true
			break
		}
	}
	asksWrite := slices.Contains(check.Scopes, tools.ScopeWrite)
	chosen := r.PostFormValue("project")
	var choices []consentChoice
	for _, p := range projects {
		choices = append(choices, consentChoice{Value: p.ID, Label: p.Title, Selected: chosen == p.ID})
	}
	if check.ProjectID == "" && len(projects) > 0 {
		choices = append(choices, consentChoice{Value: workspaceChoice, Label: "The whole workspace (every project you have a role on)", Selected: chosen == workspaceChoice})
	}
	access := r.PostFormValue("access")
	if access == "" && asksWrite && mayWrite {
		access = "write"
	}
	fields := url.Values{"response_type": {req.ResponseType}, "client_id": {req.ClientID}, "redirect_uri": {req.RedirectURI},
		"state": {req.State}, "scope": {req.Scope}, "resource": {req.Resource}, "code_challenge": {req.CodeChallenge}, "code_challenge_method": {req.CodeChallengeMethod}}
	// The approval's answer redirects to the client: the page's forms may be sent on there.
	if o := redirectOrigin(req.RedirectURI); o != "" {
		w.Header().Set("Content-Security-Policy", strings.Replace(cspPolicy, "form-action 'self'", "form-action 'self' "+o, 1))
	}
	h.render(w, r, status, "consent", map[string]any{"Check": check, "Client": check.Client, "Fields": fields, "FieldNames": authorizeFields,
		"Choices": choices, "Fixed": check.ProjectID != "", "AsksWrite": asksWrite, "MayWrite": mayWrite, "Access": access,
		"NoProject": len(projects) == 0, "Error": problem})
}

// redirectOrigin is the scheme and host of a redirect URI the catalogue accepted, for the
// page's form-action; "" for anything that is not a plain http(s) origin.
func redirectOrigin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.ContainsAny(u.Host, " ;,'\"\\") {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// authorizeAnswer is POST /app/oauth/authorize (signed in, CSRF checked): the person's
// approval or denial, answered by a 303 to where the catalogue sends the client.
func (h *handler) authorizeAnswer(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	req := authorizeRequestOf(r.PostForm)
	var redirect string
	var err error
	switch r.PostFormValue("action") {
	case "approve":
		choice := tools.Consent{ProjectID: r.PostFormValue("project"), ReadOnly: r.PostFormValue("access") != "write"}
		if choice.ProjectID == workspaceChoice {
			choice.ProjectID = ""
		} else if choice.ProjectID == "" {
			err = model.Errorf(model.CodeInvalid, "choose a project, or the whole workspace, for the client")
		}
		if err == nil {
			redirect, err = h.cat.ApproveAuthorize(ctx, req, choice)
		}
	case "deny":
		redirect, err = h.cat.DenyAuthorize(ctx, req)
	default:
		err = model.Errorf(model.CodeInvalid, "answer with Allow or Deny")
	}
	var oe *tools.OAuthError
	if err != nil && !errors.As(err, &oe) && inPlace(httpx.Status(err)) {
		// The person's choice was refused: the page again, saying why.
		if check, cerr := h.cat.CheckAuthorize(ctx, req); cerr == nil {
			h.consentPage(w, r, httpx.Status(err), req, check, model.ErrorMessage(err))
			return
		}
	}
	if err != nil {
		h.oauthFail(w, r, req, err)
		return
	}
	http.Redirect(w, r, redirect, http.StatusSeeOther)
}

// oauthFail answers a refused authorization request: back to the client with the error
// when the catalogue says its redirect_uri may be told (RFC 6749 §4.1.2.1, with iss of
// RFC 9207), else a page here.
func (h *handler) oauthFail(w http.ResponseWriter, r *http.Request, req tools.AuthorizeRequest, err error) {
	var oe *tools.OAuthError
	if !errors.As(err, &oe) {
		h.fail(w, r, err)
		return
	}
	if oe.Redirect {
		http.Redirect(w, r, h.cat.AuthorizeErrorRedirect(req, oe), http.StatusSeeOther)
		return
	}
	h.render(w, r, http.StatusBadRequest, "oautherror", map[string]any{"Code": oe.Code, "Message": oe.Description})
}

// revokeGrant ends one of the person's grants from the Connect page.
func (h *handler) revokeGrant(w http.ResponseWriter, r *http.Request) {
	if err := confirmed(r, "connection"); err != nil {
		h.connectFail(w, r, err)
		return
	}
	if err := h.cat.RevokeGrant(r.Context(), r.PostFormValue("id")); err != nil {
		h.connectFail(w, r, err)
		return
	}
	h.connectDone(w, r, "Connection revoked: the client's tokens stop working within a second", "grants")
}
