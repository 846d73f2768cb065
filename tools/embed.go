package tools

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// The Embed's public operations (spec endpoints 12, 16 and 17, and the state the others
// share): they take no token. A project is reached by id; the workspace's emergency switch
// and, for browser calls, the project's allowed origins guard it.

// EmbedNamespace is the namespace the Embed script harvests into and reads by default.
const EmbedNamespace = "page"

// PingRetention is how long an install ping is kept.
const PingRetention = 7 * 24 * time.Hour

// DemandWindow is how far back get_project_status and `project show` sum visitor demand;
// older counts are removed.
const DemandWindow = 30 * 24 * time.Hour

// embedState is the Catalog's memory for the public endpoints: parsed project states
// keyed by the cached file they came from, and visitor demand not yet stored.
type embedState struct {
	parsed sync.Map // project id -> *parsedEmbed
	demand sync.Map // project id + "\x00" + language -> *atomic.Int64
}

type parsedEmbed struct {
	file *model.File
	p    embedProject
}

// embedProject is what the public endpoints need of a project, cached per revision: the
// emergency switch of its workspace travels with it, since switching touches every project
// of the workspace.
type embedProject struct {
	ID              string            `json:"id"`
	WorkspaceID     string            `json:"workspace_id"`
	Active          bool              `json:"active"`
	Off             bool              `json:"off"`
	IntegrationType string            `json:"integration_type"`
	Bound           bool              `json:"bound"` // a host is bound to it
	SourceLanguage  string            `json:"source_language"`
	Enabled         []string          `json:"enabled_languages"`
	Origins         []string          `json:"allowed_origins"`
	ShowSwitcher    bool              `json:"show_switcher"`
	Capabilities    EmbedCapabilities `json:"capabilities"`
}

func (p *embedProject) has(code string) bool {
	return code == p.SourceLanguage || contains(p.Enabled, code)
}

// publicProject returns the project's public state, or CodeNotFound for an unknown or
// inactive project, a project the Embed is not set up for, and every project of a
// workspace whose Embed is switched off.
func (c *Catalog) publicProject(ctx context.Context, projectID string) (embedProject, error) {
	p, err := c.embedState(ctx, projectID)
	if err != nil {
		return embedProject{}, err
	}
	if !p.Active || p.Off || !p.servesEmbed() {
		return embedProject{}, errNoProject(projectID)
	}
	return p, nil
}

// servesEmbed reports whether the Embed is set up for the project: made by resolve, or
// given a host or an allowed origin. Other projects are read with a token only, so their
// values are not served to anyone who knows the project id.
func (p *embedProject) servesEmbed() bool {
	return p.IntegrationType == "embed" || p.Bound || len(p.Origins) > 0
}

func errNoProject(projectID string) error {
	return model.Errorf(model.CodeNotFound, "project %q not found", model.Truncate(projectID, 40))
}

// embedState returns the project's public state, cached per project revision, whatever
// its workspace's switch says; CodeNotFound for an unknown project.
func (c *Catalog) embedState(ctx context.Context, projectID string) (embedProject, error) {
	if !validID(projectID) {
		return embedProject{}, errNoProject(projectID)
	}
	f, err := c.store.Cached(ctx, projectID, "embed", func(ctx context.Context) ([]byte, error) {
		var body []byte
		err := c.store.View(ctx, func(tx model.Tx) error {
			p, err := tx.Project(ctx, projectID)
			if err != nil {
				return err
			}
			we, err := tx.WorkspaceEmbed(ctx, p.WorkspaceID)
			if err != nil {
				return err
			}
			hosts, err := tx.ProjectHosts(ctx, projectID)
			if err != nil {
				return err
			}
			s := p.Settings
			mode := s.EmbedMode
			if mode == "" {
				mode = EmbedModeSwap
			}
			body, err = json.Marshal(embedProject{ID: p.ID, WorkspaceID: p.WorkspaceID, Active: p.Active, Off: we.Off,
				IntegrationType: p.IntegrationType, Bound: len(hosts) > 0, SourceLanguage: p.SourceLanguage, Enabled: p.EnabledLanguages,
				Origins: s.AllowedOrigins, ShowSwitcher: s.ShowSwitcher,
				Capabilities: EmbedCapabilities{Mode: mode, JITHarvest: s.JITHarvest, AutoApply: s.AutoApply}})
			return err
		})
		return body, err
	})
	if err != nil {
		if model.IsNotFound(err) {
			return embedProject{}, errNoProject(projectID)
		}
		return embedProject{}, err
	}
	if v, ok := c.embed.parsed.Load(projectID); ok && v.(*parsedEmbed).file == f {
		return v.(*parsedEmbed).p, nil
	}
	var p embedProject
	if err := json.Unmarshal(f.Body, &p); err != nil {
		return embedProject{}, err
	}
	c.embed.parsed.Store(projectID, &parsedEmbed{file: f, p: p})
	return p, nil
}

