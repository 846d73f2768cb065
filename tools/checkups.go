package tools

import (
	"context"
	"encoding/json"
	"time"

	"github.com/lokal-dev/lokal/tools/checkup"
)

// Job kinds.
const JobCheckup = "checkup"

// CheckupDelay is how long after a write the checkup job waits, so that a burst of writes
// is checked once.
const CheckupDelay = 10 * time.Second

// checkupHook schedules the project's checkup in the write's own transaction, so that it
// survives a crash; a burst of writes coalesces into one pending job.
func (c *Catalog) checkupHook(ctx context.Context, tx Tx, ev WriteEvent) error {
	if ev.ProjectID == "" || !ev.Has(ChangeKeyCreated, ChangeKeyHidden, ChangeKeyUnhidden, ChangeValueCreated,
		ChangeValueUpdated, ChangeValueRefreshed, ChangeFlagChanged, ChangeLanguageEnabled, ChangeGlossaryAdded, ChangeTermAdded) {
		return nil
	}
	return tx.EnqueueJob(ctx, Job{Kind: JobCheckup, ProjectID: ev.ProjectID, RunAt: c.opts.Now().Add(CheckupDelay)}, true)
}

// CheckupReportOut is a checkup report with its findings.
type CheckupReportOut struct {
	CheckupReport
	Summary       checkup.Summary   `json:"summary"`
	Findings      []checkup.Finding `json:"findings"`
	FindingsTotal int               `json:"findings_total"`
	Truncated     bool              `json:"truncated"`
}

// MaxReportFindings bounds the findings one answer carries; FindingsTotal has them all.
const MaxReportFindings = 1000

// RunCheckup runs a QA pass over a project and stores the report. trigger says what started
// it ("cli", "job", ...).
func (c *Catalog) RunCheckup(ctx context.Context, projectID, trigger string) (CheckupReportOut, error) {
	var out CheckupReportOut
	if err := c.begin(ctx, projectID, false); err != nil {
		return out, err
	}
	var in checkup.Input
	err := c.read(ctx, projectID, func(tx Tx, proj Project) error {
		rows, err := tx.ProjectTranslations(ctx, proj.ID, "")
		if err != nil {
			return err
		}
		gl, err := tx.Glossary(ctx, proj.ID)
		if err != nil {
			return err
		}
		if in.DoNotTranslate, err = tx.DoNotTranslateTerms(ctx, proj.ID); err != nil {
			return err
		}
		in.SourceLanguage = proj.SourceLanguage
		for _, l := range proj.EnabledLanguages {
			if l != proj.SourceLanguage {
				in.Languages = append(in.Languages, l)
			}
		}
		for _, g := range gl {
			in.Glossary = append(in.Glossary, checkup.GlossaryPair{SourceTerm: g.SourceTerm, TargetTerm: g.TargetTerm, Locale: g.Locale})
		}
		index := map[int64]int{}
		for _, r := range rows {
			i, ok := index[r.KeyID]
			if !ok {
				i = len(in.Keys)
				index[r.KeyID] = i
				in.Keys = append(in.Keys, checkup.Key{Namespace: r.Namespace, Key: r.Key, Translations: map[string]checkup.Translation{}})
			}
			if r.Row.Language == proj.SourceLanguage {
				in.Keys[i].Source = r.Row.Value
				continue
			}
			in.Keys[i].Translations[r.Row.Language] = checkup.Translation{Value: r.Row.Value,
				Stale: isStale(r.Row.Language, proj.SourceLanguage, r.Row.SourceVersion, r.SourceVersion, true), DoNotTranslate: r.Row.DoNotTranslate}
		}
		return nil
	})
	if err != nil {
		return out, err
	}
	created := c.opts.Now().UTC()
	findings, summary := checkup.Analyze(in)
	done := c.opts.Now().UTC()
	sj, err := json.Marshal(summary)
	if err != nil {
		return out, err
	}
	fj, err := json.Marshal(findings)
	if err != nil {
		return out, err
	}
	r := CheckupReport{ID: newID(), ProjectID: projectID, Status: "completed", Trigger: trigger, CreatedAt: created,
		CompletedAt: &done, Summary: sj, Findings: fj}
	if err := c.write(ctx, write{admin: true, apply: func(ctx context.Context, tx Tx, _ Project) ([]Change, error) {
		return nil, tx.SaveCheckup(ctx, r)
	}}); err != nil {
		return out, err
	}
	return reportOut(r, summary, findings), nil
}

func reportOut(r CheckupReport, s checkup.Summary, f []checkup.Finding) CheckupReportOut {
	out := CheckupReportOut{CheckupReport: r, Summary: s, Findings: f, FindingsTotal: len(f)}
	if len(out.Findings) > MaxReportFindings {
		out.Findings, out.Truncated = out.Findings[:MaxReportFindings], true
	}
	if out.Findings == nil {
		out.Findings = []checkup.Finding{}
	}
	return out
}

// CheckupIn names a report, or none for the newest completed one.
type CheckupIn struct {
	ProjectArg
	ReportID string `json:"report_id,omitempty" jsonschema:"a report id; default the newest completed report"`
}

// GetCheckupReport returns a stored checkup report.
func (c *Catalog) GetCheckupReport(ctx context.Context, in CheckupIn) (CheckupReportOut, error) {
	var out CheckupReportOut
	if err := c.begin(ctx, in.ProjectID, false); err != nil {
		return out, err
	}
	var r CheckupReport
	err := c.read(ctx, in.ProjectID, func(tx Tx, proj Project) error {
		if in.ReportID != "" && !validID(in.ReportID) {
			return Errorf(CodeNotFound, "checkup report %q not found", truncate(in.ReportID, 40))
		}
		var err error
		r, err = tx.Checkup(ctx, proj.ID, in.ReportID)
		if IsNotFound(err) && in.ReportID == "" {
			return Errorf(CodeNotFound, "no completed checkup report yet; one runs shortly after the next write, or with `lokal checkup --project %s`", proj.ID)
		}
		return err
	})
	if err != nil {
		return out, err
	}
	var s checkup.Summary
	var f []checkup.Finding
	if err := json.Unmarshal(r.Summary, &s); err != nil {
		return out, err
	}
	if err := json.Unmarshal(r.Findings, &f); err != nil {
		return out, err
	}
	return reportOut(r, s, f), nil
}
