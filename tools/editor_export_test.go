package tools

// IsQAKind reports whether the editor's QA filter counts findings of kind.
func IsQAKind(kind string) bool { return contains(qaKinds, kind) }
