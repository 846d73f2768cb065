package tools

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// Review in context (issue 36): the panel, a lokal page beside a site in edit mode, tells
// where keys are seen on the site's pages. lokal keeps it per key and page, to show it on
// the editor's rows, to put it in the AI's prompt for the key, to flag a value that would
// not fit its box, and to walk a page's keys in order. What the page sends is the site's
// word: every field is bounded, and the page must be one of the workspace's sites.

// PageContext is where a key was seen on a page (see model.PageContext).
type PageContext = model.PageContext

// ContextItem is one text of a page: its key, or on Embed pages ("" Key) its source text,
// by which the key is found in the namespace.
type ContextItem struct {
	Key  string
	Text string
	PageContext
}

// RecordContextIn is what the panel reports of a page's texts, in one namespace.
type RecordContextIn struct {
	ProjectID, Namespace string
	Items                []ContextItem
	// Origin, when set, is the site that reports the items (the in-context panel's):
	// what one site says of another's pages is not kept.
	Origin string
}

// RecordContextOut is the key of each item, in order ("" when none matched).
type RecordContextOut struct {
	Keys []string
}

// PageKey is a key seen on a page, at its position there.
type PageKey struct {
	Namespace, Key, Source string
	Position               int
}

// Overflow is set when a value would not fit the box where its key was seen: the page, the
// value's estimated width and the box, in CSS px.
type Overflow struct {
	URL            string
	Estimated, Box float64
}

// Bounds of what a page may report.
const (
	MaxContextItems   = 500  // items per call
	MaxContextURL     = 1000 // bytes of a page URL, query and fragment removed
	MaxContextTitle   = 200  // runes kept of a page title
	MaxContextAround  = 120  // runes kept of the text before and after
	MaxContextText    = 5000 // runes of an item's text (MaxHarvestChars)
	MaxContextPixels  = 100000
	MaxContextPos     = 100000
	ContextPagesKept  = 20   // pages kept per key, the newest
	ContextKeysKept   = 2000 // keys kept per page, the newest
	overflowTolerance = 0.05 // of the box, and at least overflowSlack px
	overflowSlack     = 2.0
)

// ContextRoles are the roles an element may have; "text" is anything else.
var ContextRoles = []string{"button", "heading", "label", "link", "option", "text"}

// RecordContext keeps where the items' keys were seen, one row per key and page (seen
// again: updated), and answers each item's key. An item's key is its Key when the
// namespace has it, else the key whose source value is its Text; an item matching none is
// skipped. CodeInvalid, nothing stored, for a page that is not http(s) on one of the
// workspace's authorized hosts (or a host bound to the project), a role not in
// ContextRoles, a width, box or position that is not a finite number in bounds, and
// strings over their bounds (a title or neighbouring text is cut to its length kept; one
// over four times that is refused).
func (c *Catalog) RecordContext(ctx context.Context, in RecordContextIn) (RecordContextOut, error) {
	out := RecordContextOut{Keys: []string{}}
	if err := c.gate(ctx, model.OpRecordContext, on{project: in.ProjectID}); err != nil {
		return out, err
	}
	if len(in.Items) > MaxContextItems {
		return out, model.Errorf(model.CodeInvalid, "at most %d items per call", MaxContextItems)
	}
	items := make([]ContextItem, len(in.Items))
	for i, it := range in.Items {
		if in.Origin != "" && it.URL != in.Origin && !strings.HasPrefix(it.URL, in.Origin+"/") {
			return out, model.Errorf(model.CodeInvalid, "item %d: the page is not on %s", i, model.Truncate(in.Origin, 100))
		}
		var err error
		if items[i], err = cleanItem(it); err != nil {
			return out, model.Errorf(model.CodeInvalid, "item %d: %s", i, model.ErrorMessage(err))
		}
	}
	if err := c.writable(ctx, in.ProjectID); err != nil {
		return out, err
	}
	now := c.opts.Now().UTC()
	who := model.PrincipalFrom(ctx).Actor()
	err := c.bookkeep(ctx, model.OpRecordContext, func(tx model.Tx) error {
		proj, err := c.loadProject(ctx, tx, in.ProjectID)
		if err != nil {
			return err
		}
		sites, err := siteHosts(ctx, tx, proj)
		if err != nil {
			return err
		}
		for i := range items {
			if items[i].URL, err = sitePage(sites, items[i].URL); err != nil {
				return model.Errorf(model.CodeInvalid, "item %d: %s", i, model.ErrorMessage(err))
			}
		}
		keys, err := itemKeys(ctx, tx, proj, in.Namespace, items)
		if err != nil {
			return err
		}
		var rows []model.PageContextRow
		for i, it := range items {
			out.Keys = append(out.Keys, keys[i].Key)
			if keys[i].ID == 0 {
				continue
			}
			it.SeenAt = now
			rows = append(rows, model.PageContextRow{KeyID: keys[i].ID, Who: who, PageContext: it.PageContext})
		}
		return tx.RecordPageContexts(ctx, proj.ID, rows, ContextPagesKept, ContextKeysKept)
	})
	if err != nil {
		return RecordContextOut{Keys: []string{}}, err
	}
	return out, nil
}

