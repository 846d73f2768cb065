package tools

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
)

// Redeploy providers.
const (
	DeployGitHub = "github"
	DeployHook   = "hook"
)

// Redeploy attempt outcomes.
const (
	RedeployDispatched    = "dispatched"
	RedeployNotConfigured = "not_configured"
	RedeployRefused       = "refused"
	RedeployError         = "error"
)

// CodeDispatchFailed is the 502 of endpoint 8: the provider refused the dispatch or did
// not answer in time.
const CodeDispatchFailed = "dispatch_failed"

// DefaultGitHubAPI is GitHub's API; GitHub Enterprise gives its own.
const DefaultGitHubAPI = "https://api.github.com"

// DefaultDispatchTimeout bounds one dispatch call.
const DefaultDispatchTimeout = 15 * time.Second

const maxDeployToken = 1024

// RedeployIn is `redeploy set`. Token nil keeps the stored one.
type RedeployIn struct {
	ProjectID string
	Provider  string
	Repo      string
	Workflow  string
	Ref       string
	Inputs    map[string]string
	APIURL    string
	URL       string
	Token     *string
}

// RedeployOut is endpoint 8's 200.
type RedeployOut struct {
	OK           bool      `json:"ok"`
	DispatchedAt time.Time `json:"dispatched_at"`
}

// openHookURL opens a stored hook URL for showing it masked; one that cannot be opened
// shows as such rather than failing the page.
func (c *Catalog) openHookURL(projectID string, d model.DeployConfig) string {
	if d.URLEnc == "" {
		return ""
	}
	u, err := c.opts.Secrets.Open(d.URLEnc, model.DeployHookPurpose(projectID))
	if err != nil {
		return "(stored, unreadable with this server's secret key)"
	}
	return u
}

