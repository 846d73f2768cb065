package tools

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/lokal-dev/lokal/ai"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
)

// AIProvider is the operator's default provider, from LOKAL_AI_BASE_URL, LOKAL_AI_API_KEY
// and LOKAL_AI_MODEL; the command line reads them, tools does not read the environment.
type AIProvider struct {
	BaseURL string
	APIKey  string
	Model   string
}

// AI sources: where the provider of a project comes from.
const (
	AISourceWorkspace = "workspace"
	AISourceServer    = "server"
	AISourceNone      = "none"
)

// Limits of the AI settings.
const (
	maxAIModel        = 200
	maxAIInstructions = 4000
	maxAIKey          = 4096
)

// WorkspaceAIView is what `ai set --workspace` prints: never the key, only whether one is set.
type WorkspaceAIView struct {
	Workspace string `json:"workspace"`
	BaseURL   string `json:"base_url"`
	Model     string `json:"model"`
	KeySet    bool   `json:"key_set"`
	// KeyCleared says this save dropped the stored key: the base URL changed without one.
	KeyCleared bool `json:"key_cleared,omitempty"`
}

// AIView is a project's resolved AI configuration, as `ai show` prints it.
type AIView struct {
	Configured   bool   `json:"configured"`
	Source       string `json:"source"`
	BaseURL      string `json:"base_url"`
	Model        string `json:"model"`
	Instructions string `json:"instructions"`
}

// ResolvedAI is the provider a project's translations use, with the key opened. It is
// for the AI client only: its LogValue leaves the key out, and it is never encoded.
type ResolvedAI struct {
	Source       string
	WorkspaceID  string
	Instructions string
	Config       ai.Config
}

// LogValue keeps the key out of logs.
func (r ResolvedAI) LogValue() slog.Value {
	return slog.GroupValue(slog.String("source", r.Source), slog.String("base_url", r.Config.BaseURL),
		slog.String("model", r.Config.Model), slog.Bool("key_set", r.Config.APIKey != ""))
}

// String keeps the key out of fmt's %v too.
func (r ResolvedAI) String() string {
	return fmt.Sprintf("ai provider (%s) %s model %s", r.Source, r.Config.BaseURL, r.Config.Model)
}

// SetWorkspaceAI gives a workspace its own provider. The base URL must pass the outbound
// guard now (and does again on every call); a key given is sealed before it reaches the
// database. apiKey nil keeps the stored key only while the base URL stays the same: a new
// base URL without a key clears it (secretStays). For the operator, and for a signed-in
// user their own workspace (self).
func (c *Catalog) SetWorkspaceAI(ctx context.Context, workspaceID, baseURL, modelName string, apiKey *string) (WorkspaceAIView, error) {
	ctx, err := c.self(ctx, model.OpSetWorkspaceAI, "", workspaceID)
	if err != nil {
		return WorkspaceAIView{}, err
	}
	baseURL = strings.TrimRight(strings.TrimSpace(baseURL), "/")
	if err := c.checkAIBaseURL(ctx, baseURL); err != nil {
		return WorkspaceAIView{}, err
	}
	modelName, err = checkAIModel(modelName)
	if err != nil {
		return WorkspaceAIView{}, err
	}
	if modelName == "" {
		return WorkspaceAIView{}, model.Errorf(model.CodeInvalid, "a workspace provider needs a modelName")
	}
	var sealed string
	if apiKey != nil {
		key := strings.TrimSpace(*apiKey)
		if key == "" || len(key) > maxAIKey || strings.ContainsFunc(key, unicode.IsControl) {
			return WorkspaceAIView{}, model.Errorf(model.CodeInvalid, "the API key must be 1 to %d printable characters", maxAIKey)
		}
		if sealed, err = c.opts.Secrets.Seal(key, workspaceKeyPurpose(workspaceID)); err != nil {
			return WorkspaceAIView{}, fmt.Errorf("storing the API key: %w", err)
		}
	}
	out := WorkspaceAIView{Workspace: workspaceID, BaseURL: baseURL, Model: modelName}
	err = c.write(ctx, write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		cur, err := tx.WorkspaceAI(ctx, workspaceID)
		if err != nil {
			return nil, err
		}
		switch {
		case apiKey != nil:
			cur.KeyEnc = sealed
		case !secretStays(cur.BaseURL, baseURL):
			out.KeyCleared = cur.KeyEnc != ""
			cur.KeyEnc = ""
		}
		cur.BaseURL, cur.Model = baseURL, modelName
		out.KeySet = cur.KeyEnc != ""
		return nil, tx.SetWorkspaceAI(ctx, workspaceID, cur)
	}})
	if err != nil {
		return WorkspaceAIView{}, err
	}
	return out, nil
}

