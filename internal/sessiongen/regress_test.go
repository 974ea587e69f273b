package sessiongen

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestExistingModesUnchanged holds the full, small and auto content modes
// (every shape, images too) to the bytes they produced before the code
// content mode was added. The hashes were computed from the generator as
// it was at commit eed126c, before any of the code mode's changes, and are
// hard-coded here as the regression reference: benchmarks and archives
// compare runs across versions on these files, so adding a mode must not
// move a single byte of the others. A change that means to alter them must
// say so and update the hashes.
func TestExistingModesUnchanged(t *testing.T) {
	tests := []struct {
		cfg  Config
		size int64 // 0: not checked
		hash string
		long bool // skipped with -short
	}{
		{Config{Entries: 20000, Shape: ShapeBranched, Seed: 1}, 17072019,
			"23308c21ab90d9a809d3a24d5cf24e32d7acdd93e1c75e428df439a5cd67a6eb", false},
		{Config{Entries: 5000, Shape: ShapeBranched, Seed: 42, Content: "small"}, 2306518,
			"bc2977dae8b1b751422427069e13103d2b0bfac5baf91fa9c5cf38fb7e60b048", false},
		{Config{Entries: 5000, Shape: ShapeLinear, Seed: 1}, 2242158,
			"103d6aa64d1386d82879612c08e7fa4c214530e7b5ba7b1e7a2912e1813ffe0b", false},
		{Config{Entries: 3000, Shape: ShapeLinear, Seed: 3, Content: "full"}, 2730979,
			"ee8a03c6a5ca8adb8b0d01dab93093ef5817d2bd98ef9c140744f23f358fa801", false},
		{Config{Entries: 3000, Shape: ShapeWide, Seed: 9}, 1329051,
			"540254abb0f03b078dc17828031e656cbb1ae0fd61283eec921f57fd234e8889", false},
		{Config{Entries: 400, Shape: ShapeBranched, Seed: 5, Images: 7, ImageBytes: 3000}, 378388,
			"bac4ff4fa3b713a7ea77f5409d31ac000e20b0a4357b9c027ce8dcd284b907ff", false},
		{Config{Entries: 10, Shape: ShapeLinear, Seed: 5, Images: 10, ImageBytes: 64}, 3851,
			"829d3766e53bf6a6d262ac4c5a3d2788ed7a77fdb4e852d3284208acda4b37e3", false},
		// canopybench's gen-100k and chain-50k, and a smaller images-20x5MB.
		{Config{Entries: 100_000, Shape: ShapeBranched, Seed: 1}, 0,
			"0e80b2dcce39e0e759d30068c0b31f1b741742ae01b152580ad6d9702c601fa7", true},
		{Config{Entries: 50_000, Shape: ShapeLinear, Seed: 1}, 0,
			"08d07b8efd6ffadec8bd729efc6aaaaf2d2404c7aae1516957b5b2127524b853", true},
		{Config{Entries: 40, Shape: ShapeBranched, Images: 3, ImageBytes: 500_000, Seed: 1}, 0,
			"7dd31c285230517b168a4aa078f96a78f385eb6a1c496858344fbdfc05e854b3", true},
	}
	for _, tt := range tests {
		if tt.long && testing.Short() {
			continue
		}
		h := sha256.New()
		cw := &sizeWriter{w: h}
		if err := Generate(cw, tt.cfg); err != nil {
			t.Fatalf("Generate(%+v): %v", tt.cfg, err)
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != tt.hash || (tt.size != 0 && cw.n != tt.size) {
			t.Errorf("Generate(%+v): %d bytes, sha256 %s; want %d bytes, %s", tt.cfg, cw.n, got, tt.size, tt.hash)
		}
	}
}

type sizeWriter struct {
	w interface{ Write([]byte) (int, error) }
	n int64
}

func (s *sizeWriter) Write(p []byte) (int, error) {
	s.n += int64(len(p))
	return s.w.Write(p)
}
