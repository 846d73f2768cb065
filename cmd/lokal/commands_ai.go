package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/outbound"
	"github.com/lokal-dev/lokal/tools/secrets"
)

// maxStdinSecret bounds what --*-stdin reads: a key, not a file.
const maxStdinSecret = 64 << 10

var allowPrivateNetsFlag = flagDef{name: "allow-private-nets", kind: listFlag, arg: "CIDR,...",
	usage: "private networks that webhooks, redeploy and AI providers may call", env: "LOKAL_ALLOW_PRIVATE_NETS"}

func aiCommands() []*command {
	return []*command{
		{name: "ai set", args: "(--workspace WS --base-url URL --model M [--api-key-stdin] | --project P [--model M] [--instructions TEXT])",
			synopsis: "set a workspace's AI provider or a project's model and instructions",
			about: "With --workspace: the workspace's own OpenAI-compatible provider. The API key is read from\n" +
				"stdin (--api-key-stdin), never from the command line, stored encrypted (LOKAL_SECRET_KEY, or\n" +
				"with SQLite a key file beside the database) and never printed; without --api-key-stdin the\n" +
				"stored key stays, but a new base URL clears it (it is sent nowhere else). The base URL must\nnot point into a private network unless the network is\n" +
				"allowed (--allow-private-nets). With --project: the project's model (empty: the provider's)\n" +
				"and instructions for the model.",
			flags: []flagDef{opt("workspace", "ID", "workspace id"), opt("project", "P", "project id or title"),
				opt("base-url", "URL", "the provider's OpenAI-compatible /v1 base URL (with --workspace)"),
				opt("model", "NAME", "the model, such as gpt-4o-mini"),
				boolean("api-key-stdin", "read the provider's API key from stdin (with --workspace)"),
				opt("instructions", "TEXT", "instructions for the model (with --project); --instructions= clears"),
				allowPrivateNetsFlag},
			database: true, json: true, run: runAISet},
		{name: "ai show", args: "--project P", synopsis: "show where a project's AI comes from (never a key)",
			flags: []flagDef{req("project", "P", "project id or title")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				v, err := c.cat.ShowAI(ctx, c.in.str("project"))
				return v, aiViewText(v), err
			}},
		{name: "usage", args: "--project P [--since RFC3339]", synopsis: "show a project's AI usage: calls, tokens, strings",
			about: "Sums every model call of the project (retranslate, ai_translate_keys, automatic translation):\n" +
				"calls, prompt and completion tokens, strings stored and failed, per model; strings reused\n" +
				"from translation memory cost no call and are counted apart.",
			flags:    []flagDef{req("project", "P", "project id or title"), opt("since", "TIME", "only usage at or after this RFC 3339 time")},
			database: true, json: true, run: runUsage},
	}
}

func runUsage(ctx context.Context, c *call) (any, string, error) {
	u, err := c.cat.Usage(ctx, tools.UsageIn{ProjectArg: tools.ProjectArg{ProjectID: c.in.str("project")}, Since: c.in.str("since")})
	if err != nil {
		return nil, "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d model calls, %d prompt and %d completion tokens; %d strings translated, %d failed, %d from translation memory",
		u.Calls, u.PromptTokens, u.CompletionTokens, u.StringsTranslated, u.StringsFailed, u.StringsFromMemory)
	for _, m := range u.ByModel {
		fmt.Fprintf(&b, "\n  %s: %d calls, %d + %d tokens, %d translated, %d failed", m.Model, m.Calls, m.PromptTokens,
			m.CompletionTokens, m.StringsTranslated, m.StringsFailed)
	}
	return u, b.String(), nil
}

