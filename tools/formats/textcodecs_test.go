package formats

// Helpers of the yaml, properties and csv codec tests.

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// readCodecTestdata reads a file under testdata.
func readCodecTestdata(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// fuzzDecodedRoundTrip decodes arbitrary data: no panic, and a file that decodes re-encodes to
// one that decodes to the same File. With normalize, the File compared is the one read
// back from a first encoding: for formats whose export drops by design what the language
// cannot hold (plural categories it lacks).
func fuzzDecodedRoundTrip(t *testing.T, format string, data []byte, o Options, normalize bool) {
	f, err := Decode(format, data, o)
	if err != nil {
		return
	}
	if normalize {
		out, err := Encode(format, f, o)
		if err != nil {
			t.Fatalf("Encode of a decoded file: %v", err)
		}
		if f, err = Decode(format, out, o); err != nil {
			t.Fatalf("Decode of our own encoding: %v\n%s", err, out)
		}
	}
	out, err := Encode(format, f, o)
	if err != nil {
		t.Fatalf("Encode of a decoded file: %v", err)
	}
	back, err := Decode(format, out, o)
	if err != nil {
		t.Fatalf("Decode of our own encoding: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back, f) {
		t.Fatalf("decode(encode(f)) != f:\n got %#v\nwant %#v\nfile:\n%s", back, f, out)
	}
}

// benchCodec10k decodes and encodes a 10,000-key file of the format, a tenth of them plurals.
func benchCodec10k(b *testing.B, format string, o Options, langs []string) {
	f := &File{Languages: langs, Entries: make([]Entry, 10000)}
	for i := range f.Entries {
		text := fmt.Sprintf("Value number %d with %%{name}, \"quotes\" and a comma", i)
		if i%10 == 0 {
			text = "{count, plural, one {%{count} file} few {%{count} files} many {%{count} files} other {%{count} files}}"
		}
		vs := map[string]Value{}
		for _, l := range langs {
			vs[l] = Value{Text: text}
		}
		f.Entries[i] = Entry{Key: fmt.Sprintf("section%d.group%d.key%d", i/1000, i/100, i), Values: vs}
	}
	data, err := Encode(format, f, o)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		g, err := Decode(format, data, o)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Encode(format, g, o); err != nil {
			b.Fatal(err)
		}
	}
}