var (
	repoPattern     = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}$`)
	workflowPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,200}$`)
	inputKeyPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]{0,99}$`)
)

// SetRedeploy configures a project's redeploy: a GitHub workflow_dispatch (repo, workflow,
// ref, inputs, API URL, token) or a deploy hook URL. URLs pass the outbound guard now and
// again on every dispatch; the token and the hook URL are sealed before they reach the
// database. Token nil keeps the stored token only while the API URL and repository stay.
func (c *Catalog) SetRedeploy(ctx context.Context, in RedeployIn) (model.RedeployView, error) {
	if err := c.admit(ctx, model.OpRedeploySet, on{project: in.ProjectID}); err != nil {
		return model.RedeployView{}, err
	}
	cfg := model.DeployConfig{Provider: in.Provider}
	var sealed string
	switch in.Provider {
	case DeployGitHub:
		if in.URL != "" {
			return model.RedeployView{}, model.Errorf(model.CodeInvalid, "--url is for the hook provider; GitHub takes --repo, --workflow and --ref")
		}
		cfg.Repo, cfg.Workflow, cfg.Ref = strings.TrimSpace(in.Repo), strings.TrimSpace(in.Workflow), strings.TrimSpace(in.Ref)
		if !repoPattern.MatchString(cfg.Repo) || strings.Contains(cfg.Repo, "..") {
			return model.RedeployView{}, model.Errorf(model.CodeInvalid, "repo %q must be OWNER/NAME", model.Truncate(cfg.Repo, 200))
		}
		if !workflowPattern.MatchString(cfg.Workflow) || strings.Contains(cfg.Workflow, "..") {
			return model.RedeployView{}, model.Errorf(model.CodeInvalid, "workflow %q must be a workflow file name (deploy.yml) or id", model.Truncate(cfg.Workflow, 200))
		}
		if cfg.Ref == "" || len(cfg.Ref) > 250 || strings.ContainsFunc(cfg.Ref, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
			return model.RedeployView{}, model.Errorf(model.CodeInvalid, "ref %q must be a branch or tag name", model.Truncate(cfg.Ref, 200))
		}
		if len(in.Inputs) > 25 {
			return model.RedeployView{}, model.Errorf(model.CodeInvalid, "a workflow takes at most 25 inputs")
		}
		for k, v := range in.Inputs {
			if !inputKeyPattern.MatchString(k) || len(v) > 1000 {
				return model.RedeployView{}, model.Errorf(model.CodeInvalid, "input %q: names are letters, digits, _ and -, values at most 1000 characters", model.Truncate(k, 100))
			}
		}
		cfg.Inputs = in.Inputs
		api := strings.TrimRight(strings.TrimSpace(in.APIURL), "/")
		if api == "" {
			api = DefaultGitHubAPI
		}
		var err error
		if cfg.APIURL, err = c.checkCallURL(ctx, "GitHub API URL", api); err != nil {
			return model.RedeployView{}, err
		}
	case DeployHook:
		if in.Repo != "" || in.Workflow != "" || in.Ref != "" || len(in.Inputs) > 0 || in.APIURL != "" || in.Token != nil {
			return model.RedeployView{}, model.Errorf(model.CodeInvalid, "the hook provider takes --url only")
		}
		hookURL, err := c.checkCallURL(ctx, "deploy hook URL", in.URL)
		if err != nil {
			return model.RedeployView{}, err
		}
		// A deploy hook URL is a secret: whoever has it can start builds.
		if cfg.URLEnc, err = c.opts.Secrets.Seal(hookURL, model.DeployHookPurpose(in.ProjectID)); err != nil {
			return model.RedeployView{}, fmt.Errorf("storing the deploy hook URL: %w", err)
		}
		in.URL = hookURL
	default:
		return model.RedeployView{}, model.Errorf(model.CodeInvalid, "provider %q must be github or hook", model.Truncate(in.Provider, 40))
	}
	if in.Token != nil {
		tok := strings.TrimSpace(*in.Token)
		if tok == "" || len(tok) > maxDeployToken || strings.ContainsFunc(tok, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
			return model.RedeployView{}, model.Errorf(model.CodeInvalid, "the token must be 1 to %d characters without spaces", maxDeployToken)
		}
		var err error
		if sealed, err = c.opts.Secrets.Seal(tok, deployTokenPurpose(in.ProjectID)); err != nil {
			return model.RedeployView{}, fmt.Errorf("storing the deploy token: %w", err)
		}
	}
	var out model.RedeployView
	err := c.write(ctx, write{op: model.OpRedeploySet, project: in.ProjectID, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		cur, err := tx.DeployConfig(ctx, in.ProjectID)
		if err != nil {
			return nil, err
		}
		switch {
		case in.Token != nil:
			cfg.TokenEnc = sealed
		case cfg.Provider == DeployGitHub && cur.Provider == DeployGitHub:
			// The token stays only with the API and repository it was given for.
			// A GitHub configuration needs its token, so a cleared one refuses the save.
			how := "--token-stdin, or the token field of the Connect page"
			switch {
			case cur.TokenEnc == "":
			case !secretStays(cur.APIURL, cfg.APIURL):
				return nil, errSecretCleared("GitHub API URL", cur.APIURL, cfg.APIURL, "GitHub token", how)
			case !secretStays(cur.Repo, cfg.Repo):
				return nil, errSecretCleared("repository", cur.Repo, cfg.Repo, "GitHub token", how)
			}
			cfg.TokenEnc = cur.TokenEnc
		}
		if cfg.Provider == DeployGitHub && cfg.TokenEnc == "" {
			return nil, model.Errorf(model.CodeInvalid, "GitHub needs a token: pipe it in with --token-stdin")
		}
		out = cfg.View(in.URL)
		// The project's deploy_configured changes: the touch drops cached copies.
		return []model.Change{{Kind: model.ChangeProjectSettings}}, tx.SetDeployConfig(ctx, in.ProjectID, cfg)
	}})
	return out, err
}

// ShowRedeploy returns a project's redeploy settings, never the token.
func (c *Catalog) ShowRedeploy(ctx context.Context, projectID string) (model.RedeployView, error) {
	if err := c.gate(ctx, model.OpRedeployShow, on{project: projectID}); err != nil {
		return model.RedeployView{}, err
	}
	var out model.RedeployView
	err := c.read(ctx, projectID, func(tx model.Tx, _ model.Project) error {
		cfg, err := tx.DeployConfig(ctx, projectID)
		out = cfg.View(c.openHookURL(projectID, cfg))
		return err
	})
	return out, err
}

// RedeployAttempts lists a project's newest attempts (limit 1 to 1000, default 50).
func (c *Catalog) RedeployAttempts(ctx context.Context, projectID string, limit int) ([]model.RedeployAttempt, error) {
	if limit == 0 {
		limit = 50
	}
	if limit < 1 || limit > 1000 {
		return nil, model.Errorf(model.CodeInvalid, "limit must be 1 to 1000")
	}
	if err := c.gate(ctx, model.OpRedeployLog, on{project: projectID}); err != nil {
		return nil, err
	}
	out := []model.RedeployAttempt{}
	err := c.read(ctx, projectID, func(tx model.Tx, _ model.Project) error {
		as, err := tx.RedeployAttempts(ctx, projectID, limit)
		out = append(out, as...)
		return err
	})
	return out, err
}

// DeployCall is one redeploy dispatch as the catalogue decided it: the configuration with
// its secret opened, and the guard and time budget the call must keep to. It is for the
// dispatcher only: String leaves the secrets out.
type DeployCall struct {
	ProjectID string
	Config    model.DeployConfig
	Token     string // github: the opened token
	HookURL   string // hook: the opened URL, itself a secret
	Guard     *outbound.Guard
	Timeout   time.Duration
}

func (d DeployCall) String() string {
	return fmt.Sprintf("redeploy of project %s (%s)", d.ProjectID, d.Config.Provider)
}

// Dispatcher makes a redeploy's outbound call (workflows.Dispatch) and reports the
// provider's HTTP status, 0 when none answered. Its errors carry CodeNotConfigured when the
// provider refuses the token or does not know the target, CodeDispatchFailed otherwise.
type Dispatcher func(ctx context.Context, call DeployCall) (status int, err error)

// Redeploy is endpoint 8: personal access tokens only; it refreshes the project's cache
// (its revision moves, so every server drops what it cached), then has dispatch make the
// configured call. Every attempt past authorization and the rate limit is recorded.
// Answers: CodeNotConfigured when nothing is configured or the provider refuses the token
// or does not know the repository or workflow (401, 403, 404); CodeDispatchFailed when it
// refuses otherwise or does not answer in time.
func (c *Catalog) Redeploy(ctx context.Context, projectID string, dispatch Dispatcher) (RedeployOut, error) {
	if err := c.admit(ctx, model.OpRedeploy, on{project: projectID}); err != nil {
		return RedeployOut{}, err
	}
	var cfg model.DeployConfig
	err := c.write(ctx, write{op: model.OpRedeploy, project: projectID, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		var err error
		cfg, err = tx.DeployConfig(ctx, projectID)
		return []model.Change{{Kind: model.ChangeCacheRefreshed}}, err
	}})
	if err != nil {
		return RedeployOut{}, err
	}
	at := c.opts.Now().UTC()
	var status int
	call, dispatchErr := c.deployCall(projectID, cfg)
	if dispatchErr == nil {
		status, dispatchErr = dispatch(ctx, call)
	}
	a := model.RedeployAttempt{ID: newID(), ProjectID: projectID, At: at, By: model.PrincipalFrom(ctx).Actor(), Outcome: RedeployDispatched}
	if status != 0 {
		a.HTTPStatus = &status
	}
	if dispatchErr != nil {
		a.Message = model.ErrorMessage(dispatchErr)
		switch model.ErrorCode(dispatchErr) {
		case model.CodeNotConfigured:
			a.Outcome = RedeployNotConfigured
		case CodeDispatchFailed:
			// Refused is the provider saying no; a 2xx whose answer was cut off (too large,
			// too slow) or no answer at all is an error.
			a.Outcome = RedeployRefused
			if status == 0 || (status >= 200 && status < 300) {
				a.Outcome = RedeployError
			}
		default:
			a.Outcome = RedeployError
		}
	}
	// Recorded after the call, as the system and with a context of its own: a caller that
	// went away must not lose the record of a dispatch that happened, and the record spends
	// no second write budget.
	recCtx, cancel := context.WithTimeout(model.WithPrincipal(context.WithoutCancel(ctx), System), 10*time.Second)
	defer cancel()
	if err := c.write(recCtx, write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		return nil, tx.AddRedeployAttempt(ctx, a)
	}}); err != nil {
		c.opts.Logger.Error("recording a redeploy attempt", "project", projectID, "outcome", a.Outcome, "err", err)
	}
	if dispatchErr != nil {
		return RedeployOut{}, dispatchErr
	}
	return RedeployOut{OK: true, DispatchedAt: at}, nil
}

// deployCall opens what cfg's call needs; a secret this server cannot open, or nothing
// configured, is CodeNotConfigured.
func (c *Catalog) deployCall(projectID string, cfg model.DeployConfig) (DeployCall, error) {
	timeout := c.opts.DispatchTimeout
	if timeout <= 0 {
		timeout = DefaultDispatchTimeout
	}
	call := DeployCall{ProjectID: projectID, Config: cfg, Guard: c.guard(), Timeout: timeout}
	var err error
	switch cfg.Provider {
	case DeployGitHub:
		if call.Token, err = c.opts.Secrets.Open(cfg.TokenEnc, deployTokenPurpose(projectID)); err != nil {
			c.opts.Logger.Error("opening a deploy token", "project", projectID, "err", err)
			return DeployCall{}, model.Errorf(model.CodeNotConfigured, "the stored GitHub token cannot be read with this server's secret key (LOKAL_SECRET_KEY); set it again with lokal redeploy set")
		}
	case DeployHook:
		if call.HookURL, err = c.opts.Secrets.Open(cfg.URLEnc, model.DeployHookPurpose(projectID)); err != nil {
			c.opts.Logger.Error("opening a deploy hook URL", "project", projectID, "err", err)
			return DeployCall{}, model.Errorf(model.CodeNotConfigured, "the stored deploy hook URL cannot be read with this server's secret key (LOKAL_SECRET_KEY); set it again with lokal redeploy set")
		}
	default:
		return DeployCall{}, model.Errorf(model.CodeNotConfigured, "no redeploy workflow is configured for this project (lokal redeploy set)")
	}
	return call, nil
}

func deployTokenPurpose(projectID string) string { return "project:" + projectID + ":deploy_token" }

// ParseDeployInputs reads workflow inputs written NAME=VALUE.
func ParseDeployInputs(items []string) (map[string]string, error) {
	out := map[string]string{}
	for _, it := range items {
		k, v, ok := strings.Cut(it, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, model.Errorf(model.CodeInvalid, "input %q must be NAME=VALUE", model.Truncate(it, 100))
		}
		out[strings.TrimSpace(k)] = v
	}
	return out, nil
}

// SortedInputs lists inputs as NAME=VALUE sorted by name, for text output.
func SortedInputs(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
