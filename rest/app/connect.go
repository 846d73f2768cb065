package app

import (
	"context"
	"html/template"
	"net/http"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// Section is a further part of the Connect page, added by a feature outside this package
// (webhooks, redeploy and AI usage are built in: connect_owner.go): Render returns the
// section's HTML for a project, with csrf for its forms; Routes mounts its form handlers
// under /app/p/{project}/connect/<Name>.
type Section interface {
	Name() string
	Render(ctx context.Context, projectID, csrf string) (template.HTML, error)
	Routes(mux *http.ServeMux, signedIn func(http.HandlerFunc) http.HandlerFunc)
}

func (h *handler) connect(w http.ResponseWriter, r *http.Request) {
	h.connectPage(w, r, http.StatusOK, notice{})
}

// notice is what the Connect page says above its sections: a message, an error of the
// form just sent, or a secret shown once.
type notice struct {
	Flash, Error, SecretWhat, Secret string
	// ErrorAt is the section of the form that Error is about (keys, tokens, ai, ...),
	// where the page says it.
	ErrorAt string
}

// connectPage renders the Connect page with a notice.
func (h *handler) connectPage(w http.ResponseWriter, r *http.Request, status int, n notice) {
	ctx, id := r.Context(), r.PathValue("project")
	view, err := h.cat.ShowProject(ctx, id)
	if model.ErrorCode(err) == model.CodeForbidden {
		// Not a manager: the page keeps the user's own tokens, which carry their role.
		h.tokensPage(w, r, status, n)
		return
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	keys, err := h.cat.ListKeys(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	toks, err := h.cat.ListTokens(ctx, sessionFrom(ctx).UserID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	grants, err := h.cat.ListGrants(ctx)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	ai, err := h.cat.ShowAI(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	snip, err := h.cat.GetEmbedSnippet(ctx, tools.EmbedSnippetIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	owner, err := h.ownerSections(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	var extra []template.HTML
	for _, s := range h.opts.Sections {
		html, err := s.Render(ctx, id, sessionFrom(ctx).CSRF)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		extra = append(extra, html)
	}
	// A token of another project is named by the project's title, not its id.
	titles := map[string]string{}
	for _, p := range sessionFrom(ctx).projects {
		titles[p.ID] = p.Title
	}
	if n.Flash == "" && n.Error == "" {
		n.Flash = r.URL.Query().Get("done")
	}
	h.render(w, r, status, "connect", map[string]any{"Project": view.Project, "View": view, "Keys": keys, "Tokens": toks, "Grants": grants,
		"AI": ai, "ProjectModel": view.Project.Settings.AIModel, "Snippet": snip, "Extra": extra, "Flash": n.Flash,
		"Error": n.Error, "ErrorAt": n.ErrorAt, "SecretWhat": n.SecretWhat, "Secret": n.Secret, "Owner": owner, "EventKinds": tools.EventKinds,
		"Form": r.PostForm, "ProjectTitles": titles,
		// The workspace's provider is the owners' (set_workspace_ai): managers are not offered the form.
		"MayWorkspaceAI": h.cat.MayOnWorkspace(ctx, model.OpSetWorkspaceAI)})
}

func (h *handler) connectDone(w http.ResponseWriter, r *http.Request, msg, anchor string) {
	h.done(w, r, "/app/p/"+r.PathValue("project")+"/connect", msg, anchor)
}

func (h *handler) createKey(w http.ResponseWriter, r *http.Request) {
	k, err := h.cat.CreateAPIKey(r.Context(), tools.CreateAPIKeyIn{ProjectID: r.PathValue("project"), ReadOnly: r.PostFormValue("access") != "write", Name: r.PostFormValue("name")})
	if err != nil {
		h.connectFail(w, r, err)
		return
	}
	what := "New read/write API key"
	if k.ReadOnly {
		what = "New read-only API key"
	}
	// Shown in this answer only: a reload does not show it again.
	h.connectPage(w, r, http.StatusCreated, notice{SecretWhat: what, Secret: k.Key})
}

// The page revokes what it lists: a key of this project, a token of the user's own. The
// catalogue decides who may revoke a token; the page keeps to the project it shows.

func (h *handler) revokeKey(w http.ResponseWriter, r *http.Request) {
	ctx, id := r.Context(), r.PostFormValue("id")
	if err := confirmed(r, "key"); err != nil {
		h.connectFail(w, r, err)
		return
	}
	keys, err := h.cat.ListKeys(ctx, r.PathValue("project"))
	if err == nil && !slices.ContainsFunc(keys, func(k tools.KeyListing) bool { return k.ID == id }) {
		err = model.Errorf(model.CodeNotFound, "key %s not found in this project", model.Truncate(id, 40))
	}
	if err == nil {
		_, err = h.cat.RevokeKey(ctx, id)
	}
	if err != nil {
		h.connectFail(w, r, err)
		return
	}
	h.connectDone(w, r, "Key revoked: it stops working within a second", "keys")
}

func (h *handler) createToken(w http.ResponseWriter, r *http.Request) {
	ctx, s := r.Context(), sessionFrom(r.Context())
	in := tools.CreateTokenIn{UserID: s.UserID, ProjectID: r.PathValue("project")}
	var err error
	if r.PostFormValue("scope") == "workspace" {
		// A workspace token, from the page of a project the user may change.
		in = tools.CreateTokenIn{UserID: s.UserID, WorkspaceID: s.WorkspaceID}
		err = h.cat.Admit(ctx, model.OpCreateToken, r.PathValue("project"))
	}
	var t tools.PersonalToken
	if err == nil {
		in.Name = r.PostFormValue("name")
		t, err = h.cat.CreateToken(ctx, in)
	}
	if err != nil {
		h.connectFail(w, r, err)
		return
	}
	h.connectPage(w, r, http.StatusCreated, notice{SecretWhat: "New personal access token", Secret: t.Token})
}

func (h *handler) revokeToken(w http.ResponseWriter, r *http.Request) {
	ctx, id := r.Context(), r.PostFormValue("id")
	if err := confirmed(r, "token"); err != nil {
		h.connectFail(w, r, err)
		return
	}
	err := h.cat.Admit(ctx, model.OpRevokeToken, r.PathValue("project"))
	var mine []tools.TokenListing
	if err == nil {
		mine, err = h.cat.ListTokens(ctx, sessionFrom(ctx).UserID)
	}
	if err == nil && !slices.ContainsFunc(mine, func(t tools.TokenListing) bool { return t.ID == id }) {
		err = model.Errorf(model.CodeNotFound, "token %s is not one of yours", model.Truncate(id, 40))
	}
	if err == nil {
		_, err = h.cat.RevokeToken(ctx, id)
	}
	if err != nil {
		h.connectFail(w, r, err)
		return
	}
	h.connectDone(w, r, "Token revoked: it stops working within a second", "tokens")
}

func (h *handler) setAI(w http.ResponseWriter, r *http.Request) {
	name, ins := strings.TrimSpace(r.PostFormValue("model")), r.PostFormValue("instructions")
	if _, err := h.cat.SetProjectAI(r.Context(), r.PathValue("project"), &name, &ins); err != nil {
		h.connectFail(w, r, err)
		return
	}
	h.connectDone(w, r, "AI settings saved", "ai")
}

func (h *handler) setWorkspaceAI(w http.ResponseWriter, r *http.Request) {
	var key *string
	if k := r.PostFormValue("api_key"); k != "" {
		key = &k
	}
	// The user's workspace, from the page of a project they may change.
	ctx := r.Context()
	var v tools.WorkspaceAIView
	err := h.cat.Admit(ctx, model.OpSetWorkspaceAI, r.PathValue("project"))
	if err == nil {
		v, err = h.cat.SetWorkspaceAI(ctx, sessionFrom(ctx).WorkspaceID, r.PostFormValue("base_url"), r.PostFormValue("model"), key)
	}
	if err != nil {
		// A refused URL is said on the page itself.
		h.connectFail(w, r, err)
		return
	}
	msg := "Workspace AI provider saved"
	if v.KeyCleared {
		msg += "; the stored API key was removed because the base URL changed: enter the key again if the new provider needs one"
	}
	h.connectDone(w, r, msg, "ai")
}

// list reads a comma-separated form field; empty clears.
func list(s string) []string {
	out := []string{}
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func (h *handler) setEmbed(w http.ResponseWriter, r *http.Request) {
	hosts, origins, mode := list(r.PostFormValue("hosts")), list(r.PostFormValue("allowed_origins")), r.PostFormValue("mode")
	on := func(name string) *bool { v := r.PostFormValue(name) == "1"; return &v }
	in := tools.SetProjectIn{Hosts: &hosts, AllowedOrigins: &origins, Mode: &mode, ShowSwitcher: on("show_switcher"),
		KeepSiteUpToDate: on("keep_site_up_to_date"), JITHarvest: on("jit_harvest"), AutoApply: on("auto_apply")}
	if _, err := h.cat.SetProject(r.Context(), r.PathValue("project"), in); err != nil {
		h.connectFail(w, r, err)
		return
	}
	h.connectDone(w, r, "Embed settings saved", "embed")
}

// tokensPage is the Connect page of a user who does not manage the project: their own
// personal access tokens only.
func (h *handler) tokensPage(w http.ResponseWriter, r *http.Request, status int, n notice) {
	ctx, id := r.Context(), r.PathValue("project")
	st, err := h.cat.GetProjectStatus(ctx, tools.ProjectStatusIn{ProjectArg: tools.ProjectArg{ProjectID: id}})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	toks, err := h.cat.ListTokens(ctx, sessionFrom(ctx).UserID)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	grants, err := h.cat.ListGrants(ctx)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if n.Flash == "" && n.Error == "" {
		n.Flash = r.URL.Query().Get("done")
	}
	h.render(w, r, status, "connect", map[string]any{"Project": model.Project{ID: id, Title: st.Title}, "Tokens": toks, "Grants": grants, "TokensOnly": true,
		"Flash": n.Flash, "Error": n.Error, "SecretWhat": n.SecretWhat, "Secret": n.Secret, "Form": r.PostForm})
}

// confirmed requires the revoke form's confirmation box: a key or token in use stops
// working at once, so one click never revokes it.
func confirmed(r *http.Request, what string) error {
	if r.PostFormValue("confirm") != "1" {
		return model.Errorf(model.CodeInvalid, "tick the box beside Revoke to confirm revoking the %s", what)
	}
	return nil
}
