package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lokal-dev/lokal/tools/checkup"
	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// Job kinds.
const JobCheckup = "checkup"

// CheckupDelay is how long after a write the checkup job waits, so that a burst of writes
// is checked once.
const CheckupDelay = 10 * time.Second

// How a checkup works through a project. A write queues the keys it changed (in its own
// transaction) and one checkup job per project; the checkup analyses the queued keys in
// chunks, each read in one snapshot and stored in one short transaction, and carries every
// other finding over from the report before. What the analysis depends on beyond the keys
// (languages, glossary, do-not-translate terms, the project's syntax) is fingerprinted:
// when it changed, the checkup analyses every key, still in chunks, as it does when a write
// of many keys queued the whole project (model.CheckupWholeProject) instead of each key. A checkup stopped midway (a shutdown, a
// crash) leaves a running report that the next one resumes; readers see completed
// reports only.
const (
	// checkupChunk is how many keys one chunk analyses: about 50-100 ms of analysis and a
	// short write of their findings, so the writer is never held for long and a
	// cancelled context ends the checkup within one chunk.
	checkupChunk = 1000
	// checkupLease is how long a runner holds a running report without storing a chunk;
	// the report of a runner that died is taken over after it.
	checkupLease = time.Minute
	// Reports kept: the newest few, and the newest of each day for a week.
	checkupKeepNewest = 5
	checkupKeepDays   = 7
	// checkupPruneBatch bounds the findings one pruning transaction deletes.
	checkupPruneBatch = 5000
	// checkupAnalysis names the analysis: a change of its rules changes it, so that the
	// next checkup analyses every key again.
	checkupAnalysis = "checkup/1"
)

// checkupRun tunes how a catalogue's checkups chunk; tests set it.
type checkupRun struct {
	chunk int // keys a chunk; 0 is checkupChunk
	// afterChunk, when set, is called after each chunk committed, with the checkup's
	// context and how many chunks it stored so far.
	afterChunk func(ctx context.Context, chunks int)
	// yielding, when set, is called when a chunk starts waiting for a big write.
	yielding func(ctx context.Context)
	chunks   atomic.Int64
}

func (c *Catalog) checkupChunkSize() int {
	if c.checkup.chunk > 0 {
		return c.checkup.chunk
	}
	return checkupChunk
}

// MaxReportFindings bounds the findings one answer carries; FindingsTotal has them all and
// NextOffset pages on.
const MaxReportFindings = 1000

// CheckupReportOut is a checkup report with one page of its findings.
type CheckupReportOut struct {
	model.CheckupReport
	Summary       checkup.Summary   `json:"summary"`
	Findings      []checkup.Finding `json:"findings"`
	FindingsTotal int               `json:"findings_total"`
	// Offset is where Findings start; NextOffset, null on the last page, continues.
	Offset     int  `json:"offset"`
	NextOffset *int `json:"next_offset"`
	Truncated  bool `json:"truncated"` // more findings follow NextOffset
}

// checkupConfig is what the analysis of a project depends on beyond its keys.
type checkupConfig struct {
	in          checkup.Input // without keys
	fingerprint string
}

func newCheckupConfig(proj model.Project, syn message.Syntax, gl []model.GlossaryPair, dnt []string) checkupConfig {
	var cfg checkupConfig
	cfg.in.SourceLanguage = proj.SourceLanguage
	cfg.in.Syntax = syn
	cfg.in.Languages = proj.TargetLanguages()
	for _, g := range gl {
		cfg.in.Glossary = append(cfg.in.Glossary, checkup.GlossaryPair{SourceTerm: g.SourceTerm, TargetTerm: g.TargetTerm, Locale: g.Locale})
	}
	cfg.in.DoNotTranslate = dnt
	parts := []string{checkupAnalysis, proj.SourceLanguage, syn.String(), strings.Join(slices.Sorted(slices.Values(cfg.in.Languages)), ",")}
	var pairs []string
	for _, g := range cfg.in.Glossary {
		pairs = append(pairs, g.SourceTerm+"\x01"+g.TargetTerm+"\x01"+g.Locale)
	}
	parts = append(parts, strings.Join(slices.Sorted(slices.Values(pairs)), "\x02"), strings.Join(slices.Sorted(slices.Values(dnt)), "\x02"))
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	cfg.fingerprint = hex.EncodeToString(h[:])
	return cfg
}

