package formats

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// goldenRoundTrip decodes testdata/<path>, compares the File with want (when want is not
// nil), and checks that encoding it gives the file back byte for byte. With -update it
// writes the encoding as the file instead: golden files are files we write ourselves, then
// re-encode, so they hold what real files carry in the codec's canonical spelling.
func goldenRoundTrip(t *testing.T, format, path string, o Options, want *File) *File {
	t.Helper()
	full := filepath.Join("testdata", path)
	data, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Decode(format, data, o)
	if err != nil {
		t.Fatalf("Decode %s: %v", path, err)
	}
	if want != nil && !reflect.DeepEqual(f, want) {
		t.Errorf("Decode %s:\n got %#v\nwant %#v", path, f, want)
	}
	out, err := Encode(format, f, o)
	if err != nil {
		t.Fatalf("Encode %s: %v", path, err)
	}
	if *update {
		if err := os.WriteFile(full, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	if !bytes.Equal(out, data) {
		t.Errorf("Encode(Decode(%s)) differs from the file:\n--- got\n%s\n--- want\n%s", path, out, data)
	}
	return f
}

// entriesRoundTrip checks decode(encode(f)) == f.
func entriesRoundTrip(t *testing.T, format string, f *File, o Options) {
	t.Helper()
	out, err := Encode(format, f, o)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	back, err := Decode(format, out, o)
	if err != nil {
		t.Fatalf("Decode of our own encoding: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back, f) {
		t.Errorf("decode(encode(f)) != f:\n got %#v\nwant %#v\nfile:\n%s", back, f, out)
	}
}

// fuzzRoundTrip is the body of the codecs' fuzz tests: data decodes to a File or is
// refused with a *FileError, never a panic; a decoded File re-encodes and decodes to the
// same File.
func fuzzRoundTrip(t *testing.T, format string, data []byte, o Options) {
	t.Helper()
	f, err := Decode(format, data, o)
	if err != nil {
		var fe *FileError
		if !errors.As(err, &fe) {
			t.Fatalf("error is not a *FileError: %T %v", err, err)
		}
		return
	}
	entriesRoundTrip(t, format, f, o)
}
