package main

import (
	"bytes"
	"testing"

	"canopy/internal/sessiongen"
)

func TestRunMatchesGenerate(t *testing.T) {
	var got, want bytes.Buffer
	if err := run([]string{"--entries", "25", "--shape", "linear", "--seed", "3", "-o", "-"}, &got); err != nil {
		t.Fatal(err)
	}
	if err := sessiongen.Generate(&want, sessiongen.Config{Entries: 25, Shape: sessiongen.ShapeLinear, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	if got.Len() == 0 || !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatal("sessiongen's output differs from Generate's")
	}
}
