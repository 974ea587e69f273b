package htmlpage

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"
)

// TestImageHash pins imageHash to imageHash in assets/page/download.js (values from node).
func TestImageHash(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "1aee8d83488bdcb8"},
		{"a", "82c97901501c2ba7"},
		{"iVBORw0KGgoAAAANSUhEUgAA+/==", "2bb0c675313087ba"},
	}
	for _, tt := range tests {
		h1, h2 := imageHash([]byte(tt.in))
		if got := fmt.Sprintf("%08x%08x", h1, h2); got != tt.want {
			t.Errorf("imageHash(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// restoreImages undoes dedupImages as withImages in assets/page/download.js does.
func restoreImages(t *testing.T, src []byte, images []string) []byte {
	t.Helper()
	byKey := map[string]string{}
	for _, d := range images {
		h1, h2 := imageHash([]byte(d))
		byKey[fmt.Sprintf("%d:%08x%08x", len(d), h1, h2)] = d
	}
	var out []byte
	for {
		s := bytes.IndexByte(src, 0)
		if s < 0 {
			return append(out, src...)
		}
		e := bytes.IndexByte(src[s+1:], 0)
		if e < 0 {
			t.Fatalf("unterminated marker")
		}
		d, ok := byKey[string(src[s+1:s+1+e])]
		if !ok {
			t.Fatalf("marker %q names no picture", src[s+1:s+1+e])
		}
		out = append(append(out, src[:s]...), d...)
		src = src[s+2+e:]
	}
}

func TestDedupImages(t *testing.T) {
	big := strings.Repeat("AbC+/9", 400)    // 2400 characters
	big2 := strings.Repeat("xY0+", 300)     // 1200
	small := strings.Repeat("AAAA", 10)     // under minDedup
	escaped := strings.Repeat("Q/Q", 500)   // written with \/ in the file
	huge := strings.Repeat("AbC+", 400_000) // 1.6 MB: one line over dedupLines' buffer
	line := func(data string) string {
		return `{"type":"message","message":{"content":[{"type":"image","data":"` + data + `","mimeType":"image/png"}]}}` + "\n"
	}
	tests := []struct {
		name    string
		src     string
		shown   []string
		markers int
	}{
		{"one picture", line(big), []string{big}, 1},
		{"the same picture twice", line(big) + line(big), []string{big}, 2},
		{"two pictures", line(big) + line(big2), []string{big, big2}, 2},
		{"a picture the page does not show", line(big) + line(big2), []string{big}, 1},
		{"small pictures stay", line(small), []string{small}, 0},
		{"escaped pictures stay", line(strings.ReplaceAll(escaped, "/", `\/`)), []string{escaped}, 0},
		{"a file with NUL stays", line(big) + "\x00", []string{big}, 0},
		{"no pictures", `{"type":"message"}` + "\n", nil, 0},
		{"a line longer than the reader's buffer", line(huge) + line(big), []string{huge, big}, 2},
		{"no newline at the end", line(big) + strings.TrimSuffix(line(big2), "\n"), []string{big, big2}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := imageSet{}
			for _, d := range tt.shown {
				if len(d) >= minDedup {
					set.add([]byte(d))
				}
			}
			out, marked := dedupImages([]byte(tt.src), set)
			if n := bytes.Count(out, []byte{0}) / 2; n != tt.markers || marked != (tt.markers > 0) {
				t.Fatalf("%d markers (marked %v), want %d", n, marked, tt.markers)
			}
			// The page streams the file a line at a time (compressDeduped):
			// the same bytes.
			if clean, err := noNUL(strings.NewReader(tt.src)); err != nil || clean != !strings.Contains(tt.src, "\x00") {
				t.Errorf("noNUL = %v, %v", clean, err)
			} else if clean {
				var lines bytes.Buffer
				m, err := dedupLines(&lines, iotest.OneByteReader(strings.NewReader(tt.src)), set)
				if err != nil || m != marked || !bytes.Equal(lines.Bytes(), out) {
					t.Errorf("line by line: marked %v, err %v, same bytes %v", m, err, bytes.Equal(lines.Bytes(), out))
				}
			}
			if tt.markers > 0 {
				if got := restoreImages(t, out, tt.shown); string(got) != tt.src {
					t.Errorf("restored file differs:\n%q\nwant\n%q", got, tt.src)
				}
				if len(out) >= len(tt.src) {
					t.Errorf("deduplicated file is %d bytes, the original %d", len(out), len(tt.src))
				}
			}
		})
	}
}
