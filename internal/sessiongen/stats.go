package sessiongen

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Stats is where the bytes of a session file go: each line (its newline
// included) is counted under one key, so that the shares add up to the
// file. It is how the code content's proportions are checked against
// those measured on real sessions (tool results about half of the bytes,
// read about 18%, bash about 25%).
type Stats struct {
	Bytes   int64
	Entries int // lines after the header
	// Keys: "header", the entry type ("compaction", "label", ...), or for
	// a message "message/<role>", and for a tool result
	// "message/toolResult/<tool>" as well.
	ByKey   map[string]int64
	CountBy map[string]int
	// Fenced is the number of assistant messages whose text carries a
	// fenced code block, and Replies the number of final assistant
	// messages (stopReason "stop").
	Fenced, Replies int
}

// Share is the part of all bytes counted under key.
func (s *Stats) Share(key string) float64 {
	if s.Bytes == 0 {
		return 0
	}
	return float64(s.ByKey[key]) / float64(s.Bytes)
}

// statLine is the part of a line the stats look at.
type statLine struct {
	Type    string `json:"type"`
	Message *struct {
		Role       string          `json:"role"`
		ToolName   string          `json:"toolName"`
		StopReason string          `json:"stopReason"`
		Content    json.RawMessage `json:"content"`
	} `json:"message"`
}

// Measure reads a session file (any JSONL) and counts its bytes. Lines
// that are not JSON objects are counted under "invalid".
func Measure(r io.Reader) (*Stats, error) {
	s := &Stats{ByKey: map[string]int64{}, CountBy: map[string]int{}}
	br := bufio.NewReaderSize(r, 1<<20)
	first := true
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			s.add(line, first)
			first = false
		}
		if err == io.EOF {
			return s, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (s *Stats) add(line []byte, first bool) {
	n := int64(len(line))
	s.Bytes += n
	var l statLine
	keys := []string{"invalid"}
	if json.Unmarshal(line, &l) == nil {
		keys = s.keys(&l, first)
	}
	if !first {
		s.Entries++
	}
	for _, k := range keys {
		s.ByKey[k] += n
		s.CountBy[k]++
	}
}

func (s *Stats) keys(l *statLine, first bool) []string {
	if first && (l.Type == "session" || l.Type == "title") {
		return []string{"header"}
	}
	m := l.Message
	if l.Type != "message" || m == nil {
		return []string{orUnknown(l.Type)}
	}
	key := "message/" + orUnknown(m.Role)
	switch m.Role {
	case "toolResult":
		return []string{key, key + "/" + orUnknown(m.ToolName)}
	case "assistant":
		if m.StopReason == "stop" {
			s.Replies++
		}
		if hasFence(m.Content) {
			s.Fenced++
		}
	}
	return []string{key}
}

func orUnknown(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// hasFence reports whether a message's text blocks hold a fenced code
// block (a line that starts with three backticks).
func hasFence(content json.RawMessage) bool {
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &blocks) != nil {
		return false
	}
	for _, b := range blocks {
		if b.Type == "text" && (strings.HasPrefix(b.Text, "```") || strings.Contains(b.Text, "\n```")) {
			return true
		}
	}
	return false
}

// Write prints the stats as a table: every key with its bytes, count,
// share of the file and mean size, largest first.
func (s *Stats) Write(w io.Writer) error {
	keys := make([]string, 0, len(s.ByKey))
	for k := range s.ByKey {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if s.ByKey[keys[i]] != s.ByKey[keys[j]] {
			return s.ByKey[keys[i]] > s.ByKey[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%d bytes (%.1f MB), %d entries, %.0f bytes per entry\n", s.Bytes, float64(s.Bytes)/1e6,
		s.Entries, float64(s.Bytes)/float64(max(1, s.Entries)))
	fmt.Fprintf(&b, "%-32s %14s %9s %7s %9s\n", "key", "bytes", "lines", "share", "mean")
	for _, k := range keys {
		fmt.Fprintf(&b, "%-32s %14d %9d %6.1f%% %9.0f\n", k, s.ByKey[k], s.CountBy[k], 100*s.Share(k),
			float64(s.ByKey[k])/float64(max(1, s.CountBy[k])))
	}
	fmt.Fprintf(&b, "final replies: %d; assistant messages with fenced code: %d\n", s.Replies, s.Fenced)
	_, err := io.WriteString(w, b.String())
	return err
}
