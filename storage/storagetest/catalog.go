package storagetest

import (
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/model"
)

// Catalog is tools.NewCatalog with the hooks the server registers (tools.DefaultHooks, on
// o's clock and AI default), then o's own hooks: a test's writes have the side effects
// the server's have, and a test's recording hook sees what they did.
func Catalog(store model.Store, o *tools.Options) *tools.Catalog {
	var opts tools.Options
	if o != nil {
		opts = *o
	}
	opts.Hooks = append(tools.DefaultHooks(&opts), opts.Hooks...)
	return tools.NewCatalog(store, &opts)
}