// publicLanguage resolves a requested language against the project: an enabled code as
// is, else the nearest enabled tag it falls back to by dropping subtags (en-GB to en,
// zh-Hant-HK to zh-Hant, then zh).
func publicLanguage(p *embedProject, requested string) (string, error) {
	code := requested
	if l, err := ParseLanguage(requested); err == nil {
		code = l.Code
	}
	for {
		if p.has(code) {
			return code, nil
		}
		i := strings.LastIndexByte(code, '-')
		if i < 0 {
			break
		}
		code = code[:i]
	}
	return "", model.Errorf(model.CodeNotFound, "language %q is not on for this project", model.Truncate(requested, 40))
}

// OriginAllowed reports whether a browser call from origin may use a project allowing
// allowed. No Origin header is no cross-site browser call and passes. An entry without a
// port matches any port of its scheme and host; "*." matches one or more labels.
func OriginAllowed(allowed []string, origin string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	for _, a := range allowed {
		e, err := url.Parse(a)
		if err != nil || strings.ToLower(e.Scheme) != scheme {
			continue
		}
		if ep := e.Port(); ep != "" && ep != defaultPort(scheme, port) {
			continue
		}
		eh := strings.ToLower(e.Hostname())
		if base, ok := strings.CutPrefix(eh, "*."); ok {
			if strings.HasSuffix(host, "."+base) && len(host) > len(base)+1 {
				return true
			}
			continue
		}
		if eh == host || "["+eh+"]" == host {
			return true
		}
	}
	return false
}

func defaultPort(scheme, port string) string {
	if port != "" {
		return port
	}
	if scheme == "https" {
		return "443"
	}
	return "80"
}

func (p *embedProject) checkOrigin(origin string) error {
	if !OriginAllowed(p.Origins, origin) {
		return model.Errorf(model.CodeForbidden, "origin %s is not allowed by this project", model.Truncate(origin, 100))
	}
	return nil
}

// ResolveIn is the body of spec endpoint 12.
type ResolveIn struct {
	Token     string   `json:"token"`
	Host      string   `json:"host"`
	PageLang  string   `json:"page_lang"`
	Languages []string `json:"languages"`
}

// ResolveOut answers endpoint 12.
type ResolveOut struct {
	ProjectID string `json:"project_id"`
}

// CodeHostLimit is resolve's answer when the workspace's host limit is reached (402).
const CodeHostLimit = "host_limit"

// maxSeedLanguages bounds the languages a first resolve enables.
const maxSeedLanguages = 20

