package tools

import (
	"context"
	"fmt"
	"net/netip"
	"strconv"
	"time"

	"github.com/lokal-dev/lokal/tools/model"
)

// Every rate budget of the service, whatever door spends it, and the size caps of one call
// beside them: a reader finds every limit here. The counts are the spec's (its Limits
// table) where it names one; the others are ours and say why. Options.Budgets overrides
// the counts by Name. Transport caps live with their transport: the 5 MB body of the token
// API (rest.MaxBody), the public routes' body sizes (package public), connections per
// client address (lokal serve --max-conns-per-ip).

// Scope is what a budget's key names: who gets one allowance.
type Scope string

// Scopes of the budgets.
const (
	PerProject Scope = "project"
	PerToken   Scope = "token"
	// PerAddress is a client's IP address, or an IPv6 address's /64 (one subscriber).
	PerAddress Scope = "address"
	// PerAddressAndEmail is the pair of a client address (as PerAddress) and an email.
	PerAddressAndEmail Scope = "address and email"
)

// Budget is one named allowance: at most N events per Window in a bucket per key.
type Budget struct {
	Name   string // the key of Options.Budgets and the refusal metric's label
	Noun   string // what is counted, for the refusal message ("writes")
	Bucket string // the bucket prefix, unique per budget; the key (project id, address) is appended
	N      int
	Window time.Duration
	Per    Scope
	// Doors, when set, are the only doors whose calls spend the budget (the gate, gate.go).
	Doors Door
	// Backoff, when set, makes a budget of failures (see shut): past N failures inside
	// Window its bucket is shut for Backoff after the newest one, doubling with each further
	// failure up to MaxBackoff. Nothing else spends it.
	Backoff, MaxBackoff time.Duration
}

// The token API's budgets.
var (
	// WriteBudget: 300 writes a minute per project, whatever door they use.
	WriteBudget = Budget{Name: "writes", Noun: "writes", Bucket: "writes:", N: 300, Window: time.Minute, Per: PerProject}
	// PageStringsBudget: endpoint 7, on top of WriteBudget.
	PageStringsBudget = Budget{Name: "page_strings", Noun: "page string registrations", Bucket: "pagestrings:", N: 60, Window: time.Minute, Per: PerProject}
	// RetranslateBudget: the AI calls endpoint 6 and ai_translate_keys share (automatic
	// translation is paced by its workers instead).
	RetranslateBudget = Budget{Name: "retranslate", Noun: "retranslations", Bucket: "retranslate:", N: 60, Window: time.Minute, Per: PerProject}
	// ReadBudget: MCP read tool calls, ten a second, far above an assistant's pace, while a
	// published read-only key cannot keep the server busy with whole-project reads.
	// Endpoints 1 and 5 are not limited: only the MCP door spends it.
	ReadBudget = Budget{Name: "reads", Noun: "read tool calls", Bucket: "reads:", N: 600, Window: time.Minute, Per: PerToken, Doors: MCP}
	// RedeployBudget: endpoint 8 starts a CI run, so 6 a minute is plenty for people and
	// stops a loop from queueing hundreds of builds.
	RedeployBudget = Budget{Name: "redeploy", Noun: "redeploys", Bucket: "redeploy:", N: 6, Window: time.Minute, Per: PerProject}
	// SignInBudget bounds password guesses at one account from one address: 5 failures free
	// in an hour, then 30 s, 1, 2, 4, 8 and 15 minutes. It counts failures only, and a
	// success clears it, so colleagues behind one address never spend it, and guesses from
	// elsewhere never shut a correct password out (no per-email bucket: that would let
	// anyone lock anyone out).
	SignInBudget = Budget{Name: "sign_in", Noun: "failed sign-ins", Bucket: "signin:", N: 5, Window: time.Hour, Per: PerAddressAndEmail,
		Backoff: 30 * time.Second, MaxBackoff: 15 * time.Minute}
	// SignInAddressBudget bounds the failures of one address (an IPv6 /64) over every
	// account, sign-ins and invitation links: 30 an hour free, then the same backoff. A
	// success does not clear it, or one's own account would reset a guessing run.
	SignInAddressBudget = Budget{Name: "sign_in_address", Noun: "failed sign-ins", Bucket: "signin-address:", N: 30, Window: time.Hour, Per: PerAddress,
		Backoff: 30 * time.Second, MaxBackoff: 15 * time.Minute}
)

