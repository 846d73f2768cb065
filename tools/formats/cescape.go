package formats

// cControl is the byte a one-letter C escape (\n, \t, \r, \a, \b, \f, \v) stands for,
// as gettext PO and Apple .strings read them both.
func cControl(c byte) (byte, bool) {
	switch c {
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	case 'r':
		return '\r', true
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'v':
		return '\v', true
	}
	return 0, false
}