// Resolve answers the project for a site's host (spec endpoint 12): a host bound to a
// project of the token's workspace answers it; an unbound host matching the workspace's
// authorized hosts gets a new embed project, with page_lang as source and languages on,
// unless the host limit is reached. CodeNotFound for an unknown token, CodeUnavailable
// while the workspace's Embed is off, CodeUnprocessable for a bad host, CodeHostLimit,
// and CodeForbidden for a host that is not authorized.
func (c *Catalog) Resolve(ctx context.Context, in ResolveIn) (ResolveOut, error) {
	var out ResolveOut
	if err := c.gate(ctx, model.OpResolve, on{}); err != nil {
		return out, err
	}
	if in.Token == "" || len(in.Token) > 200 {
		return out, model.Errorf(model.CodeNotFound, "unknown public token")
	}
	var ws model.Workspace
	var we model.WorkspaceEmbed
	var bound string
	var host string
	err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		if ws, err = tx.WorkspaceByPublicToken(ctx, in.Token); err != nil {
			if model.IsNotFound(err) {
				return model.Errorf(model.CodeNotFound, "unknown public token")
			}
			return err
		}
		if we, err = tx.WorkspaceEmbed(ctx, ws.ID); err != nil {
			return err
		}
		if we.Off {
			return &model.Error{Code: model.CodeUnavailable, Message: "the Embed is switched off for this workspace", RetryAfter: time.Minute}
		}
		if host, err = PageHost(in.Host); err != nil {
			return model.Errorf(model.CodeUnprocessable, "%s", model.ErrorMessage(err))
		}
		bound, err = c.boundProject(ctx, tx, ws.ID, host)
		return err
	})
	if err != nil || bound != "" {
		out.ProjectID = bound
		return out, err
	}
	if !HostAuthorized(we.AuthorizedHosts, host) {
		return out, model.Errorf(model.CodeForbidden, "host %s is not authorized for this account", host)
	}
	p := newEmbedProject(ws.ID, host, in.PageLang, in.Languages)
	sys := model.WithPrincipal(ctx, model.Principal{Kind: model.KindSystem, Agent: "embed"})
	err = c.write(sys, write{op: model.OpResolve, admin: true, project: p.ID, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		// Checked again in the transaction: another resolve may have bound the host.
		if id, err := c.boundProject(ctx, tx, ws.ID, host); err != nil || id != "" {
			out.ProjectID = id
			return nil, err
		}
		we, err := tx.WorkspaceEmbed(ctx, ws.ID)
		if err != nil {
			return nil, err
		}
		if we.HostLimit > 0 {
			n, err := tx.WorkspaceHosts(ctx, ws.ID)
			if err != nil {
				return nil, err
			}
			if n >= we.HostLimit {
				return nil, model.Errorf(CodeHostLimit, "the plan's host limit (%d) is reached", we.HostLimit)
			}
		}
		if err := tx.CreateProject(ctx, p); err != nil {
			return nil, err
		}
		if err := tx.SetProjectHosts(ctx, p.ID, []string{host}); err != nil {
			return nil, err
		}
		out.ProjectID = p.ID
		return []model.Change{{Kind: model.ChangeProjectCreated}}, nil
	}})
	if model.ErrorCode(err) == model.CodeConflict {
		// A concurrent resolve bound the host first: answer its project.
		err = c.store.View(ctx, func(tx model.Tx) error {
			out.ProjectID, err = c.boundProject(ctx, tx, ws.ID, host)
			return err
		})
	}
	return out, err
}

// boundProject returns the active project the host is bound to ("" when none), or
// CodeForbidden when it belongs to another workspace. A host with a port is also served
// by a project bound to the host without one (boundForms).
func (c *Catalog) boundProject(ctx context.Context, tx model.Tx, workspaceID, host string) (string, error) {
	var id string
	var err error
	for _, h := range boundForms(host) {
		if id, err = tx.HostProject(ctx, h); !model.IsNotFound(err) {
			break
		}
	}
	if model.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	p, err := tx.Project(ctx, id)
	if err != nil {
		return "", err
	}
	if p.WorkspaceID != workspaceID || !p.Active {
		return "", model.Errorf(model.CodeForbidden, "host %s is not authorized for this account", host)
	}
	return id, nil
}

