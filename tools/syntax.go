package tools

import (
	"context"
	"slices"
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
// (keepSyntax), so a read costs one row whatever the project's size: a write that adds
// source values merges their evidence in, and one that may take a syntax away keeps the
// evidence, which still protects every placeholder, and has it recounted off the request
// path (recountSyntax). Only a project whose detection was never stored (made before it
// was kept), until lokal serve detected it at start (RecountSyntaxes), is detected by a
// read, from every source value, and then stored; that answer is also cached in memory
// until the project's revision moves. A failed read gives message.All, the reading that
// protects the most. p must be read in tx (loadProject, tx.Project): the authorization
// cache's copy has no Settings, so its set syntax would be missed.
func (c *Catalog) ProjectSyntax(ctx context.Context, tx model.Tx, p model.Project) message.Syntax {
	if p.Settings.Syntax != "" {
		if s, err := message.ParseSyntax(p.Settings.Syntax); err == nil {
			return s
		}
	}
	st, err := tx.SyntaxState(ctx, p.ID)
	if err != nil {
		return message.All
	}
	if st.Valid {
		if ev, err := message.ParseEvidence(st.Syntax); err == nil {
			return ev.Syntax()
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

// SyntaxScans counts the detections a read made from every source value of a project
// since the catalogue started: after a write, none may (tests read it; time is too noisy
// to show it). Recounts off the request path are SyntaxRecounts.
func (c *Catalog) SyntaxScans() int64 { return c.syntaxScans.Load() }

// SyntaxRecounts counts the detections from every source value made off the request path:
// in the background after a write (recountSyntax) and by lokal project recount.
func (c *Catalog) SyntaxRecounts() int64 { return c.syntaxRecounts.Load() }

// detectSyntax reads every source value of p for a read that found no stored detection,
// and stores what it found: in tx when tx may write (and then commits or rolls back with
// it), else in a transaction of its own after this one, since a View cannot write.
func (c *Catalog) detectSyntax(ctx context.Context, tx model.Tx, p model.Project) (message.SyntaxEvidence, error) {
	ev, st, err := readSyntax(ctx, tx, p)
	if err != nil {
		return message.SyntaxEvidence{}, err
	}
	c.syntaxScans.Add(1)
	if tx.Writable() {
		if _, err := tx.StoreDetectedSyntax(ctx, p.ID, ev.String(), st.Gen); err != nil {
			return message.SyntaxEvidence{}, err
		}
		return ev, nil
	}
	c.syntaxWork.Add(1)
	go func() {
		defer c.syntaxWork.Done()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if _, err := c.storeSyntax(ctx, p.ID, ev, st.Gen); err != nil {
			// The next read detects again: nothing is lost but time.
			c.opts.Logger.Debug("storing the detected syntax", "project", p.ID, "err", err)
		}
	}()
	return ev, nil
}

// readSyntax is a detection from every source value of p, with the state it was read at.
// The state is read first: a write that commits after it moves Gen (keepSyntax), so under
// PostgreSQL's read committed, where the values are read later than the state, a
// detection that missed a write's values cannot be stored over them.
func readSyntax(ctx context.Context, tx model.Tx, p model.Project) (message.SyntaxEvidence, model.SyntaxState, error) {
	st, err := tx.SyntaxState(ctx, p.ID)
	if err != nil {
		return message.SyntaxEvidence{}, st, err
	}
	values, err := tx.ValuesContaining(ctx, p.ID, p.SourceLanguage, syntaxNeedles)
	if err != nil {
		return message.SyntaxEvidence{}, st, err
	}
	return message.Evidence(values), st, nil
}

// storeSyntax stores a detection made at gen, in a write of its own, unless a write came
// in between; it reports whether it did.
func (c *Catalog) storeSyntax(ctx context.Context, projectID string, ev message.SyntaxEvidence, gen int64) (bool, error) {
	stored := false
	err := c.transact(ctx, model.WriteEvent{Op: model.OpDetectSyntax, ProjectID: projectID}, func(tx model.Tx) ([]model.Change, []model.UsageRecord, error) {
		var err error
		stored, err = tx.StoreDetectedSyntax(ctx, projectID, ev.String(), gen)
		return nil, nil, err
	})
	return stored, err
}

// keepSyntax moves the stored detection of ev's project by what the write changed, in the
// write's transaction (transact runs it for every write, whatever the hooks), at a cost
// that grows with the write, not with the project. Source values written (created,
// replaced, their keys unhidden) add their evidence, read back by key, or for the keys the
// write created told from memory (createdRows); a change that may take a syntax away (a
// key hidden or removed, a source value replaced) keeps the evidence, a superset of what
// the values show, marks it stale and reports that a recount is wanted: transact starts
// it once the write committed (recountSyntax). Whatever the
// size of the write, a syntax its values show is found at once, and a syntax found stays
// found until a recount reads every value: the reading that protects the most. A new
// project is detected at once (it has no values to read). Writes to other languages and
// settings leave it alone: the source language cannot change, and a set syntax overrides
// the detection without changing it. A project whose detection was never stored gets one
// in the background too.
func (c *Catalog) keepSyntax(ctx context.Context, tx model.Tx, ev model.WriteEvent) (recount bool, err error) {
	if ev.ProjectID == "" {
		return false, nil
	}
	var grow []int64
	drop, created, values := false, false, false
	for ch := range ev.All() {
		if ch.ProjectID != "" && ch.ProjectID != ev.ProjectID {
			continue
		}
		switch ch.Kind {
		case model.ChangeKeyHidden, model.ChangeKeysRemoved:
			drop = true
		case model.ChangeKeyUnhidden:
			grow = append(grow, ch.KeyID)
		case model.ChangeValueCreated, model.ChangeValueUpdated:
			values = true
		case model.ChangeProjectCreated:
			created = true
		}
	}
	if !drop && !created && !values && len(grow) == 0 {
		return false, nil
	}
	proj, err := tx.Project(ctx, ev.ProjectID)
	if err != nil {
		return false, err
	}
	if values {
		// Only the source language's values count; a replaced one may have held a syntax.
		for ch := range ev.All() {
			if (ch.Kind == model.ChangeValueCreated || ch.Kind == model.ChangeValueUpdated) && ch.Language == proj.SourceLanguage &&
				(ch.ProjectID == "" || ch.ProjectID == ev.ProjectID) {
				grow = append(grow, ch.KeyID)
				drop = drop || ch.Kind == model.ChangeValueUpdated
			}
		}
	}
	if !drop && !created && len(grow) == 0 {
		return false, nil
	}
	st, err := tx.SyntaxState(ctx, proj.ID)
	if err != nil {
		return false, err
	}
	if created && !st.Valid {
		found, st, err := readSyntax(ctx, tx, proj)
		if err != nil {
			return false, err
		}
		return false, tx.SetSyntaxState(ctx, proj.ID, model.SyntaxState{Syntax: found.String(), Gen: st.Gen + 1, Valid: true})
	}
	old, err := message.ParseEvidence(st.Syntax)
	if !st.Valid || err != nil {
		// Nothing to merge into: detected in the background. A detection under way read
		// the rows before this write: its result must not land.
		return true, tx.SetSyntaxState(ctx, proj.ID, model.SyntaxState{Syntax: st.Syntax, Gen: st.Gen + 1})
	}
	// Evidence of nothing has nothing to lose: a plain-text project needs no recount.
	drop = drop && old != (message.SyntaxEvidence{})
	next := old
	if len(grow) > 0 {
		// The values of the keys it created the write told in memory; the others are read.
		if cr, _ := ctx.Value(createdKey{}).(*createdRows); cr != nil && len(cr.sourceIDs) > 0 {
			next = next.Merge(cr.syntax)
			grow = notAmong(grow, cr.sourceIDs)
		}
		added, err := tx.ValuesOfKeys(ctx, proj.SourceLanguage, grow, syntaxNeedles)
		if err != nil {
			return false, err
		}
		next = next.Merge(message.Evidence(added))
	}
	if !st.Stale && !drop {
		if next == old {
			return false, nil
		}
		// No recount is under way (none lands on a state that is not stale): Gen stays.
		return false, tx.SetSyntaxState(ctx, proj.ID, model.SyntaxState{Syntax: next.String(), Gen: st.Gen, Valid: true})
	}
	// A recount under way did not see this write's values, nor that it hid some.
	return true, tx.SetSyntaxState(ctx, proj.ID, model.SyntaxState{Syntax: next.String(), Gen: st.Gen + 1, Valid: true, Stale: true})
}

// redetectSyntax detects p's syntax from every source value in tx, a write: lokal project
// recount, which may read as long as it needs. The write holds the project, so nothing
// comes between its read and its store; Gen moves so that a recount under way elsewhere
// does not land. Its write must also report model.ChangeCacheRefreshed, so that no
// process keeps a copy of a detection made by a read in memory.
func (c *Catalog) redetectSyntax(ctx context.Context, tx model.Tx, p model.Project) error {
	found, st, err := readSyntax(ctx, tx, p)
	if err != nil {
		return err
	}
	c.syntaxRecounts.Add(1)
	return tx.SetSyntaxState(ctx, p.ID, model.SyntaxState{Syntax: found.String(), Gen: st.Gen + 1, Valid: true})
}

// syntaxEvidence is message.Evidence of values, reading only those that contain one of
// syntaxNeedles, as the database filters them for a detection.
func syntaxEvidence(values []string) message.SyntaxEvidence {
	var some []string
	for _, v := range values {
		if hasSyntaxNeedle(v) {
			some = append(some, v)
		}
	}
	return message.Evidence(some)
}

// hasSyntaxNeedle reports whether v holds a piece of any syntax (syntaxNeedles): the
// only values syntaxEvidence reads.
func hasSyntaxNeedle(v string) bool {
	for _, n := range syntaxNeedles {
		if strings.Contains(v, n) {
			return true
		}
	}
	return false
}

// notAmong returns the ids of a that b lacks; b is sorted in place.
func notAmong(a, b []int64) []int64 {
	slices.Sort(b)
	out := a[:0:0]
	for _, id := range a {
		if _, found := slices.BinarySearch(b, id); !found {
			out = append(out, id)
		}
	}
	return out
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