// analyze runs the analysis over keys and names each finding's key.
func (cfg checkupConfig) analyze(keys []model.CheckupKey) []model.CheckupFinding {
	in := cfg.in
	in.Keys = make([]checkup.Key, 0, len(keys))
	byName := make(map[string]model.CheckupKey, len(keys))
	for _, k := range keys {
		ck := checkup.Key{Namespace: k.Namespace, Key: k.Key, Translations: map[string]checkup.Translation{}}
		for _, r := range k.Rows {
			if r.Language == in.SourceLanguage {
				ck.Source = r.Value
				continue
			}
			ck.Translations[r.Language] = checkup.Translation{Value: r.Value, DoNotTranslate: r.DoNotTranslate,
				Stale: isStale(r.Language, in.SourceLanguage, r.SourceVersion, k.SourceVersion, true)}
		}
		in.Keys = append(in.Keys, ck)
		byName[k.Namespace+"\x00"+k.Key] = k
	}
	found, _ := checkup.Analyze(in)
	out := make([]model.CheckupFinding, len(found))
	for i, f := range found {
		k := byName[f.Namespace+"\x00"+f.Key]
		out[i] = model.CheckupFinding{KeyID: k.ID, NamespaceID: k.NamespaceID, Finding: f}
	}
	return out
}

// summary is the summary of counts ("kind language" to count) in this configuration.
func (cfg checkupConfig) summary(counts map[string]int) checkup.Summary {
	s := checkup.EmptySummary(cfg.in.SourceLanguage, cfg.in.Languages)
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		kind, lang, _ := strings.Cut(k, " ")
		s.Add(kind, lang, counts[k])
	}
	return s
}

// RunCheckup brings the project's checkup report up to date and returns it; trigger says
// what started it ("cli", "job", ...). A job finding nothing changed since the newest
// report returns that report. While another process runs the project's checkup, a job
// fails with CodeConflict (it is retried) and other triggers wait for it, then run.
// For the operator and the jobs; a user signed in to the editor who manages the project
// (run_checkup) runs it as trigger "editor", spending the project's write budget.
func (c *Catalog) RunCheckup(ctx context.Context, projectID, trigger string) (CheckupReportOut, error) {
	session := model.PrincipalFrom(ctx).Kind == KindSession
	ctx, err := c.ownerFor(ctx, model.OpRunCheckup, projectID, session)
	if err != nil {
		return CheckupReportOut{}, err
	}
	if session {
		trigger = "editor"
	}
	for {
		out, err := c.runCheckup(ctx, projectID, trigger)
		if trigger == "job" || model.ErrorCode(err) != model.CodeConflict {
			return out, err
		}
		select {
		case <-ctx.Done():
			return CheckupReportOut{}, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

func (c *Catalog) runCheckup(ctx context.Context, projectID, trigger string) (CheckupReportOut, error) {
	var cfg checkupConfig
	var base *model.CheckupReport
	var queued int64
	var running bool
	err := c.read(ctx, projectID, func(tx model.Tx, proj model.Project) error {
		gl, err := tx.Glossary(ctx, proj.ID)
		if err != nil {
			return err
		}
		dnt, err := tx.DoNotTranslateTerms(ctx, proj.ID)
		if err != nil {
			return err
		}
		cfg = newCheckupConfig(proj, c.ProjectSyntax(ctx, tx, proj), gl, dnt)
		r, err := tx.Checkup(ctx, proj.ID, "")
		if err == nil {
			base = &r
		} else if !model.IsNotFound(err) {
			return err
		}
		if queued, err = tx.CheckupQueueEnd(ctx, proj.ID); err != nil {
			return err
		}
		running, err = tx.CheckupRunning(ctx, proj.ID)
		return err
	})
	if err != nil {
		return CheckupReportOut{}, err
	}
	if trigger == "job" && base != nil && base.Fingerprint == cfg.fingerprint && queued == 0 && !running {
		// Nothing the newest report depends on changed.
		return c.checkupPage(ctx, *base, 0)
	}

	now := c.opts.Now().UTC()
	r := model.CheckupReport{ID: newID(), ProjectID: projectID, Trigger: trigger, CreatedAt: now, Runner: newID(),
		LockedUntil: now.Add(checkupLease), Fingerprint: cfg.fingerprint}
	if err := c.bookkeep(ctx, model.OpCheckup, func(tx model.Tx) error {
		var err error
		r, err = tx.StartCheckup(ctx, r, now)
		return err
	}); err != nil {
		return CheckupReportOut{}, err
	}
	// A full pass that starts here covers the project-wide marks queued so far: they
	// committed before it reads any key.
	var wholes []int64
	if r.Full && r.CursorNS == 0 && r.CursorKey == 0 {
		wholes, err = c.checkupWholeMarks(ctx, projectID)
	}
	if err == nil {
		err = c.checkupAll(ctx, cfg, &r, wholes)
	}
	if err == nil {
		err = c.checkupQueued(ctx, cfg, &r)
	}
	if err != nil {
		if ctx.Err() != nil {
			// PostgreSQL's driver answers a query cut short by the context with the
			// server's "canceling statement" error, not the context's.
			err = ctx.Err()
		}
		// Stopped midway (a shutdown, a failure): what the chunks stored stays for the
		// next checkup to carry on from, at once rather than after the lease.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if rerr := c.bookkeep(rctx, model.OpCheckup, func(tx model.Tx) error { return tx.ReleaseCheckup(rctx, r) }); rerr != nil {
			c.opts.Logger.Warn("releasing a stopped checkup", "project", projectID, "report", r.ID, "err", rerr)
		}
		return CheckupReportOut{}, err
	}

	// Complete: the summary from the counts the chunks kept.
	var stored model.CheckupReport
	if err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		stored, err = tx.Checkup(ctx, projectID, r.ID)
		return err
	}); err != nil {
		return CheckupReportOut{}, err
	}
	sum := cfg.summary(stored.Counts)
	done := c.opts.Now().UTC()
	stored.Runner, stored.Summary, stored.CompletedAt, stored.Status = r.Runner, &sum, &done, "completed"
	if err := c.bookkeep(ctx, model.OpCheckup, func(tx model.Tx) error { return tx.CompleteCheckup(ctx, stored) }); err != nil {
		return CheckupReportOut{}, err
	}
	if err := c.pruneCheckups(ctx, projectID); err != nil && ctx.Err() == nil {
		c.opts.Logger.Warn("pruning checkup reports", "project", projectID, "err", err)
	}
	return c.checkupPage(ctx, stored, 0)
}

