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
	poCodec          = &Codec{Name: "po", ContentType: "text/x-gettext-translation", Extension: "po", Bilingual: true, Decode: notBuiltDecode, Encode: legacy(renderPO)}
	xliffCodec       = &Codec{Name: "xliff", ContentType: "application/xliff+xml", Extension: "xlf", Bilingual: true, Decode: notBuiltDecode, Encode: notBuiltEncode}
	xliff2Codec      = &Codec{Name: "xliff2", ContentType: "application/xliff+xml", Extension: "xlf", Bilingual: true, Decode: notBuiltDecode, Encode: notBuiltEncode}
	androidCodec     = &Codec{Name: "android", ContentType: "application/xml", Extension: "xml", Decode: notBuiltDecode, Encode: notBuiltEncode}
	stringsCodec     = &Codec{Name: "strings", ContentType: "text/plain; charset=utf-8", Extension: "strings", Decode: notBuiltDecode, Encode: legacy(renderStrings)}
	stringsdictCodec = &Codec{Name: "stringsdict", ContentType: "application/x-plist", Extension: "stringsdict", Decode: notBuiltDecode, Encode: notBuiltEncode}
	yamlCodec        = &Codec{Name: "yaml", ContentType: "application/x-yaml", Extension: "yml", Decode: notBuiltDecode, Encode: legacy(renderYAML)}
	propertiesCodec  = &Codec{Name: "properties", ContentType: "text/x-java-properties; charset=utf-8", Extension: "properties", Decode: notBuiltDecode, Encode: notBuiltEncode}
	csvCodec         = &Codec{Name: "csv", ContentType: "text/csv; charset=utf-8", Extension: "csv", Bilingual: true, Multilingual: true, Decode: notBuiltDecode, Encode: notBuiltEncode}
)
