package storage_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/storage/storagetest"
)

// migrationFile is a migration's file name: VERSION_name.go.
var migrationFile = regexp.MustCompile(`^(\d{14})_[a-z0-9_]+\.go$`)

// migrationFiles parses the package's migration files, in version order, and the rest of
// its (non-test) files.
func migrationFiles(t *testing.T) (fset *token.FileSet, migs map[string]*ast.File, names []string, others map[string]*ast.File) {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset = token.NewFileSet()
	migs, others = map[string]*ast.File{}, map[string]*ast.File{}
	for _, e := range entries {
		n := e.Name()
		if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if migrationFile.MatchString(n) {
			migs[n] = f
			names = append(names, n)
		} else {
			others[n] = f
		}
	}
	slices.Sort(names)
	return fset, migs, names, others
}

// TestMigrationsInVersionOrder: each migration file registers exactly one migration from a
// register function of its own, migrations() calls those in the files' version order, and
// a fresh database records them so.
func TestMigrationsInVersionOrder(t *testing.T) {
	_, migs, names, others := migrationFiles(t)
	if len(names) < 2 {
		t.Fatalf("migration files: %v", names)
	}
	var registers []string // each file's register function, in version order
	for _, n := range names {
		var calls int
		var owner string
		for _, d := range migs[n].Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			ast.Inspect(fn, func(x ast.Node) bool {
				if c, ok := x.(*ast.CallExpr); ok {
					if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "MustRegister" {
						calls++
						owner = fn.Name.Name
					}
				}
				return true
			})
		}
		if calls != 1 {
			t.Errorf("%s registers %d migrations, want 1", n, calls)
		}
		registers = append(registers, owner)
	}

	var listed []string
	for _, d := range others["migrations.go"].Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "migrations" {
			for _, st := range fn.Body.List {
				if es, ok := st.(*ast.ExprStmt); ok {
					if c, ok := es.X.(*ast.CallExpr); ok {
						if id, ok := c.Fun.(*ast.Ident); ok {
							listed = append(listed, id.Name)
						}
					}
				}
			}
		}
	}
	if !slices.Equal(listed, registers) {
		t.Errorf("migrations() calls %v, want the files' register functions in version order %v", listed, registers)
	}

	var versions []string
	for _, n := range names {
		versions = append(versions, migrationFile.FindStringSubmatch(n)[1])
	}
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		raw := rawDB(t, storagetest.DSN(t, dialect))
		rows, err := raw.QueryContext(t.Context(), `SELECT name FROM bun_migrations ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var applied []string
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			applied = append(applied, n)
		}
		if !slices.Equal(applied, versions) {
			t.Errorf("a fresh database applied %v, want %v", applied, versions)
		}
	})
}

// TestMigrationsUseFrozenRows: a migration creates and writes tables through row structs
// declared in its own file (as the release that shipped it had them) or through SQL,
// never through the live rows of the package, which change after it.
func TestMigrationsUseFrozenRows(t *testing.T) {
	fset, migs, names, others := migrationFiles(t)
	live := map[string]bool{}
	for _, f := range others {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					ts := s.(*ast.TypeSpec)
					if st, ok := ts.Type.(*ast.StructType); ok && hasBaseModel(st) {
						live[ts.Name.Name] = true
					}
				}
			}
		}
	}
	if !live["projectRow"] {
		t.Fatalf("found no live rows (%v): the test no longer sees the package", live)
	}
	for _, n := range names {
		ast.Inspect(migs[n], func(x ast.Node) bool {
			if id, ok := x.(*ast.Ident); ok && live[id.Name] {
				t.Errorf("%s: %s uses the live row %s", n, fset.Position(id.Pos()), id.Name)
			}
			return true
		})
	}
}

// hasBaseModel reports whether a struct embeds bun.BaseModel: a row mapped to a table.
func hasBaseModel(st *ast.StructType) bool {
	for _, f := range st.Fields.List {
		if s, ok := f.Type.(*ast.SelectorExpr); ok && len(f.Names) == 0 && s.Sel.Name == "BaseModel" {
			return true
		}
	}
	return false
}
