package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/internal/sessiongen"
)

func TestRunMatchesGenerate(t *testing.T) {
	var got, want bytes.Buffer
	if err := run([]string{"--entries", "25", "--shape", "linear", "--seed", "3", "-o", "-"}, &got, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := sessiongen.Generate(&want, sessiongen.Config{Entries: 25, Shape: sessiongen.ShapeLinear, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	if got.Len() == 0 || !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatal("sessiongen's output differs from Generate's")
	}
}

// --stats measures what it writes without changing it, and measures a
// file given as its argument the same way.
func TestStats(t *testing.T) {
	path := filepath.Join(t.TempDir(), "code.jsonl")
	var stdout, stderr bytes.Buffer
	if err := run([]string{"--entries", "400", "--content", "code", "--seed", "2", "--stats", "-o", path}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := sessiongen.Generate(&want, sessiongen.Config{Entries: 400, Shape: sessiongen.ShapeBranched, Seed: 2, Content: "code"}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatal("with --stats, sessiongen's output differs from Generate's")
	}
	for _, key := range []string{"message/toolResult/read", "message/toolResult/bash", "message/assistant", "400 entries"} {
		if !strings.Contains(stderr.String(), key) {
			t.Errorf("stats lack %q:\n%s", key, stderr.String())
		}
	}

	var measured bytes.Buffer
	if err := run([]string{"--stats", path}, &measured, io.Discard); err != nil {
		t.Fatal(err)
	}
	if table := strings.TrimPrefix(measured.String(), path+"\n"); table != stderr.String() {
		t.Errorf("--stats FILE printed\n%s\nwant\n%s", table, stderr.String())
	}
	if err := run([]string{"--stats", path, "other"}, io.Discard, io.Discard); err == nil {
		t.Error("two file arguments accepted")
	}
}