func runAISet(ctx context.Context, c *call) (any, string, error) {
	in := c.in
	if in.has("workspace") == in.has("project") {
		return nil, "", errors.New("give exactly one of --workspace and --project")
	}
	if in.has("project") {
		for _, f := range []string{"base-url", "api-key-stdin"} {
			if in.has(f) {
				return nil, "", fmt.Errorf("--%s is a workspace setting: use it with --workspace", f)
			}
		}
		if !in.has("model") && !in.has("instructions") {
			return nil, "", errors.New("give --model or --instructions to change")
		}
		v, err := c.cat.SetProjectAI(ctx, in.str("project"), in.opt("model"), in.opt("instructions"))
		return v, aiViewText(v), err
	}
	if in.has("instructions") {
		return nil, "", errors.New("--instructions is a project setting: use it with --project")
	}
	for _, f := range []string{"base-url", "model"} {
		if strings.TrimSpace(in.str(f)) == "" {
			return nil, "", fmt.Errorf("--%s is required with --workspace", f)
		}
	}
	var key *string
	if in.boolean("api-key-stdin") {
		k, err := readStdinSecret("--api-key-stdin")
		if err != nil {
			return nil, "", err
		}
		key = &k
	}
	v, err := c.cat.SetWorkspaceAI(ctx, in.str("workspace"), in.str("base-url"), in.str("model"), key)
	keyText := "no API key"
	switch {
	case v.KeySet:
		keyText = "API key set (stored encrypted)"
	case v.KeyCleared:
		keyText = "no API key: the stored one was removed because the base URL changed (give it again with --api-key-stdin)"
	}
	return v, fmt.Sprintf("workspace %s: AI provider %s, model %s, %s", v.Workspace, v.BaseURL, v.Model, keyText), err
}

// readStdinSecret reads one secret from stdin, refusing a terminal-less empty input.
func readStdinSecret(flag string) (string, error) {
	b, err := io.ReadAll(io.LimitReader(os.Stdin, maxStdinSecret+1))
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", flag, err)
	}
	if len(b) > maxStdinSecret {
		return "", fmt.Errorf("%s: stdin holds more than %d bytes; give the key alone", flag, maxStdinSecret)
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "", fmt.Errorf("%s: stdin is empty; pipe the key in, such as: printenv OPENAI_API_KEY | lokal ai set ... %s", flag, flag)
	}
	return s, nil
}

func aiViewText(v tools.AIView) string {
	if !v.Configured {
		s := "AI: not configured (source " + v.Source + ")"
		if v.Model != "" {
			s += "; project model " + v.Model
		}
		return s
	}
	s := fmt.Sprintf("AI: %s provider %s, model %s", v.Source, v.BaseURL, v.Model)
	if v.Instructions != "" {
		s += "\ninstructions: " + v.Instructions
	}
	return s
}

// catalogOptions is what every command's catalogue reads from its flags and environment:
// the private networks outbound calls may reach, the secret key and the operator's AI.
func catalogOptions(in *input, dsn string) (*tools.Options, error) {
	nets := strings.Split(os.Getenv("LOKAL_ALLOW_PRIVATE_NETS"), ",")
	if _, ok := in.defs["allow-private-nets"]; ok {
		nets = in.list("allow-private-nets")
	}
	var items []string
	for _, n := range nets {
		if n = strings.TrimSpace(n); n != "" {
			items = append(items, n)
		}
	}
	allow, err := parsePrefixes("allow-private-nets", items)
	if err != nil {
		return nil, err
	}
	sqlitePath := ""
	if p, ok := strings.CutPrefix(dsn, "sqlite:"); ok {
		sqlitePath = strings.TrimPrefix(p, "//")
	}
	box, err := secrets.Load(os.Getenv(secrets.EnvKey), sqlitePath)
	if err != nil {
		return nil, err
	}
	return &tools.Options{Outbound: outbound.NewGuard(allow), Secrets: box,
		AIDefault: tools.AIProvider{BaseURL: os.Getenv("LOKAL_AI_BASE_URL"), APIKey: os.Getenv("LOKAL_AI_API_KEY"),
			Model: os.Getenv("LOKAL_AI_MODEL")}}, nil
}
