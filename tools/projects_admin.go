package tools

import (
	"context"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
	"golang.org/x/net/idna"
)

// Embed modes (capabilities.mode): the Embed script swaps page text, or only pings.
const (
	EmbedModeSwap = "swap"
	EmbedModeOff  = "off"
)

// SettableIntegrationTypes are the integration types an operator may set: api for projects
// made by the CLI, REST or MCP, embed for those made by the resolve handshake.
var SettableIntegrationTypes = []string{"api", "embed"}

// ProjectView is the spec's Project object with the settings the operator manages.
type ProjectView struct {
	model.Project
	Settings ProjectSettingsView `json:"settings"`
	// Embed is shown in the readable output only: the JSON shape is the operator
	// contract's (the Project object plus settings); get_project_status carries it as JSON.
	Embed EmbedStatus `json:"-"`
	// NamespaceCounts sizes each namespace per enabled language; NewestPageStrings are the
	// newest strings of the Embed's page namespace (what harvesting brought in), newest first.
	NamespaceCounts   []model.NamespaceCount `json:"namespace_counts"`
	NewestPageStrings []model.NewestKey      `json:"newest_page_strings"`
}

// NewestPageStringsShown is how many page strings `project show` lists.
const NewestPageStringsShown = 10

// ProjectSettingsView is the "settings" member of `project show`.
type ProjectSettingsView struct {
	AllowedOrigins   []string          `json:"allowed_origins"`
	Hosts            []string          `json:"hosts"`
	ShowSwitcher     bool              `json:"show_switcher"`
	KeepSiteUpToDate bool              `json:"keep_site_up_to_date"`
	Capabilities     EmbedCapabilities `json:"capabilities"`
	Syntax           SyntaxView        `json:"syntax"`
}

// EmbedCapabilities tell the Embed script what to do on a page.
type EmbedCapabilities struct {
	Mode       string `json:"mode"`
	JITHarvest bool   `json:"jit_harvest"`
	AutoApply  bool   `json:"auto_apply"`
}

// WorkspaceProjects returns the active projects of a workspace, oldest first. Admin only.
func (c *Catalog) WorkspaceProjects(ctx context.Context, workspaceID string) ([]model.Project, error) {
	if err := c.gate(ctx, model.OpWorkspaceProjects, on{}); err != nil {
		return nil, err
	}
	var out []model.Project
	err := c.store.View(ctx, func(tx model.Tx) error {
		if _, err := tx.Workspace(ctx, workspaceID); err != nil {
			return err
		}
		var err error
		out, err = tx.Projects(ctx, workspaceID)
		return err
	})
	if out == nil {
		out = []model.Project{}
	}
	return out, err
}

// ShowProject returns a project with its settings. For the operator and the project's
// owners (owner).
func (c *Catalog) ShowProject(ctx context.Context, projectID string) (ProjectView, error) {
	ctx, err := c.ownerFor(ctx, model.OpShowProject, projectID, false)
	if err != nil {
		return ProjectView{}, err
	}
	var out ProjectView
	err = c.store.View(ctx, func(tx model.Tx) error {
		var err error
		if out, err = c.projectView(ctx, tx, projectID); err != nil {
			return err
		}
		out.Embed, err = c.embedStatus(ctx, tx, projectID)
		return err
	})
	return out, err
}

