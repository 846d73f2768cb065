package message

import "strings"

// Message is a parsed value, or the text of one plural/select form or of a
// translatable attribute. Printing it gives back the exact bytes it was
// parsed from.
type Message struct {
	Nodes []Node
	// Problems are the syntax errors found while parsing (only on the
	// message Parse returns; nested messages leave it empty).
	Problems []SyntaxError
	Syntax   Syntax
}

// SyntaxError is a syntax error at a byte offset of the parsed value. What
// does not parse is kept as text, so an error never loses bytes. (Problem
// is what Check reports.)
type SyntaxError struct {
	Offset int
	Code   ProblemCode
}

// ProblemCode names a kind of syntax error.
type ProblemCode string

// Problem codes.
const (
	// An ICU '{' that starts no valid argument (it is kept as text).
	UnclosedBrace ProblemCode = "unclosed-brace"
	// An ICU '}' that closes nothing (kept as text).
	UnmatchedBrace ProblemCode = "unmatched-brace"
	// A plural/select block or one of its forms that never closes.
	UnclosedSelect ProblemCode = "unclosed-select"
	// Text between two forms that is not "selector {".
	BadSelector ProblemCode = "bad-selector"
	// A plural/select block without an "other" form.
	MissingOther ProblemCode = "missing-other"
	// The same selector twice in one block.
	DuplicateSelector ProblemCode = "duplicate-selector"
	// An ICU apostrophe quote that runs to the end of the text.
	UnclosedQuote ProblemCode = "unclosed-quote"
	// Plural/select blocks nested deeper than the parser descends.
	TooDeep ProblemCode = "too-deep"
)

// Node is one piece of a message: *Text, *Entity, *Quoted, *Arg, *Select,
// *Pound, *Tag or *Link.
type Node interface {
	// String returns the exact source bytes of the node.
	String() string
	write(b *strings.Builder)
	sig(b *strings.Builder)
}

// Text is literal, translatable text.
type Text struct{ Value string }

// Entity is an HTML/XML character reference such as &amp; or &#8212;.
type Entity struct {
	Raw  string // as written
	Char string // the character(s) it stands for; "" when unknown
}

// Quoted is literal text written with escape syntax: ICU apostrophe quoting
// ('{name}' is the text "{name}", a doubled apostrophe is one) or the doubled
// braces of .NET/Python format strings ({{ is "{").
type Quoted struct {
	Raw   string
	Value string // the literal text it stands for
}

// Pound is '#' inside a plural or selectordinal form: the number.
type Pound struct{}

// ArgKind says which syntax an argument is written in.
type ArgKind uint8

// Argument kinds.
const (
	ArgICU            ArgKind = iota + 1 // {x}
	ArgICUFormatted                      // {x, number, ::currency/EUR}
	ArgI18next                           // {{x}} {{- x}} {{x, format}}
	ArgNesting                           // $t(key) $t(key, {"count": 3})
	ArgRails                             // %{x}
	ArgRailsFormatted                    // %<x>s %<x>.2f
	ArgPrintf                            // %s %d %.2f %ld %@ %1$s
	ArgPrintfNamed                       // Python %(x)s
	ArgPercent                           // %% (an escaped percent sign; takes no argument)
	ArgBrace                             // .NET/Python {0} {0:C} {name:.1f} {}
	ArgTemplate                          // ${x}
	ArgQt                                // %1 %L1 %n
)

var argKindNames = [...]string{"", "icu", "icu-formatted", "i18next", "i18next-nesting", "rails", "rails-formatted",
	"printf", "printf-named", "printf-percent", "brace", "template", "qt"}

func (k ArgKind) String() string {
	if int(k) < len(argKindNames) {
		return argKindNames[k]
	}
	return "unknown"
}

// Arg is a placeholder of any syntax.
type Arg struct {
	Raw  string
	Kind ArgKind
	// Name is the argument's name, the nesting key of $t(key), or "" for
	// unnamed printf and Qt arguments.
	Name string
	// Index is the position a positional argument names: 1-based for
	// printf %1$s and Qt %1, 0-based for {0}; -1 when there is none.
	Index int
	// Positional is true for printf %1$s, Qt %1 and .NET/Python {0}: the
	// translation may reorder them. Non-positional printf arguments are
	// consumed in order, so their order is part of the message.
	Positional bool
	// Type is the ICU type (number, date), the i18next format, or the
	// printf conversion (s, d, f, @).
	Type string
	// Style is the ICU style, the .NET/Python format spec (after ':'),
	// the printf flags, width, precision and length (".2", "l"), or the
	// options of $t(key, {...}).
	Style string
	// Unescaped is i18next's {{- x}}.
	Unescaped bool
}

// Consumes reports whether the argument takes a value from the argument
// list (everything but %%).
func (a *Arg) Consumes() bool { return a.Kind != ArgPercent }

// Select is an ICU plural, select or selectordinal block.
type Select struct {
	Head   string // "{n, plural, offset:1" as written, up to the first form
	Arg    string
	Type   string // plural, select or selectordinal
	Offset int
	Forms  []*Form
	Tail   string // whitespace and '}' as written; "" when the block never closes
}

