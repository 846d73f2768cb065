// Package outbound is the one HTTP client for calls to URLs that users type in: webhook
// endpoints, redeploy hooks and workspace AI providers. Such URLs are how a self-hosted
// service gets used to reach its own network (SSRF), so every connection passes a guard.
//
// # The rule
//
// Loopback, private (RFC 1918, fc00::/7), link-local, CGNAT (100.64.0.0/10), multicast,
// unspecified, cloud metadata, their IPv4-mapped and translated IPv6 forms, and every other
// special-purpose prefix that code.dny.dev/ssrf denies (kept in sync with the IANA
// registries) are refused. The operator's allow list (--allow-private-nets,
// LOKAL_ALLOW_PRIVATE_NETS) is the only exception: an address inside an allowed prefix
// passes whatever it is.
//
// # Where it is checked
//
//   - At dial time ([Guard.Client]): net.Dialer.Control sees the address actually being
//     connected to, after DNS, so names that resolve to private addresses and DNS rebinding
//     are refused. A redirect is a new request through the same dialer, so it is checked
//     too. Proxies from the environment are ignored: through a proxy the guard would see
//     the proxy's address, not the destination's.
//   - Before dialling, the request's host is read as browsers read it: 2130706433,
//     0177.0.0.1, 0x7f000001 and 127.1 are IPv4 literals, checked (and refused when not
//     written as a plain dotted quad) without sending them to DNS.
//   - At configure time ([Guard.CheckURL]): scheme, userinfo, literal hosts in every form,
//     and every address a name resolves to, so a bad URL is refused with a clear message
//     when it is saved rather than failing on every delivery.
//
// Refusals are [*BlockedError], which says why ("127.0.0.2 is a loopback address").
//
// # Answers
//
// Such a server may also answer without end. limits.go names what lokal reads of an
// answer ([MaxModelAnswer], [MaxErrorBody], [MaxHookAnswer]); [LimitBody] and
// [ReadLimited] fail past a cap with [ErrTooLarge] rather than cut the answer short, and
// the caller counts the call as failed.
//
// # Failures
//
// [Fail] is the one way a failed call becomes text anywhere in lokal (AI suggestions and
// translation failures, redeploy attempts, webhook deliveries): a kind, the HTTP status and
// a reason lokal wrote ("the provider refused the API key"). The answer's body is never
// kept, stored, logged or shown: a server that echoes its request answers with the key.
package outbound
