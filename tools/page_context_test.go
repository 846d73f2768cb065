package tools_test

import (
	"context"
	"math"
	"net/netip"
	"strings"
	"testing"

	"github.com/lokal-dev/lokal/ai/aitest"
	"github.com/lokal-dev/lokal/storage/storagetest"
	"github.com/lokal-dev/lokal/tools"
	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
	"github.com/lokal-dev/lokal/tools/outbound"
)

// contextFixture is a project with Embed page strings ("Pay now", whose key is its text,
// and checkout.title, whose is not) on the workspace's site shop.example, and sessions.
type contextFixture struct {
	cat                  *tools.Catalog
	f                    storagetest.Fixture
	owner, norole, other context.Context
}

func newContextFixture(t *testing.T, dialect string) contextFixture {
	t.Helper()
	db, f := storagetest.MustOpenFixture(t, dialect)
	cat := storagetest.Catalog(db, nil)
	sys := model.WithPrincipal(t.Context(), tools.System)
	hosts := []string{"shop.example"}
	if _, err := cat.SetWorkspace(sys, f.Workspace.ID, tools.SetWorkspaceIn{AuthorizedHosts: &hosts}); err != nil {
		t.Fatal(err)
	}
	keep := false
	if _, err := cat.Sync(sys, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: tools.EmbedNamespace},
		Translations: map[string]string{"Pay now": "Pay now", "checkout.title": "Your cart", "hidden.one": "Gone"}, PreserveSourceValues: &keep}); err != nil {
		t.Fatal(err)
	}
	u, err := cat.CreateUser(sys, tools.CreateUserIn{WorkspaceID: f.Workspace.ID, Email: "norole@acme.test"})
	if err != nil {
		t.Fatal(err)
	}
	const pw = "correct horse battery"
	session := func(id, email string) context.Context {
		if err := cat.SetPassword(sys, id, pw); err != nil {
			t.Fatal(err)
		}
		out, err := cat.SignIn(t.Context(), tools.SignInIn{Email: email, Password: pw, ClientIP: "127.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		ctx, _, err := cat.OpenSession(t.Context(), out.Token)
		if err != nil {
			t.Fatal(err)
		}
		return tools.WithDoor(ctx, tools.Editor)
	}
	return contextFixture{cat: cat, f: f, owner: session(f.User.ID, f.User.Email), norole: session(u.ID, u.Email),
		other: session(f.OtherUser.ID, f.OtherUser.Email)}
}

func pageItem(text, role string, pos int) tools.ContextItem {
	return tools.ContextItem{Text: text, PageContext: tools.PageContext{URL: "https://shop.example/cart?step=2#top", Title: "Checkout",
		Role: role, Before: "Total: 12 kr", After: "Back", Width: 60, Box: 80, Position: pos}}
}

// TestRecordContext: a page's texts are matched to their keys (by source text on Embed
// pages, by name when given), stored once per key and page (seen again: updated), listed
// per key and per page in on-page order; the page URL loses its query and fragment.
func TestRecordContext(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		cf := newContextFixture(t, dialect)
		id := cf.f.Project.ID
		in := tools.RecordContextIn{ProjectID: id, Items: []tools.ContextItem{
			pageItem("Pay now", "button", 2), pageItem("Your cart", "heading", 1), pageItem("Not a key", "text", 3)}}
		out, err := cf.cat.RecordContext(cf.owner, in)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"Pay now", "checkout.title", ""}; strings.Join(out.Keys, "|") != strings.Join(want, "|") {
			t.Fatalf("keys %q, want %q", out.Keys, want)
		}
		in.Items[0].Title, in.Items[0].Width = "Checkout, step 2", 70
		if _, err := cf.cat.RecordContext(cf.owner, in); err != nil {
			t.Fatal(err)
		}
		pcs, err := cf.cat.KeyContexts(cf.owner, id, tools.EmbedNamespace, "Pay now")
		if err != nil {
			t.Fatal(err)
		}
		if len(pcs) != 1 || pcs[0].URL != "https://shop.example/cart" || pcs[0].Title != "Checkout, step 2" || pcs[0].Width != 70 ||
			pcs[0].Role != "button" || pcs[0].Before != "Total: 12 kr" || pcs[0].SeenAt.IsZero() {
			t.Fatalf("contexts %+v, want one, updated", pcs)
		}
		// By name (an i18next page).
		byName := tools.RecordContextIn{ProjectID: id, Namespace: tools.EmbedNamespace, Items: []tools.ContextItem{pageItem("", "label", 0)}}
		byName.Items[0].Key = "checkout.title"
		if out, err := cf.cat.RecordContext(cf.owner, byName); err != nil || out.Keys[0] != "checkout.title" {
			t.Fatalf("by name: %v, %v", out, err)
		}
		keys, err := cf.cat.PageKeys(cf.owner, id, "https://shop.example/cart#elsewhere")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, k := range keys {
			got = append(got, k.Key+"@"+k.Source)
		}
		if want := "checkout.title@Your cart Pay now@Pay now"; strings.Join(got, " ") != want {
			t.Errorf("page keys %q, want %q", got, want)
		}
		found, err := cf.cat.FindKeys(cf.owner, id, tools.EmbedNamespace, []string{"Your cart", "Pay now", "Gone?", "Not a key"})
		if err != nil {
			t.Fatal(err)
		}
		if len(found) != 2 || found["Your cart"] != "checkout.title" || found["Pay now"] != "Pay now" {
			t.Errorf("found %v", found)
		}
	})
}