// Form returns the form with the given selector (one, =0, other), or nil.
func (n *Select) Form(selector string) *Form {
	for _, f := range n.Forms {
		if f.Selector == selector {
			return f
		}
	}
	return nil
}

// Form is one form of a Select.
type Form struct {
	Prefix   string // whitespace, selector, whitespace and '{' as written
	Selector string // one, other, =0, female
	Message  *Message
	Close    string // "}", or "" when the form never closes
}

// TagKind says what shape a Tag has.
type TagKind uint8

// Tag kinds. Everything but Element is an atom: it has no children and a
// check compares it as one piece.
const (
	Element     TagKind = iota + 1 // <b>...</b>, <0>...</0>
	Void                           // an HTML void element written without '/': <br>, <img src="x">
	SelfClosing                    // <br/>, <1/>, <x:icon />
	Unclosed                       // an opening tag that is never closed: <Enter>, a lone <p>
	Unmatched                      // a closing tag that closes nothing: </b>
	Comment                        // <!-- ... -->
)

var tagKindNames = [...]string{"", "element", "void", "self-closing", "unclosed", "unmatched", "comment"}

func (k TagKind) String() string {
	if int(k) < len(tagKindNames) {
		return tagKindNames[k]
	}
	return "unknown"
}

// Tag is an HTML/XML element, a react-i18next component (<0>, <bold>), or
// one of the atoms listed with TagKind.
type Tag struct {
	Kind TagKind
	// Name as written; HTML names compare case-insensitively (see Key).
	// "!--" for a comment; the closing tag's name for Unmatched.
	Name     string
	Start    string // "<name" as written; a whole comment; "" for Unmatched
	Attrs    []*Attr
	End      string // whitespace, optional '/', and '>'
	Children []Node // Element only
	Close    string // "</name>" as written (Element and Unmatched)
}

// Key returns the name used to compare tags: lower-cased unless it is a
// react-i18next index.
func (t *Tag) Key() string { return strings.ToLower(t.Name) }

// Attr is one attribute of a Tag.
type Attr struct {
	Space string // whitespace before the name
	Name  string
	Eq    string // '=' with any surrounding whitespace; "" for a bare attribute
	Quote string // `"`, `'` or ""
	Value string // as written, between the quotes
	// Text is the parsed value of a translatable attribute (alt, title,
	// placeholder, aria-label); nil for the others, whose Value is opaque.
	Text *Message
}

// Translatable reports whether the attribute's value is text to translate.
func (a *Attr) Translatable() bool { return a.Text != nil }

// Link is a markdown link [text](target) or image ![alt](target).
type Link struct {
	Image  bool
	Text   []Node
	Target string // as written between the parentheses (URL and optional title); opaque
}

// String prints the message back exactly as it was parsed.
func (m *Message) String() string {
	var b strings.Builder
	writeNodes(&b, m.Nodes)
	return b.String()
}

func writeNodes(b *strings.Builder, ns []Node) {
	for _, n := range ns {
		n.write(b)
	}
}

func str(n Node) string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *Text) String() string   { return n.Value }
func (n *Entity) String() string { return n.Raw }
func (n *Quoted) String() string { return n.Raw }
func (n *Pound) String() string  { return "#" }
func (n *Arg) String() string    { return n.Raw }
func (n *Select) String() string { return str(n) }
func (n *Tag) String() string    { return str(n) }
func (n *Link) String() string   { return str(n) }

func (n *Text) write(b *strings.Builder)   { b.WriteString(n.Value) }
func (n *Entity) write(b *strings.Builder) { b.WriteString(n.Raw) }
func (n *Quoted) write(b *strings.Builder) { b.WriteString(n.Raw) }
func (n *Pound) write(b *strings.Builder)  { b.WriteByte('#') }
func (n *Arg) write(b *strings.Builder)    { b.WriteString(n.Raw) }

func (n *Select) write(b *strings.Builder) {
	b.WriteString(n.Head)
	for _, f := range n.Forms {
		b.WriteString(f.Prefix)
		writeNodes(b, f.Message.Nodes)
		b.WriteString(f.Close)
	}
	b.WriteString(n.Tail)
}

func (n *Tag) write(b *strings.Builder) {
	b.WriteString(n.Start)
	for _, a := range n.Attrs {
		b.WriteString(a.Space)
		b.WriteString(a.Name)
		b.WriteString(a.Eq)
		b.WriteString(a.Quote)
		if a.Text != nil {
			writeNodes(b, a.Text.Nodes)
		} else {
			b.WriteString(a.Value)
		}
		b.WriteString(a.Quote)
	}
	b.WriteString(n.End)
	writeNodes(b, n.Children)
	b.WriteString(n.Close)
}

func (n *Link) write(b *strings.Builder) {
	if n.Image {
		b.WriteByte('!')
	}
	b.WriteByte('[')
	writeNodes(b, n.Text)
	b.WriteString("](")
	b.WriteString(n.Target)
	b.WriteByte(')')
}