// checkupWholeMarks lists the project-wide queue marks (model.CheckupWholeProject).
func (c *Catalog) checkupWholeMarks(ctx context.Context, projectID string) ([]int64, error) {
	var ids []int64
	err := c.store.View(ctx, func(tx model.Tx) error {
		marks, err := tx.CheckupQueue(ctx, projectID, 0, []int64{model.CheckupWholeProject}, 0)
		for _, m := range marks {
			ids = append(ids, m.ID)
		}
		return err
	})
	return ids, err
}

// checkupAll analyses every visible key of the project, namespace by namespace in key
// order, from r's cursor on; each chunk also takes the queue marks of its keys, which it
// has just analysed. The first also takes the project-wide marks wholes, which the pass
// covers: it is stored as a full pass with them, so one that resumes it covers them too.
func (c *Catalog) checkupAll(ctx context.Context, cfg checkupConfig, r *model.CheckupReport, wholes []int64) error {
	if !r.Full || r.CursorNS < 0 {
		return nil
	}
	var namespaces []int64
	if err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		namespaces, err = tx.CheckupNamespaces(ctx, r.ProjectID)
		return err
	}); err != nil {
		return err
	}
	for _, ns := range namespaces {
		if ns < r.CursorNS {
			continue
		}
		after := int64(0)
		if ns == r.CursorNS {
			after = r.CursorKey
		}
		for {
			if err := c.checkupYield(ctx); err != nil {
				return err
			}
			var keys []model.CheckupKey
			var marks []model.CheckupMark
			if err := c.store.View(ctx, func(tx model.Tx) error {
				var err error
				if keys, err = tx.CheckupKeys(ctx, r.ProjectID, model.CheckupKeySelect{NamespaceID: ns, AfterKey: after, Limit: c.checkupChunkSize()}); err != nil {
					return err
				}
				ids := make([]int64, len(keys))
				for i, k := range keys {
					ids[i] = k.ID
				}
				if len(ids) > 0 {
					marks, err = tx.CheckupQueue(ctx, r.ProjectID, 0, ids, 0)
				}
				return err
			}); err != nil {
				return err
			}
			ch := model.CheckupChunk{NamespaceID: ns, AfterKey: after, Findings: cfg.analyze(keys), Checked: len(keys)}
			ch.Marks, wholes = append(wholes, ch.Marks...), nil
			for _, m := range marks {
				ch.Marks = append(ch.Marks, m.ID)
			}
			next := *r // the cursor moves only with a stored chunk
			if len(keys) == c.checkupChunkSize() {
				ch.UpToKey = keys[len(keys)-1].ID
				next.CursorNS, next.CursorKey = ns, ch.UpToKey
			} else {
				next.CursorNS, next.CursorKey = ns+1, 0
			}
			if err := c.applyCheckup(ctx, &next, ch); err != nil {
				return err
			}
			*r = next
			if ch.UpToKey == 0 {
				break
			}
			after = ch.UpToKey
		}
	}
	next := *r
	next.CursorNS, next.CursorKey = -1, 0 // the full pass is done
	if err := c.applyCheckup(ctx, &next, model.CheckupChunk{Marks: wholes}); err != nil {
		return err
	}
	*r = next
	return nil
}

