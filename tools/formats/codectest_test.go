package formats

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// readTestdata reads a file under testdata.
func readTestdata(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", path))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// fuzzRoundTrip decodes arbitrary data: no panic, and a file that decodes re-encodes to
// one that decodes to the same File. With normalize, the File compared is the one read
// back from a first encoding: for formats whose export drops by design what the language
// cannot hold (plural categories it lacks).
func fuzzRoundTrip(t *testing.T, format string, data []byte, o Options, normalize bool) {
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
