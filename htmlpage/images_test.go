package htmlpage

import (
	"html/template"
	"strings"
	"testing"
)

func TestImageSrc(t *testing.T) {
	tests := []struct {
		name, mime, data string
		want             template.HTML
	}{
		{"png, + written as it is", "image/png", "ab+/cd==", `<img class="image" src="data:image/png;base64,ab+/cd==" alt="image">`},
		{"type lower-cased", "IMAGE/JPEG", "AAAA", `<img class="image" src="data:image/jpeg;base64,AAAA" alt="image">`},
		{"line breaks kept", "image/gif", "AAAA\nAAAA", "<img class=\"image\" src=\"data:image/gif;base64,AAAA\nAAAA\" alt=\"image\">"},
		{"svg refused", "image/svg+xml", "AAAA", ""},
		{"quote refused", "image/png", `AA"A`, ""},
		{"markup refused", "image/png", `AA<b>`, ""},
		{"not base64", "image/png", "AAA", ""},
		{"empty type", "", "AAAA", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := imageSrc(tt.mime, tt.data); got != tt.want {
				t.Errorf("imageSrc(%q, %q) = %q, want %q", tt.mime, tt.data, got, tt.want)
			}
		})
	}
}

func TestCollectImages(t *testing.T) {
	big := strings.Repeat("AbC+", 300)
	html := string(imageSrc("image/png", big)) + "<p>x</p>" + string(imageSrc("image/webp", big+"AAAA")) + string(imageSrc("image/png", "AAAA"))
	set := imageSet{}
	collectImages([]byte(html), set)
	if len(set) != 2 || !set.has([]byte(big)) || !set.has([]byte(big+"AAAA")) {
		t.Errorf("collectImages found %d pictures: %v", len(set), set)
	}
}
