package storage

import (
	"context"
	"encoding/json"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/uptrace/bun"
)

// projectDeployRow is the redeploy part of a project row; the token is stored sealed.
type projectDeployRow struct {
	bun.BaseModel  `bun:"table:projects"`
	ID             string `bun:"id,pk"`
	DeployProvider string `bun:"deploy_provider,notnull"`
	DeployRepo     string `bun:"deploy_repo,notnull"`
	DeployWorkflow string `bun:"deploy_workflow,notnull"`
	DeployRef      string `bun:"deploy_ref,notnull"`
	DeployToken    string `bun:"deploy_token,notnull"`
	DeployInputs   string `bun:"deploy_inputs,notnull"` // JSON object, "" for none
	DeployAPIURL   string `bun:"deploy_api_url,notnull"`
	DeployURL      string `bun:"deploy_url,notnull"` // sealed, as the token
}

type redeployAttemptRow struct {
	bun.BaseModel `bun:"table:redeploy_attempts"`
	ID            string    `bun:"id,pk,type:varchar(36)"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	At            time.Time `bun:"at,notnull"`
	By            string    `bun:"by,notnull"`
	Outcome       string    `bun:"outcome,notnull"`
	HTTPStatus    int       `bun:"http_status,notnull"`
	Message       string    `bun:"message,notnull"`
}

func (t *tx) DeployConfig(ctx context.Context, projectID string) (model.DeployConfig, error) {
	var r projectDeployRow
	if err := t.tx.NewSelect().Model(&r).Where("id = ?", projectID).Scan(ctx); err != nil {
		return model.DeployConfig{}, notFound(err, "project %s", projectID)
	}
	c := model.DeployConfig{Provider: r.DeployProvider, Repo: r.DeployRepo, Workflow: r.DeployWorkflow, Ref: r.DeployRef,
		TokenEnc: r.DeployToken, APIURL: r.DeployAPIURL, URLEnc: r.DeployURL}
	if r.DeployInputs != "" {
		if err := json.Unmarshal([]byte(r.DeployInputs), &c.Inputs); err != nil {
			return model.DeployConfig{}, err
		}
	}
	return c, nil
}

func (t *tx) SetDeployConfig(ctx context.Context, projectID string, c model.DeployConfig) error {
	inputs := ""
	if len(c.Inputs) > 0 {
		b, err := json.Marshal(c.Inputs)
		if err != nil {
			return err
		}
		inputs = string(b)
	}
	res, err := t.tx.NewUpdate().Model(&projectDeployRow{ID: projectID, DeployProvider: c.Provider, DeployRepo: c.Repo,
		DeployWorkflow: c.Workflow, DeployRef: c.Ref, DeployToken: c.TokenEnc, DeployInputs: inputs, DeployAPIURL: c.APIURL,
		DeployURL: c.URLEnc}).WherePK().Exec(ctx)
	if err != nil {
		return mapError(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return &model.Error{Code: model.CodeNotFound, Message: "project " + projectID + " not found"}
	}
	return nil
}

func (t *tx) AddRedeployAttempt(ctx context.Context, a model.RedeployAttempt) error {
	r := redeployAttemptRow{ID: a.ID, ProjectID: a.ProjectID, At: a.At.UTC(), By: a.By, Outcome: a.Outcome, Message: a.Message}
	if a.HTTPStatus != nil {
		r.HTTPStatus = *a.HTTPStatus
	}
	_, err := t.tx.NewInsert().Model(&r).Exec(ctx)
	return mapError(err)
}

func (t *tx) RedeployAttempts(ctx context.Context, projectID string, limit int) ([]model.RedeployAttempt, error) {
	var rows []redeployAttemptRow
	if err := t.tx.NewSelect().Model(&rows).Where("project_id = ?", projectID).OrderExpr("at DESC, id DESC").Limit(int64(limit)).
		Scan(ctx); err != nil {
		return nil, mapError(err)
	}
	out := make([]model.RedeployAttempt, len(rows))
	for i, r := range rows {
		out[i] = model.RedeployAttempt{ID: r.ID, ProjectID: r.ProjectID, At: r.At.UTC(), By: r.By, Outcome: r.Outcome, Message: r.Message}
		if r.HTTPStatus != 0 {
			s := r.HTTPStatus
			out[i].HTTPStatus = &s
		}
	}
	return out, nil
}
