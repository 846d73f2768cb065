package tools_test

import (
	"context"
	"errors"
	"go/ast"
	"strings"
	"testing"
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// TestBudgetsTable: every budget literal of the package is in budgets.go and in Budgets(),
// each with a unique name and bucket prefix, a positive count and window, a scope and a noun.
func TestBudgetsTable(t *testing.T) {
	t.Parallel()
	fset, files := packageSource(t)
	literals := 0
	for _, pf := range files {
		name, f := pf.name, pf.file
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.CompositeLit); ok {
				if id, ok := lit.Type.(*ast.Ident); ok && id.Name == "Budget" {
					if name != "budgets.go" {
						t.Errorf("%s: a Budget outside the table in budgets.go", fset.Position(lit.Pos()))
					}
					literals++
				}
			}
			return true
		})
	}
	all := tools.Budgets()
	if literals != len(all) {
		t.Errorf("budgets.go declares %d budgets, Budgets() lists %d", literals, len(all))
	}
	names, buckets := map[string]bool{}, map[string]bool{}
	for _, b := range all {
		if b.Name == "" || names[b.Name] {
			t.Errorf("budget name %q empty or not unique", b.Name)
		}
		names[b.Name] = true
		if b.Bucket == "" || !strings.HasSuffix(b.Bucket, ":") {
			t.Errorf("%s: bucket prefix %q must end in a colon, so that no key can reach another's bucket", b.Name, b.Bucket)
		}
		for other := range buckets {
			if strings.HasPrefix(b.Bucket, other) || strings.HasPrefix(other, b.Bucket) {
				t.Errorf("%s: bucket prefix %q overlaps %q", b.Name, b.Bucket, other)
			}
		}
		buckets[b.Bucket] = true
		if b.N <= 0 || b.Window <= 0 {
			t.Errorf("%s: count %d and window %v must be positive", b.Name, b.N, b.Window)
		}
		if b.Per == "" || b.Noun == "" {
			t.Errorf("%s: scope %q and noun %q must be set", b.Name, b.Per, b.Noun)
		}
	}
}

// countingLimiter is a MemoryLimiter that counts the events asked of it.
type countingLimiter struct {
	*tools.MemoryLimiter
	takes int
}

func (l *countingLimiter) Take(ctx context.Context, bucket string, n int, window time.Duration) (bool, time.Duration, error) {
	l.takes++
	return l.MemoryLimiter.Take(ctx, bucket, n, window)
}

// budgetCatalog is a catalogue with no store (Take never reads it) on a fixed clock,
// recording the names OnRefused is told.
func budgetCatalog(over map[string]int) (*tools.Catalog, *countingLimiter, *[]string) {
	now := func() time.Time { return time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC) }
	lim := &countingLimiter{MemoryLimiter: tools.NewMemoryLimiter(now, 0)}
	var refused []string
	cat := tools.NewCatalog(nil, &tools.Options{Now: now, Limiter: lim, Budgets: over,
		OnRefused: func(b string) { refused = append(refused, b) }})
	return cat, lim, &refused
}

// takeUntilRefused spends b for key until it is refused and answers how many were taken.
func takeUntilRefused(t *testing.T, cat *tools.Catalog, b tools.Budget, key string) (int, error) {
	t.Helper()
	for i := range 10000 {
		if err := cat.Take(t.Context(), b, key); err != nil {
			return i, err
		}
	}
	t.Fatalf("%s: never refused", b.Name)
	return 0, nil
}

// TestBudgetOverrides: the table's count by default, a positive override in its place, a
// negative one turns the budget off without asking the limiter; other budgets keep theirs.
func TestBudgetOverrides(t *testing.T) {
	t.Parallel()
	b := tools.PublicResolveBudget

	cat, _, refused := budgetCatalog(nil)
	n, err := takeUntilRefused(t, cat, b, "203.0.113.7")
	if n != b.N {
		t.Errorf("default: %d taken, want the table's %d", n, b.N)
	}
	var e *model.Error
	if !errors.As(err, &e) || e.Code != model.CodeRateLimited || e.RetryAfter != time.Minute {
		t.Fatalf("refusal %#v, want rate_limited retrying in a minute", err)
	}
	if want := "too many calls of resolve from this address; retry in 60 s"; e.Message != want {
		t.Errorf("message %q, want %q", e.Message, want)
	}
	if len(*refused) != 1 || (*refused)[0] != b.Name {
		t.Errorf("OnRefused told %q, want [%s]", *refused, b.Name)
	}
	if n, _ := takeUntilRefused(t, cat, b, "203.0.113.8"); n != b.N {
		t.Errorf("another address: %d taken, want its own %d", n, b.N)
	}

	cat, _, _ = budgetCatalog(map[string]int{b.Name: 2})
	if n, _ := takeUntilRefused(t, cat, b, "203.0.113.7"); n != 2 {
		t.Errorf("override 2: %d taken", n)
	}
	if n, _ := takeUntilRefused(t, cat, tools.RedeployBudget, "p1"); n != tools.RedeployBudget.N {
		t.Errorf("a budget not overridden: %d taken, want %d", n, tools.RedeployBudget.N)
	}

	cat, lim, refused := budgetCatalog(map[string]int{b.Name: -1})
	for range b.N * 3 {
		if err := cat.Take(t.Context(), b, "203.0.113.7"); err != nil {
			t.Fatalf("a budget turned off refused: %v", err)
		}
	}
	if lim.takes != 0 || len(*refused) != 0 {
		t.Errorf("a budget turned off asked the limiter %d times, refused %q", lim.takes, *refused)
	}
}

// TestBudgetOverrideUnknownName: a misspelt override is a programming error, not a silent
// default.
func TestBudgetOverrideUnknownName(t *testing.T) {
	t.Parallel()
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "wirtes") {
			t.Errorf("NewCatalog with an unknown budget recovered %v, want a panic naming it", r)
		}
	}()
	tools.NewCatalog(nil, &tools.Options{Budgets: map[string]int{"wirtes": 5}})
}
