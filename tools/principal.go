package tools

import "github.com/lokal-dev/lokal/tools/model"

// Token prefixes make a leaked token recognizable to secret scanners and to us.
const (
	PrefixAPIKey    = "lk_"
	PrefixPersonal  = "pat_"
	PrefixWorkspace = "pat_ws_"
)

// System is the principal of the admin CLI and of background jobs: it may do anything.
var System = model.Principal{Kind: model.KindSystem}
