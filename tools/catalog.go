package tools

import (
	"crypto/x509"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
	"github.com/lokal-dev/lokal/tools/secrets"
)

// Options configure a Catalog; nil means the defaults.
type Options struct {
	// BaseURL is the service's public address, used in snippets and links.
	BaseURL string
	Logger  *slog.Logger
	// AuthCacheTTL bounds how long a looked-up token is trusted without asking the database
	// again. Default one second, the time a change may take to reach a running server.
	AuthCacheTTL time.Duration
	Now          func() time.Time
	// Limiter spends the write budgets; nil means a MemoryLimiter on Now, right for one
	// process. Several servers on one database share a database-backed one.
	Limiter model.Limiter
	// OnRefused is told the Name of every refused budget, whichever door spent it (for
	// metrics).
	OnRefused func(budget string)
	// Budgets override the counts of the budgets table (budgets.go) by Budget.Name: a
	// positive count replaces the table's, a negative one turns the budget off (tests and
	// benchmarks); a name the table lacks panics in NewCatalog.
	Budgets map[string]int
	// WriteTimeout is the time budget of one write (the spec's 25 seconds by default).
	WriteTimeout time.Duration
	// ReviewWindow is how many keys one page of a review filter that walks the project
	// reads at most (default reviewWindowKeys); tests lower it.
	ReviewWindow int64
	// Outbound guards every call to an address a user typed in (webhooks, redeploy, a
	// workspace's AI provider); nil refuses every private and loopback network.
	Outbound *outbound.Guard
	// Resolver looks up the hosts of URLs when they are configured (nil: the system's);
	// tests give a stub so that private answers are checked without a connection.
	Resolver outbound.Resolver
	// DispatchTimeout bounds one redeploy dispatch (default 15 s).
	DispatchTimeout time.Duration
	// Secrets seals the provider keys stored in the database; nil refuses to store one.
	Secrets *secrets.Box
	// AIDefault is the operator's own AI provider, used when a workspace has none; its
	// base URL is the operator's and is not checked by Outbound.
	AIDefault AIProvider
	// Hooks run inside every write's transaction, in this order; they are every side effect
	// of a write (cache refresh, usage, checkups, automatic translation, webhooks). The
	// catalogue builds none: cmd/lokal registers them, tests take DefaultHooks.
	Hooks []WriteHook
	// CheckupWholeProjectKeys is how many changed keys a write queues for the checkup one by
	// one at most; a bigger write queues the whole project once. 0 means 10,000.
	CheckupWholeProjectKeys int
	// AIConcurrency bounds the model calls in flight per AI provider; 0 means 4.
	AIConcurrency int
	// AICallBudget bounds the model calls of a request that waits for them (endpoint 6,
	// ai_translate_keys); background jobs are bounded per call only. 0 means DefaultAICallBudget.
	AICallBudget time.Duration
	// OAuthRedirectHosts are the https hosts an OAuth client may send people back to,
	// beyond loopback (always allowed); nil means DefaultOAuthRedirectHosts.
	OAuthRedirectHosts []string
	// OAuthDynamicRegistration opens RFC 7591 client registration (/oauth/register).
	OAuthDynamicRegistration bool
	// OAuthRootCAs, when set, replaces the system's roots for fetching client metadata
	// documents (tests' own https servers).
	OAuthRootCAs *x509.CertPool
}

// Catalog is every operation of the service. Each method authorizes the principal in its
// context, applies the rules and talks to the Store; the transports only decode and encode.
type Catalog struct {
	providers aiProviders

	store model.Store
	opts  Options

	keyMu sync.Mutex
	key   atomic.Pointer[[]byte]

	// auth maps a token to its *cachedPrincipal. A sync.Map: every request reads it, and
	// an RWMutex's read lock is a write to memory both cores share (0.9 of bare net/http
	// on endpoint 1). authMu orders the writes.
	authMu sync.Mutex
	auth   sync.Map
	authN  int // entries in auth, under authMu
	// authGen counts forgetPrincipals calls: a lookup that began before one does not cache
	// what it read.
	authGen atomic.Uint64

	limiter model.Limiter
	hooks   []WriteHook
	uses    tokenUses   // last_used_at writes (tokens.go)
	bulk    bulkWrites  // chunked writes on a single-writer store (bulk.go)
	embed   embedState  // the public endpoints' parsed projects and unstored demand (embed.go)
	qa      qaCache     // the review queue's QA verdicts (editor_qa.go)
	checkup checkupRun  // chunking of checkups (checkups.go)
	exports exportFills // the queue of cold export fills (export_queue.go)
	oauth   oauthState  // client metadata documents being fetched (oauth_client.go)

	syntaxScans    atomic.Int64   // detections a read made from every source value (syntax.go)
	syntaxRecounts atomic.Int64   // detections from every source value off the request path
	recounts       syntaxRecounts // background recounts of the syntax (syntax_recount.go)
	syntaxWork     sync.WaitGroup // goroutines storing or recounting a syntax
	// tallied counts the keys the counters hook added without reading them (tests).
	tallied atomic.Int64
}

type cachedPrincipal struct {
	p       *model.Principal // shared by every request of the token: never changed
	expires time.Time
}

// NewCatalog returns the catalogue over store.
func NewCatalog(store model.Store, opts *Options) *Catalog {
	c := &Catalog{store: store}
	if opts != nil {
		c.opts = *opts
	}
	if c.opts.Logger == nil {
		c.opts.Logger = slog.Default()
	}
	if c.opts.AuthCacheTTL <= 0 {
		c.opts.AuthCacheTTL = time.Second
	}
	if c.opts.Now == nil {
		c.opts.Now = time.Now
	}
	if c.opts.WriteTimeout <= 0 {
		c.opts.WriteTimeout = DefaultWriteTimeout
	}
	if c.opts.AICallBudget <= 0 {
		c.opts.AICallBudget = DefaultAICallBudget
	}
	checkBudgets(c.opts.Budgets)
	c.limiter = c.opts.Limiter
	if c.limiter == nil {
		c.limiter = NewMemoryLimiter(c.opts.Now, 0)
	}
	c.hooks = slices.Clone(c.opts.Hooks)
	return c
}

// DefaultHooks are the hooks cmd/lokal registers, in its order, on o's clock and AI default
// (nil o: the defaults), for tests and tools that build a catalogue outside the server.
func DefaultHooks(o *Options) []WriteHook {
	var now func() time.Time
	var def AIProvider
	whole := 0
	if o != nil {
		now, def, whole = o.Now, o.AIDefault, o.CheckupWholeProjectKeys
	}
	if now == nil {
		now = time.Now
	}
	return []WriteHook{CacheHook(), CountsHook(), UsageHook(), CheckupHook(now, whole), AutoTranslateHook(def, now), WebhookHook(now)}
}

// BaseURL is the public address the catalogue was configured with.
func (c *Catalog) BaseURL() string { return c.opts.BaseURL }

// Store returns the store under the catalogue, for background workers and health checks.
func (c *Catalog) Store() model.Store { return c.store }
