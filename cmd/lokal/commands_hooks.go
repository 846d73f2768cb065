package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// The webhook and redeploy commands: each is one catalogue operation, so the editor's
// Connect page can offer the same.

func hookCommands() []*command {
	limitFlag := flagDef{name: "limit", kind: intFlag, arg: "N", usage: "how many, newest first (1 to 1000)", def: "50"}
	return []*command{
		{name: "webhook add", args: "--project P --url URL [--events E1,E2]", synopsis: "add a webhook endpoint to a project",
			about: "Every change that creates, updates or approves a translation is POSTed to URL, signed per\n" +
				"Standard Webhooks and with X-Webhook-Secret. The secret is printed this once and stored\n" +
				"encrypted. URLs into loopback, private, link-local, CGNAT or metadata networks are refused\n" +
				"unless the network is allowed (--allow-private-nets, LOKAL_ALLOW_PRIVATE_NETS).",
			flags: []flagDef{req("project", "P", "project id or title"), req("url", "URL", "the endpoint, http or https"),
				{name: "events", kind: listFlag, arg: "E1,E2", usage: "events to send: " + strings.Join(tools.EventKinds, ", ") + " (default all)"},
				allowPrivateNetsFlag},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				w, err := c.cat.AddWebhook(ctx, c.in.str("project"), c.in.str("url"), c.in.list("events"))
				if err != nil {
					return nil, "", err
				}
				return w, fmt.Sprintf("webhook %s: %s (%s)\nsecret (shown once, keep it): %s", w.ID, w.URL,
					strings.Join(w.Events, ", "), w.Secret), nil
			}},
		{name: "webhook set", args: "--id ID --url URL", synopsis: "point a webhook at another URL (its secret is rotated)",
			about: "The webhook's secret is rotated with the URL: the new one is printed this once, and the old\n" +
				"one is never sent to the new URL. URLs into private networks are refused unless allowed.",
			flags:    []flagDef{req("id", "ID", "webhook id"), req("url", "URL", "the new endpoint, http or https"), allowPrivateNetsFlag},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				w, err := c.cat.SetWebhookURL(ctx, c.in.str("id"), c.in.str("url"))
				if err != nil {
					return nil, "", err
				}
				return w, fmt.Sprintf("webhook %s: %s (%s)\nnew secret (shown once, keep it; the old one no longer signs): %s", w.ID, w.URL,
					strings.Join(w.Events, ", "), w.Secret), nil
			}},
		{name: "webhook list", args: "--project P", synopsis: "list a project's webhooks with their last outcome",
			flags: []flagDef{req("project", "P", "project id or title")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				ws, err := c.cat.ListWebhooks(ctx, c.in.str("project"))
				if err != nil {
					return nil, "", err
				}
				var b strings.Builder
				if len(ws) == 0 {
					b.WriteString("no webhooks")
				}
				for i, w := range ws {
					if i > 0 {
						b.WriteString("\n")
					}
					b.WriteString(webhookText(w))
				}
				return struct {
					Webhooks []model.WebhookView `json:"webhooks"`
				}{ws}, b.String(), nil
			}},
		{name: "webhook disable", args: "--id ID", synopsis: "stop sending to a webhook (its pending deliveries end)",
			flags: []flagDef{req("id", "ID", "webhook id")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				w, err := c.cat.SetWebhookEnabled(ctx, c.in.str("id"), false)
				return w, webhookText(w), err
			}},
		{name: "webhook enable", args: "--id ID", synopsis: "send to a disabled webhook again",
			flags: []flagDef{req("id", "ID", "webhook id")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				w, err := c.cat.SetWebhookEnabled(ctx, c.in.str("id"), true)
				return w, webhookText(w), err
			}},
		{name: "webhook deliveries", args: "--id ID [--limit N]", synopsis: "list a webhook's deliveries, newest first",
			flags: []flagDef{req("id", "ID", "webhook id"), limitFlag}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				n, err := limitOf(c.in)
				if err != nil {
					return nil, "", err
				}
				ds, err := c.cat.WebhookDeliveries(ctx, c.in.str("id"), n)
				if err != nil {
					return nil, "", err
				}
				var b strings.Builder
				if len(ds) == 0 {
					b.WriteString("no deliveries")
				}
				for i, d := range ds {
					if i > 0 {
						b.WriteString("\n")
					}
					fmt.Fprintf(&b, "%s  %-9s %d attempt(s)  %s %s/%s", d.CreatedAt.Format("2006-01-02 15:04:05"), d.State, d.Attempts,
						d.Event, d.Locale, d.Key)
					if d.LastError != "" {
						fmt.Fprintf(&b, "  (%s)", d.LastError)
					}
				}
				return struct {
					Deliveries []tools.DeliveryView `json:"deliveries"`
				}{ds}, b.String(), nil
			}},
		{name: "redeploy set", args: "--project P (--provider github --repo OWNER/NAME --workflow FILE_OR_ID --ref BRANCH [--inputs k=v,...] [--api-url URL] [--token-stdin] | --provider hook --url URL)",
			synopsis: "configure what POST /api/{project}/redeploy dispatches",
			about: "github: a workflow_dispatch of the workflow on the ref, with the inputs; --api-url for GitHub\n" +
				"Enterprise (default https://api.github.com). The token (a fine-grained token with Actions\n" +
				"write access) is read from stdin with --token-stdin, stored encrypted and never printed;\n" +
				"without --token-stdin the stored one stays, but a new --repo or --api-url needs it again. hook: a deploy hook URL, as Vercel, Netlify and\n" +
				"Cloudflare Pages give, POSTed with an empty body. URLs into private networks are refused\n" +
				"unless allowed (--allow-private-nets).",
			flags: []flagDef{req("project", "P", "project id or title"), req("provider", "github|hook", "github or hook"),
				opt("repo", "OWNER/NAME", "the GitHub repository"), opt("workflow", "FILE_OR_ID", "the workflow file name or id"),
				opt("ref", "BRANCH", "the branch or tag to run on"),
				{name: "inputs", kind: listFlag, arg: "k=v,...", usage: "workflow inputs"},
				opt("api-url", "URL", "GitHub's API (default https://api.github.com)"), opt("url", "URL", "the deploy hook URL"),
				boolean("token-stdin", "read the GitHub token from stdin"), allowPrivateNetsFlag},
			database: true, json: true, run: runRedeploySet},
		{name: "redeploy show", args: "--project P", synopsis: "show a project's redeploy settings (never the token)",
			flags: []flagDef{req("project", "P", "project id or title")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				v, err := c.cat.ShowRedeploy(ctx, c.in.str("project"))
				return redeployShow(v), redeployText(v), err
			}},
		{name: "redeploy attempts", args: "--project P [--limit N]", synopsis: "list a project's redeploy attempts, newest first",
			flags: []flagDef{req("project", "P", "project id or title"), limitFlag}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				n, err := limitOf(c.in)
				if err != nil {
					return nil, "", err
				}
				as, err := c.cat.RedeployAttempts(ctx, c.in.str("project"), n)
				if err != nil {
					return nil, "", err
				}
				var b strings.Builder
				if len(as) == 0 {
					b.WriteString("no redeploy attempts")
				}
				for i, a := range as {
					if i > 0 {
						b.WriteString("\n")
					}
					fmt.Fprintf(&b, "%s  %-14s by %s", a.At.Format("2006-01-02 15:04:05"), a.Outcome, a.By)
					if a.HTTPStatus != nil {
						fmt.Fprintf(&b, "  HTTP %d", *a.HTTPStatus)
					}
					if a.Message != "" {
						fmt.Fprintf(&b, "  %s", a.Message)
					}
				}
				return struct {
					Attempts []model.RedeployAttempt `json:"attempts"`
				}{as}, b.String(), nil
			}},
	}
}

