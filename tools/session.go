package tools

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/lokal-dev/lokal/tools/model"
	"golang.org/x/crypto/argon2"
)

// KindSession is a user signed in to the editor in a browser: it may do what the user's
// workspace token may, and the editor's operations add the user's own limits (only the
// project's editable languages). On the Connect page it is also the owner of its
// workspace's projects: their keys, AI and Embed settings, and the user's own tokens
// (owner and self, authorize.go).
const KindSession = "session"

// PrefixSession marks a session cookie's token.
const PrefixSession = "ses_"

// SessionLifetime is how long a sign-in lasts; signing out ends it sooner.
const SessionLifetime = 7 * 24 * time.Hour

// Password rules: long enough to matter, short enough that hashing stays cheap.
const (
	MinPasswordBytes = 10
	MaxPasswordBytes = 1024
)

// argon2id parameters: RFC 9106's second recommended option (64 MiB, 3 passes) scaled to
// 19 MiB and 2 passes as OWASP's password storage cheat sheet suggests for servers that
// sign in often; one hash takes about 30 ms here.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024
	argonThreads = 1
	argonKeyLen  = 32
)

// passwordCost is the argon2id passes and memory (KiB) new hashes use. A hash records
// its own, so a check costs what its hashing did.
var passwordCost = struct{ time, memory uint32 }{argonTime, argonMemory}

// SetPasswordCost changes the cost of the hashes made from now on, for the whole process.
// For test binaries only (storagetest does it): their hundreds of sign-ins at 19 MiB
// each were most of the editor tests' CPU. The lokal binary never calls it.
func SetPasswordCost(passes, memoryKiB uint32) {
	passwordCost.time, passwordCost.memory = max(passes, 1), max(memoryKiB, 8*argonThreads)
}

// hashPassword returns the PHC string form of an argon2id hash of password.
func hashPassword(password string) string {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		panic("reading random bytes: " + err.Error())
	}
	c := passwordCost
	key := argon2.IDKey([]byte(password), salt, c.time, c.memory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, c.memory, c.time, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// checkPassword reports whether password matches an encoded hash; a malformed hash never
// matches.
func checkPassword(encoded, password string) bool {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var version int
	var mem, iter uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &iter, &threads); err != nil || threads == 0 || iter == 0 || mem > 1<<20 {
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	want, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, iter, mem, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash is checked when no user has the email, so that a wrong email takes as long as
// a wrong password and does not tell which accounts exist. Made at the first sign-in, not
// at start: every admin command would pay a hash (30 ms, 19 MiB) for nothing.
var dummyHash = sync.OnceValue(func() string { return hashPassword("lokal: no such user") })

// SetPassword sets a user's password for the editor and signs the user out everywhere.
// Admin only (lokal user passwd).
func (c *Catalog) SetPassword(ctx context.Context, userID, password string) error {
	if err := c.gate(ctx, model.OpSetPassword, on{}); err != nil {
		return err
	}
	password = strings.TrimRight(password, "\r\n")
	if n := len(password); n < MinPasswordBytes || n > MaxPasswordBytes || !utf8.ValidString(password) {
		return lengthRule("a password", MinPasswordBytes, MaxPasswordBytes)
	}
	if !validID(userID) {
		return model.Errorf(model.CodeNotFound, "user %q not found", model.Truncate(userID, 40))
	}
	hash := hashPassword(password)
	return c.write(ctx, write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		return nil, tx.SetPassword(ctx, userID, hash)
	}})
}

// SignInIn is what the sign-in form sends; ClientIP keys the throttle.
type SignInIn struct {
	Email    string
	Password string
	ClientIP string
}

// SignedIn is a new session: Token goes into the cookie and is never stored.
type SignedIn struct {
	Token   string
	Session model.Session
	User    model.User
}