// SetProjectAI sets a project's model and instructions; nil keeps one, and an empty model
// goes back to the provider's. It returns the project's configuration as ShowAI does.
// For the operator and the project's owners (owner).
func (c *Catalog) SetProjectAI(ctx context.Context, projectID string, modelName, instructions *string) (AIView, error) {
	ctx, err := c.ownerFor(ctx, model.OpSetAI, projectID, true)
	if err != nil {
		return AIView{}, err
	}
	var m, ins string
	if modelName != nil {
		var err error
		if m, err = checkAIModel(*modelName); err != nil {
			return AIView{}, err
		}
	}
	if instructions != nil {
		ins = strings.TrimSpace(*instructions)
		if len([]rune(ins)) > maxAIInstructions {
			return AIView{}, model.Errorf(model.CodeInvalid, "instructions may be at most %d characters", maxAIInstructions)
		}
	}
	var out AIView
	err = c.write(ctx, write{admin: true, project: projectID, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		cur, err := tx.ProjectAI(ctx, projectID)
		if err != nil {
			return nil, err
		}
		if modelName != nil {
			cur.Model = m
		}
		if instructions != nil {
			cur.Instructions = ins
		}
		if err := tx.SetProjectAI(ctx, projectID, cur); err != nil {
			return nil, err
		}
		r, err := c.resolveAI(ctx, tx, projectID)
		out = r.view()
		return []model.Change{{Kind: model.ChangeProjectSettings}}, err
	}})
	return out, err
}

// ShowAI returns where a project's AI comes from and what it uses, never a key. For the
// operator and the project's owners (owner).
func (c *Catalog) ShowAI(ctx context.Context, projectID string) (AIView, error) {
	ctx, err := c.ownerFor(ctx, model.OpShowAI, projectID, false)
	if err != nil {
		return AIView{}, err
	}
	var out AIView
	err = c.store.View(ctx, func(tx model.Tx) error {
		r, err := c.resolveAI(ctx, tx, projectID)
		out = r.view()
		return err
	})
	return out, err
}

// ResolveAI returns the provider of a project with its key opened, or CodeNotConfigured.
// Admin only: workers run as the system; the AI endpoint resolves inside its operation.
func (c *Catalog) ResolveAI(ctx context.Context, projectID string) (ResolvedAI, error) {
	if err := c.gate(ctx, model.OpResolveAI, on{}); err != nil {
		return ResolvedAI{}, err
	}
	var r resolvedAI
	if err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		r, err = c.resolveAI(ctx, tx, projectID)
		return err
	}); err != nil {
		return ResolvedAI{}, err
	}
	return c.openAI(r)
}

// resolvedAI is a resolution with the workspace key still sealed.
type resolvedAI struct {
	source, workspaceID string
	baseURL, model      string
	instructions        string
	keyEnc, plainKey    string // sealed workspace key, or the operator's key
	configured          bool
}

func (r resolvedAI) view() AIView {
	return AIView{Configured: r.configured, Source: r.source, BaseURL: r.baseURL, Model: r.model, Instructions: r.instructions}
}

// resolveAI applies the order: the project's model and instructions, then the workspace's
// provider (its key, base URL and model), then the operator's default.
func (c *Catalog) resolveAI(ctx context.Context, tx model.Tx, projectID string) (resolvedAI, error) {
	return resolveAI(ctx, tx, projectID, c.opts.AIDefault)
}