// The public Embed routes' budgets (spec endpoints 12 to 17): per client address, spent
// before the route runs.
var (
	PublicResolveBudget     = Budget{Name: "resolve", Noun: "calls of resolve", Bucket: "ip:resolve:", N: 30, Window: time.Minute, Per: PerAddress}
	PublicHarvestBudget     = Budget{Name: "harvest", Noun: "calls of harvest", Bucket: "ip:harvest:", N: 60, Window: time.Minute, Per: PerAddress}
	PublicDictionaryBudget  = Budget{Name: "dictionary", Noun: "calls of dictionary", Bucket: "ip:dictionary:", N: 240, Window: time.Minute, Per: PerAddress}
	PublicChangesBudget     = Budget{Name: "changes", Noun: "calls of changes", Bucket: "ip:changes:", N: 120, Window: time.Minute, Per: PerAddress}
	PublicInstallPingBudget = Budget{Name: "install_ping", Noun: "calls of install_ping", Bucket: "ip:install_ping:", N: 60, Window: time.Minute, Per: PerAddress}
	PublicInfoBudget        = Budget{Name: "public_info", Noun: "calls of public_info", Bucket: "ip:public_info:", N: 120, Window: time.Minute, Per: PerAddress}
	// HarvestBudget bounds the harvests one project takes in from every visitor
	// together, so that a crowd of addresses cannot fill a project with text. A harvest over
	// it is dropped silently, as the script sends the strings again.
	HarvestBudget = Budget{Name: "project_harvest", Noun: "harvests", Bucket: "harvest:", N: 600, Window: time.Minute, Per: PerProject}
)

// Budgets lists every budget above, for overrides, documentation and the table's tests.
func Budgets() []Budget {
	return []Budget{WriteBudget, PageStringsBudget, RetranslateBudget, ReadBudget, RedeployBudget, SignInBudget, SignInAddressBudget,
		PublicResolveBudget, PublicHarvestBudget, PublicDictionaryBudget, PublicChangesBudget, PublicInstallPingBudget, PublicInfoBudget, HarvestBudget}
}

// Size caps of one call.
const (
	// MaxRegisterStrings bounds one register_source_strings call as MaxPageStrings bounds
	// endpoint 7: an assistant registers a screen or a feature at a time, far below it, and
	// the keys one call writes and the translation it queues stay bounded.
	MaxRegisterStrings = 5000
	MaxPageStrings     = 5000
	// MaxAIKeys bounds one AI translation call (endpoint 6, ai_translate_keys).
	MaxAIKeys = 10
	// SearchPage is the most rows search_translations answers at once.
	SearchPage = 50
	// A get_translations page holds at most this many keys and about this much text: a
	// whole project of a million keys comes in pages, never in one body of hundreds of MB.
	ExportPageKeys  = 10000
	ExportPageBytes = 4 << 20
	// Endpoint 13's strings per call and characters per string.
	MaxHarvestStrings = 50
	MinHarvestChars   = 2
	MaxHarvestChars   = 5000
	// MaxChanges bounds one answer of the changes feed (endpoint 15); ChangesWindow is how
	// far back it reads.
	MaxChanges    = 500
	ChangesWindow = 7 * 24 * time.Hour
)

// checkBudgets refuses overrides of budgets that do not exist: a misspelt name would
// otherwise keep the default without a word.
func checkBudgets(over map[string]int) {
	for name := range over {
		if !hasBudget(name) {
			panic(fmt.Sprintf("tools.Options.Budgets: no budget named %q", name))
		}
	}
}

