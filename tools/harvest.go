package tools

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/model"
)

// HarvestIn is the body of spec endpoint 13 with the browser's Origin header.
type HarvestIn struct {
	ProjectID string
	Origin    string
	Strings   []string
}

// Harvest stores page text the Embed script could not translate as source rows (key equal
// to value) in the project's page namespace, through the write path as operation
// "harvest", so that automatic translation picks them up (spec endpoint 13). It is silent
// by design: a project that is unknown, not an embed project, switched off or called from
// an origin it does not allow, a call over the bounds, and strings that fail the checks
// (2 to 5,000 characters with a letter in them, the value check) store nothing and report
// nothing. The error is for the server's log only.
func (c *Catalog) Harvest(ctx context.Context, in HarvestIn) error {
	if err := c.gate(ctx, model.OpHarvest, on{}); err != nil {
		return err
	}
	p, err := c.publicProject(ctx, in.ProjectID)
	if err != nil || p.IntegrationType != "embed" || p.checkOrigin(in.Origin) != nil || len(in.Strings) > MaxHarvestStrings {
		if model.IsNotFound(err) || model.ErrorCode(err) == model.CodeForbidden {
			err = nil
		}
		return err
	}
	values := map[string]string{}
	for _, s := range in.Strings {
		if s = harvestable(s); s != "" {
			values[s] = s
		}
	}
	if len(values) == 0 {
		return nil
	}
	if err := c.spend(ctx, model.OpHarvest, in.ProjectID); err != nil {
		return nil // over the project's budget: dropped, as the script will send it again
	}
	sys := model.WithPrincipal(ctx, model.Principal{Kind: model.KindSystem, Agent: "embed"})
	if err := c.writable(sys, in.ProjectID); err != nil {
		return ignoreArchived(err) // an archived project takes nothing, silently, like any refusal here
	}
	return c.write(sys, write{op: model.OpHarvest, project: in.ProjectID, apply: func(ctx context.Context, tx model.Tx, proj model.Project) ([]model.Change, error) {
		ns, err := openNamespace(ctx, tx, proj, "", EmbedNamespace, true)
		if err != nil {
			return nil, err
		}
		_, _, changes, err := addMissingKeys(ctx, tx, proj, ns, values)
		return changes, err
	}})
}

// harvestable returns s trimmed when it may become a page string, else "".
func harvestable(s string) string {
	s = strings.TrimSpace(s)
	n := utf8.RuneCountInString(s)
	if n < MinHarvestChars || n > MaxHarvestChars || !strings.ContainsFunc(s, unicode.IsLetter) {
		return ""
	}
	if checkKey(s) != nil || model.GateValue(s, s) != nil {
		return ""
	}
	return s
}