func (c *Catalog) projectView(ctx context.Context, tx model.Tx, projectID string) (ProjectView, error) {
	p, err := tx.Project(ctx, projectID)
	if err != nil {
		return ProjectView{}, err
	}
	hosts, err := tx.ProjectHosts(ctx, projectID)
	if err != nil {
		return ProjectView{}, err
	}
	s := p.Settings
	origins := s.AllowedOrigins
	if origins == nil {
		origins = []string{}
	}
	if hosts == nil {
		hosts = []string{}
	}
	v := ProjectView{Project: p, Settings: ProjectSettingsView{AllowedOrigins: origins, Hosts: hosts,
		ShowSwitcher: s.ShowSwitcher, KeepSiteUpToDate: s.KeepSiteCurrent,
		Capabilities: EmbedCapabilities{Mode: s.EmbedMode, JITHarvest: s.JITHarvest, AutoApply: s.AutoApply},
		Syntax:       c.syntaxView(ctx, tx, p)}}
	if v.NamespaceCounts, err = tx.NamespaceCounts(ctx, projectID); err != nil {
		return ProjectView{}, err
	}
	for i := range v.NamespaceCounts {
		all := v.NamespaceCounts[i].Translated
		on := make(map[string]int, len(p.EnabledLanguages))
		for _, code := range p.EnabledLanguages {
			on[code] = all[code]
		}
		v.NamespaceCounts[i].Translated = on
	}
	v.NewestPageStrings = []model.NewestKey{}
	ns, err := tx.Namespace(ctx, projectID, EmbedNamespace)
	if err == nil {
		v.NewestPageStrings, err = tx.NewestKeys(ctx, ns, NewestPageStringsShown)
	}
	if err != nil && !model.IsNotFound(err) {
		return ProjectView{}, err
	}
	return v, nil
}

// SetProjectIn changes a project: nil fields stay as they are, and an empty list clears.
type SetProjectIn struct {
	Title            *string
	Languages        *[]string // the enabled target languages; the source language is always on
	Editable         *[]string // subset of the enabled languages and the source
	AutoTranslate    *[]string // subset of the enabled languages and the source
	IntegrationType  *string
	AllowedOrigins   *[]string
	Hosts            *[]string
	ShowSwitcher     *bool
	KeepSiteUpToDate *bool
	Mode             *string
	JITHarvest       *bool
	AutoApply        *bool
	Syntax           *string // syntax names ("icu,html"); "" detects them again
	// ConfirmRemove names the languages taken off although they have translations
	// (confirmRemoval refuses the others).
	ConfirmRemove []string
}