func runRedeploySet(ctx context.Context, c *call) (any, string, error) {
	in := c.in
	inputs, err := tools.ParseDeployInputs(in.list("inputs"))
	if err != nil {
		return nil, "", err
	}
	r := tools.RedeployIn{ProjectID: in.str("project"), Provider: in.str("provider"), Repo: in.str("repo"),
		Workflow: in.str("workflow"), Ref: in.str("ref"), Inputs: inputs, APIURL: in.str("api-url"), URL: in.str("url")}
	if r.Provider == tools.DeployGitHub {
		for _, f := range []string{"repo", "workflow", "ref"} {
			if strings.TrimSpace(in.str(f)) == "" {
				return nil, "", fmt.Errorf("--%s is required with --provider github", f)
			}
		}
	}
	if r.Provider == tools.DeployHook && strings.TrimSpace(r.URL) == "" {
		return nil, "", errors.New("--url is required with --provider hook")
	}
	if in.boolean("token-stdin") {
		tok, err := readStdinSecret("--token-stdin")
		if err != nil {
			return nil, "", err
		}
		r.Token = &tok
	}
	v, err := c.cat.SetRedeploy(ctx, r)
	return redeployShow(v), redeployText(v), err
}

// cliRedeploy is what `redeploy show --json` prints: exactly the contract's fields (the
// text form also lists the inputs).
type cliRedeploy struct {
	Provider string `json:"provider"`
	Repo     string `json:"repo"`
	Workflow string `json:"workflow"`
	Ref      string `json:"ref"`
	APIURL   string `json:"api_url"`
	URL      string `json:"url"`
	TokenSet bool   `json:"token_set"`
}

func redeployShow(v model.RedeployView) cliRedeploy {
	return cliRedeploy{Provider: v.Provider, Repo: v.Repo, Workflow: v.Workflow, Ref: v.Ref, APIURL: v.APIURL, URL: v.URL,
		TokenSet: v.TokenSet}
}

func redeployText(v model.RedeployView) string {
	switch v.Provider {
	case tools.DeployGitHub:
		tok := "no token"
		if v.TokenSet {
			tok = "token set (stored encrypted)"
		}
		s := fmt.Sprintf("redeploy: GitHub workflow %s of %s on %s via %s, %s", v.Workflow, v.Repo, v.Ref, v.APIURL, tok)
		if len(v.Inputs) > 0 {
			s += "\ninputs: " + strings.Join(tools.SortedInputs(v.Inputs), ", ")
		}
		return s
	case tools.DeployHook:
		return "redeploy: deploy hook " + v.URL
	}
	return "redeploy: not configured"
}

func webhookText(w model.WebhookView) string {
	state := "enabled"
	if !w.Enabled {
		state = "disabled"
		if w.DisabledReason != "" {
			state += " (" + w.DisabledReason + ")"
		}
	}
	s := fmt.Sprintf("%s  %s  [%s]  %s", w.ID, w.URL, strings.Join(w.Events, ","), state)
	if o := w.LastOutcome; o != nil {
		s += fmt.Sprintf("\n  last: %s %s", o.At.Format("2006-01-02 15:04:05"), o.Status)
		if o.HTTPStatus != nil {
			s += fmt.Sprintf(" HTTP %d", *o.HTTPStatus)
		}
		if o.Error != "" {
			s += " " + o.Error
		}
	}
	return s
}

// limitOf is --limit, 1 to 1000.
func limitOf(in *input) (int, error) {
	n := in.integer("limit")
	if n < 1 || n > 1000 {
		return 0, errors.New("--limit must be 1 to 1000")
	}
	return n, nil
}
