package model_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestLayers keeps the centre light: the packages below the catalogue must not pull in the
// catalogue, a transport or a provider library, or storage and the text model stop being
// usable (and testable) on their own.
func TestLayers(t *testing.T) {
	t.Parallel()
	const mod = "github.com/lokal-dev/lokal/"
	// Module paths (a path or anything under it) no package below the catalogue may use;
	// the catalogue itself is the one package "tools", whose leaves stay allowed.
	above := []string{mod + "rest", mod + "public", mod + "workflows", mod + "cmd"}
	const openai = "github.com/sashabaranov/go-openai"
	providers := []string{openai, "gopkg.in/yaml.v3", "go.yaml.in/yaml", "github.com/gin-gonic/gin", "github.com/modelcontextprotocol/go-sdk", "github.com/uptrace/bun"}
	cases := []struct {
		pkg string
		// allowed lists the lokal packages the package may depend on; nil: any below the catalogue.
		allowed []string
		// uses names the provider library the package exists to wrap.
		uses []string
	}{
		{pkg: "tools/model", allowed: []string{"tools/model", "tools/valuecheck", "tools/message", "tools/message/plural", "tools/checkup", "tools/secrets"}},
		{pkg: "storage", uses: []string{"github.com/uptrace/bun"}},
		{pkg: "ai", uses: []string{openai}},
		{pkg: "tools/message", allowed: []string{"tools/message", "tools/message/plural"}},
	}
	for _, c := range cases {
		t.Run(c.pkg, func(t *testing.T) {
			t.Parallel()
			out, err := exec.Command("go", "list", "-deps", mod+c.pkg).Output()
			if err != nil {
				t.Fatalf("go list -deps %s: %v", c.pkg, err)
			}
			for _, dep := range strings.Fields(string(out)) {
				if dep == mod+"tools" {
					t.Errorf("%s depends on the catalogue (package tools)", c.pkg)
				}
				for _, bad := range append(above, providers...) {
					if (dep == bad || strings.HasPrefix(dep, bad+"/")) && !slices.Contains(c.uses, bad) {
						t.Errorf("%s depends on %s", c.pkg, dep)
					}
				}
				if c.allowed != nil && strings.HasPrefix(dep, mod) {
					ok := false
					for _, a := range c.allowed {
						ok = ok || dep == mod+a
					}
					if !ok {
						t.Errorf("%s depends on %s; it may depend only on %v of lokal", c.pkg, dep, c.allowed)
					}
				}
			}
		})
	}
}
