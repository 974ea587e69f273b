package sessiontree

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

func gzipped(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zstded(t testing.TB, data []byte, opts ...zstd.EOption) []byte {
	t.Helper()
	w, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	return w.EncodeAll(data, nil)
}

// skippable is a zstd skippable frame holding data, as pzstd writes one
// first.
func skippable(data []byte) []byte {
	n := len(data)
	return append([]byte{0x50, 0x2a, 0x4d, 0x18, byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)}, data...)
}

func TestSniff(t *testing.T) {
	session := []byte(`{"type":"session","version":3}` + "\n")
	for _, c := range []struct {
		name string
		head []byte
		want Compression
	}{
		{"empty", nil, Uncompressed},
		{"session", session, Uncompressed},
		{"bom", []byte("\xef\xbb\xbf{"), Uncompressed},
		{"gzip", gzipped(t, session), Gzip},
		{"gzip, 3 bytes", []byte{0x1f, 0x8b, 8}, Gzip},
		{"gzip magic, not deflate", []byte{0x1f, 0x8b, 7, 0}, Uncompressed},
		{"gzip, 2 bytes", []byte{0x1f, 0x8b}, Uncompressed},
		{"zstd", zstded(t, session), Zstd},
		{"zstd, 3 bytes", []byte{0x28, 0xb5, 0x2f}, Uncompressed},
		{"zstd skippable frame", skippable([]byte("x")), Zstd},
		{"zstd skippable frame, last nibble", []byte{0x5f, 0x2a, 0x4d, 0x18}, Zstd},
		{"not skippable", []byte{0x60, 0x2a, 0x4d, 0x18}, Uncompressed},
	} {
		if got := Sniff(c.head); got != c.want {
			t.Errorf("%s: Sniff(% x) = %v, want %v", c.name, c.head, got, c.want)
		}
	}
}