// SignIn checks an email and password and opens a session. Every failure is the same
// CodeUnauthorized, whether the email is unknown or the password wrong. Only failures are
// counted (signInThrottle); a success clears those of its address and email.
func (c *Catalog) SignIn(ctx context.Context, in SignInIn) (SignedIn, error) {
	if err := c.gate(ctx, model.OpSignIn, on{}); err != nil {
		return SignedIn{}, err
	}
	email := strings.TrimSpace(in.Email)
	if email == "" || len(email) > 320 || in.Password == "" || len(in.Password) > MaxPasswordBytes {
		return SignedIn{}, model.Errorf(model.CodeUnauthorized, "wrong email or password")
	}
	th := signInThrottle(in.ClientIP, email)
	if err := th.shut(ctx, c); err != nil {
		return SignedIn{}, err
	}
	var creds []model.Credential
	if err := c.store.View(ctx, func(tx model.Tx) error {
		var err error
		creds, err = tx.Credentials(ctx, email)
		return err
	}); err != nil {
		return SignedIn{}, err
	}
	var user *model.User
	for i := range creds {
		if creds[i].PasswordHash != "" && checkPassword(creds[i].PasswordHash, in.Password) {
			user = &creds[i].User
			break
		}
	}
	if user != nil && user.DisabledAt != nil {
		// Said only to someone who knows the password: the account exists and is kept.
		return SignedIn{}, model.Errorf(model.CodeForbidden, "this account is disabled; ask an owner of the workspace to enable it")
	}
	if user == nil {
		if len(creds) == 0 {
			checkPassword(dummyHash(), in.Password)
		}
		if err := th.failed(ctx, c); err != nil {
			return SignedIn{}, err
		}
		return SignedIn{}, model.Errorf(model.CodeUnauthorized, "wrong email or password")
	}
	if err := c.forgive(ctx, SignInBudget, th.pair); err != nil {
		return SignedIn{}, err
	}
	token := newSecret(PrefixSession)
	hash, err := c.hashToken(ctx, token)
	if err != nil {
		return SignedIn{}, err
	}
	now := c.opts.Now().UTC().Truncate(time.Microsecond)
	s := model.Session{Hash: hash, UserID: user.ID, WorkspaceID: user.WorkspaceID, CSRF: newSecret(""), CreatedAt: now, ExpiresAt: now.Add(SessionLifetime)}
	err = c.write(model.WithPrincipal(ctx, System), write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		return nil, tx.CreateSession(ctx, s)
	}})
	if err != nil {
		return SignedIn{}, err
	}
	return SignedIn{Token: token, Session: s, User: *user}, nil
}

// throttle is the buckets one sign-in is counted in: the pair of its address and email,
// and its address.
type throttle struct{ pair, address string }

// signInThrottle is the rule of sign-in throttling: failures are counted per pair of
// client address (an IPv6 /64) and email, and per address. Never per email alone: a
// correct password from an address that has not failed is always let through, whatever
// others guess from elsewhere.
func signInThrottle(clientIP, email string) throttle {
	t := throttle{address: AddressKey(clientIP)}
	if email != "" {
		t.pair = t.address + " " + strings.ToLower(email)
	}
	return t
}

// shut refuses while either bucket is shut by its failures.
func (t throttle) shut(ctx context.Context, c *Catalog) error {
	if t.pair != "" {
		if err := c.shut(ctx, SignInBudget, t.pair); err != nil {
			return err
		}
	}
	return c.shut(ctx, SignInAddressBudget, t.address)
}

// failed counts one failure in both buckets (the pair's only when there is an email).
func (t throttle) failed(ctx context.Context, c *Catalog) error {
	if t.pair != "" {
		if err := c.failed(ctx, SignInBudget, t.pair); err != nil {
			return err
		}
	}
	return c.failed(ctx, SignInAddressBudget, t.address)
}

// OpenSession finds the session of a cookie's token and returns ctx with the user's
// principal. CodeUnauthorized for an unknown, ended or expired session.
func (c *Catalog) OpenSession(ctx context.Context, token string) (context.Context, model.Session, error) {
	if !strings.HasPrefix(token, PrefixSession) || len(token) > 100 {
		return ctx, model.Session{}, model.Errorf(model.CodeUnauthorized, "not signed in")
	}
	hash, err := c.hashToken(ctx, token)
	if err != nil {
		return ctx, model.Session{}, err
	}
	var s model.Session
	err = c.store.View(ctx, func(tx model.Tx) error {
		var err error
		s, err = tx.SessionByHash(ctx, hash)
		return err
	})
	if model.IsNotFound(err) || (err == nil && !c.opts.Now().Before(s.ExpiresAt)) {
		return ctx, model.Session{}, model.Errorf(model.CodeUnauthorized, "not signed in")
	}
	if err != nil {
		return ctx, model.Session{}, err
	}
	p := model.Principal{Kind: KindSession, TokenID: "session", UserID: s.UserID, WorkspaceID: s.WorkspaceID}
	return model.WithPrincipal(ctx, p), s, nil
}

// SignOut ends the session of a cookie's token in the database, which every server reads
// on every request: no copy of it is left anywhere to honour.
func (c *Catalog) SignOut(ctx context.Context, token string) error {
	if err := c.gate(ctx, model.OpSignOut, on{}); err != nil {
		return err
	}
	hash, err := c.hashToken(ctx, token)
	if err != nil {
		return err
	}
	return c.write(model.WithPrincipal(ctx, System), write{admin: true, apply: func(ctx context.Context, tx model.Tx, _ model.Project) ([]model.Change, error) {
		return nil, tx.DeleteSession(ctx, hash)
	}})
}

// CheckCSRF compares a form's token with its session's in constant time.
func CheckCSRF(s model.Session, token string) bool {
	return s.CSRF != "" && subtle.ConstantTimeCompare([]byte(s.CSRF), []byte(token)) == 1
}
