package redact

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestWorkersSameHits: the scan on several workers (what canopy scan and
// export --redact run on a large input) finds the hits one worker finds,
// the same ones in the same order, on every session in testdata: as it
// is (one batch), repeated to span several batches, and so repeated with a
// broken line in the middle (its segment is retracted and scanned again
// as plain text, across batches).
func TestWorkersSameHits(t *testing.T) {
	r := newRedactor(t)
	var paths []string
	err := filepath.WalkDir(filepath.Join("..", "testdata"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil || len(paths) < 30 {
		t.Fatalf("testdata: %d inputs, %v", len(paths), err)
	}
	found := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) == 0 || len(data) > 4<<20 {
			continue
		}
		big := bytes.Repeat(data, 1+(3*parallelMin)/len(data))
		mid := bytes.IndexByte(big[len(big)/2:], '\n') + len(big)/2 + 1
		broken := slices.Concat(big[:mid], []byte(`{"type":"message","content":"ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c`+"\n"), big[mid:])
		for _, in := range []struct {
			name string
			data []byte
		}{{"as is", data}, {"repeated", big}, {"repeated, broken", broken}} {
			want := r.collectWith(in.data, 1, nil)
			found += len(want)
			for _, workers := range []int{2, 8} {
				if got := r.collectWith(in.data, workers, nil); !slices.Equal(got, want) {
					t.Errorf("%s, %s, %d workers: %d hits differ from one worker's %d", p, in.name, workers, len(got), len(want))
				}
			}
		}
	}
	if found < 1000 {
		t.Errorf("only %d hits: the comparison needs findings", found)
	}
}

// TestFindApply: Find's report is Scan's, Apply gives what Redact gives,
// and first is called once when there is something to replace, whether
// the input is scanned on one goroutine or on several.
func TestFindApply(t *testing.T) {
	r := newRedactor(t)
	secret := `{"type":"message","content":"ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c"}` + "\n"
	plain := `{"type":"message","content":"nothing to see here, nothing at all"}` + "\n"
	for _, in := range []struct {
		name string
		data []byte
		some bool
	}{
		{"small, none", []byte(plain), false},
		{"small, one", []byte(plain + secret), true},
		{"large, none", bytes.Repeat([]byte(plain), 3*parallelMin/len(plain)), false},
		{"large, late", slices.Concat(bytes.Repeat([]byte(plain), 3*parallelMin/len(plain)), []byte(secret)), true},
	} {
		calls := 0
		f := r.Find(in.data, func() { calls++ })
		out, rep := f.Apply(in.data)
		wantOut, wantRep := r.Redact(in.data)
		if !bytes.Equal(out, wantOut) || len(rep.Findings) != len(wantRep.Findings) || len(f.Report.Findings) != len(wantRep.Findings) {
			t.Errorf("%s: Find and Apply: %d bytes, %d findings (report %d); Redact: %d bytes, %d findings",
				in.name, len(out), len(rep.Findings), len(f.Report.Findings), len(wantOut), len(wantRep.Findings))
		}
		if got := r.Scan(in.data); len(got.Findings) != len(f.Report.Findings) {
			t.Errorf("%s: Find found %d, Scan %d", in.name, len(f.Report.Findings), len(got.Findings))
		}
		if (calls == 1) != in.some || calls > 1 {
			t.Errorf("%s: first called %d times", in.name, calls)
		}
	}
}

// TestApplyHalves: apply's copy of a large input in two halves gives the
// bytes one pass gives: with secrets before the middle only, after it
// only, across it, at its edges, and none in the half after.
func TestApplyHalves(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 3*parallelMin/16)
	mid := len(data) / 2
	sec := func(start, n int) hit {
		return hit{start: start, end: start + n, value: string(data[start : start+n]), kind: "k"}
	}
	for _, c := range []struct {
		name string
		hits []hit
	}{
		{"one, before", []hit{sec(10, 20)}},
		{"one, after", []hit{sec(mid+10, 20)}},
		{"across the middle", []hit{sec(5, 3), sec(mid-10, 20), sec(len(data)-30, 30)}},
		{"ending at the middle", []hit{sec(mid-16, 16), sec(mid, 16)}},
		{"starting at the middle", []hit{sec(mid, 48)}},
		{"at both ends", []hit{sec(0, 16), sec(len(data)-16, 16)}},
		{"many", func() (hs []hit) {
			for i := 0; i+40 < len(data); i += 4099 {
				hs = append(hs, sec(i, 40))
			}
			return hs
		}()},
	} {
		got, _ := apply(data, c.hits, nil)
		_, markers := number(c.hits, nil)
		want := replace(nil, data, 0, len(data), c.hits, markers)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes differ from one pass's %d", c.name, len(got), len(want))
		}
	}
}
