package formats

import "errors"

// Codecs not written yet: each moves to its own file (the format's name) as it is built.

var errNotBuilt = errors.New("formats: not built yet")

func notBuiltDecode([]byte, Options) (*File, error) { return nil, errNotBuilt }
func notBuiltEncode(*File, Options) ([]byte, error) { return nil, errNotBuilt }

// legacy wraps a renderer written for Render as an Encode.
func legacy(r func(string, []Row) ([]byte, error)) func(*File, Options) ([]byte, error) {
	return func(f *File, o Options) ([]byte, error) { return r(o.Language, rowsOf(f, o.Language)) }
}

var (
	jsonCodec      = &Codec{Name: "json", ContentType: "application/json", Extension: "json", Decode: notBuiltDecode, Encode: legacy(renderJSON)}
	i18nextCodec   = &Codec{Name: "i18next", ContentType: "application/json", Extension: "json", Decode: notBuiltDecode, Encode: notBuiltEncode}
	xcstringsCodec = &Codec{Name: "xcstrings", ContentType: "application/json", Extension: "xcstrings", Bilingual: true, Multilingual: true, Decode: notBuiltDecode, Encode: notBuiltEncode}
	arbCodec       = &Codec{Name: "arb", ContentType: "application/json", Extension: "arb", Decode: notBuiltDecode, Encode: notBuiltEncode}
)
