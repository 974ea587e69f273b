// Command canopy turns AI coding-agent sessions (pi, its forks, Flue) into
// pages people can read, share, link to and keep.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"canopy/export"
	"canopy/sessiontree"
)

// version is the canopy version; release builds may set it with
// -ldflags "-X main.version=…".
var version = "0.2.0"

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
	// exitInterrupted is the shell's status for a process ended by
	// SIGINT (128+2): an interrupted run says so even though canopy
	// stops by itself, after removing what it had begun to write.
	exitInterrupted = 130
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	example string
	run     func(env *env, args []string) int
	// writes: the command makes files, and so catches SIGINT and SIGTERM
	// to remove what it had begun (the others end at once, as any
	// program does).
	writes bool
}

// env is what a command may touch: its streams and its context. Tests run
// commands with buffers in place of the process's streams.
type env struct {
	// ctx is cancelled on SIGINT or SIGTERM: a command then stops,
	// removes the temporary files, staging directories and locks it made,
	// and returns exitInterrupted. Nil means never cancelled.
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer
	// limitMemory: the command may set the process's memory limit (see
	// limitMemory). Only the real process does; tests share theirs.
	limitMemory bool
	// session: the session of a database to read (--session, or the one
	// an id prefix named: sessionFile).
	session string
	// signals: a command that writes files catches SIGINT and SIGTERM
	// (into ctx). Only the real process does.
	signals bool
}

func commands() []command {
	return []command{
		{"export", "render a session as one self-contained HTML page", "canopy export session.jsonl -o session.html", runExport, true},
		{"inspect", "describe a session: tree, leaf, labels, usage, problems", "canopy inspect session.jsonl --json", runInspect, false},
		{"scan", "list the credentials in a session; exit 1 when there are any", "canopy scan session.jsonl", runScan, false},
		{"archive", "make or update a browsable, verifiable archive of session directories", "canopy archive ~/.pi/agent/sessions -o archive/", runArchive, true},
		{"verify", "re-check an archive's pages against its manifest; exit 1 on any mismatch", "canopy verify archive/", runVerify, false},
		{"list", "list the agent sessions on this machine, newest first (FILE may then be an id's start)", "canopy list --project myapp", runList, false},
		{"usage", "tokens and cost of the sessions on this machine (or in DIRs) by day, project, agent or model", "canopy usage --by model --since 2026-01-01", runUsage, false},
	}
}

func main() {
	os.Exit(run(os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, limitMemory: true, signals: true}))
}

func run(args []string, e *env) int {
	if e.ctx == nil {
		e.ctx = context.Background()
	}
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(e.stdout)
		return exitOK
	case "-v", "--version", "version":
		fmt.Fprintf(e.stdout, "canopy %s\n", version)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			if c.writes {
				defer e.catchSignals()()
			}
			return c.run(e, args[1:])
		}
	}
	if strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(e.stderr, "canopy: unknown flag %s\n", args[0])
		usage(e.stderr)
		return exitUsage
	}
	if msg, ok := unknownCommand(args); ok {
		printLine(e.stderr, "%s", msg)
		return exitUsage
	}
	// `canopy FILE` means `canopy export FILE`.
	defer e.catchSignals()()
	return runExport(e, args)
}

// catchSignals makes the first SIGINT or SIGTERM cancel e.ctx, for a
// command that writes files: it then stops, removes what it had begun,
// and returns exitInterrupted. Once cancelled, the default action is
// back, so that a second signal ends the process at once. The returned
// function stops catching.
func (e *env) catchSignals() (stop func()) {
	if !e.signals {
		return func() {}
	}
	ctx, stop := signal.NotifyContext(e.ctx, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	e.ctx = ctx
	return stop
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "canopy %s: readable, shareable pages from AI coding-agent sessions\n\n", version)
	fmt.Fprintf(w, "Usage:\n  canopy COMMAND [flags] FILE\n  canopy FILE            (same as canopy export FILE)\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n           e.g. %s\n", c.name, c.summary, c.example)
	}
	fmt.Fprintf(w, "\nRun 'canopy COMMAND --help' for a command's flags.\n")
	fmt.Fprintf(w, "Exit status: 0 success, 1 failure, 2 usage error.\n")
}

// newFlags makes a subcommand's flag set. Parse errors are reported by the
// caller, so that they exit with the usage status.
func newFlags(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SortFlags = false
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args, handling --help and errors. It returns the exit
// status to stop with, or -1 to go on.
func parseFlags(e *env, fs *pflag.FlagSet, synopsis string, args []string) int {
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprintf(e.stdout, "Usage: %s\n\nFlags:\n%s", synopsis, fs.FlagUsages())
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "canopy %s: %v\nUsage: %s\n", fs.Name(), err, synopsis)
		return exitUsage
	}
	return -1
}

// parseOneFile parses the flags of a command that reads one FILE (or -),
// as parseFlags does, and checks that there is one.
func parseOneFile(e *env, fs *pflag.FlagSet, synopsis string, args []string) int {
	if st := parseFlags(e, fs, synopsis, args); st >= 0 {
		return st
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "canopy %s: want one FILE (or - for standard input)\nUsage: %s\n", fs.Name(), synopsis)
		return exitUsage
	}
	return -1
}

// input is the session a command reads: the file at path, or standard
// input for "-", read up to maxInput bytes when it is not a regular file.
func (e *env) input(path string, maxInput int64) export.Input {
	return export.Input{Path: path, Stdin: e.stdin, MaxInput: maxInput, Session: e.session}
}

// addSession adds --session to a command that reads a session.
func (e *env) addSession(fs *pflag.FlagSet) {
	fs.StringVar(&e.session, "session", "", "the session to read of a database that holds several (`ID`: canopy list FILE shows them)")
}

// loadOne parses the flags of a command that reads one FILE (or -) and
// loads it, at most maxInput bytes of it when it is not a regular file.
// It returns the session (the caller closes it), or the status to exit
// with.
func (e *env) loadOne(fs *pflag.FlagSet, synopsis string, args []string, maxInput *byteSize) (*sessiontree.Session, int) {
	if st := parseOneFile(e, fs, synopsis, args); st >= 0 {
		return nil, st
	}
	in, st := e.sessionFile(fs.Arg(0))
	if st >= 0 {
		return nil, st
	}
	s, err := export.Load(e.ctx, e.input(in, int64(*maxInput)))
	if err != nil {
		printLine(e.stderr, "canopy: %v%s", err, loadHint(in, err))
		return nil, exitFail
	}
	return s, -1
}

// notify writes notices to stderr, a line each, escaped for a terminal.
func (e *env) notify(lines ...string) {
	for _, l := range lines {
		printLine(e.stderr, "%s", l)
	}
}
