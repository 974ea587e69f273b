package htmlpage_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"canopy/internal/sessiongen"
)

// noisePNG is a w×h PNG of noise (it does not compress: its base64 is
// well over the 4 KB from which the page's script lifts a picture out of
// the HTML it parses).
func noisePNG(t *testing.T, w, h int, seed uint32) string {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	x := seed | 1
	for i := 0; i < len(img.Pix); i += 4 {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = byte(x), byte(x>>8), byte(x>>16), 255
	}
	img.Set(0, 0, color.NRGBA{0, 0, 0, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

// TestBrowserClickPicture clicks the rows of entries with pictures: the row
// is selected, the entry shown, and its picture drawn at its own size,
// from the script's blob: URL (the data: URL of the HTML taken out before
// the HTML is parsed, then decoded once) or from the data: URL itself.
func TestBrowserClickPicture(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := sessiongen.Generate(&buf, sessiongen.Config{Entries: 40, Shape: sessiongen.ShapeLinear, Images: 3, ImageBytes: 64, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	// The generator's pictures are not images: real ones, of known sizes.
	sizes := [][2]int{{120, 90}, {64, 200}, {300, 40}}
	k := 0
	src := regexp.MustCompile(`"data":"iVBOR[A-Za-z0-9+/=]*"`).ReplaceAllFunc(buf.Bytes(), func([]byte) []byte {
		sz := sizes[k%len(sizes)]
		k++
		return []byte(`"data":"` + noisePNG(t, sz[0], sz[1], uint32(k)) + `"`)
	})
	if k != len(sizes) {
		t.Fatalf("%d pictures in the generated session, want %d", k, len(sizes))
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "pictures.jsonl")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	s := load(t, file)
	var ids []string
	for _, e := range s.Entries {
		raw, err := e.Raw()
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(raw, []byte(`"type":"image"`)) {
			ids = append(ids, e.ID)
		}
	}
	if len(ids) != len(sizes) {
		t.Fatalf("%d entries with a picture, want %d", len(ids), len(sizes))
	}

	tb := newTab(t)
	tb.Open(writePage(t, s, dir, "pictures"))
	// From the last picture back: each click moves the conversation.
	for i := len(ids) - 1; i >= 0; i-- {
		id := ids[i]
		tb.clickRow(id)
		type pic struct {
			Selected, Shown bool
			Src, Lifted     string
			W, H            int
		}
		p := evalAsync[pic](tb, `(async () => {
  const row = rowOf(`+jsString(id)+`), el = entryOf(`+jsString(id)+`);
  const img = el && el.querySelector("img.image");
  if (img && !img.complete) await new Promise((r) => { img.onload = img.onerror = r; setTimeout(r, 5000); });
  return {
    Selected: !!row && row.getAttribute("aria-selected") === "true",
    Shown: !!el,
    Src: img ? img.getAttribute("src") || "" : "no picture",
    Lifted: img ? img.getAttribute("data-lifted") || "" : "",
    W: img ? img.naturalWidth : 0, H: img ? img.naturalHeight : 0,
  };
})()`)
		if !p.Selected || !p.Shown {
			t.Errorf("after a click on the row of %s: selected %v, in the conversation %v", id, p.Selected, p.Shown)
			continue
		}
		if !regexp.MustCompile(`^(blob:|data:image/png;base64,iVBOR)`).MatchString(p.Src) || p.Lifted != "" {
			t.Errorf("the picture of %s has src %.60q, data-lifted %q", id, p.Src, p.Lifted)
		}
		if want := sizes[i]; p.W != want[0] || p.H != want[1] {
			t.Errorf("the picture of %s is drawn at %dx%d, want %dx%d", id, p.W, p.H, want[0], want[1])
		}
	}
	tb.Clean()
}
