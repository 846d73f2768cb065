package main_test

import (
	"strings"
	"testing"
)

// TestCLIUserPasswd: the password comes from stdin only, is stored as an argon2id hash and
// never printed; a short one is refused.
func TestCLIUserPasswd(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		const pw = "a long enough password"
		r := lokalIn(t, nil, pw+"\n", "user", "passwd", "--user", f.user, "--password-stdin", "--json", "--database", dsn)
		if r.code != 0 || !strings.Contains(r.stdout, `"password_set":true`) {
			t.Fatalf("user passwd: %d %q %q", r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, pw) {
			t.Error("the password was printed")
		}
		row := rawRow(t, dsn, "SELECT hash FROM user_passwords WHERE user_id = '"+f.user+"'")
		// Production's cost (tools/session.go): test binaries hash at a lower one, the lokal binary never.
		if !strings.HasPrefix(row["hash"], "$argon2id$v=19$m=19456,t=2,p=1$") || strings.Contains(row["hash"], pw) {
			t.Errorf("stored hash %q", row["hash"])
		}
		for _, tc := range []struct {
			stdin string
			args  []string
			want  string
		}{
			{"short\n", []string{"--password-stdin"}, "10 to 1024 characters"},
			{pw, nil, "--password-stdin"},
			{pw, []string{"--password-stdin", "--user", "00000000-0000-0000-0000-000000000000"}, "not found"},
		} {
			args := append([]string{"user", "passwd", "--user", f.user, "--database", dsn}, tc.args...)
			if r := lokalIn(t, nil, tc.stdin, args...); r.code == 0 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("%v: %d %q, want an error with %q", tc.args, r.code, r.stderr, tc.want)
			}
		}
	})
}
