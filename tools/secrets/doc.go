// Package secrets encrypts what lokal stores but must never show again: provider keys,
// deploy tokens and webhook secrets. Values are sealed with AES-256-GCM under one key, from
// LOKAL_SECRET_KEY (32 bytes, base64 or hex) or, for SQLite without it, from a key file
// written once beside the database (<database>.secret, mode 0600). Stored values are
// versioned ("v1:" + base64(nonce || ciphertext)) so that the scheme can change later.
package secrets
