package tools

// secretFollowsAddress is the rule of every stored secret that lokal sends somewhere (a
// workspace's AI key, a GitHub token): it goes only to the address it was given for. A
// change of address that does not give the secret again is refused, and nothing changes;
// otherwise anyone who may edit the settings could point them at their own server and
// receive the stored secret on the next call. Webhook secrets are lokal's own and are
// rotated instead (SetWebhookURL).
func secretFollowsAddress(stored bool, from, to, address, secret, how string) error {
	if !stored || from == to {
		return nil
	}
	return Errorf(CodeInvalid, "the %s changes from %s to %s: give the %s again in the same request (%s); a stored %s is only sent to the address it was given for",
		address, truncate(from, 200), truncate(to, 200), secret, how, secret)
}
