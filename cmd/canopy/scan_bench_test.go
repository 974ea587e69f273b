package main

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// BenchmarkScan: `canopy scan --json` on the file named by
// CANOPY_BENCH_FILE (the redaction evaluation's --bench session, real
// transcripts, ...), the load and the redactor included; skipped without
// it. For profiles of the whole command:
// go test ./cmd/canopy -run '^$' -bench Scan -cpuprofile FILE.
func BenchmarkScan(b *testing.B) {
	path := os.Getenv("CANOPY_BENCH_FILE")
	if path == "" {
		b.Skip("CANOPY_BENCH_FILE not set")
	}
	var errs bytes.Buffer
	for b.Loop() {
		// Exit 1 is also findings: a failure is told by its message.
		if st := run([]string{"scan", path, "--json"}, &env{stdout: io.Discard, stderr: &errs}); st > exitFail || errs.Len() > 0 {
			b.Fatalf("scan %s: exit %d: %s", path, st, errs.String())
		}
	}
}
