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
	party := outbound.CodeHost
	if call.Config.Provider == tools.DeployHook {
		party = outbound.DeployHook
	}
	resp, err := call.Guard.Client(outbound.ClientOptions{Timeout: call.Timeout}).Do(req)
	if err != nil {
		return 0, dispatchError(outbound.Fail(party, 0, err))
	}
	defer resp.Body.Close()
	st := resp.StatusCode
	// The answer is read (to its cap) only so that the connection ends cleanly; its text is
	// never kept: an echoing code host answers with the token.
	_, rerr := outbound.ReadLimited(resp.Body, outbound.MaxHookAnswer)
	switch {
	case errors.Is(rerr, outbound.ErrTooLarge), rerr != nil && isTimeout(rerr):
		// Whatever the status, an answer without end is not one lokal takes as valid.
		return st, dispatchError(outbound.Fail(party, st, rerr))
	case st >= 200 && st < 300:
		return st, nil
	}
	return st, dispatchError(outbound.Fail(party, st, nil))
}

// dispatchError is a failed dispatch in the catalogue's terms: CodeNotConfigured when the
// token or hook is refused or the repository or workflow unknown (the settings are
// wrong), CodeDispatchFailed otherwise; the message is the failure's reason and status.
func dispatchError(f outbound.Failure) error {
	code := tools.CodeDispatchFailed
	if f.Kind == outbound.FailAuth || f.Kind == outbound.FailNotFound {
		code = model.CodeNotConfigured
	}
	return model.Errorf(code, "%s", f.Error())
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
