package workflows

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
)

// Dispatch makes a redeploy's call as the catalogue's Redeploy decided it (a
// tools.Dispatcher): GitHub's workflow_dispatch or a POST to the deploy hook, through the
// outbound guard with no redirect followed, so a provider cannot bounce the token or the
// call anywhere. It reports the provider's HTTP status (0 when none answered).
func Dispatch(ctx context.Context, call tools.DeployCall) (int, error) {
	req, err := dispatchRequest(ctx, call)
	if err != nil {
		return 0, err
	}
	req.Header.Set("User-Agent", "lokal-redeploy")
	resp, err := call.Guard.Client(outbound.ClientOptions{Timeout: call.Timeout}).Do(req)
	if err != nil {
		var b *outbound.BlockedError
		switch {
		case errors.As(err, &b):
			return 0, model.Errorf(tools.CodeDispatchFailed, "the dispatch was refused by lokal's outbound guard: %v", b)
		case isTimeout(err):
			return 0, model.Errorf(tools.CodeDispatchFailed, "the provider did not answer within %s", call.Timeout)
		}
		return 0, model.Errorf(tools.CodeDispatchFailed, "calling the provider: %v", redactURLError(err))
	}
	defer resp.Body.Close()
	st := resp.StatusCode
	snippet, rerr := outbound.ReadLimited(resp.Body, outbound.MaxHookAnswer)
	switch {
	case errors.Is(rerr, outbound.ErrTooLarge):
		// Whatever the status, an answer without end is not one lokal takes as valid.
		return st, model.Errorf(tools.CodeDispatchFailed, "the provider answered %d with more than %s; lokal stopped reading", st,
			outbound.FormatSize(outbound.MaxHookAnswer))
	case rerr != nil && isTimeout(rerr):
		return st, model.Errorf(tools.CodeDispatchFailed, "the provider's answer did not end within %s", call.Timeout)
	}
	switch {
	case st >= 200 && st < 300:
		return st, nil
	case st == http.StatusUnauthorized || st == http.StatusForbidden || st == http.StatusNotFound:
		what := "the token is refused or the repository or workflow is unknown"
		if call.Config.Provider == tools.DeployHook {
			what = "the deploy hook URL is refused or unknown"
		}
		return st, model.Errorf(model.CodeNotConfigured, "the provider answered %d: %s%s", st, what, providerMessage(snippet))
	default:
		return st, model.Errorf(tools.CodeDispatchFailed, "the provider refused the dispatch with %d%s", st, providerMessage(snippet))
	}
}

// dispatchRequest is the provider's request: GitHub's workflow_dispatch with the ref and
// inputs, or an empty POST to the hook.
func dispatchRequest(ctx context.Context, call tools.DeployCall) (*http.Request, error) {
	cfg := call.Config
	switch cfg.Provider {
	case tools.DeployGitHub:
		inputs := cfg.Inputs
		if inputs == nil {
			inputs = map[string]string{}
		}
		body, _ := json.Marshal(struct {
			Ref    string            `json:"ref"`
			Inputs map[string]string `json:"inputs"`
		}{cfg.Ref, inputs})
		owner, name, _ := strings.Cut(cfg.Repo, "/")
		u := cfg.APIURL + "/repos/" + url.PathEscape(owner) + "/" + url.PathEscape(name) + "/actions/workflows/" +
			url.PathEscape(cfg.Workflow) + "/dispatches"
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
		if err != nil {
			return nil, model.Errorf(model.CodeNotConfigured, "the GitHub API URL cannot be used: %v", err)
		}
		req.Header.Set("Authorization", "Bearer "+call.Token)
		req.Header.Set("Accept", "application/vnd.github+json")
		req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
		req.Header.Set("Content-Type", "application/json")
		return req, nil
	case tools.DeployHook:
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, call.HookURL, http.NoBody)
		if err != nil {
			return nil, model.Errorf(model.CodeNotConfigured, "the deploy hook URL cannot be used: %v", err)
		}
		return req, nil
	}
	return nil, model.Errorf(model.CodeNotConfigured, "no redeploy workflow is configured for this project (lokal redeploy set)")
}

// providerMessage quotes GitHub's JSON "message", which says what was wrong.
func providerMessage(body []byte) string {
	var m struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &m) != nil || m.Message == "" {
		return ""
	}
	return ": " + model.Truncate(strings.Join(strings.Fields(m.Message), " "), 200)
}

// redactURLError drops the URL from a transport error: a deploy hook URL is a secret.
func redactURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
