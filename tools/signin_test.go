package tools_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// fakeClock is a settable clock for the catalogue and its limiter.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

const signInPassword = "correct horse battery"

// signInCatalog is a fixture catalogue on a fake clock whose limiter is the one the
// dialect's server uses (the shared one in PostgreSQL, memory on SQLite), with the
// fixture's user and n colleagues holding signInPassword. It returns the colleagues' emails.
func signInCatalog(t *testing.T, dialect string, colleagues int) (*tools.Catalog, storagetest.Fixture, *fakeClock, []string) {
	t.Helper()
	db, f := storagetest.MustOpenFixture(t, dialect)
	clock := &fakeClock{t: time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)}
	cat := storagetest.Catalog(db, &tools.Options{Now: clock.Now, Limiter: db.Limiter(clock.Now)})
	sys := model.WithPrincipal(t.Context(), tools.System)
	if err := cat.SetPassword(sys, f.User.ID, signInPassword); err != nil {
		t.Fatal(err)
	}
	var emails []string
	for i := range colleagues {
		u, err := cat.CreateUser(sys, tools.CreateUserIn{WorkspaceID: f.Workspace.ID, Email: fmt.Sprintf("colleague%d@example.com", i)})
		if err != nil {
			t.Fatal(err)
		}
		if err := cat.SetPassword(sys, u.ID, signInPassword); err != nil {
			t.Fatal(err)
		}
		emails = append(emails, u.Email)
	}
	return cat, f, clock, emails
}

func signIn(t *testing.T, cat *tools.Catalog, ip, email, pw string) error {
	t.Helper()
	_, err := cat.SignIn(t.Context(), tools.SignInIn{Email: email, Password: pw, ClientIP: ip})
	return err
}

func retryAfter(err error) time.Duration {
	var e *model.Error
	if errors.As(err, &e) && e.Code == model.CodeRateLimited {
		return e.RetryAfter
	}
	return 0
}

// TestSignInGuessesElsewhereNeverLockOut: many wrong passwords for one email from many
// addresses (and many from one) leave the correct password from a new address accepted.
func TestSignInGuessesElsewhereNeverLockOut(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		cat, f, _, _ := signInCatalog(t, dialect, 0)
		for i := range 40 {
			ip := fmt.Sprintf("198.51.100.%d", i%20)
			if err := signIn(t, cat, ip, f.User.Email, "wrong password!"); model.ErrorCode(err) != model.CodeUnauthorized && model.ErrorCode(err) != model.CodeRateLimited {
				t.Fatalf("guess %d: %v", i, err)
			}
		}
		if err := signIn(t, cat, "203.0.113.9", f.User.Email, signInPassword); err != nil {
			t.Fatalf("the correct password from a clean address after 40 guesses elsewhere: %v", err)
		}
	})
}

// TestSignInSuccessesNeverCount: twenty colleagues behind one address sign in within a
// minute, twice over; none is refused.
func TestSignInSuccessesNeverCount(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		cat, _, clock, emails := signInCatalog(t, dialect, 20)
		for round := range 2 {
			for _, email := range emails {
				if err := signIn(t, cat, "192.0.2.10", email, signInPassword); err != nil {
					t.Fatalf("round %d, %s: %v", round, email, err)
				}
				clock.Add(time.Second)
			}
		}
	})
}

// TestSignInBackoff: wrong passwords for one email from one address shut that pair with
// Retry-After, longer at each further failure; the correct password from another address
// is let in meanwhile, the window passing on the clock lets the pair try again, and a
// success clears its failures.
func TestSignInBackoff(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		cat, f, clock, _ := signInCatalog(t, dialect, 0)
		const ip = "198.51.100.7"
		b := tools.SignInBudget
		for i := range b.N {
			if err := signIn(t, cat, ip, f.User.Email, "wrong password!"); model.ErrorCode(err) != model.CodeUnauthorized {
				t.Fatalf("failure %d: %v, want unauthorized", i+1, err)
			}
		}
		err := signIn(t, cat, ip, f.User.Email, signInPassword)
		if got := retryAfter(err); got != b.Backoff {
			t.Fatalf("after %d failures: %v, want rate_limited for %v", b.N, err, b.Backoff)
		}
		if err := signIn(t, cat, "203.0.113.9", f.User.Email, signInPassword); err != nil {
			t.Fatalf("the correct password from another address while the pair is shut: %v", err)
		}
		// Each further failure, once allowed, doubles the wait.
		want := b.Backoff
		for range 3 {
			clock.Add(want)
			if err := signIn(t, cat, ip, f.User.Email, "wrong password!"); model.ErrorCode(err) != model.CodeUnauthorized {
				t.Fatalf("after waiting %v: %v, want unauthorized", want, err)
			}
			want *= 2
			if got := retryAfter(signIn(t, cat, ip, f.User.Email, signInPassword)); got != want {
				t.Fatalf("backoff %v, want %v", got, want)
			}
		}
		clock.Add(want)
		if err := signIn(t, cat, ip, f.User.Email, signInPassword); err != nil {
			t.Fatalf("the correct password once the wait passed: %v", err)
		}
		// The success cleared the pair: a wrong password is merely wrong again.
		if err := signIn(t, cat, ip, f.User.Email, "wrong password!"); model.ErrorCode(err) != model.CodeUnauthorized {
			t.Fatalf("a failure after a success: %v, want unauthorized", err)
		}
	})
}

