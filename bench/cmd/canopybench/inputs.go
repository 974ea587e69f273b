package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"canopy/internal/sessiongen"
)

// inputSpec is one benchmark input: a file of the shared corpus or a
// synthetic session.
type inputSpec struct {
	name   string
	corpus string                  // file name under <shared>/corpus, or
	gen    *sessiongen.Config      // a generated session, or
	agent  *sessiongen.AgentConfig // a generated Claude Code or Codex session (reference: claude-replay)
}

var allInputs = []inputSpec{
	{name: "large-session", corpus: "large-session.jsonl"},
	{name: "before-compaction", corpus: "before-compaction.jsonl"},
	{name: "gen-10k", gen: &sessiongen.Config{Entries: 10_000, Shape: sessiongen.ShapeBranched, Seed: 1}},
	{name: "gen-100k", gen: &sessiongen.Config{Entries: 100_000, Shape: sessiongen.ShapeBranched, Seed: 1}},
	{name: "chain-5k", gen: &sessiongen.Config{Entries: 5_000, Shape: sessiongen.ShapeLinear, Seed: 1}},
	{name: "chain-50k", gen: &sessiongen.Config{Entries: 50_000, Shape: sessiongen.ShapeLinear, Seed: 1}},
	{name: "images-20x5MB", gen: &sessiongen.Config{Entries: 40, Shape: sessiongen.ShapeBranched, Images: 20, ImageBytes: 5_000_000, Seed: 1}},
	// Sessions heavy with code, the way real coding sessions are: tool
	// results about half of the bytes (source files read by path 18%,
	// long command output and diffs 25%), most replies with fenced code.
	// About 2.1 KB per entry: 4,700 entries make 9.96 MB, 100,000 make
	// 214 MB.
	{name: "code-10MB", gen: &sessiongen.Config{Entries: 4_700, Shape: sessiongen.ShapeBranched, Seed: 1, Content: "code"}},
	{name: "code-100k", gen: &sessiongen.Config{Entries: 100_000, Shape: sessiongen.ShapeBranched, Seed: 1, Content: "code"}},
	// The formats of other agents, measured against claude-replay (the
	// issue's reference for them): about 2 MB each.
	{name: "claude-2MB", agent: &sessiongen.AgentConfig{Format: sessiongen.FormatClaude, Turns: 128}},
	{name: "codex-2MB", agent: &sessiongen.AgentConfig{Format: sessiongen.FormatCodex, Turns: 210}},
}

func inputNames() []string {
	var names []string
	for _, s := range allInputs {
		names = append(names, s.name)
	}
	return names
}

// selectInputs returns the inputs named in list (all when list is empty),
// in the order of allInputs.
func selectInputs(list []string) ([]inputSpec, error) {
	if len(list) == 0 {
		return allInputs, nil
	}
	want := map[string]bool{}
	for _, n := range list {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !slices.Contains(inputNames(), n) {
			return nil, fmt.Errorf("unknown input %q (known: %s)", n, strings.Join(inputNames(), ", "))
		}
		want[n] = true
	}
	var out []inputSpec
	for _, s := range allInputs {
		if want[s.name] {
			out = append(out, s)
		}
	}
	return out, nil
}

// genMeta is written next to a generated input: the configuration it was
// made with and its size, so that a later run reuses it.
type genMeta struct {
	Config sessiongen.Config `json:"config"`
	Size   int64             `json:"size"`
}

// prepare returns the path of the input, generating it if needed.
func (s inputSpec) prepare(o *options, logf func(string, ...any)) (string, error) {
	if s.corpus != "" {
		p := filepath.Join(o.shared, "corpus", s.corpus)
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("corpus file not available: %w", err)
		}
		return p, nil
	}
	path := filepath.Join(o.out, "inputs", s.name+".jsonl")
	metaPath := path + ".meta.json"
	if s.agent != nil {
		return prepareAgent(s.name, path, metaPath, *s.agent, logf)
	}
	if b, err := os.ReadFile(metaPath); err == nil {
		var m genMeta
		if json.Unmarshal(b, &m) == nil && m.Config == *s.gen {
			if st, err := os.Stat(path); err == nil && st.Size() == m.Size {
				return path, nil
			}
		}
	}
	logf("%s: generating %s", s.name, path)
	size, err := writeGenerated(path, *s.gen)
	if err != nil {
		return "", err
	}
	b, _ := json.Marshal(genMeta{Config: *s.gen, Size: size})
	if err := os.WriteFile(metaPath, b, 0o644); err != nil {
		return "", err
	}
	return path, nil
}

// agentMeta is genMeta for a generated Claude Code or Codex session.
type agentMeta struct {
	Gen  sessiongen.AgentConfig `json:"agent"`
	Size int64                  `json:"size"`
}

// prepareAgent is prepare for a generated Claude Code or Codex session.
func prepareAgent(name, path, metaPath string, g sessiongen.AgentConfig, logf func(string, ...any)) (string, error) {
	if b, err := os.ReadFile(metaPath); err == nil {
		var m agentMeta
		if json.Unmarshal(b, &m) == nil && m.Gen == g {
			if st, err := os.Stat(path); err == nil && st.Size() == m.Size {
				return path, nil
			}
		}
	}
	logf("%s: generating %s", name, path)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	size, err := writeAgentGen(path, g)
	if err != nil {
		return "", err
	}
	b, _ := json.Marshal(agentMeta{Gen: g, Size: size})
	return path, os.WriteFile(metaPath, b, 0o644)
}

// writeGenerated writes a synthetic session to path (through a temporary
// file) and returns its size.
func writeGenerated(path string, cfg sessiongen.Config) (int64, error) {
	return writeViaTemp(path, func(w io.Writer) error { return sessiongen.Generate(w, cfg) })
}

// writeAgentGen writes a generated Claude Code or Codex session to path
// (through a temporary file) and returns its size.
func writeAgentGen(path string, cfg sessiongen.AgentConfig) (int64, error) {
	return writeViaTemp(path, func(w io.Writer) error {
		if err := sessiongen.GenerateAgent(w, cfg); err != nil {
			return fmt.Errorf("generating %s: %w", path, err)
		}
		return nil
	})
}

// writeViaTemp writes a generated input to path.tmp with write and renames
// it to path once it is whole, so that an interrupted run never leaves a
// truncated input that a later run would take as made; it returns the size.
func writeViaTemp(path string, write func(io.Writer) error) (int64, error) {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return 0, err
	}
	if err := write(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return 0, err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return 0, err
	}
	st, err := os.Stat(tmp)
	if err != nil {
		return 0, err
	}
	return st.Size(), os.Rename(tmp, path)
}

// countEntries is the number of entries in the file, as canopy inspect
// reports it; failing that, the number of non-empty lines after the first.
func countEntries(canopy, in string) int {
	cmd := exec.Command(canopy, "inspect", "--json", in)
	out, err := cmd.Output()
	if err == nil {
		var v struct {
			EntryCount int `json:"entryCount"`
		}
		if json.Unmarshal(out, &v) == nil && v.EntryCount > 0 {
			return v.EntryCount
		}
	}
	f, err := os.Open(in)
	if err != nil {
		return 0
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	n, content := 0, false
	for {
		chunk, err := r.ReadSlice('\n')
		if len(bytes.TrimSpace(chunk)) > 0 {
			content = true
		}
		if err == bufio.ErrBufferFull {
			continue // a long line: its next chunk
		}
		if content {
			n++
		}
		content = false
		if err != nil {
			break
		}
	}
	return max(0, n-1)
}