// FindKeys maps source texts of a namespace to their keys (Embed pages, whose keys are
// found by their source text); a text no visible key has is left out.
func (c *Catalog) FindKeys(ctx context.Context, projectID, ns string, texts []string) (map[string]string, error) {
	out := map[string]string{}
	if err := c.gate(ctx, model.OpFindKeys, on{project: projectID}); err != nil {
		return out, err
	}
	if len(texts) > MaxContextItems {
		return out, model.Errorf(model.CodeInvalid, "at most %d texts per call", MaxContextItems)
	}
	items := make([]ContextItem, 0, len(texts))
	for _, t := range texts {
		if utf8.ValidString(t) && utf8.RuneCountInString(t) <= MaxContextText {
			items = append(items, ContextItem{Text: t})
		}
	}
	err := c.read(ctx, projectID, func(tx model.Tx, proj model.Project) error {
		keys, err := itemKeys(ctx, tx, proj, ns, items)
		for i, k := range keys {
			if k.ID != 0 {
				out[items[i].Text] = k.Key
			}
		}
		return err
	})
	return out, err
}

// KeyContexts returns the pages a key was seen on, newest first (none for a key never
// seen); CodeNotFound for an unknown namespace or key.
func (c *Catalog) KeyContexts(ctx context.Context, projectID, ns, key string) ([]PageContext, error) {
	out := []PageContext{}
	if err := c.gate(ctx, model.OpKeyContexts, on{project: projectID}); err != nil {
		return out, err
	}
	err := c.read(ctx, projectID, func(tx model.Tx, proj model.Project) error {
		_, k, err := findKey(ctx, tx, proj, KeyRef{NamespaceKey: ns, TranslationKey: key})
		if err != nil {
			return err
		}
		all, err := tx.PageContexts(ctx, []int64{k.ID})
		if len(all[k.ID]) > 0 {
			out = all[k.ID]
		}
		return err
	})
	return out, err
}

// PageKeys returns the visible keys seen on a page (its URL; query and fragment are
// ignored), in their order on the page, for a reviewer to walk it.
func (c *Catalog) PageKeys(ctx context.Context, projectID, pageURL string) ([]PageKey, error) {
	out := []PageKey{}
	if err := c.gate(ctx, model.OpPageKeys, on{project: projectID}); err != nil {
		return out, err
	}
	u, err := pageAddress(pageURL)
	if err != nil {
		return out, err
	}
	err = c.read(ctx, projectID, func(tx model.Tx, proj model.Project) error {
		rows, err := tx.PageKeys(ctx, proj.ID, u, proj.SourceLanguage)
		for _, r := range rows {
			out = append(out, PageKey{Namespace: r.Namespace, Key: r.Key, Source: r.Source, Position: r.Position})
		}
		return err
	})
	return out, err
}