func TestTrimCompressedExt(t *testing.T) {
	for in, want := range map[string]string{
		"old.jsonl.gz":  "old.jsonl",
		"old.jsonl.zst": "old.jsonl",
		"old.jsonl.GZ":  "old.jsonl",
		"old.jsonl":     "old.jsonl",
		"old.gz.jsonl":  "old.gz.jsonl",
		".gz":           ".gz", // a hidden file's whole name, not an extension
		"x.tgz":         "x.tgz",
		"x.zstd":        "x.zstd",
		"dir.gz/x":      "dir.gz/x",
		"":              "",
	} {
		if got := TrimCompressedExt(in); got != want {
			t.Errorf("TrimCompressedExt(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecompress(t *testing.T) {
	session := bytes.Repeat([]byte(`{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"hello"}}`+"\n"), 2000)
	gz, zs := gzipped(t, session), zstded(t, session)
	twoMembers := append(gzipped(t, session[:1000]), gzipped(t, session[1000:])...)
	twoFrames := append(zstded(t, session[:1000]), zstded(t, session[1000:])...)
	badCRC := bytes.Clone(gz)
	badCRC[len(badCRC)-5] ^= 0xff // the CRC-32, before the size
	badZstd := bytes.Clone(zs)
	badZstd[len(badZstd)/2] ^= 0xff
	big := int64(len(session))
	for _, c := range []struct {
		name    string
		in      []byte
		c       Compression
		limit   int64
		hint    int64
		want    []byte
		corrupt bool // a *CorruptError
		large   bool // a *TooLargeError
	}{
		{name: "gzip", in: gz, c: Gzip, limit: big, want: session},
		{name: "zstd", in: zs, c: Zstd, limit: big, want: session},
		{name: "gzip, hint", in: gz, c: Gzip, limit: big, hint: big, want: session},
		{name: "gzip, hint too small", in: gz, c: Gzip, limit: big, hint: 10, want: session},
		{name: "gzip, hint too large", in: gz, c: Gzip, limit: big, hint: 1 << 40, want: session},
		{name: "gzip, two members", in: twoMembers, c: Gzip, limit: big, want: session},
		{name: "zstd, two frames", in: twoFrames, c: Zstd, limit: big, want: session},
		{name: "zstd, skippable frame first", in: append(skippable([]byte("pzstd")), zs...), c: Zstd, limit: big, want: session},
		{name: "gzip, empty", in: gzipped(t, nil), c: Gzip, limit: big, want: []byte{}},
		{name: "zstd, empty", in: zstded(t, nil), c: Zstd, limit: big, want: []byte{}},
		{name: "gzip, limit one byte short", in: gz, c: Gzip, limit: big - 1, large: true},
		{name: "zstd, limit one byte short", in: zs, c: Zstd, limit: big - 1, large: true},
		{name: "gzip, limit one byte short, hint", in: gz, c: Gzip, limit: big - 1, hint: big, large: true},
		{name: "gzip, limit 0", in: gz, c: Gzip, limit: 0, large: true},
		{name: "gzip, truncated", in: gz[:len(gz)/2], c: Gzip, limit: big, corrupt: true},
		{name: "gzip, trailer cut", in: gz[:len(gz)-3], c: Gzip, limit: big, corrupt: true},
		{name: "gzip, header cut", in: gz[:5], c: Gzip, limit: big, corrupt: true},
		{name: "gzip, magic only", in: gz[:3], c: Gzip, limit: big, corrupt: true},
		{name: "zstd, truncated", in: zs[:len(zs)/2], c: Zstd, limit: big, corrupt: true},
		{name: "zstd, magic only", in: zs[:4], c: Zstd, limit: big, corrupt: true},
		{name: "gzip, bad CRC", in: badCRC, c: Gzip, limit: big, corrupt: true},
		{name: "zstd, damaged", in: badZstd, c: Zstd, limit: big, corrupt: true},
		{name: "gzip, garbage after", in: append(bytes.Clone(gz), "{}\n"...), c: Gzip, limit: big, corrupt: true},
		{name: "zstd, garbage after", in: append(bytes.Clone(zs), "{}\n"...), c: Zstd, limit: big, corrupt: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			// One byte at a time too: the decompressors' reads of the
			// input must not change what they make of it.
			for _, r := range []io.Reader{bytes.NewReader(c.in), iotest.OneByteReader(bytes.NewReader(c.in))} {
				got, err := Decompress(r, c.c, c.limit, c.hint)
				var corrupt *CorruptError
				var large *TooLargeError
				switch {
				case c.corrupt:
					if !errors.As(err, &corrupt) || corrupt.Compression != c.c || !strings.Contains(err.Error(), "corrupt "+c.c.String()+" stream") {
						t.Fatalf("got %v (%T), want a corrupt %v stream", err, err, c.c)
					}
				case c.large:
					if !errors.As(err, &large) || large.Limit != c.limit {
						t.Fatalf("got %v, want more than the limit %d", err, c.limit)
					}
				case err != nil:
					t.Fatal(err)
				case !bytes.Equal(got, c.want):
					t.Fatalf("got %d bytes, want %d", len(got), len(c.want))
				}
				if int64(len(got)) > c.limit {
					t.Fatalf("%d bytes returned, over the limit %d", len(got), c.limit)
				}
			}
		})
	}
}

// A bomb: a gigabyte of zeros in a megabyte (gzip), or in a few
// kilobytes (zstd). Decompress stops at the limit, having held no more
// than it.
func TestDecompressBomb(t *testing.T) {
	zeros := make([]byte, 64<<20)
	for _, c := range []struct {
		c  Compression
		in []byte
	}{{Gzip, gzipped(t, zeros)}, {Zstd, zstded(t, zeros)}} {
		_, err := Decompress(bytes.NewReader(c.in), c.c, 1<<20, SizeHint(bytes.NewReader(c.in), int64(len(c.in)), c.c))
		var large *TooLargeError
		if !errors.As(err, &large) || large.Limit != 1<<20 {
			t.Errorf("%v: got %v, want more than the limit", c.c, err)
		}
	}
}

// An error reading the input is that error, not a corrupt stream: an
// interrupt or an I/O error is told as what it is.
func TestDecompressSourceError(t *testing.T) {
	session := bytes.Repeat([]byte("{}\n"), 100000)
	boom := errors.New("boom")
	for _, c := range []struct {
		c  Compression
		in []byte
	}{{Gzip, gzipped(t, session)}, {Zstd, zstded(t, session)}} {
		for _, n := range []int64{0, 2, 10, int64(len(c.in)) / 2} {
			r := io.MultiReader(io.LimitReader(bytes.NewReader(c.in), n), iotest.ErrReader(boom))
			if _, err := Decompress(r, c.c, 1<<30, 0); !errors.Is(err, boom) {
				t.Errorf("%v, failing after %d bytes: got %v, want the read's error", c.c, n, err)
			}
		}
	}
}

func TestSizeHint(t *testing.T) {
	session := bytes.Repeat([]byte("{}\n"), 1000)
	gz, zs := gzipped(t, session), zstded(t, session)
	lying := bytes.Clone(gz)
	copy(lying[len(lying)-4:], []byte{0xff, 0xff, 0xff, 0x7f})
	for _, c := range []struct {
		name string
		in   []byte
		c    Compression
		want int64
	}{
		{"gzip", gz, Gzip, int64(len(session))},
		{"zstd", zs, Zstd, int64(len(session))},
		{"gzip, implausible", lying, Gzip, 0},
		{"gzip, too short", gz[:10], Gzip, 0},
		{"zstd, too short", zs[:4], Zstd, 0},
		{"zstd, skippable frame first", append(skippable(nil), zs...), Zstd, 0},
		{"uncompressed", session, Uncompressed, 0},
	} {
		if got := SizeHint(bytes.NewReader(c.in), int64(len(c.in)), c.c); got != c.want {
			t.Errorf("%s: SizeHint = %d, want %d", c.name, got, c.want)
		}
	}
}

// A compressed session decompressed loads as the session itself.
func TestDecompressLoads(t *testing.T) {
	plain := []byte(`{"type":"session","version":3,"id":"s1","timestamp":"2025-01-01T00:00:00Z","cwd":"/"}
{"type":"message","id":"a","parentId":null,"timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":"hi"}}
`)
	want, err := Load(plain, "x.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []Compression{Gzip, Zstd} {
		in := gzipped(t, plain)
		if c == Zstd {
			in = zstded(t, plain)
		}
		data, err := Decompress(bytes.NewReader(in), Sniff(in), 1<<20, 0)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Load(data, "x.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if s.SHA256 != want.SHA256 || len(s.Entries) != len(want.Entries) || s.Header.ID != "s1" {
			t.Errorf("%v: loaded %d entries, SHA-256 %x; want %d, %x", c, len(s.Entries), s.SHA256, len(want.Entries), want.SHA256)
		}
	}
}

// FuzzDecompress: whatever the bytes, Decompress neither panics nor
// returns more than its limit, and fails only with the errors it
// documents.
func FuzzDecompress(f *testing.F) {
	session := []byte(`{"type":"session","version":3}` + "\n" + `{"type":"message","id":"a"}` + "\n")
	f.Add(gzipped(f, session))
	f.Add(zstded(f, session))
	f.Add(append(gzipped(f, session), gzipped(f, session)...))
	f.Add(append(skippable([]byte("x")), zstded(f, session)...))
	f.Add(gzipped(f, make([]byte, 10000)))
	f.Add(zstded(f, make([]byte, 10000)))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, c := range []Compression{Gzip, Zstd} {
			const limit = 4096
			hint := SizeHint(bytes.NewReader(in), int64(len(in)), c)
			got, err := Decompress(bytes.NewReader(in), c, limit, hint)
			var corrupt *CorruptError
			var large *TooLargeError
			switch {
			case err == nil && len(got) > limit:
				t.Fatalf("%v: %d bytes, over the limit", c, len(got))
			case err != nil && !errors.As(err, &corrupt) && !errors.As(err, &large):
				t.Fatalf("%v: unexpected error %v (%T)", c, err, err)
			}
		}
	})
}
