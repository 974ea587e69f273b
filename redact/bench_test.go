// The benchmark: Redact on the exporter benchmarks' generated session.

package redact

import (
	"bytes"
	"os"
	"sync"
	"testing"

	"canopy/internal/sessiongen"
)

var (
	benchOnce sync.Once
	benchData []byte
)

// benchSession is the ~85 MB branched session of the exporter benchmarks.
func benchSession(tb testing.TB) []byte {
	benchOnce.Do(func() {
		var buf bytes.Buffer
		if err := sessiongen.Generate(&buf, sessiongen.Config{Entries: 100000, Shape: "branched", Seed: 1}); err != nil {
			tb.Fatal(err)
		}
		benchData = buf.Bytes()
	})
	return benchData
}

func BenchmarkRedact(b *testing.B) {
	data := benchSession(b)
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	var rep Report
	for b.Loop() {
		_, rep = r.Redact(data)
	}
	b.ReportMetric(float64(len(rep.Findings)), "findings")
}

// BenchmarkRedactFile: Redact, and Scan (the report alone, as canopy scan
// needs it), on the file named by CANOPY_BENCH_FILE (the redaction
// evaluation's --bench session, real transcripts, ...); skipped without it.
func BenchmarkRedactFile(b *testing.B) {
	path := os.Getenv("CANOPY_BENCH_FILE")
	if path == "" {
		b.Skip("CANOPY_BENCH_FILE not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		run  func() Report
	}{
		{"redact", func() Report { _, rep := r.Redact(data); return rep }},
		{"scan", func() Report { return r.Scan(data) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			var rep Report
			for b.Loop() {
				rep = bc.run()
			}
			b.ReportMetric(float64(len(rep.Findings)), "findings")
		})
	}
}

// BenchmarkNew: the rule table, gitleaks' rules read and translated; every
// command that redacts pays it once.
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		if _, err := New(); err != nil {
			b.Fatal(err)
		}
	}
}
