package main_test

// The Embed as the operator sees it: loopback hosts authorized for local testing, and
// `project show` telling what a site's visits brought in.

import (
	"github.com/lokal-dev/lokal/storage/storagetest"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

func TestCLIEmbedLocalSiteAndContents(t *testing.T) {
	eachDialect(t, func(t *testing.T, dsn string) {
		f := makeFixture(t, dsn)
		db := []string{"--database", dsn}
		w := jsonObject(t, []string{"id", "name", "public_token", "authorized_hosts", "host_limit", "embed"},
			append([]string{"workspace", "set", "--workspace", f.workspace, "--json",
				"--authorized-hosts", "localhost:8000,127.0.0.1,[::1]:8000,LocalHost:3000,*.example.test"}, db...)...)
		wantJSON(t, "authorized hosts", w["authorized_hosts"], `["localhost:8000","127.0.0.1","[::1]:8000","localhost:3000","*.example.test"]`)
		for _, tt := range []struct{ host, want string }{
			{"10.0.0.1", `authorized host "10.0.0.1"`},
			{"www.example.test:8443", "for local testing localhost, localhost:8000, 127.0.0.1 or [::1]:8000"},
			{"localhost:99999", `authorized host "localhost:99999"`},
		} {
			msg := fails(t, nil, append([]string{"workspace", "set", "--workspace", f.workspace, "--authorized-hosts", tt.host}, db...)...)
			if !strings.Contains(msg, tt.want) {
				t.Errorf("--authorized-hosts %s: %q, want it to say %q", tt.host, msg, tt.want)
			}
		}
		text := lokal(t, nil, append([]string{"workspace", "show", "--workspace", f.workspace}, db...)...)
		if !strings.Contains(text.stdout, "authorized hosts: localhost:8000, 127.0.0.1, [::1]:8000") {
			t.Errorf("workspace show: %q", text.stdout)
		}
		// A host with a port may be bound by hand too; a public name's port may not.
		jsonObject(t, nil, append([]string{"project", "set", "--project", f.project, "--hosts", "localhost:5173", "--json"}, db...)...)
		if msg := fails(t, nil, append([]string{"project", "set", "--project", f.project, "--hosts", "shop.example:443"}, db...)...); !strings.Contains(msg, "a port is accepted only on localhost and loopback addresses") {
			t.Errorf("--hosts shop.example:443: %q", msg)
		}

		// A visit from localhost:8000 makes the site's project and harvests twice; a sync
		// fills another namespace.
		store, err := storage.Open(t.Context(), dsn, &storage.Options{MustExist: true})
		if err != nil {
			t.Fatal(err)
		}
		cat := storagetest.Catalog(store, nil)
		ctx := t.Context()
		site, err := cat.Resolve(ctx, tools.ResolveIn{Token: str(t, w, "public_token"), Host: "localhost:8000", PageLang: "en", Languages: []string{"nb"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, batch := range [][]string{{"Welcome to our bakery", "Order now"}, {"Fresh bread every morning"}} {
			if err := cat.Harvest(ctx, tools.HarvestIn{ProjectID: site.ProjectID, Origin: "http://localhost:8000", Strings: batch}); err != nil {
				t.Fatal(err)
			}
		}
		sys := model.WithPrincipal(ctx, tools.System)
		if _, err := cat.Overwrite(sys, tools.OverwriteIn{NamespaceRef: tools.NamespaceRef{ProjectID: site.ProjectID, Language: "nb", Namespace: "page"},
			Translations: map[string]string{"Order now": "Bestill nå"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.Sync(sys, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: site.ProjectID, Language: "en", Namespace: "common"},
			Translations: map[string]string{"a": "A", "b": "B"}}); err != nil {
			t.Fatal(err)
		}
		store.Close()

		show := jsonObject(t, showFields, append([]string{"project", "show", "--project", site.ProjectID, "--json"}, db...)...)
		wantJSON(t, "namespace counts", show["namespace_counts"], `[
			{"namespace":"common","keys":2,"translated":{"en":2,"nb":0}},
			{"namespace":"page","keys":3,"translated":{"en":3,"nb":1}}]`)
		newest, _ := show["newest_page_strings"].([]any)
		if len(newest) != 3 {
			t.Fatalf("newest page strings %v", show["newest_page_strings"])
		}
		first := newest[0].(map[string]any)
		if first["key"] != "Fresh bread every morning" || first["created_at"] == "" {
			t.Errorf("newest page string %v, want the last harvested first", first)
		}
		wantJSON(t, "hosts", show["settings"].(map[string]any)["hosts"], `["localhost:8000"]`)

		out := lokal(t, nil, append([]string{"project", "show", "--project", site.ProjectID}, db...)...)
		for _, want := range []string{
			"hosts: localhost:8000",
			"namespaces:\n  common: 2 keys; translated: en 2, nb 0\n  page: 3 keys; translated: en 3, nb 1",
			"newest page strings (page namespace, harvested by the Embed):\n  ",
			"  Fresh bread every morning\n",
		} {
			if !strings.Contains(out.stdout+"\n", want) {
				t.Errorf("project show text lacks %q:\n%s", want, out.stdout)
			}
		}
		if i, j := strings.Index(out.stdout, "Fresh bread"), strings.Index(out.stdout, "Order now"); i < 0 || j < 0 || i > j {
			t.Errorf("project show lists the newest page string first? %s", out.stdout)
		}
		empty := lokal(t, nil, append([]string{"project", "show", "--project", f.project}, db...)...)
		if !strings.Contains(empty.stdout, "namespaces: none") || !strings.Contains(empty.stdout, "harvested by the Embed): none yet") {
			t.Errorf("project show of an empty project:\n%s", empty.stdout)
		}
	})
}
