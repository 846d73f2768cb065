package app

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/lokal-dev/lokal/rest/httpx"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/workflows"
)

// The owner's parts of the Connect page: webhooks, redeploy and AI usage. Each form calls
// the catalogue operation the CLI calls (lokal webhook, lokal redeploy, lokal ai usage)
// with the signed-in user as the principal, so the history and the redeploy attempts
// credit the user, and the catalogue's own rules (the outbound guard, pat_required, the
// redeploy rate limit) apply unchanged.

// ownerView is what the page shows of them.
type ownerView struct {
	Webhooks []webhookRow
	Redeploy model.RedeployView // its hook URL comes masked: it is a secret
	Inputs   string
	Attempts []attemptRow
	Usage    tools.UsageOut
}

type webhookRow struct {
	model.WebhookView
	Deliveries []tools.DeliveryView
}

type attemptRow struct {
	model.RedeployAttempt
	Who string
}

// shownDeliveries and shownAttempts bound the page; the CLI lists more.
const (
	shownDeliveries = 20
	shownAttempts   = 20
)

func (h *handler) ownerSections(ctx context.Context, projectID string) (ownerView, error) {
	var v ownerView
	hooks, err := h.cat.ListWebhooks(ctx, projectID)
	if err != nil {
		return v, err
	}
	for _, w := range hooks {
		ds, err := h.cat.WebhookDeliveries(ctx, w.ID, shownDeliveries)
		if err != nil {
			return v, err
		}
		v.Webhooks = append(v.Webhooks, webhookRow{WebhookView: w, Deliveries: ds})
	}
	if v.Redeploy, err = h.cat.ShowRedeploy(ctx, projectID); err != nil {
		return v, err
	}
	v.Inputs = strings.Join(tools.SortedInputs(v.Redeploy.Inputs), "\n")
	attempts, err := h.cat.RedeployAttempts(ctx, projectID, shownAttempts)
	if err != nil {
		return v, err
	}
	by := make([]string, len(attempts))
	for i, a := range attempts {
		by[i] = a.By
	}
	names, err := h.cat.ActorNames(ctx, projectID, by)
	if err != nil {
		return v, err
	}
	for _, a := range attempts {
		v.Attempts = append(v.Attempts, attemptRow{RedeployAttempt: a, Who: nameOf(names, a.By)})
	}
	v.Usage, err = h.cat.Usage(ctx, tools.UsageIn{ProjectArg: tools.ProjectArg{ProjectID: projectID}})
	return v, err
}

// connectFail shows a refused form on the Connect page itself, beside the form, with the
// catalogue's message (a private-network URL, a provider's refusal) and the fields typed;
// not found, not signed in and server faults get the error page as everywhere else.
func (h *handler) connectFail(w http.ResponseWriter, r *http.Request, err error) {
	status := httpx.Status(err)
	if wantsJSON(r) || isFragment(r) || !inPlace(status) {
		h.fail(w, r, err)
		return
	}
	httpx.SetRetryAfter(w, err)
	// The section is the first part of the form's path after connect/.
	_, rest, _ := strings.Cut(r.URL.Path, "/connect/")
	at, _, _ := strings.Cut(rest, "/")
	h.connectPage(w, r, status, notice{Error: model.ErrorMessage(err), ErrorAt: at})
}

func (h *handler) addWebhook(w http.ResponseWriter, r *http.Request) {
	r.ParseForm() //nolint:errcheck // signedIn read and parsed the body already, refusing a bad one
	created, err := h.cat.AddWebhook(r.Context(), r.PathValue("project"), r.PostFormValue("url"), r.PostForm["events"])
	if err != nil {
		h.connectFail(w, r, err)
		return
	}
	// Shown in this answer only, as API keys are: the receiver verifies signatures with it.
	h.connectPage(w, r, http.StatusCreated, notice{SecretWhat: "Signing secret of the webhook to " + created.URL, Secret: created.Secret})
}

// projectWebhook checks that the webhook id is one of the page's project.
func (h *handler) projectWebhook(r *http.Request) (string, error) {
	id := r.PostFormValue("id")
	hooks, err := h.cat.ListWebhooks(r.Context(), r.PathValue("project"))
	if err != nil {
		return "", err
	}
	if !slices.ContainsFunc(hooks, func(v model.WebhookView) bool { return v.ID == id }) {
		return "", model.Errorf(model.CodeNotFound, "webhook %s not found in this project", truncate(id, 40))
	}
	return id, nil
}

func (h *handler) setWebhookState(w http.ResponseWriter, r *http.Request) {
	id, err := h.projectWebhook(r)
	if err != nil {
		h.connectFail(w, r, err)
		return
	}
	on := r.PostFormValue("enabled") == "1"
	if _, err := h.cat.SetWebhookEnabled(r.Context(), id, on); err != nil {
		h.connectFail(w, r, err)
		return
	}
	msg := "Webhook disabled: its pending deliveries were ended"
	if on {
		msg = "Webhook enabled: new changes are delivered again"
	}
	h.connectDone(w, r, msg, "webhooks")
}

func (h *handler) setWebhookURL(w http.ResponseWriter, r *http.Request) {
	id, err := h.projectWebhook(r)
	if err != nil {
		h.connectFail(w, r, err)
		return
	}
	changed, err := h.cat.SetWebhookURL(r.Context(), id, r.PostFormValue("url"))
	if err != nil {
		h.connectFail(w, r, err)
		return
	}
	// The secret is rotated with the URL and shown in this answer only, as on creation.
	h.connectPage(w, r, http.StatusOK, notice{SecretWhat: "New signing secret of the webhook, now sending to " + changed.URL, Secret: changed.Secret})
}

func (h *handler) setRedeploy(w http.ResponseWriter, r *http.Request) {
	in := tools.RedeployIn{ProjectID: r.PathValue("project"), Provider: r.PostFormValue("provider")}
	switch in.Provider {
	case tools.DeployGitHub:
		in.Repo, in.Workflow, in.Ref, in.APIURL = r.PostFormValue("repo"), r.PostFormValue("workflow"), r.PostFormValue("ref"), r.PostFormValue("api_url")
		var lines []string
		for _, l := range strings.Split(r.PostFormValue("inputs"), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		inputs, err := tools.ParseDeployInputs(lines)
		if err != nil {
			h.connectFail(w, r, err)
			return
		}
		in.Inputs = inputs
		if tok := r.PostFormValue("token"); tok != "" {
			in.Token = &tok
		}
	case tools.DeployHook:
		in.URL = r.PostFormValue("url")
	}
	if _, err := h.cat.SetRedeploy(r.Context(), in); err != nil {
		h.connectFail(w, r, err)
		return
	}
	h.connectDone(w, r, "Redeploy saved", "redeploy")
}

func (h *handler) dispatchRedeploy(w http.ResponseWriter, r *http.Request) {
	if _, err := h.cat.Redeploy(r.Context(), r.PathValue("project"), workflows.Dispatch); err != nil {
		// The attempt is recorded and listed with the message.
		h.connectFail(w, r, err)
		return
	}
	h.connectDone(w, r, "Redeploy dispatched: the site rebuilds with the current translations", "redeploy")
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
