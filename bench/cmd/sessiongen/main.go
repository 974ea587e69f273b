// Command sessiongen writes a synthetic pi session file (JSONL, version 3)
// for tests and benchmarks. The output is a pure function of the flags.
// It is a command of the bench module: from bench/, go run ./cmd/sessiongen
// with the flags below (an output path is relative to bench/).
//
//	sessiongen --entries 100000 --shape branched -o big.jsonl
//	sessiongen --entries 1000000 --shape linear -o deep.jsonl
//	sessiongen --entries 50 --images 3 --image-bytes 2000000 -o - | head
//	sessiongen --entries 100000 --content code --stats -o code.jsonl
//	sessiongen --stats session.jsonl     # where the bytes of any session go
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"canopy/internal/sessiongen"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "sessiongen:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("sessiongen", pflag.ContinueOnError)
	fs.SortFlags = false
	var cfg sessiongen.Config
	var out string
	var stats bool
	fs.StringVarP(&out, "output", "o", "-", "output file (- for stdout)")
	fs.IntVar(&cfg.Entries, "entries", 1000, "number of entries, not counting the header")
	fs.StringVar(&cfg.Shape, "shape", sessiongen.ShapeBranched, "tree shape: branched (realistic session with branches), linear (one parentId chain), wide (one root, every other entry its child)")
	fs.IntVar(&cfg.Images, "images", 0, "number of user messages carrying a base64 PNG image block")
	fs.IntVar(&cfg.ImageBytes, "image-bytes", 100_000, "approximate base64 size of each image, in bytes")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed; the same flags always give the same bytes")
	fs.StringVar(&cfg.Content, "content", "auto", "content: full (realistic, ~850 bytes/entry), small (short messages), code (a coding session heavy with code: source files read by path, long command output and diffs, fenced code in replies; ~2 KB/entry), auto (full for branched, small otherwise)")
	fs.BoolVar(&stats, "stats", false, "print where the bytes go (per entry type, message role and tool) to stderr; with a FILE argument, measure that session file instead of generating one")
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: sessiongen [flags]\n       sessiongen --stats FILE\n\nWrites a synthetic pi session (JSONL, version 3).\n\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return err
	}
	if stats && fs.NArg() == 1 {
		return measureFile(fs.Arg(0), stdout)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}

	w, closeOut := stdout, func() error { return nil }
	if out != "-" {
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		w, closeOut = f, f.Close
	}
	if !stats {
		if err := sessiongen.Generate(w, cfg); err != nil {
			closeOut()
			return err
		}
		return closeOut()
	}
	st, err := generateMeasured(w, cfg)
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return st.Write(stderr)
}

// generateMeasured writes the session to w and measures it on the way, so
// that a session of any size is measured without being held in memory.
func generateMeasured(w io.Writer, cfg sessiongen.Config) (*sessiongen.Stats, error) {
	pr, pw := io.Pipe()
	type result struct {
		st  *sessiongen.Stats
		err error
	}
	done := make(chan result, 1)
	go func() {
		st, err := sessiongen.Measure(pr)
		pr.CloseWithError(err) // a failed measure stops the generator
		done <- result{st, err}
	}()
	err := sessiongen.Generate(io.MultiWriter(w, pw), cfg)
	pw.CloseWithError(err)
	r := <-done
	if err != nil {
		return nil, err
	}
	return r.st, r.err
}

func measureFile(path string, stdout io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := sessiongen.Measure(f)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, path)
	return st.Write(stdout)
}