// checkupQueued analyses the keys queued up to now in key order, each key once with all its
// marks: an import queues a key once per write, so a million keys imported in four languages
// leave 2.6 million marks, which in the order they were queued would analyse most keys
// several times and the last namespace's first. Marks queued meanwhile for keys it has
// passed are left to the next checkup, which their writes scheduled.
func (c *Catalog) checkupQueued(ctx context.Context, cfg checkupConfig, r *model.CheckupReport) error {
	var end int64
	if err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		end, err = tx.CheckupQueueEnd(ctx, r.ProjectID)
		return err
	}); err != nil || end == 0 {
		return err
	}
	wholes, err := c.checkupWholeMarks(ctx, r.ProjectID)
	if err != nil {
		return err
	}
	if len(wholes) > 0 {
		// A write of many keys queued the project: a full pass from the start covers it and
		// every mark queued before it reads a key; the walk below then takes the marks of
		// keys it did not find (hidden or gone).
		r.Full, r.CursorNS, r.CursorKey = true, 0, 0
		if err := c.checkupAll(ctx, cfg, r, wholes); err != nil {
			return err
		}
	}
	after := int64(0)
	for {
		if err := c.checkupYield(ctx); err != nil {
			return err
		}
		var ids []int64
		var keys []model.CheckupKey
		var marks []model.CheckupMark
		if err := c.store.View(ctx, func(tx model.Tx) error {
			var err error
			ids, err = tx.QueuedKeys(ctx, model.QueuedKeysFilter{ProjectID: r.ProjectID, AfterKeyID: after, UpTo: end, Limit: c.checkupChunkSize()})
			if err != nil || len(ids) == 0 {
				return err
			}
			// Every mark of these keys in this snapshot, newer than end too: the analysis
			// reads the keys in the same snapshot, after the writes that queued them.
			if marks, err = tx.CheckupQueue(ctx, r.ProjectID, 0, ids, 0); err != nil {
				return err
			}
			keys, err = tx.CheckupKeys(ctx, r.ProjectID, model.CheckupKeySelect{KeyIDs: ids})
			return err
		}); err != nil {
			return err
		}
		if len(ids) == 0 {
			return nil
		}
		// Keys hidden or gone are covered too: their findings end.
		ch := model.CheckupChunk{KeyIDs: ids, Findings: cfg.analyze(keys), Checked: len(ids)}
		for _, m := range marks {
			ch.Marks = append(ch.Marks, m.ID)
		}
		if err := c.applyCheckup(ctx, r, ch); err != nil {
			return err
		}
		after = ids[len(ids)-1]
	}
}

// applyCheckup stores one chunk and renews the runner's lease.
func (c *Catalog) applyCheckup(ctx context.Context, r *model.CheckupReport, ch model.CheckupChunk) error {
	r.LockedUntil = c.opts.Now().UTC().Add(checkupLease)
	if err := c.bookkeep(ctx, model.OpCheckup, func(tx model.Tx) error { return tx.ApplyCheckup(ctx, *r, ch) }); err != nil {
		return err
	}
	if c.checkup.afterChunk != nil {
		c.checkup.afterChunk(ctx, int(c.checkup.chunks.Add(1)))
	}
	return nil
}