// newEmbedProject is the project a first resolve makes for host: the page's language as
// source (English when it names none), the visitor's languages on, the host's http and
// https origins allowed, swapping and harvesting on; AI drafts are shown only after review
// (auto_apply off) until the owner says otherwise. Tags are seeded plain: a browser's
// de-DE seeds de, its pt-BR stays pt-BR (see plainLanguage).
func newEmbedProject(workspaceID, host, pageLang string, languages []string) model.Project {
	src := "en"
	if l, err := ParseLanguage(pageLang); err == nil {
		src = l.plainLanguage()
	}
	p := model.Project{ID: newID(), WorkspaceID: workspaceID, Title: host, SourceLanguage: src, IntegrationType: "embed",
		Settings: model.ProjectSettings{AllowedOrigins: []string{"https://" + host, "http://" + host}, ShowSwitcher: true,
			EmbedMode: EmbedModeSwap, JITHarvest: true}}
	seen := map[string]bool{src: true}
	for _, code := range languages {
		l, err := ParseLanguage(code)
		if err != nil {
			continue
		}
		c := l.plainLanguage()
		if seen[c] || len(p.Languages) >= maxSeedLanguages {
			continue
		}
		seen[c] = true
		p.Languages = append(p.Languages, model.Language{Code: c, Enabled: true, Editable: true, AutoTranslate: true})
	}
	return p
}

// PublicInfo is the spec's public shape of a project (endpoint 17), with each enabled
// language's own name for the switcher.
type PublicInfo struct {
	SourceLanguage   string            `json:"source_language"`
	EnabledLanguages []string          `json:"enabled_languages"`
	ShowSwitcher     bool              `json:"show_switcher"`
	Capabilities     EmbedCapabilities `json:"capabilities"`
	LanguageNames    map[string]string `json:"language_names"`
}

// PublicInfo returns the pre-serialized public shape of a project (spec endpoint 17), or
// CodeNotFound. The bytes are cached until the project changes.
func (c *Catalog) PublicInfo(ctx context.Context, projectID string) (*model.File, error) {
	if err := c.gate(ctx, model.OpPublicInfo, on{}); err != nil {
		return nil, err
	}
	p, err := c.publicProject(ctx, projectID)
	if err != nil {
		return nil, err
	}
	return c.store.Cached(ctx, projectID, "public_info", func(context.Context) ([]byte, error) {
		info := PublicInfo{SourceLanguage: p.SourceLanguage, EnabledLanguages: p.Enabled, ShowSwitcher: p.ShowSwitcher,
			Capabilities: p.Capabilities, LanguageNames: map[string]string{}}
		for _, code := range p.Enabled {
			_, native := LanguageName(code)
			info.LanguageNames[code] = native
		}
		b, err := encodeJSON(info, false)
		return []byte(strings.TrimRight(string(b), "\n")), err
	})
}

// InstallPing notes that the Embed script runs on a site of the project (spec endpoint
// 16): only the time is kept, for seven days. CodeNotFound for an unknown project.
func (c *Catalog) InstallPing(ctx context.Context, projectID string) error {
	if err := c.gate(ctx, model.OpInstallPing, on{}); err != nil {
		return err
	}
	if _, err := c.publicProject(ctx, projectID); err != nil {
		return err
	}
	at := c.opts.Now()
	return c.write(model.WithPrincipal(ctx, model.Principal{Kind: model.KindSystem, Agent: "embed"}), write{op: model.OpInstallPing, admin: true, project: projectID,
		apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
			return nil, tx.RecordPing(ctx, projectID, at)
		}})
}

// EmbedStatus is what get_project_status and `project show` tell of the Embed: whether the
// script pinged within the last seven days and when last, and the dictionary reads per
// language over the last thirty days (visitor demand).
type EmbedStatus struct {
	ScriptLive    bool             `json:"script_live"`
	LastPingAt    *time.Time       `json:"last_ping_at"`
	VisitorDemand map[string]int64 `json:"visitor_demand"`
}

