package app

import (
	"context"
	"html/template"
	"net/http"
	"strings"

	"github.com/lokal-dev/lokal/tools"
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
}

// connectPage renders the Connect page with a notice.
func (h *handler) connectPage(w http.ResponseWriter, r *http.Request, status int, n notice) {
	ctx, id := r.Context(), r.PathValue("project")
	view, err := h.cat.ConnectProject(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	keys, err := h.cat.ConnectKeys(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	toks, err := h.cat.ConnectTokens(ctx, id)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	ai, err := h.cat.ConnectAI(ctx, id)
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
	if n.Flash == "" && n.Error == "" {
		n.Flash = r.URL.Query().Get("done")
	}
	h.render(w, r, status, "connect", map[string]any{"Project": view.Project, "View": view, "Keys": keys, "Tokens": toks,
		"AI": ai, "ProjectModel": view.Project.Settings.AIModel, "Snippet": snip, "Extra": extra, "Flash": n.Flash,
		"Error": n.Error, "SecretWhat": n.SecretWhat, "Secret": n.Secret, "Owner": owner, "EventKinds": tools.EventKinds,
		"Form": r.PostForm})
}

func (h *handler) connectDone(w http.ResponseWriter, r *http.Request, msg, anchor string) {
	h.done(w, r, "/app/p/"+r.PathValue("project")+"/connect", msg, anchor)
}

func (h *handler) createKey(w http.ResponseWriter, r *http.Request) {
	k, err := h.cat.ConnectCreateKey(r.Context(), r.PathValue("project"), r.PostFormValue("access") != "write")
	if err != nil {
		h.fail(w, r, err)
		return
	}
	what := "New read/write API key"
	if k.ReadOnly {
		what = "New read-only API key"
	}
	// Shown in this answer only: a reload does not show it again.
	h.connectPage(w, r, http.StatusCreated, notice{SecretWhat: what, Secret: k.Key})
}

func (h *handler) revokeKey(w http.ResponseWriter, r *http.Request) {
	if _, err := h.cat.ConnectRevokeKey(r.Context(), r.PathValue("project"), r.PostFormValue("id")); err != nil {
		h.fail(w, r, err)
		return
	}
	h.connectDone(w, r, "Key revoked: it stops working within a second", "keys")
}

func (h *handler) createToken(w http.ResponseWriter, r *http.Request) {
	t, err := h.cat.ConnectCreateToken(r.Context(), r.PathValue("project"), r.PostFormValue("scope") == "workspace")
	if err != nil {
		h.fail(w, r, err)
		return
	}
	h.connectPage(w, r, http.StatusCreated, notice{SecretWhat: "New personal access token", Secret: t.Token})
}

func (h *handler) revokeToken(w http.ResponseWriter, r *http.Request) {
	if _, err := h.cat.ConnectRevokeToken(r.Context(), r.PathValue("project"), r.PostFormValue("id")); err != nil {
		h.fail(w, r, err)
		return
	}
	h.connectDone(w, r, "Token revoked: it stops working within a second", "tokens")
}

func (h *handler) setAI(w http.ResponseWriter, r *http.Request) {
	model, ins := strings.TrimSpace(r.PostFormValue("model")), r.PostFormValue("instructions")
	if _, err := h.cat.ConnectSetAI(r.Context(), r.PathValue("project"), &model, &ins); err != nil {
		h.fail(w, r, err)
		return
	}
	h.connectDone(w, r, "AI settings saved", "ai")
}

func (h *handler) setWorkspaceAI(w http.ResponseWriter, r *http.Request) {
	var key *string
	if k := r.PostFormValue("api_key"); k != "" {
		key = &k
	}
	v, err := h.cat.ConnectSetWorkspaceAI(r.Context(), r.PathValue("project"), r.PostFormValue("base_url"), r.PostFormValue("model"), key)
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
	if _, err := h.cat.ConnectSetProject(r.Context(), r.PathValue("project"), in); err != nil {
		h.fail(w, r, err)
		return
	}
	h.connectDone(w, r, "Embed settings saved", "embed")
}
