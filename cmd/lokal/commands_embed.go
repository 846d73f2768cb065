package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// embedCommands are the workspace's Embed settings: authorized hosts, host limit and the
// emergency switch.
func embedCommands() []*command {
	return []*command{
		{name: "workspace set", args: "--workspace WS [--authorized-hosts H1,*.H2] [--host-limit N] [--embed=on|off]",
			synopsis: "change a workspace's Embed settings",
			about: "Authorized hosts are the site host names whose first Embed resolve makes a project (*.example.com " +
				"matches names under example.com). For local testing, localhost and loopback addresses are accepted with " +
				"or without a port (localhost:8000, 127.0.0.1, [::1]:8000); there each port is its own site. --host-limit caps the hosts bound in the workspace (0: unlimited). " +
				"--embed=off is the emergency switch: resolve answers 503, harvest stores nothing and the other public " +
				"endpoints answer 404 until it is on again; running servers see it within a second.",
			flags: []flagDef{req("workspace", "ID", "workspace id"),
				list("authorized-hosts", "HOSTS", "host names whose first resolve makes a project; *.name matches names under it; localhost:PORT and loopback addresses for local testing"),
				opt("host-limit", "N", "most hosts the workspace may bind; 0 is unlimited"),
				opt("embed", "on|off", "the Embed's emergency switch")},
			database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				in := tools.SetWorkspaceIn{AuthorizedHosts: c.in.optList("authorized-hosts")}
				if v := c.in.opt("host-limit"); v != nil {
					n, err := strconv.Atoi(*v)
					if err != nil || n < 0 {
						return nil, "", model.Errorf(model.CodeInvalid, "--host-limit must be a whole number, 0 for unlimited")
					}
					in.HostLimit = &n
				}
				if v := c.in.opt("embed"); v != nil {
					switch *v {
					case "on", "true":
						in.Embed = ptrTo(true)
					case "off", "false":
						in.Embed = ptrTo(false)
					default:
						return nil, "", model.Errorf(model.CodeInvalid, "--embed must be on or off")
					}
				}
				w, err := c.cat.SetWorkspace(ctx, c.in.str("workspace"), in)
				return w, workspaceText(w), err
			}},
		{name: "workspace show", args: "--workspace WS", synopsis: "show a workspace and its Embed settings",
			flags: []flagDef{req("workspace", "ID", "workspace id")}, database: true, json: true,
			run: func(ctx context.Context, c *call) (any, string, error) {
				w, err := c.cat.ShowWorkspace(ctx, c.in.str("workspace"))
				return w, workspaceText(w), err
			}},
	}
}

func ptrTo[T any](v T) *T { return &v }

func workspaceText(w tools.WorkspaceView) string {
	hosts, limit := "none", "unlimited"
	if len(w.AuthorizedHosts) > 0 {
		hosts = strings.Join(w.AuthorizedHosts, ", ")
	}
	if w.HostLimit != nil {
		limit = strconv.Itoa(*w.HostLimit)
	}
	return fmt.Sprintf("workspace %s (%s)\npublic token: %s\nauthorized hosts: %s\nhost limit: %s\nembed: %s",
		w.ID, w.Name, w.PublicToken, hosts, limit, w.Embed)
}

// embedStatusText is the Embed part of `project show`.
func embedStatusText(e tools.EmbedStatus) string {
	live := "no ping in the last 7 days"
	if e.ScriptLive && e.LastPingAt != nil {
		live = "live, last ping at " + e.LastPingAt.Format(time.RFC3339)
	}
	langs := make([]string, 0, len(e.VisitorDemand))
	for l := range e.VisitorDemand {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	demand := make([]string, len(langs))
	for i, l := range langs {
		demand[i] = fmt.Sprintf("%s %d", l, e.VisitorDemand[l])
	}
	if len(demand) == 0 {
		demand = []string{"none"}
	}
	return "\nembed script: " + live + "\nvisitor demand (dictionary reads, 30 days): " + strings.Join(demand, ", ")
}

// contentsText is the part of `project show` that says what the project holds: keys and
// translated rows per namespace, and the newest strings the Embed harvested.
func contentsText(v tools.ProjectView) string {
	var b strings.Builder
	b.WriteString("\nnamespaces:")
	if len(v.NamespaceCounts) == 0 {
		b.WriteString(" none")
	}
	for _, n := range v.NamespaceCounts {
		langs := make([]string, 0, len(v.EnabledLanguages))
		for _, code := range v.EnabledLanguages {
			langs = append(langs, fmt.Sprintf("%s %d", code, n.Translated[code]))
		}
		fmt.Fprintf(&b, "\n  %s: %d keys; translated: %s", n.Namespace, n.Keys, strings.Join(langs, ", "))
	}
	fmt.Fprintf(&b, "\nnewest page strings (%s namespace, harvested by the Embed):", tools.EmbedNamespace)
	if len(v.NewestPageStrings) == 0 {
		b.WriteString(" none yet")
	}
	for _, k := range v.NewestPageStrings {
		text := strings.Join(strings.Fields(k.Key), " ")
		if r := []rune(text); len(r) > 80 {
			text = string(r[:79]) + "…"
		}
		fmt.Fprintf(&b, "\n  %s  %s", k.CreatedAt.Format(time.RFC3339), text)
	}
	return b.String()
}
