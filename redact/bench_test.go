// The benchmark: Redact on the exporter benchmarks' generated session.

package redact

import (
	"bytes"
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