// OverflowOf estimates value's width on each page its key was seen on, from the source's
// rendered width there scaled by their visible lengths (message.VisibleLength), and
// answers the first page (newest first) where it exceeds the box by more than the
// tolerance; nil when it fits everywhere or nothing can be told. A running text that
// already fills its box wraps rather than overflows, and is not flagged.
func OverflowOf(source, value string, syn message.Syntax, contexts []PageContext) *Overflow {
	src, val := message.VisibleLength(source, syn), message.VisibleLength(value, syn)
	if src == 0 || val == 0 {
		return nil
	}
	for _, pc := range contexts {
		if pc.Width <= 0 || pc.Box <= 0 || (pc.Role == "text" && pc.Width >= pc.Box*(1-overflowTolerance)) {
			continue
		}
		est := pc.Width * float64(val) / float64(src)
		if est > pc.Box+max(pc.Box*overflowTolerance, overflowSlack) {
			return &Overflow{URL: pc.URL, Estimated: math.Round(est*10) / 10, Box: pc.Box}
		}
	}
	return nil
}

// fitChars is about how many visible characters fit the box where source was seen, at
// the source's width per character; 0 when nothing can be told.
func fitChars(source string, syn message.Syntax, pc PageContext) int {
	n := message.VisibleLength(source, syn)
	if n == 0 || pc.Width <= 0 || pc.Box <= 0 || pc.Role == "text" {
		return 0
	}
	return int(float64(n) * pc.Box / pc.Width)
}

// contextNote says where a key is shown, for the AI's prompt: its newest page.
func contextNote(source string, syn message.Syntax, pcs []PageContext) string {
	if len(pcs) == 0 {
		return ""
	}
	pc := pcs[0]
	var b strings.Builder
	what := map[string]string{"button": "a button label", "heading": "a heading", "label": "a form label",
		"link": "a link", "option": "an option of a list"}[pc.Role]
	if what == "" {
		what = "text"
	}
	fmt.Fprintf(&b, "Shown as %s on page %q (%s)", what, pc.Title, pc.URL)
	if pc.Before != "" {
		fmt.Fprintf(&b, "; before: %q", pc.Before)
	}
	if pc.After != "" {
		fmt.Fprintf(&b, "; after: %q", pc.After)
	}
	if n := fitChars(source, syn, pc); n > 0 {
		fmt.Fprintf(&b, "; keep it within about %d characters to fit", n)
	}
	if len(pcs) > 1 {
		fmt.Fprintf(&b, "; also seen on %d other page(s)", len(pcs)-1)
	}
	return b.String() + "."
}

// cleanItem bounds what a page reported of one text; the URL is checked against the sites
// later, in the transaction.
func cleanItem(it ContextItem) (ContextItem, error) {
	for _, s := range []string{it.Key, it.Text, it.URL, it.Title, it.Role, it.Before, it.After} {
		if !utf8.ValidString(s) {
			return it, fmt.Errorf("a string is not UTF-8")
		}
	}
	if it.Key == "" && it.Text == "" {
		return it, fmt.Errorf("a key or a text is required")
	}
	if utf8.RuneCountInString(it.Text) > MaxContextText || len(it.Key) > MaxContextText {
		return it, fmt.Errorf("the text is over %d characters", MaxContextText)
	}
	if !slices.Contains(ContextRoles, it.Role) {
		return it, fmt.Errorf("role %q is not one of %s", model.Truncate(it.Role, 20), strings.Join(ContextRoles, ", "))
	}
	var err error
	if it.Title, err = bounded("title", it.Title, MaxContextTitle); err != nil {
		return it, err
	}
	if it.Before, err = bounded("before", it.Before, MaxContextAround); err != nil {
		return it, err
	}
	if it.After, err = bounded("after", it.After, MaxContextAround); err != nil {
		return it, err
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"width", it.Width}, {"box", it.Box}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 || f.v > MaxContextPixels {
			return it, fmt.Errorf("%s must be a number of pixels from 0 to %d", f.name, MaxContextPixels)
		}
	}
	if it.Position < 0 || it.Position > MaxContextPos {
		return it, fmt.Errorf("position must be from 0 to %d", MaxContextPos)
	}
	it.Text = strings.TrimSpace(it.Text)
	return it, nil
}

