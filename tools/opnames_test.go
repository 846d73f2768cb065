package tools_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// opTakers are the functions and methods that take an operation's name, with the name's
// argument: the gate's entries and the helpers that pass a name on to them.
var opTakers = map[string]int{
	"gate": 1, "admit": 1, "Admit": 1, "spend": 1, "TakeAddress": 1, "Op": 0, "row": 0,
	"ownerFor": 1, "self": 1, "memberAuth": 1, "memberWrite": 1, "editable": 1, "reviewer": 1,
	"webhookOf": 1, "changeUser": 1, "setArchived": 1, "importFile": 1, "aiTranslateKeys": 1,
	"addComment": 1, "flagTranslation": 1, "revoke": 1, "MayOnWorkspace": 1, "addTool": 1, "limit": 0,
}

// opFields are the fields of opHolders that hold an operation's name.
var opFields = map[string]bool{"op": true, "Op": true, "Name": true}

// opHolders are the composite types whose op, Op or Name field holds an operation's name.
var opHolders = map[string]bool{"write": true, "aiJob": true, "Operation": true, "WriteEvent": true}

// TestOperationNamesAreConstants: no Go file outside tools/model/operation.go (tests aside)
// names an operation by a string literal, in a call of the gate or of what passes a name
// to it, in a row or write, or converted to model.Operation: a misspelt name would not
// compile. And every constant of operation.go has a row.
func TestOperationNamesAreConstants(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n != ".." && (strings.HasPrefix(n, ".") || n == "node_modules" || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.ToSlash(path) == "../tools/model/operation.go" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				name := ""
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					name = fn.Sel.Name
					if x, ok := fn.X.(*ast.Ident); ok && ((x.Name == "model" && name == "Operation") || (x.Name == "tools" && name == "OpName")) {
						name = "conversion"
					}
				case *ast.IndexListExpr:
					if id, ok := fn.X.(*ast.Ident); ok {
						name = id.Name
					}
				}
				args := n.Args
				if i, ok := opTakers[name]; ok && i < len(args) {
					args = args[i : i+1]
				} else if name != "conversion" {
					args = nil
				}
				for _, a := range args {
					if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						t.Errorf("%s: %s(%s): name the operation by its model.Op constant", fset.Position(lit.Pos()), name, lit.Value)
					}
				}
			case *ast.CompositeLit:
				typ := ""
				switch x := n.Type.(type) {
				case *ast.Ident:
					typ = x.Name
				case *ast.SelectorExpr:
					typ = x.Sel.Name
				}
				if !opHolders[typ] {
					return true
				}
				for _, e := range n.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					k, ok := kv.Key.(*ast.Ident)
					lit, isLit := kv.Value.(*ast.BasicLit)
					if ok && opFields[k.Name] && isLit && lit.Kind == token.STRING {
						t.Errorf("%s: %s{%s: %s}: name the operation by its model.Op constant", fset.Position(lit.Pos()), typ, k.Name, lit.Value)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// Every constant of operation.go has a row.
	f, err := parser.ParseFile(fset, filepath.Join("model", "operation.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(f, func(x ast.Node) bool {
		vs, ok := x.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, v := range vs.Values {
			lit, ok := v.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				continue
			}
			name, _ := strconv.Unquote(lit.Value)
			n++
			if _, ok := tools.Op(model.Operation(name)); !ok {
				t.Errorf("model.%s (%q) has no row in tools.Operations or tools.SystemOperations", vs.Names[i].Name, name)
			}
		}
		return true
	})
	if n < len(tools.Operations) {
		t.Errorf("read %d constants in operation.go, fewer than the %d rows", n, len(tools.Operations))
	}
}