// SetProject changes what in names and returns the project as ShowProject does. A host
// bound to another project is a conflict. For the operator and those who manage the
// project (set_project: its managers and the workspace's owners), who change everything
// but its integration type, which stays the operator's. Languages taken off are disabled,
// never deleted: their translations come back when they are turned on again; one with
// translations is taken off only when in.ConfirmRemove names it.
func (c *Catalog) SetProject(ctx context.Context, projectID string, in SetProjectIn) (ProjectView, error) {
	session := model.PrincipalFrom(ctx).Kind == KindSession
	ctx, err := c.ownerFor(ctx, model.OpSetProject, projectID, true)
	if err != nil {
		return ProjectView{}, err
	}
	if session && in.IntegrationType != nil {
		return ProjectView{}, model.Errorf(model.CodeForbidden, "a project's integration type is the operator's (lokal project set)")
	}
	var title, integration, mode string
	if in.Title != nil {
		title = strings.TrimSpace(*in.Title)
		if title == "" || len(title) > 200 {
			return ProjectView{}, model.Errorf(model.CodeInvalid, "project title must be 1 to 200 characters")
		}
	}
	if in.IntegrationType != nil {
		integration = *in.IntegrationType
		if !contains(SettableIntegrationTypes, integration) {
			return ProjectView{}, model.Errorf(model.CodeInvalid, "integration type must be one of %s", strings.Join(SettableIntegrationTypes, ", "))
		}
	}
	if in.Mode != nil {
		mode = *in.Mode
		if mode != EmbedModeSwap && mode != EmbedModeOff {
			return ProjectView{}, model.Errorf(model.CodeInvalid, "mode must be %s or %s", EmbedModeSwap, EmbedModeOff)
		}
	}
	var syntax string
	if in.Syntax != nil && strings.TrimSpace(*in.Syntax) != "" {
		s, err := message.ParseSyntax(*in.Syntax)
		if err != nil {
			return ProjectView{}, model.Errorf(model.CodeInvalid, "%v; none, all, or an empty list (detect them from the source values) are accepted too", err)
		}
		syntax = s.String()
	}
	langs, err := normalizeLanguages("language", in.Languages)
	if err != nil {
		return ProjectView{}, err
	}
	editable, err := normalizeLanguages("editable language", in.Editable)
	if err != nil {
		return ProjectView{}, err
	}
	auto, err := normalizeLanguages("auto-translate language", in.AutoTranslate)
	if err != nil {
		return ProjectView{}, err
	}
	confirm, err := normalizeLanguages("language to remove", &in.ConfirmRemove)
	if err != nil {
		return ProjectView{}, err
	}
	var origins, hosts []string
	if in.AllowedOrigins != nil {
		origins = []string{}
		for _, o := range *in.AllowedOrigins {
			n, err := NormalizeOrigin(o)
			if err != nil {
				return ProjectView{}, err
			}
			if !contains(origins, n) {
				origins = append(origins, n)
			}
		}
	}
	if in.Hosts != nil {
		hosts = []string{}
		for _, h := range *in.Hosts {
			n, err := NormalizeSiteHost(h)
			if err != nil {
				return ProjectView{}, err
			}
			if !contains(hosts, n) {
				hosts = append(hosts, n)
			}
		}
	}

	var out ProjectView
	err = c.write(ctx, write{admin: true, project: projectID, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		p, err := tx.Project(ctx, projectID)
		if err != nil {
			return nil, err
		}
		if in.Title != nil {
			p.Title = title
		}
		if in.IntegrationType != nil {
			p.IntegrationType = integration
		}
		s := &p.Settings
		if origins != nil {
			s.AllowedOrigins = origins
		}
		setBool(&s.ShowSwitcher, in.ShowSwitcher)
		setBool(&s.KeepSiteCurrent, in.KeepSiteUpToDate)
		setBool(&s.JITHarvest, in.JITHarvest)
		setBool(&s.AutoApply, in.AutoApply)
		if in.Mode != nil {
			s.EmbedMode = mode
		}
		if in.Syntax != nil {
			s.Syntax = syntax
		}
		if err := tx.UpdateProject(ctx, p); err != nil {
			return nil, err
		}
		changed, err := languageChanges(p, langs, editable, auto)
		if err != nil {
			return nil, err
		}
		if err := confirmRemoval(ctx, tx, p, changed, confirm); err != nil {
			return nil, err
		}
		for _, l := range changed {
			if err := tx.SetLanguage(ctx, p.ID, l); err != nil {
				return nil, err
			}
		}
		if hosts != nil {
			for _, h := range hosts {
				owner, err := tx.HostProject(ctx, h)
				if err != nil && !model.IsNotFound(err) {
					return nil, err
				}
				if err == nil && owner != p.ID {
					return nil, model.Errorf(model.CodeConflict, "host %s is bound to another project (%s)", h, owner)
				}
			}
			if err := tx.SetProjectHosts(ctx, p.ID, hosts); err != nil {
				return nil, err
			}
		}
		if out, err = c.projectView(ctx, tx, p.ID); err != nil {
			return nil, err
		}
		out.Embed, err = c.embedStatus(ctx, tx, p.ID)
		return []model.Change{{Kind: model.ChangeProjectSettings}}, err
	}})
	return out, err
}

func setBool(dst *bool, v *bool) {
	if v != nil {
		*dst = *v
	}
}

// normalizeLanguages checks that every code is a language tag and returns the canonical codes
// without duplicates; nil stays nil (not given).
func normalizeLanguages(what string, codes *[]string) ([]string, error) {
	if codes == nil {
		return nil, nil
	}
	out := []string{}
	for _, code := range *codes {
		l, err := parseLanguage(what, code)
		if err != nil {
			return nil, err
		}
		if !contains(out, l.Code) {
			out = append(out, l.Code)
		}
	}
	return out, nil
}

