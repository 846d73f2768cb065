package tools

import (
	"context"
	"strings"
	"time"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// Where a project's syntax comes from, as SyntaxView.Source tells it.
const (
	SyntaxSet      = "set"      // the operator set it (lokal project set --syntax)
	SyntaxDetected = "detected" // found in the project's source values
)

// SyntaxView is the syntaxes a project's values are read in, as `project show` and
// get_project_status tell them.
type SyntaxView struct {
	Names  []string `json:"names"`
	Source string   `json:"source"` // SyntaxSet or SyntaxDetected
}

// ProjectSyntax returns the syntaxes p's values are written in: the project's setting, or
// else those message.DetectSyntax finds in its visible source values.
//
// The detection is kept in the database (model.SyntaxState) and moved by the write path
// (keepSyntax): a write that adds source values merges their evidence in, so a save costs
// the values it wrote; only a write that may have taken a syntax away (a hidden key, a
// source sync, settings) leaves it to be detected again, by the next read, which stores
// what it found unless a write came in between. Detection reads only the distinct source
// values that contain one of syntaxNeedles, filtered by the database: a value without one
// adds nothing to DetectSyntax's answer. The answer is also cached in memory until the
// project's revision moves. A failed read gives message.All, the reading that protects the
// most, and is not cached. p must be read in tx (loadProject, tx.Project): the
// authorization cache's copy has no Settings, so its set syntax would be missed.
func (c *Catalog) ProjectSyntax(ctx context.Context, tx model.Tx, p model.Project) message.Syntax {
	if p.Settings.Syntax != "" {
		if s, err := message.ParseSyntax(p.Settings.Syntax); err == nil {
			return s
		}
	}
	f, err := c.store.Cached(ctx, p.ID, "syntax", func(ctx context.Context) ([]byte, error) {
		ev, err := c.detectSyntax(ctx, tx, p)
		if err != nil {
			return nil, err
		}
		return []byte(ev.Syntax().String()), nil
	})
	if err != nil {
		return message.All
	}
	s, err := message.ParseSyntax(string(f.Body))
	if err != nil {
		return message.All
	}
	return s
}

// SyntaxScans counts the detections that read every source value of a project since the
// catalogue started: a save must not add one (tests read it; time is too noisy to show it).
func (c *Catalog) SyntaxScans() int64 { return c.syntaxScans.Load() }

// detectSyntax returns the stored evidence of p, or reads every source value and stores
// what it found: in tx when tx may write (and then commits or rolls back with it), else
// in a transaction of its own after this one, since a View cannot write.
func (c *Catalog) detectSyntax(ctx context.Context, tx model.Tx, p model.Project) (message.SyntaxEvidence, error) {
	st, err := tx.SyntaxState(ctx, p.ID)
	if err != nil {
		return message.SyntaxEvidence{}, err
	}
	if st.Valid {
		if ev, err := message.ParseEvidence(st.Syntax); err == nil {
			return ev, nil
		}
	}
	values, err := tx.ValuesContaining(ctx, p.ID, p.SourceLanguage, syntaxNeedles)
	if err != nil {
		return message.SyntaxEvidence{}, err
	}
	c.syntaxScans.Add(1)
	ev := message.Evidence(values)
	if tx.Writable() {
		if _, err := tx.StoreDetectedSyntax(ctx, p.ID, ev.String(), st.Gen); err != nil {
			return message.SyntaxEvidence{}, err
		}
		return ev, nil
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		err := c.transact(ctx, model.WriteEvent{Op: model.OpDetectSyntax, ProjectID: p.ID}, func(tx model.Tx) ([]model.Change, []model.UsageRecord, error) {
			_, err := tx.StoreDetectedSyntax(ctx, p.ID, ev.String(), st.Gen)
			return nil, nil, err
		})
		if err != nil {
			// The next read detects again: nothing is lost but time.
			c.opts.Logger.Debug("storing the detected syntax", "project", p.ID, "err", err)
		}
	}()
	return ev, nil
}

// syntaxGrowMax bounds the source keys whose values a write merges into the stored
// detection; a bigger write leaves it to be detected again, which then costs about as
// much as reading those values.
const syntaxGrowMax = 1000

// keepSyntax moves the stored detection of ev's project by what the write changed, in the
// write's transaction (transact runs it for every write, whatever the hooks). Values
// written in the source language add their evidence; a change that may have taken a
// syntax away (a key hidden or removed, settings such as the source language) or a source
// sync, which re-declares the namespace and is the source's own recount, makes it detected
// again. Writes to other languages leave it alone. A changed value's old evidence stays
// until a recount (lokal project recount) or a sync: a syntax found stays found, the
// reading that protects the most.
func (c *Catalog) keepSyntax(ctx context.Context, tx model.Tx, ev model.WriteEvent) error {
	if ev.ProjectID == "" {
		return nil
	}
	var grow []int64
	redetect := false
	values := false
	for _, ch := range ev.Changes {
		if ch.ProjectID != "" && ch.ProjectID != ev.ProjectID {
			continue
		}
		switch ch.Kind {
		case model.ChangeKeyHidden, model.ChangeKeysRemoved, model.ChangeProjectSettings:
			redetect = true
		case model.ChangeKeyUnhidden:
			grow = append(grow, ch.KeyID)
		case model.ChangeValueCreated, model.ChangeValueUpdated:
			values = true
			grow = append(grow, ch.KeyID)
		}
	}
	if !redetect && len(grow) == 0 {
		return nil
	}
	proj, err := tx.Project(ctx, ev.ProjectID)
	if err != nil {
		return err
	}
	if !redetect && values {
		// Only the source language's values count.
		var src []int64
		for _, ch := range ev.Changes {
			switch ch.Kind {
			case model.ChangeValueCreated, model.ChangeValueUpdated:
				if ch.Language == proj.SourceLanguage {
					src = append(src, ch.KeyID)
				}
			case model.ChangeKeyUnhidden:
				src = append(src, ch.KeyID)
			}
		}
		if grow = src; len(grow) == 0 {
			return nil
		}
		redetect = ev.Op == model.OpSync || len(grow) > syntaxGrowMax
	}
	st, err := tx.SyntaxState(ctx, proj.ID)
	if err != nil {
		return err
	}
	if redetect || !st.Valid {
		// A detection under way read the rows before this write: its result must not land.
		return tx.SetSyntaxState(ctx, proj.ID, model.SyntaxState{Syntax: st.Syntax, Gen: st.Gen + 1})
	}
	old, err := message.ParseEvidence(st.Syntax)
	if err != nil {
		return tx.SetSyntaxState(ctx, proj.ID, model.SyntaxState{Syntax: st.Syntax, Gen: st.Gen + 1})
	}
	added, err := tx.ValuesOfKeys(ctx, proj.SourceLanguage, grow, syntaxNeedles)
	if err != nil || len(added) == 0 {
		return err
	}
	if merged := old.Merge(message.Evidence(added)); merged != old {
		return tx.SetSyntaxState(ctx, proj.ID, model.SyntaxState{Syntax: merged.String(), Gen: st.Gen, Valid: true})
	}
	return nil
}

// forgetSyntax makes the project's syntax detected again from every value: the recount.
// Its write must also report model.ChangeCacheRefreshed, so that no process keeps its
// copy in memory.
func forgetSyntax(ctx context.Context, tx model.Tx, projectID string) error {
	st, err := tx.SyntaxState(ctx, projectID)
	if err != nil {
		return err
	}
	return tx.SetSyntaxState(ctx, projectID, model.SyntaxState{Syntax: st.Syntax, Gen: st.Gen + 1})
}

// syntaxNeedles are what every syntax's pieces contain (braces, %, tags and entities, ${
// and $t(, markdown's [, ICU's quoted '|): a value without any is text in every syntax.
var syntaxNeedles = []string{"{", "}", "%", "<", "&", "$", "[", "'|"}

// syntaxView tells p's effective syntax and where it comes from.
func (c *Catalog) syntaxView(ctx context.Context, tx model.Tx, p model.Project) SyntaxView {
	v := SyntaxView{Names: []string{}, Source: SyntaxDetected}
	if p.Settings.Syntax != "" {
		v.Source = SyntaxSet
	}
	if s := c.ProjectSyntax(ctx, tx, p); s != 0 {
		v.Names = strings.Split(s.String(), ",")
	}
	return v
}
