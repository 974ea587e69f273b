// Command sessiongen writes a synthetic pi session file (JSONL, version 3)
// for tests and benchmarks. The output is a pure function of the flags.
//
//	sessiongen --entries 100000 --shape branched -o big.jsonl
//	sessiongen --entries 1000000 --shape linear -o deep.jsonl
//	sessiongen --entries 50 --images 3 --image-bytes 2000000 -o - | head
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"canopy/internal/sessiongen"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sessiongen:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := pflag.NewFlagSet("sessiongen", pflag.ContinueOnError)
	fs.SortFlags = false
	var cfg sessiongen.Config
	var out string
	fs.StringVarP(&out, "output", "o", "-", "output file (- for stdout)")
	fs.IntVar(&cfg.Entries, "entries", 1000, "number of entries, not counting the header")
	fs.StringVar(&cfg.Shape, "shape", sessiongen.ShapeBranched, "tree shape: branched (realistic session with branches), linear (one parentId chain), wide (one root, every other entry its child)")
	fs.IntVar(&cfg.Images, "images", 0, "number of user messages carrying a base64 PNG image block")
	fs.IntVar(&cfg.ImageBytes, "image-bytes", 100_000, "approximate base64 size of each image, in bytes")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed; the same flags always give the same bytes")
	fs.StringVar(&cfg.Content, "content", "auto", "content size: full (realistic, ~850 bytes/entry), small (short messages), auto (full for branched, small otherwise)")
	fs.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: sessiongen [flags]\n\nWrites a synthetic pi session (JSONL, version 3).\n\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}

	if out == "-" {
		return sessiongen.Generate(stdout, cfg)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := sessiongen.Generate(f, cfg); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
