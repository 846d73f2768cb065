package tools

import (
	"context"
	"strings"

	"github.com/lokal-dev/lokal/tools/message"
	"github.com/lokal-dev/lokal/tools/model"
)

// Where a project's syntax comes from, as SyntaxView.Source tells it.
const (
	SyntaxSet      = "set"      // the operator set it (lokal project set --syntax)
	SyntaxDetected = "detected" // found in the project's source values
)

// SyntaxView is the syntaxes a project's values are read in, as `project show` and
// get_project_status tell them.
type SyntaxView struct {
	Names  []string `json:"names"`
	Source string   `json:"source"` // SyntaxSet or SyntaxDetected
}

// ProjectSyntax returns the syntaxes p's values are written in: the project's setting, or
// else those message.DetectSyntax finds in its visible source values. Detection runs once
// per project revision (the entry is cached beside the project's other caches and dropped
// when a write moves the revision, as a source sync does), and then only over the distinct
// source values that contain one of syntaxNeedles, filtered by the database: a value
// without one adds nothing to DetectSyntax's answer, so the result is that of every
// value. A failed read gives message.All, the reading that protects the most, and is not
// cached. p must be read in tx (loadProject, tx.Project): the authorization cache's copy
// has no Settings, so its set syntax would be missed.
func (c *Catalog) ProjectSyntax(ctx context.Context, tx model.Tx, p model.Project) message.Syntax {
	if p.Settings.Syntax != "" {
		if s, err := message.ParseSyntax(p.Settings.Syntax); err == nil {
			return s
		}
	}
	f, err := c.store.Cached(ctx, p.ID, "syntax", func(ctx context.Context) ([]byte, error) {
		values, err := tx.ValuesContaining(ctx, p.ID, p.SourceLanguage, syntaxNeedles)
		if err != nil {
			return nil, err
		}
		return []byte(message.DetectSyntax(values).String()), nil
	})
	if err != nil {
		return message.All
	}
	s, err := message.ParseSyntax(string(f.Body))
	if err != nil {
		return message.All
	}
	return s
}

// syntaxNeedles are what every syntax's pieces contain (braces, %, tags and entities, ${
// and $t(, markdown's [, ICU's quoted '|): a value without any is text in every syntax.
var syntaxNeedles = []string{"{", "}", "%", "<", "&", "$", "[", "'|"}

// syntaxView tells p's effective syntax and where it comes from.
func (c *Catalog) syntaxView(ctx context.Context, tx model.Tx, p model.Project) SyntaxView {
	v := SyntaxView{Names: []string{}, Source: SyntaxDetected}
	if p.Settings.Syntax != "" {
		v.Source = SyntaxSet
	}
	if s := c.ProjectSyntax(ctx, tx, p); s != 0 {
		v.Names = strings.Split(s.String(), ",")
	}
	return v
}
