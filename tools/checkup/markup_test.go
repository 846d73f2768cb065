package checkup

import (
	"slices"
	"testing"
)

func TestMarkupTags(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"plain text", "Hello world", nil},
		{"strong", "Be <strong>bold</strong>", []string{"</strong>", "<strong>"}},
		{"attributes ignored", `<a href="/x" class="y">link</a>`, []string{"</a>", "<a>"}},
		{"case-insensitive", "<B>x</b>", []string{"</b>", "<b>"}},
		{"self-closing br", "a<br/>b<br>c<br />", []string{"<br>", "<br>", "<br>"}},
		{"nested sorted", "<p><em>a</em> <a>b</a></p>", []string{"</a>", "</em>", "</p>", "<a>", "<em>", "<p>"}},
		{"comparison is not a tag", "a < b and 3<4", nil},
		{"comment ignored", "x <!-- note --> y", nil},
		{"unclosed tag", "<strong>bold", []string{"<strong>"}},
		{"stray closing", "bold</strong>", []string{"</strong>"}},
		{"placeholders are not tags", "%{name} {{count}} {n}", nil},
		{"entities", "&amp; &lt;b&gt;", nil},
		{"raw-text elements still tokenized", "<title>a <b>c</b></title>", []string{"</b>", "</title>", "<b>", "<title>"}},
		{"unterminated tag is text", "x <b", nil},
		{"invalid utf8", "\xff<i>\xfe</i>", []string{"</i>", "<i>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MarkupTags(tt.in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("MarkupTags(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMultisetDiff(t *testing.T) {
	tests := []struct {
		name                string
		want, got           []string
		missing, unexpected []string
	}{
		{"equal", []string{"a", "b"}, []string{"a", "b"}, nil, nil},
		{"missing", []string{"a", "b"}, []string{"b"}, []string{"a"}, nil},
		{"unexpected", []string{"b"}, []string{"a", "b"}, nil, []string{"a"}},
		{"duplicate counted", []string{"a", "a"}, []string{"a"}, []string{"a"}, nil},
		{"both", []string{"a", "c"}, []string{"b", "c", "d"}, []string{"a"}, []string{"b", "d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, u := multisetDiff(tt.want, tt.got)
			if !slices.Equal(m, tt.missing) || !slices.Equal(u, tt.unexpected) {
				t.Errorf("multisetDiff = %q, %q; want %q, %q", m, u, tt.missing, tt.unexpected)
			}
		})
	}
}
