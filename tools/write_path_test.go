package tools_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSideEffectsOnlyThroughTheWritePath reads the catalogue's source: a write transaction
// is opened only in write.go (Catalog.transact, under Catalog.write and the bookkeeping
// path), and each side effect of a write is made only by its hook, so that no operation
// can commit without them or make one by hand.
func TestSideEffectsOnlyThroughTheWritePath(t *testing.T) {
	t.Parallel()
	// call is a method name, allowed the files that may call it.
	allowed := map[string][]string{
		"store.Update":    {"write.go"},
		"Touch":           {"hook_cache.go"},
		"RecordUsage":     {"hook_usage.go"},
		"AddWebhookBatch": {"hook_webhooks.go"},
		"MarkCheckupKeys": {"hook_checkup.go"},
	}
	fset, files := packageSource(t)
	checked := 0
	for _, pf := range files {
		name, f := pf.name, pf.file
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			what := sel.Sel.Name
			if what == "Update" {
				if !isStore(sel.X) {
					return true
				}
				what = "store.Update"
			}
			files, watched := allowed[what]
			if !watched || slices.Contains(files, name) {
				return true
			}
			t.Errorf("%s: %s outside %s", fset.Position(call.Pos()), what, strings.Join(files, ", "))
			return true
		})
	}
	if checked < 10 {
		t.Fatalf("read %d source files: not the catalogue's directory?", checked)
	}
}

// isStore reports an expression that names the catalogue's store: c.store, store,
// c.Store().
func isStore(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return x.Name == "store"
	case *ast.SelectorExpr:
		return x.Sel.Name == "store"
	case *ast.CallExpr:
		sel, ok := x.Fun.(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Store"
	}
	return false
}

// TestWritesNameTheirOperation: every write and AI job names its operation with one of the
// model's Operation strings, which the usage ledger and the hooks switch on (a literal
// still written at a call site must be one of them).
func TestWritesNameTheirOperation(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	known := map[string]bool{}
	m, err := parser.ParseFile(fset, filepath.Join("model", "operation.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(m, func(n ast.Node) bool {
		if v, ok := n.(*ast.ValueSpec); ok && len(v.Values) == 1 {
			if lit, ok := v.Values[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				known[strings.Trim(lit.Value, "`\"")] = true
			}
		}
		return true
	})
	if len(known) < 30 {
		t.Fatalf("read %d operations from model/operation.go", len(known))
	}
	srcSet, files := packageSource(t)
	writes := 0
	for _, pf := range files {
		f := pf.file
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if id, ok := lit.Type.(*ast.Ident); !ok || (id.Name != "write" && id.Name != "aiJob") {
				return true
			}
			writes++
			for _, el := range lit.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if k, ok := kv.Key.(*ast.Ident); !ok || k.Name != "op" {
					continue
				}
				if s, ok := kv.Value.(*ast.BasicLit); ok && !known[strings.Trim(s.Value, "`\"")] {
					t.Errorf("%s: operation %s is not a model.Operation", srcSet.Position(s.Pos()), s.Value)
				}
			}
			return true
		})
	}
	if writes < 20 {
		t.Fatalf("found %d writes: not the catalogue's directory?", writes)
	}
}

// sourceFile is one non-test file of the package, parsed.
type sourceFile struct {
	name string
	file *ast.File
}

// packageSource parses the package's non-test files, for the tests that hold its source to
// a rule (where writes, hooks and budgets may be written).
func packageSource(t *testing.T) (*token.FileSet, []sourceFile) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []sourceFile
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sourceFile{name, f})
	}
	return fset, out
}