func hasBudget(name string) bool {
	for _, b := range Budgets() {
		if b.Name == name {
			return true
		}
	}
	return false
}

// Take spends one event of b for key (see take), outside any operation's gate.
func (c *Catalog) Take(ctx context.Context, b Budget, key string) error {
	return c.take(ctx, b, key)
}

// take spends one event of b for key, answering CodeRateLimited with RetryAfter when spent.
func (c *Catalog) take(ctx context.Context, b Budget, key string) error {
	b, on := c.budget(b)
	if !on {
		return nil
	}
	ok, wait, err := c.limiter.Take(ctx, b.Bucket+key, b.N, b.Window)
	if err != nil || ok {
		return err
	}
	return c.refused(b, wait)
}

// budget is b as Options.Budgets overrides it; on is false for a budget turned off.
func (c *Catalog) budget(b Budget) (_ Budget, on bool) {
	switch n := c.opts.Budgets[b.Name]; {
	case n < 0:
		return b, false
	case n > 0:
		b.N = n
	}
	return b, true
}

// refused is every budget's refusal: CodeRateLimited with RetryAfter, reported to
// Options.OnRefused here, whichever door it came through.
func (c *Catalog) refused(b Budget, wait time.Duration) error {
	if c.opts.OnRefused != nil {
		c.opts.OnRefused(b.Name)
	}
	e := &model.Error{Code: model.CodeRateLimited, RetryAfter: wait}
	e.Message = "too many " + b.Noun + " " + b.Per.phrase() + "; retry in " + strconv.Itoa(RetryAfterSeconds(e)) + " s"
	return e
}

// failureCap is how many failures a backoff bucket keeps: enough to reach any MaxBackoff.
const failureCap = 64

// shut answers CodeRateLimited with RetryAfter when b's bucket for key is shut by its
// failures (b.Backoff set), spending nothing.
func (c *Catalog) shut(ctx context.Context, b Budget, key string) error {
	b, on := c.budget(b)
	if !on {
		return nil
	}
	n, newest, err := c.limiter.Count(ctx, b.Bucket+key, b.Window)
	if err != nil || n < b.N {
		return err
	}
	wait := b.MaxBackoff
	if doublings := n - b.N; doublings < 30 {
		wait = min(b.Backoff<<doublings, b.MaxBackoff)
	}
	wait = newest.Add(wait).Sub(c.opts.Now())
	if wait <= 0 {
		return nil
	}
	return c.refused(b, wait)
}

// failed records one failure in b's bucket for key.
func (c *Catalog) failed(ctx context.Context, b Budget, key string) error {
	if c.opts.Budgets[b.Name] < 0 {
		return nil
	}
	_, _, err := c.limiter.Take(ctx, b.Bucket+key, failureCap, b.Window)
	return err
}

// forgive clears the failures of b's bucket for key.
func (c *Catalog) forgive(ctx context.Context, b Budget, key string) error {
	return c.limiter.Clear(ctx, b.Bucket+key)
}

// AddressKey is what a client is counted by in per-address budgets: its IPv4 address, or
// its IPv6 address's /64 (AddressPrefix). Anything that is not an address counts as itself.
func AddressKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	if p := AddressPrefix(a); !p.Addr().Is4() {
		return p.String()
	}
	return a.Unmap().String()
}

// AddressPrefix is the one client an address stands for: an IPv4 address alone, an IPv6
// address's /64, since one subscriber holds a whole /64. The budgets and serve's
// connection limit per client both count by it.
func AddressPrefix(a netip.Addr) netip.Prefix {
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return netip.PrefixFrom(a, 32)
	}
	p, _ := a.Prefix(64)
	return p
}

func (s Scope) phrase() string {
	switch s {
	case PerAddress:
		return "from this address"
	case PerAddressAndEmail:
		return "for this email from this address"
	}
	return "for this " + string(s)
}
