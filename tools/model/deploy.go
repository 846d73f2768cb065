package model

import (
	"net/url"
	"strings"
	"time"
)

// DeployConfig is a project's redeploy settings as stored: the token only sealed.
type DeployConfig struct {
	Provider string
	Repo     string // owner/name (github)
	Workflow string // file name or id (github)
	Ref      string // branch or tag (github)
	Inputs   map[string]string
	APIURL   string // github
	URLEnc   string // hook: secrets.Box.Seal of the URL, which is a secret (DeployHookPurpose)
	TokenEnc string
}

// RedeployAttempt is one call of endpoint 8, whatever its outcome.
type RedeployAttempt struct {
	ID         string    `json:"id"`
	ProjectID  string    `json:"-"`
	At         time.Time `json:"at"`
	By         string    `json:"by"`
	Outcome    string    `json:"outcome"`
	HTTPStatus *int      `json:"http_status"`
	Message    string    `json:"message"`
}

// RedeployView is what `redeploy show` prints: never the token, and the hook URL masked.
type RedeployView struct {
	Provider string            `json:"provider"`
	Repo     string            `json:"repo"`
	Workflow string            `json:"workflow"`
	Ref      string            `json:"ref"`
	Inputs   map[string]string `json:"inputs"`
	APIURL   string            `json:"api_url"`
	URL      string            `json:"url"` // MaskURL of the hook URL
	TokenSet bool              `json:"token_set"`
}

// View is d as shown; hookURL is the opened hook URL, which is shown masked.
func (d DeployConfig) View(hookURL string) RedeployView {
	v := RedeployView{Provider: d.Provider, Repo: d.Repo, Workflow: d.Workflow, Ref: d.Ref, Inputs: d.Inputs,
		APIURL: d.APIURL, URL: MaskURL(hookURL), TokenSet: d.TokenEnc != ""}
	if v.Inputs == nil {
		v.Inputs = map[string]string{}
	}
	return v
}

// MaskURL shows a secret URL as scheme://host/… and, when what follows the host is long
// enough that they give little away, its last 4 characters.
func MaskURL(raw string) string {
	u, err := url.Parse(raw)
	if raw == "" || err != nil || u.Scheme == "" || u.Host == "" {
		return raw
	}
	rest := []rune(strings.TrimPrefix(raw, u.Scheme+"://"+u.Host))
	out := u.Scheme + "://" + u.Host + "/…"
	if len(rest) >= 16 {
		out += string(rest[len(rest)-4:])
	}
	return out
}

// DeployHookPurpose is what a project's hook URL is sealed for; storage seals the URLs
// stored in plain text before they were secrets with it.
func DeployHookPurpose(projectID string) string { return "project:" + projectID + ":deploy_hook_url" }