// embedStatus reads the project's Embed status in tx; demand not yet stored is added.
func (c *Catalog) embedStatus(ctx context.Context, tx model.Tx, projectID string) (EmbedStatus, error) {
	now := c.opts.Now()
	out := EmbedStatus{VisitorDemand: map[string]int64{}}
	last, err := tx.LastPing(ctx, projectID)
	if err != nil {
		return out, err
	}
	if !last.IsZero() && now.Sub(last) < PingRetention {
		out.ScriptLive, out.LastPingAt = true, &last
	}
	d, err := tx.Demand(ctx, projectID, day(now.Add(-DemandWindow)))
	if err != nil {
		return out, err
	}
	for lang, n := range d {
		out.VisitorDemand[lang] = n
	}
	c.embed.demand.Range(func(k, v any) bool {
		if id, lang, _ := strings.Cut(k.(string), "\x00"); id == projectID {
			if n := v.(*atomic.Int64).Load(); n > 0 {
				out.VisitorDemand[lang] += n
			}
		}
		return true
	})
	return out, nil
}

// countDemand notes one dictionary read of language for the project, in memory; the
// maintenance job stores the counts.
func (c *Catalog) countDemand(projectID, language string) {
	k := projectID + "\x00" + language
	v, ok := c.embed.demand.Load(k)
	if !ok {
		v, _ = c.embed.demand.LoadOrStore(k, new(atomic.Int64))
	}
	v.(*atomic.Int64).Add(1)
}

func day(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// EmbedMaintenance stores the visitor demand counted since its last run and removes install
// pings older than seven days and demand older than thirty. Admin only; `lokal serve`
// runs it every few seconds (RunEmbedMaintenance).
func (c *Catalog) EmbedMaintenance(ctx context.Context) error {
	if err := c.gate(ctx, model.OpEmbedMaintenance, on{}); err != nil {
		return err
	}
	now := c.opts.Now()
	type count struct {
		project, lang string
		n             int64
	}
	var counts []count
	c.embed.demand.Range(func(k, v any) bool {
		if n := v.(*atomic.Int64).Swap(0); n > 0 {
			id, lang, _ := strings.Cut(k.(string), "\x00")
			counts = append(counts, count{id, lang, n})
		} else {
			c.embed.demand.Delete(k) // idle: keeps the map to the languages read lately
		}
		return true
	})
	err := c.write(ctx, write{op: model.OpEmbedMaintenance, admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		for _, ct := range counts {
			if err := tx.AddDemand(ctx, ct.project, ct.lang, day(now), ct.n); err != nil && !model.IsNotFound(err) {
				return nil, err
			}
		}
		if _, err := tx.PrunePings(ctx, now.Add(-PingRetention)); err != nil {
			return nil, err
		}
		_, err := tx.PruneDemand(ctx, day(now.Add(-DemandWindow)))
		return nil, err
	}})
	if err != nil {
		// Put the counts back for the next run rather than lose them.
		for _, ct := range counts {
			v, _ := c.embed.demand.LoadOrStore(ct.project+"\x00"+ct.lang, new(atomic.Int64))
			v.(*atomic.Int64).Add(ct.n)
		}
	}
	return err
}

// RunEmbedMaintenance runs EmbedMaintenance every interval until ctx ends, and once more
// then so that counted demand is not lost on shutdown.
func (c *Catalog) RunEmbedMaintenance(ctx context.Context, interval time.Duration) {
	sys := model.WithPrincipal(context.WithoutCancel(ctx), System)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			if err := c.EmbedMaintenance(sys); err != nil {
				c.opts.Logger.Warn("embed maintenance", "err", err)
			}
			return
		case <-t.C:
			if err := c.EmbedMaintenance(sys); err != nil {
				c.opts.Logger.Warn("embed maintenance", "err", err)
			}
		}
	}
}

// Now is the catalogue's clock.
func (c *Catalog) Now() time.Time { return c.opts.Now() }
