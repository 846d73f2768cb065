package storagetest

import (
	"time"

	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// Catalog is tools.NewCatalog with the hooks the server registers (tools.DefaultHooks, on
// o's clock and AI default), then o's own hooks: a test's writes have the side effects
// the server's have, and a test's recording hook sees what they did.
//
// Unless o sets one, a write's time budget is an hour instead of the server's 25 s: a test
// must not depend on the machine's speed, and a big write under -race on a loaded 2-core
// machine can take longer; the tests about the budget set their own.
func Catalog(store model.Store, o *tools.Options) *tools.Catalog {
	var opts tools.Options
	if o != nil {
		opts = *o
	}
	if opts.WriteTimeout == 0 {
		opts.WriteTimeout = time.Hour
	}
	opts.Hooks = append(tools.DefaultHooks(&opts), opts.Hooks...)
	return tools.NewCatalog(store, &opts)
}