// TestSignInAddressThrottle: one address failing over many emails is shut for every
// email, its IPv6 neighbours in the same /64 with it; another address is not, and the
// window passing lets it in again.
func TestSignInAddressThrottle(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		cat, f, clock, _ := signInCatalog(t, dialect, 0)
		b := tools.SignInAddressBudget
		for i := range b.N {
			ip := fmt.Sprintf("2001:db8:5:6::%x", i+1)
			if err := signIn(t, cat, ip, fmt.Sprintf("nobody%d@example.com", i), "wrong password!"); model.ErrorCode(err) != model.CodeUnauthorized {
				t.Fatalf("failure %d: %v", i+1, err)
			}
		}
		err := signIn(t, cat, "2001:db8:5:6:ffff::1", f.User.Email, signInPassword)
		if retryAfter(err) != b.Backoff {
			t.Fatalf("the /64 after %d failures: %v, want rate_limited for %v", b.N, err, b.Backoff)
		}
		if err := signIn(t, cat, "2001:db8:5:7::1", f.User.Email, signInPassword); err != nil {
			t.Fatalf("the next /64: %v", err)
		}
		clock.Add(b.Backoff)
		if err := signIn(t, cat, "2001:db8:5:6::1", f.User.Email, signInPassword); err != nil {
			t.Fatalf("once the wait passed: %v", err)
		}
	})
}

// TestAcceptInvitationCountsFailuresOnly: bad links count against the address as wrong
// passwords do; a good link is accepted from an address with no failures however many
// sign-ins it made.
func TestAcceptInvitationCountsFailuresOnly(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		cat, f, _, _ := signInCatalog(t, dialect, 0)
		for range 15 {
			if err := signIn(t, cat, "192.0.2.10", f.User.Email, signInPassword); err != nil {
				t.Fatal(err)
			}
		}
		owner, err := cat.SignIn(t.Context(), tools.SignInIn{Email: f.User.Email, Password: signInPassword, ClientIP: "192.0.2.10"})
		if err != nil {
			t.Fatal(err)
		}
		ctx, _, err := cat.OpenSession(t.Context(), owner.Token)
		if err != nil {
			t.Fatal(err)
		}
		inv, err := cat.Invite(ctx, tools.InviteIn{ProjectID: f.Project.ID, Email: "new@example.com", Role: model.RoleManager})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cat.AcceptInvitation(t.Context(), tools.AcceptIn{Token: inv.Link[strings.LastIndex(inv.Link, "/")+1:], Password: signInPassword, ClientIP: "192.0.2.10"}); err != nil {
			t.Fatalf("a good link from an address with 16 successful sign-ins: %v", err)
		}
		b := tools.SignInAddressBudget
		for range b.N {
			if _, err := cat.AcceptInvitation(t.Context(), tools.AcceptIn{Token: "inv_guess", Password: signInPassword, ClientIP: "198.51.100.3"}); model.ErrorCode(err) != model.CodeNotFound {
				t.Fatalf("a guessed link: %v, want not_found", err)
			}
		}
		_, err = cat.AcceptInvitation(t.Context(), tools.AcceptIn{Token: "inv_guess", Password: signInPassword, ClientIP: "198.51.100.3"})
		if retryAfter(err) == 0 {
			t.Fatalf("after %d bad links: %v, want rate_limited", b.N, err)
		}
	})
}

// TestAddressKey: what one client is in per-address budgets: an IPv4 address (mapped or
// not) or an IPv6 /64.
func TestAddressKey(t *testing.T) {
	t.Parallel()
	for ip, want := range map[string]string{
		"203.0.113.7":          "203.0.113.7",
		"::ffff:203.0.113.7":   "203.0.113.7",
		"2001:db8:1:2::1":      "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::9": "2001:db8:1:2::/64",
		"2001:db8:1:3::1":      "2001:db8:1:3::/64",
		"fe80::1%eth0":         "fe80::/64",
		"not an address":       "not an address",
	} {
		if got := tools.AddressKey(ip); got != want {
			t.Errorf("%s: %s, want %s", ip, got, want)
		}
	}
}
