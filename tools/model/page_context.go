package model

import (
	"context"
	"time"
)

// PageContext is where a key was seen on a page of a site (review in context): the page
// (URL without query or fragment, and title), the element's role, its neighbouring text,
// its rendered width against its box in CSS px, and its order among the page's texts.
type PageContext struct {
	URL, Title, Role string
	Before, After    string
	Width, Box       float64
	Position         int
	SeenAt           time.Time
}

// PageContextRow is a key's context on one page as stored, with who saw it.
type PageContextRow struct {
	KeyID int64
	Who   string
	PageContext
}

// PageKeyRow is a key seen on a page, at its position there.
type PageKeyRow struct {
	KeyID     int64
	Namespace string
	Key       string
	Source    string // the key's source value, "" when none
	Position  int
}

// PageContextTx keeps where keys were seen on a project's pages.
type PageContextTx interface {
	// RecordPageContexts stores rows of projectID, one per key and URL (a row seen again
	// is replaced), then keeps each key's newest perKey pages and each page's newest
	// perPage keys.
	RecordPageContexts(ctx context.Context, projectID string, rows []PageContextRow, perKey, perPage int) error
	// PageContexts returns the pages each key was seen on, newest first, by key id.
	PageContexts(ctx context.Context, keyIDs []int64) (map[int64][]PageContext, error)
	// PageKeys returns the visible keys seen on a project's page, in their order there.
	PageKeys(ctx context.Context, projectID, url, sourceLanguage string) ([]PageKeyRow, error)
	// KeysBySource maps texts to the visible key of ns whose source value is that text
	// (the first by key when several are).
	KeysBySource(ctx context.Context, ns Namespace, sourceLanguage string, texts []string) (map[string]KeyRecord, error)
}