// checkupsToPrune picks the completed reports to delete (reports newest first): all but
// the newest checkupKeepNewest and the newest of each of the last checkupKeepDays days.
func checkupsToPrune(reports []model.CheckupReport, now time.Time) []string {
	var out []string
	days := map[string]bool{}
	for i, r := range reports {
		at := r.CreatedAt
		if r.CompletedAt != nil {
			at = *r.CompletedAt
		}
		day := at.UTC().Format(time.DateOnly)
		if i < checkupKeepNewest || (now.Sub(at) < checkupKeepDays*24*time.Hour && !days[day]) {
			days[day] = true
			continue
		}
		out = append(out, r.ID)
	}
	return out
}

// pruneCheckups deletes the reports checkupsToPrune picks and the findings only they
// showed, a batch per transaction.
func (c *Catalog) pruneCheckups(ctx context.Context, projectID string) error {
	var reports []model.CheckupReport
	if err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		reports, err = tx.CheckupReports(ctx, projectID)
		return err
	}); err != nil {
		return err
	}
	ids := checkupsToPrune(reports, c.opts.Now())
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var n int
		if err := c.bookkeep(ctx, model.OpCheckup, func(tx model.Tx) error {
			var err error
			n, err = tx.DeleteCheckups(ctx, projectID, ids, checkupPruneBatch)
			return err
		}); err != nil {
			return err
		}
		ids = nil
		if n < checkupPruneBatch {
			return nil
		}
	}
}

// checkupPage is report r with the page of its findings from offset.
func (c *Catalog) checkupPage(ctx context.Context, r model.CheckupReport, offset int) (CheckupReportOut, error) {
	out := CheckupReportOut{CheckupReport: r, Findings: []checkup.Finding{}, Offset: offset}
	if r.Summary == nil {
		// A running report: its findings are not all there yet.
		out.Summary = checkup.EmptySummary("", nil)
		return out, nil
	}
	out.Summary, out.FindingsTotal = *r.Summary, r.Summary.Total
	if offset >= out.FindingsTotal {
		return out, nil
	}
	err := c.store.View(ctx, func(tx model.Tx) error {
		f, err := tx.CheckupFindings(ctx, r, offset, MaxReportFindings)
		out.Findings = append(out.Findings, f...)
		return err
	})
	if err != nil {
		return CheckupReportOut{}, err
	}
	if next := offset + len(out.Findings); next < out.FindingsTotal && len(out.Findings) > 0 {
		out.NextOffset, out.Truncated = &next, true
	}
	return out, nil
}

// CheckupIn names a report, or none for the newest completed one, and where its findings
// page starts.
type CheckupIn struct {
	ProjectArg
	ReportID string `json:"report_id,omitempty" jsonschema:"a report id; default the newest completed report"`
	Offset   int    `json:"offset,omitempty" jsonschema:"where the findings continue: the next_offset of the previous call"`
}

// GetCheckupReport returns a stored checkup report with one page of its findings (at most
// MaxReportFindings, from Offset).
func (c *Catalog) GetCheckupReport(ctx context.Context, in CheckupIn) (CheckupReportOut, error) {
	if err := c.gate(ctx, model.OpGetCheckupReport, on{project: in.ProjectID}); err != nil {
		return CheckupReportOut{}, err
	}
	if in.Offset < 0 {
		return CheckupReportOut{}, model.Errorf(model.CodeInvalid, "offset must be 0 or more")
	}
	var r model.CheckupReport
	err := c.read(ctx, in.ProjectID, func(tx model.Tx, proj model.Project) error {
		if in.ReportID != "" && !validID(in.ReportID) {
			return model.Errorf(model.CodeNotFound, "checkup report %q not found", model.Truncate(in.ReportID, 40))
		}
		var err error
		r, err = tx.Checkup(ctx, proj.ID, in.ReportID)
		if model.IsNotFound(err) && in.ReportID == "" {
			return model.Errorf(model.CodeNotFound, "no completed checkup report yet; one runs shortly after the next write, or with `lokal checkup --project %s`", proj.ID)
		}
		return err
	})
	if err != nil {
		return CheckupReportOut{}, err
	}
	return c.checkupPage(ctx, r, in.Offset)
}