// resolveAI is Catalog.resolveAI with the operator's default given: hooks have no catalogue.
func resolveAI(ctx context.Context, tx model.Tx, projectID string, def AIProvider) (resolvedAI, error) {
	p, err := tx.Project(ctx, projectID)
	if err != nil {
		return resolvedAI{}, err
	}
	pa, err := tx.ProjectAI(ctx, projectID)
	if err != nil {
		return resolvedAI{}, err
	}
	wa, err := tx.WorkspaceAI(ctx, p.WorkspaceID)
	if err != nil {
		return resolvedAI{}, err
	}
	r := resolvedAI{source: AISourceNone, workspaceID: p.WorkspaceID, instructions: pa.Instructions}
	switch {
	case wa.BaseURL != "":
		r.source, r.baseURL, r.model, r.keyEnc = AISourceWorkspace, wa.BaseURL, wa.Model, wa.KeyEnc
	case def.BaseURL != "":
		r.source, r.baseURL, r.model, r.plainKey = AISourceServer, strings.TrimRight(def.BaseURL, "/"), def.Model, def.APIKey
	}
	if pa.Model != "" {
		r.model = pa.Model
	}
	r.configured = r.source != AISourceNone && r.model != ""
	return r, nil
}

// openAI opens the workspace key and builds the client configuration; a workspace's
// provider is called through the outbound guard.
func (c *Catalog) openAI(r resolvedAI) (ResolvedAI, error) {
	if !r.configured {
		return ResolvedAI{}, model.Errorf(model.CodeNotConfigured, "this project has no AI provider configured (lokal ai set)")
	}
	out := ResolvedAI{Source: r.source, WorkspaceID: r.workspaceID, Instructions: r.instructions,
		Config: ai.Config{BaseURL: r.baseURL, Model: r.model, APIKey: r.plainKey, Concurrency: c.opts.AIConcurrency}}
	if r.source == AISourceWorkspace {
		if r.keyEnc != "" {
			key, err := c.opts.Secrets.Open(r.keyEnc, workspaceKeyPurpose(r.workspaceID))
			if err != nil {
				return ResolvedAI{}, fmt.Errorf("reading workspace %s's API key: %w", r.workspaceID, err)
			}
			out.Config.APIKey = key
		}
		out.Config.HTTPClient = c.guard().Client(outbound.ClientOptions{Timeout: 2 * time.Minute})
	}
	return out, nil
}

func workspaceKeyPurpose(workspaceID string) string { return "workspace:" + workspaceID + ":ai_key" }

// guard is the outbound guard; without one every private network is refused.
func (c *Catalog) guard() *outbound.Guard {
	if c.opts.Outbound != nil {
		return c.opts.Outbound
	}
	return outbound.NewGuard(nil)
}

// checkAIBaseURL refuses what a workspace may not call: not http(s), a query or fragment,
// or an address of a network the operator did not allow.
func (c *Catalog) checkAIBaseURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if raw == "" || err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return model.Errorf(model.CodeInvalid, "base URL %q must be an http or https URL, such as https://api.openai.com/v1", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return model.Errorf(model.CodeInvalid, "base URL %q must not have a query or fragment", raw)
	}
	if err := c.guard().CheckURL(ctx, raw, nil); err != nil {
		var b *outbound.BlockedError
		if errors.As(err, &b) {
			return model.Errorf(model.CodeInvalid, "base URL %s is refused: %v (the operator may allow a network with --allow-private-nets or LOKAL_ALLOW_PRIVATE_NETS)", raw, b)
		}
		return model.Errorf(model.CodeInvalid, "base URL %s: %v", raw, err)
	}
	return nil
}

func checkAIModel(name string) (string, error) {
	m := strings.TrimSpace(name)
	if len(m) > maxAIModel || strings.ContainsFunc(m, unicode.IsControl) {
		return "", model.Errorf(model.CodeInvalid, "model must be at most %d printable characters", maxAIModel)
	}
	return m, nil
}