// TestRecordContextRefuses: a page off the workspace's sites, a forged role, huge strings,
// widths that are no number, and too many items are refused as invalid and store nothing;
// the gate refuses a caller without a session (an API key) or without a role on the
// project, and another workspace's user.
func TestRecordContextRefuses(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		cf := newContextFixture(t, dialect)
		id := cf.f.Project.ID
		bad := map[string]func(*tools.ContextItem){
			"another host":      func(it *tools.ContextItem) { it.URL = "https://evil.example/cart" },
			"a host under it":   func(it *tools.ContextItem) { it.URL = "https://shop.example.evil.example/" },
			"javascript":        func(it *tools.ContextItem) { it.URL = "javascript:alert(1)//shop.example" },
			"a user in the URL": func(it *tools.ContextItem) { it.URL = "https://x@shop.example/" },
			"a forged role":     func(it *tools.ContextItem) { it.Role = "script" },
			"a huge title":      func(it *tools.ContextItem) { it.Title = strings.Repeat("t", 5000) },
			"a huge before":     func(it *tools.ContextItem) { it.Before = strings.Repeat("b", 100000) },
			"a huge URL":        func(it *tools.ContextItem) { it.URL = "https://shop.example/" + strings.Repeat("p", 2000) },
			"a NaN width":       func(it *tools.ContextItem) { it.Width = math.NaN() },
			"an infinite box":   func(it *tools.ContextItem) { it.Box = math.Inf(1) },
			"a negative width":  func(it *tools.ContextItem) { it.Width = -1 },
			"a huge position":   func(it *tools.ContextItem) { it.Position = 1 << 40 },
		}
		for name, spoil := range bad {
			it := pageItem("Pay now", "button", 1)
			spoil(&it)
			_, err := cf.cat.RecordContext(cf.owner, tools.RecordContextIn{ProjectID: id, Items: []tools.ContextItem{pageItem("Your cart", "heading", 0), it}})
			if model.ErrorCode(err) != model.CodeInvalid {
				t.Errorf("%s: %v, want invalid", name, err)
			}
		}
		many := make([]tools.ContextItem, tools.MaxContextItems+1)
		for i := range many {
			many[i] = pageItem("Pay now", "button", i)
		}
		if _, err := cf.cat.RecordContext(cf.owner, tools.RecordContextIn{ProjectID: id, Items: many}); model.ErrorCode(err) != model.CodeInvalid {
			t.Errorf("too many items: %v, want invalid", err)
		}
		if keys, err := cf.cat.PageKeys(cf.owner, id, "https://shop.example/cart"); err != nil || len(keys) != 0 {
			t.Errorf("a refused call stored %v (%v)", keys, err)
		}
		key, err := cf.cat.Authenticate(t.Context(), cf.f.RW)
		if err != nil {
			t.Fatal(err)
		}
		good := tools.RecordContextIn{ProjectID: id, Items: []tools.ContextItem{pageItem("Pay now", "button", 1)}}
		for name, c := range map[string]struct {
			ctx  context.Context
			want string
		}{
			"an API key":               {model.WithPrincipal(t.Context(), key), model.CodeUnauthorized},
			"an API key at the editor": {tools.WithDoor(model.WithPrincipal(t.Context(), key), tools.Editor), model.CodeUnauthorized},
			"nobody":                   {tools.WithDoor(t.Context(), tools.Editor), model.CodeUnauthorized},
			"a user without a role":    {cf.norole, model.CodeForbidden},
			"another workspace's user": {cf.other, model.CodeUnauthorized},
		} {
			if _, err := cf.cat.RecordContext(c.ctx, good); model.ErrorCode(err) != c.want {
				t.Errorf("%s: %v, want %s", name, err, c.want)
			}
			if _, err := cf.cat.KeyContexts(c.ctx, id, tools.EmbedNamespace, "Pay now"); model.ErrorCode(err) != c.want {
				t.Errorf("%s reading: %v, want %s", name, err, c.want)
			}
		}
		if keys, err := cf.cat.PageKeys(cf.owner, id, "https://shop.example/cart"); err != nil || len(keys) != 0 {
			t.Errorf("a refused caller stored %v (%v)", keys, err)
		}
	})
}

