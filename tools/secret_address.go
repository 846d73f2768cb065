package tools

import "github.com/lokal-dev/lokal/tools/model"

// secretStays is the rule of every stored secret that lokal sends somewhere (a workspace's
// AI key, a GitHub token): it goes only to the address it was given for. When a setting
// changes the address (from → to) without giving the secret again in the same request,
// the stored secret is cleared; otherwise anyone who may edit the settings could point
// them at their own server and receive the stored secret on the next call. Webhook
// secrets are lokal's own and are rotated instead (SetWebhookURL); deploy hook URLs are
// the secret and the address at once.
func secretStays(from, to string) bool {
	return from == to
}

// errSecretCleared explains a save that needs the secret cleared by secretStays.
func errSecretCleared(address, from, to, secret, how string) error {
	return model.Errorf(model.CodeInvalid, "the %s changes from %s to %s, so the stored %s was not kept: give the %s again in the same request (%s)",
		address, model.Truncate(from, 200), model.Truncate(to, 200), secret, secret, how)
}