// languageChanges applies new enabled, editable and auto-translate lists (nil: unchanged)
// to the project's language rows and returns the rows to write. Rows are never deleted: a
// language taken off is disabled, and loses its editable and auto-translate flags so that
// both lists stay within the enabled languages; a language turned on starts editable and
// auto-translated, as in CreateProject.
func languageChanges(p model.Project, enabled, editable, auto []string) ([]model.Language, error) {
	rows := map[string]*model.Language{}
	var order []string
	for _, l := range p.Languages {
		rows[l.Code] = &l
		order = append(order, l.Code)
	}
	touched := map[string]bool{}
	if enabled != nil {
		for _, code := range enabled {
			if code == p.SourceLanguage {
				continue
			}
			l, ok := rows[code]
			if !ok {
				l = &model.Language{Code: code}
				rows[code] = l
				order = append(order, code)
			}
			if !l.Enabled {
				*l = model.Language{Code: code, Enabled: true, Editable: true, AutoTranslate: true}
				touched[code] = true
			}
		}
		for _, code := range order {
			if l := rows[code]; l.Enabled && !contains(enabled, code) {
				*l = model.Language{Code: code}
				touched[code] = true
			}
		}
	}
	on := []string{p.SourceLanguage}
	for _, code := range order {
		if rows[code].Enabled {
			on = append(on, code)
		}
	}
	for _, list := range []struct {
		what  string
		codes []string
		flag  func(*model.Language) *bool
	}{
		{"editable", editable, func(l *model.Language) *bool { return &l.Editable }},
		{"auto-translate", auto, func(l *model.Language) *bool { return &l.AutoTranslate }},
	} {
		if list.codes == nil {
			continue
		}
		for _, code := range list.codes {
			if !contains(on, code) {
				return nil, model.Errorf(model.CodeInvalid, "%s language %s is not enabled (enabled: %s)", list.what, code, strings.Join(on, ", "))
			}
		}
		for _, code := range order {
			l := rows[code]
			if !l.Enabled {
				continue
			}
			if want := contains(list.codes, code); *list.flag(l) != want {
				*list.flag(l) = want
				touched[code] = true
			}
		}
	}
	var out []model.Language
	for _, code := range order {
		if touched[code] {
			out = append(out, *rows[code])
		}
	}
	return out, nil
}

var hostProfile = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.VerifyDNSLength(true))

// NormalizeHost returns the ASCII, lower-case form of a host name ("Bücher.Example." gives
// "xn--bcher-kva.example"), or CodeInvalid for anything else: an address, a port, a scheme.
func NormalizeHost(s string) (string, error) {
	h := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), ".")
	if _, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
		return "", model.Errorf(model.CodeInvalid, "%q is an IP address, not a host name", s)
	}
	if h == "" || strings.ContainsAny(h, "/:@?#[]*\\ ") {
		return "", model.Errorf(model.CodeInvalid, "%q is not a host name (give the name only, such as www.example.com)", s)
	}
	a, err := hostProfile.ToASCII(h)
	if err != nil {
		return "", model.Errorf(model.CodeInvalid, "%q is not a host name", s)
	}
	return a, nil
}

// NormalizeOrigin returns the canonical form of an allowed origin, scheme://host[:port]
// where host may start with "*." (one or more labels), or CodeInvalid.
func NormalizeOrigin(s string) (string, error) {
	bad := func(why string) (string, error) {
		return "", model.Errorf(model.CodeInvalid, "allowed origin %q: %s (want scheme://host[:port], such as https://*.example.com)", s, why)
	}
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Opaque != "" || u.Host == "" {
		return bad("not an origin")
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return bad("the scheme must be http or https")
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return bad("an origin has no user, path, query or fragment")
	}
	host, port := u.Hostname(), u.Port()
	if strings.HasSuffix(u.Host, ":") {
		return bad("empty port")
	}
	if port != "" {
		num, err := strconv.Atoi(port)
		if err != nil || num < 1 || num > 65535 {
			return bad("the port must be 1 to 65535")
		}
		port = ":" + strconv.Itoa(num)
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if a.Is6() {
			return scheme + "://[" + a.String() + "]" + port, nil
		}
		return scheme + "://" + a.String() + port, nil
	}
	wild := ""
	if rest, ok := strings.CutPrefix(host, "*."); ok {
		wild, host = "*.", rest
	}
	h, err := NormalizeHost(host)
	if err != nil {
		return bad("not a host name")
	}
	return fmt.Sprintf("%s://%s%s%s", scheme, wild, h, port), nil
}