// bounded is s with control characters and runs of spaces made one space, cut to max
// runes; an error when s is over four times that (not a page's text).
func bounded(name, s string, maxRunes int) (string, error) {
	if utf8.RuneCountInString(s) > 4*maxRunes {
		return "", fmt.Errorf("%s is over %d characters", name, 4*maxRunes)
	}
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	if utf8.RuneCountInString(s) > maxRunes {
		s = string([]rune(s)[:maxRunes])
	}
	return s, nil
}

// pageAddress is a page's URL as kept: http(s), no user, query or fragment.
func pageAddress(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Opaque != "" {
		return "", model.Errorf(model.CodeInvalid, "the page URL must be an http or https URL")
	}
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
	if u.Path == "" {
		u.Path = "/"
	}
	s := u.String()
	if len(s) > MaxContextURL {
		return "", model.Errorf(model.CodeInvalid, "the page URL is over %d bytes", MaxContextURL)
	}
	return s, nil
}

// sites are the hosts a project's pages may be on: the workspace's authorized hosts and
// the hosts bound to the project.
type sites struct{ authorized, bound []string }

func siteHosts(ctx context.Context, tx model.Tx, proj model.Project) (sites, error) {
	we, err := tx.WorkspaceEmbed(ctx, proj.WorkspaceID)
	if err != nil {
		return sites{}, err
	}
	bound, err := tx.ProjectHosts(ctx, proj.ID)
	return sites{authorized: we.AuthorizedHosts, bound: bound}, err
}

// allows reports whether a page's host (as PageHost gives it) is one of the sites, as
// resolve would serve it.
func (s sites) allows(host string) bool {
	if HostAuthorized(s.authorized, host) {
		return true
	}
	for _, h := range boundForms(host) {
		if slices.Contains(s.bound, h) {
			return true
		}
	}
	return false
}

// sitePage is pageAddress for a page that must be on one of the sites.
func sitePage(s sites, raw string) (string, error) {
	addr, err := pageAddress(raw)
	if err != nil {
		return "", err
	}
	u, _ := url.Parse(addr)
	host, err := PageHost(u.Host)
	if err != nil || !s.allows(host) {
		return "", model.Errorf(model.CodeInvalid, "%s is not one of this workspace's sites", model.Truncate(u.Host, 100))
	}
	return addr, nil
}

// itemKeys finds each item's key in namespace ns (EmbedNamespace when ""): by name, else
// by source text; a zero record when none. An unknown namespace has no keys.
func itemKeys(ctx context.Context, tx model.Tx, proj model.Project, ns string, items []ContextItem) ([]model.KeyRecord, error) {
	out := make([]model.KeyRecord, len(items))
	if ns == "" {
		ns = EmbedNamespace
	}
	if checkNamespace(ns) != nil {
		return out, model.Errorf(model.CodeInvalid, "namespace %q is not a namespace name", model.Truncate(ns, 40))
	}
	space, err := tx.Namespace(ctx, proj.ID, ns)
	if model.IsNotFound(err) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	var named, texts []string
	for _, it := range items {
		if it.Key != "" {
			if checkKey(it.Key) == nil {
				named = append(named, it.Key)
			}
		} else if it.Text != "" {
			texts = append(texts, it.Text)
		}
	}
	byName := map[string]model.KeyRecord{}
	if len(named) > 0 {
		states, err := tx.Keys(ctx, space, proj.SourceLanguage, proj.SourceLanguage, named...)
		if err != nil {
			return out, err
		}
		for _, k := range states {
			if !k.Hidden {
				byName[k.Key] = model.KeyRecord{ID: k.ID, NamespaceID: space.ID, Key: k.Key, SourceVersion: k.SourceVersion}
			}
		}
	}
	bySource := map[string]model.KeyRecord{}
	if len(texts) > 0 {
		if bySource, err = tx.KeysBySource(ctx, space, proj.SourceLanguage, texts); err != nil {
			return out, err
		}
	}
	for i, it := range items {
		if it.Key != "" {
			out[i] = byName[it.Key]
		} else {
			out[i] = bySource[it.Text]
		}
	}
	return out, nil
}
