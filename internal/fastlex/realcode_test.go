package fastlex

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/alecthomas/chroma/v2"
)

// realCode is code found on this machine, as sessions show it: files read
// by path (Go, Python, JavaScript, TypeScript, shell) and a diff. Missing
// files are skipped.
func realCode(tb testing.TB) (names, lexerNames, texts []string) {
	goroot := runtime.GOROOT()
	for _, f := range []struct{ name, lexer, path string }{
		{"go-server", "go", filepath.Join(goroot, "src/net/http/server.go")},
		{"go-parser", "go", filepath.Join(goroot, "src/go/parser/parser.go")},
		{"py-argparse", "python", "/usr/lib/python3.11/argparse.py"},
		{"py-json", "python", "/usr/lib/python3.11/json/decoder.py"},
		{"js-tar", "javascript", "/usr/lib/node_modules/npm/node_modules/tar/dist/esm/unpack.js"},
		{"ts-otel", "typescript", "/root/.cache/reference-exporter-0.73.1/node_modules/@mistralai/mistralai/src/extra/observability/otel.ts"},
		{"ts-subagent", "typescript", "/root/.cache/reference-exporter-0.73.1/node_modules/@mariozechner/pi-coding-agent/examples/extensions/subagent/index.ts"},
		{"sh-mkerrors", "bash", "/root/go/pkg/mod/golang.org/x/sys@v0.49.0/unix/mkerrors.sh"},
	} {
		b, err := os.ReadFile(f.path)
		if err != nil {
			continue
		}
		names, lexerNames, texts = append(names, f.name), append(lexerNames, f.lexer), append(texts, string(b))
	}
	if out, err := exec.Command("git", "log", "-p", "-n", "15", "--no-color", "--format=", "6c06c67", "--", "../../render").Output(); err == nil && len(out) > 0 {
		names, lexerNames, texts = append(names, "diff-render"), append(lexerNames, "diff"), append(texts, string(out))
	}
	return
}

// BenchmarkRealCode lexes, with chroma and with the engine, real code of
// the kinds sessions show (realCode).
func BenchmarkRealCode(b *testing.B) {
	names, lexerNames, texts := realCode(b)
	for i, name := range names {
		for _, v := range []string{"chroma", "fastlex"} {
			e := New()
			l := lexer(b, lexerNames[i])
			if v != "chroma" {
				l = e.Lexer(l)
			}
			l = chroma.Coalesce(l)
			collect(l, texts[i]) // tables built
			b.Run(name+"/"+v, func(b *testing.B) {
				b.SetBytes(int64(len(texts[i])))
				for b.Loop() {
					collect(l, texts[i])
				}
			})
		}
	}
}
