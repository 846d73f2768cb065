package main_test

import (
	"strings"
	"testing"
)

// TestCLIRoles: user create takes --role (the workspace's first user is its owner whatever
// is asked), user list shows roles, and member set, list and remove keep a project's roles
// with their languages, printing the documented JSON; bad input fails with one line.
func TestCLIRoles(t *testing.T) {
	t.Parallel()
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		db := []string{"--json", "--database", dsn}
		users := jsonObject(t, []string{"users"}, append([]string{"user", "list", "--workspace", f.workspace}, db...)...)["users"].([]any)
		if u := users[0].(map[string]any); len(users) != 1 || u["role"] != "owner" {
			t.Fatalf("the first user: %v, want an owner", users)
		}
		checkFields(t, "user", users[0].(map[string]any), []string{"id", "email", "role"})
		tr := jsonObject(t, []string{"id", "email", "role"}, append([]string{"user", "create", "--workspace", f.workspace, "--email", "tr@acme.test"}, db...)...)
		if tr["role"] != "member" {
			t.Errorf("a second user without --role: %v, want member", tr["role"])
		}
		own := jsonObject(t, []string{"id", "email", "role"}, append([]string{"user", "create", "--workspace", f.workspace, "--email", "boss@acme.test", "--role", "owner"}, db...)...)
		if own["role"] != "owner" {
			t.Errorf("--role owner: %v", own["role"])
		}

		set := jsonObject(t, []string{"user", "email", "role", "languages"}, append([]string{"member", "set", "--project", f.project, "--user", "tr@acme.test",
			"--role", "translator", "--languages", "nb,sv"}, db...)...)
		if set["user"] != tr["id"] || set["role"] != "translator" || strings.Join(toStrings(set["languages"]), ",") != "nb,sv" {
			t.Errorf("member set: %v", set)
		}
		// Setting again replaces the role; a user is named by id or email.
		jsonObject(t, nil, append([]string{"member", "set", "--project", f.project, "--user", str(t, tr, "id"), "--role", "reviewer", "--languages", "nb"}, db...)...)
		jsonObject(t, nil, append([]string{"member", "set", "--project", f.project, "--user", "boss@acme.test", "--role", "manager"}, db...)...)
		ms := jsonObject(t, []string{"members"}, append([]string{"member", "list", "--project", f.project}, db...)...)["members"].([]any)
		var got []string
		for _, m := range ms {
			mm := m.(map[string]any)
			checkFields(t, "member", mm, []string{"user", "email", "role", "languages"})
			got = append(got, mm["email"].(string)+":"+mm["role"].(string)+":"+strings.Join(toStrings(mm["languages"]), ","))
		}
		if want := "boss@acme.test:manager:,tr@acme.test:reviewer:nb"; strings.Join(got, ",") != want {
			t.Errorf("member list: %v, want %s", got, want)
		}
		rm := jsonObject(t, nil, append([]string{"member", "remove", "--project", f.project, "--user", "tr@acme.test"}, db...)...)
		if rm["user"] != tr["id"] || rm["removed"] != true {
			t.Errorf("member remove: %v", rm)
		}
		if ms := jsonObject(t, []string{"members"}, append([]string{"member", "list", "--project", f.project}, db...)...)["members"].([]any); len(ms) != 1 {
			t.Errorf("members after remove: %v", ms)
		}
		// Workspace roles: the last owner stays one.
		jsonObject(t, []string{"id", "email", "role"}, append([]string{"user", "set", "--user", f.user, "--role", "member"}, db...)...)
		if line := fails(t, nil, append([]string{"user", "set", "--user", str(t, own, "id"), "--role", "member"}, db...)...); !strings.Contains(line, "only owner") {
			t.Errorf("demoting the last owner: %q", line)
		}

		for _, args := range [][]string{
			{"member", "set", "--project", f.project, "--user", "tr@acme.test", "--role", "admin"},
			{"member", "set", "--project", f.project, "--user", "tr@acme.test", "--role", "translator", "--languages", "fr"},
			{"member", "set", "--project", f.project, "--user", "ghost@acme.test", "--role", "translator"},
			{"member", "remove", "--project", f.project, "--user", "tr@acme.test"},
			{"user", "create", "--workspace", f.workspace, "--email", "x@acme.test", "--role", "root"},
		} {
			fails(t, nil, append(args, db...)...)
		}
	})
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
