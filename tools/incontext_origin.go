package tools

import (
	"context"
	"net/url"
	"strings"

	"github.com/lokal-dev/lokal/tools/model"
)

// SiteOrigin checks the origin a review-in-context panel of a project is opened for: an
// exact browser origin (scheme://host[:port], as location.origin writes it) whose host is
// one of the project's workspace's authorized Embed hosts, by the rule resolve uses
// (PageHost, HostAuthorized). It answers the origin as given; CodeInvalid for anything that
// is not an exact origin, CodeForbidden for a host that is not authorized. The panel
// talks to that origin only, so the check is what stands between any site and the panel's
// writes; it reads as the caller, who must be able to read the project.
func (c *Catalog) SiteOrigin(ctx context.Context, projectID, origin string) (string, error) {
	if err := c.gate(ctx, model.OpSiteOrigin, on{project: projectID}); err != nil {
		return "", err
	}
	host, err := exactOrigin(origin)
	if err != nil {
		return "", err
	}
	var hosts []string
	err = c.read(ctx, projectID, func(tx model.Tx, proj model.Project) error {
		we, err := tx.WorkspaceEmbed(ctx, proj.WorkspaceID)
		hosts = we.AuthorizedHosts
		return err
	})
	if err != nil {
		return "", err
	}
	if !HostAuthorized(hosts, host) {
		return "", model.Errorf(model.CodeForbidden, "%s is not one of this workspace's authorized hosts: an owner adds it to the Embed's authorized hosts", model.Truncate(origin, 100))
	}
	return origin, nil
}

// exactOrigin returns the site host of an origin written exactly as a browser serializes
// it (lower case, http or https, no default port, nothing after the host), or CodeInvalid:
// a panel opened for anything else would never match a message's event.origin.
func exactOrigin(origin string) (string, error) {
	bad := model.Errorf(model.CodeInvalid, "origin must be exactly scheme://host[:port], such as https://www.example.com")
	if origin == "" || len(origin) > 300 || origin != strings.ToLower(origin) {
		return "", bad
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Opaque != "" ||
		u.Scheme+"://"+u.Host != origin {
		return "", bad
	}
	if p := u.Port(); p != "" && (p == defaultPort(u.Scheme, "") || strings.HasPrefix(p, "0")) {
		return "", bad // location.origin never writes a default port
	}
	host, err := PageHost(u.Host)
	if err != nil {
		return "", bad
	}
	return host, nil
}