// TestSiteOrigin: the panel's check of a page's origin: the workspace's site (any port of
// an authorized host without one) passes, another host is forbidden, and what is no origin
// is invalid; a user without a role is refused by the gate.
func TestSiteOrigin(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		cf := newContextFixture(t, dialect)
		id := cf.f.Project.ID
		for origin, want := range map[string]string{
			"https://shop.example":        "",
			"http://shop.example:8080":    "",
			"https://evil.example":        model.CodeForbidden,
			"https://shop.example.evil.a": model.CodeForbidden,
			"https://shop.example/path":   model.CodeInvalid,
			"javascript:alert(1)":         model.CodeInvalid,
			"null":                        model.CodeInvalid,
		} {
			got, err := cf.cat.SiteOrigin(cf.owner, id, origin)
			if codeOf(err) != want || (want == "" && got != origin) {
				t.Errorf("%s: %q, %v; want %q", origin, got, err, want)
			}
		}
		if _, err := cf.cat.SiteOrigin(cf.norole, id, "https://shop.example"); model.ErrorCode(err) != model.CodeForbidden {
			t.Errorf("a user without a role: %v, want forbidden", err)
		}
	})
}

// TestRecordContextBounds: a key keeps its newest pages only, and a long before/after is
// cut to its kept length.
func TestRecordContextBounds(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		cf := newContextFixture(t, dialect)
		var items []tools.ContextItem
		for i := range tools.ContextPagesKept + 5 {
			it := pageItem("Pay now", "button", 1)
			it.URL = "https://shop.example/p" + strings.Repeat("x", i)
			it.After = strings.Repeat("a", 300)
			items = append(items, it)
		}
		if _, err := cf.cat.RecordContext(cf.owner, tools.RecordContextIn{ProjectID: cf.f.Project.ID, Items: items}); err != nil {
			t.Fatal(err)
		}
		pcs, err := cf.cat.KeyContexts(cf.owner, cf.f.Project.ID, tools.EmbedNamespace, "Pay now")
		if err != nil {
			t.Fatal(err)
		}
		if len(pcs) != tools.ContextPagesKept || len([]rune(pcs[0].After)) != tools.MaxContextAround {
			t.Errorf("%d pages kept (want %d), after %d runes", len(pcs), tools.ContextPagesKept, len([]rune(pcs[0].After)))
		}
	})
}

// TestOverflowOf: a value whose visible length makes it wider than the box (by more than
// the tolerance) is flagged, a short one is not; placeholders and markup count nothing.
func TestOverflowOf(t *testing.T) {
	t.Parallel()
	syn := message.ICU | message.HTML
	seen := []tools.PageContext{{URL: "https://shop.example/cart", Role: "button", Width: 70, Box: 80}}
	src := "Pay {amount} now" // 8 visible characters: 70 px
	if o := tools.OverflowOf(src, "Betal {amount} nå", syn, seen); o != nil {
		t.Errorf("a short nb value flagged: %+v", o)
	}
	o := tools.OverflowOf(src, "Fullfør betalingen av {amount} nå", syn, seen)
	if o == nil || o.URL != "https://shop.example/cart" || o.Box != 80 || o.Estimated < 200 {
		t.Errorf("a long nb value: %+v, want flagged", o)
	}
	if o := tools.OverflowOf(src, "Betal {et_svaert_langt_plassholdernavn} <b>nå</b>", syn, seen); o != nil {
		t.Errorf("placeholders and markup counted: %+v", o)
	}
	if n := message.VisibleLength("Betal {a} <b>nå</b> &amp; {n, plural, one {# vare} other {# varer}}", syn); n != 16 { // "Betal nå & varer"
		t.Errorf("visible length %d", n)
	}
	wraps := []tools.PageContext{{Role: "text", Width: 400, Box: 400}}
	if o := tools.OverflowOf("A paragraph", "Et mye lengre avsnitt som brytes", syn, wraps); o != nil {
		t.Errorf("running text that wraps flagged: %+v", o)
	}
}

// TestAIPromptCarriesPageContext: the AI double sees where a key is shown (role, page,
// neighbouring text, the room it has) in the prompt for that key, and nothing of the kind
// for a key never seen on a page.
func TestAIPromptCarriesPageContext(t *testing.T) {
	t.Parallel()
	storagetest.ForEachDialect(t, func(t *testing.T, dialect string) {
		db, f := storagetest.MustOpenFixture(t, dialect)
		llm := aitest.New(t, aitest.Echo(func(_, masked string) string { return "nb " + masked }))
		cat := storagetest.Catalog(db, &tools.Options{Outbound: outbound.NewGuard([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}),
			AIDefault: tools.AIProvider{BaseURL: llm.URL, Model: "context"}})
		sys := model.WithPrincipal(t.Context(), tools.System)
		hosts := []string{"shop.example"}
		if _, err := cat.SetWorkspace(sys, f.Workspace.ID, tools.SetWorkspaceIn{AuthorizedHosts: &hosts}); err != nil {
			t.Fatal(err)
		}
		keep := false
		if _, err := cat.Sync(sys, tools.SyncIn{NamespaceRef: tools.NamespaceRef{ProjectID: f.Project.ID, Language: "en", Namespace: "app"},
			Translations: map[string]string{"pay": "Pay now", "intro": "Welcome"}, PreserveSourceValues: &keep}); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.RecordContext(sys, tools.RecordContextIn{ProjectID: f.Project.ID, Namespace: "app", Items: []tools.ContextItem{{Key: "pay",
			PageContext: tools.PageContext{URL: "https://shop.example/cart", Title: "Checkout", Role: "button", Before: "Total: 12 kr", After: "Back", Width: 70, Box: 90}}}}); err != nil {
			t.Fatal(err)
		}
		ref := func(key string) tools.RowRef {
			return tools.RowRef{KeyRef: tools.KeyRef{ProjectArg: tools.ProjectArg{ProjectID: f.Project.ID}, NamespaceKey: "app", TranslationKey: key}, Language: "nb"}
		}
		if _, err := cat.SuggestAI(sys, ref("pay")); err != nil {
			t.Fatal(err)
		}
		calls := llm.Calls()
		if len(calls) != 1 {
			t.Fatalf("%d model calls", len(calls))
		}
		// 7 visible characters in 70 px: 9 fit in 90 px.
		want := `s1: Shown as a button label on page "Checkout" (https://shop.example/cart); before: "Total: 12 kr"; after: "Back"; keep it within about 9 characters to fit.`
		if !strings.Contains(calls[0].System, want) {
			t.Errorf("the prompt lacks the page context %q:\n%s", want, calls[0].System)
		}
		if _, err := cat.SuggestAI(sys, ref("intro")); err != nil {
			t.Fatal(err)
		}
		if s := llm.Calls()[1].System; strings.Contains(s, "Shown as") || strings.Contains(s, "shop.example") {
			t.Errorf("a key never seen got a page context:\n%s", s)
		}
	})
}
