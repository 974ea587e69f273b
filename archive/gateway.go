package archive

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"canopy/internal/outpath"
)

// GatewayInfo is what a gateway store says of one transcript.
type GatewayInfo struct {
	Store           string  `json:"store"` // the sessions.json, by its Source.Path
	Key             string  `json:"key"`   // agent:<id>:main, cron:<job>, …
	SessionID       string  `json:"sessionId"`
	Topic           string  `json:"topic,omitempty"` // the thread id of a topic transcript
	DisplayName     string  `json:"displayName,omitempty"`
	ChatType        string  `json:"chatType,omitempty"`
	Provider        string  `json:"provider,omitempty"`
	Subject         string  `json:"subject,omitempty"`
	UpdatedAt       string  `json:"updatedAt,omitempty"`
	InputTokens     float64 `json:"inputTokens,omitempty"`
	OutputTokens    float64 `json:"outputTokens,omitempty"`
	TotalTokens     float64 `json:"totalTokens,omitempty"`
	ContextTokens   float64 `json:"contextTokens,omitempty"`
	CompactionCount float64 `json:"compactionCount,omitempty"`
}

// storeEntry is one session of a gateway's sessions.json. Numbers and
// strings are read leniently: a store written by another version may
// differ in types, and a label is not worth refusing the transcript for.
type storeEntry struct {
	SessionID       jsontext.Value `json:"sessionId"`
	SessionIDSnake  jsontext.Value `json:"session_id"` // Hermes Agent's store
	UpdatedAt       jsontext.Value `json:"updatedAt"`
	SessionFile     jsontext.Value `json:"sessionFile"`
	ChatType        jsontext.Value `json:"chatType"`
	DisplayName     jsontext.Value `json:"displayName"`
	Provider        jsontext.Value `json:"provider"`
	Subject         jsontext.Value `json:"subject"`
	InputTokens     jsontext.Value `json:"inputTokens"`
	OutputTokens    jsontext.Value `json:"outputTokens"`
	TotalTokens     jsontext.Value `json:"totalTokens"`
	ContextTokens   jsontext.Value `json:"contextTokens"`
	CompactionCount jsontext.Value `json:"compactionCount"`
}

// decode reads v as a T, if it is one.
func decode[T any](v jsontext.Value) (T, bool) {
	var x T
	return x, json.Unmarshal(v, &x) == nil
}

// str reads a label: a string, or a number written out.
func str(v jsontext.Value) string {
	if s, ok := decode[string](v); ok {
		return s
	}
	if f, ok := decode[float64](v); ok {
		return fmt.Sprint(f)
	}
	return ""
}

// num reads a counter: a number, else 0.
func num(v jsontext.Value) float64 {
	f, _ := decode[float64](v)
	return f
}

// maxStoreSize bounds what is read of a sessions.json: it holds labels,
// not transcripts.
const maxStoreSize = 64 << 20

// readStore parses a gateway's sessions.json: session key to entry.
func readStore(p string) (map[string]storeEntry, error) {
	f, err := outpath.OpenRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxStoreSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxStoreSize {
		return nil, fmt.Errorf("larger than %d MB: not a session store", maxStoreSize>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var raw map[string]jsontext.Value
	if err := json.Unmarshal(data, &raw, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)); err != nil {
		return nil, fmt.Errorf("not a session store: %w", err)
	}
	out := make(map[string]storeEntry, len(raw))
	for k, v := range raw {
		var e storeEntry
		if json.Unmarshal(v, &e, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) != nil {
			continue // not an object: not a session
		}
		if len(e.SessionID) == 0 {
			e.SessionID = e.SessionIDSnake
		}
		out[k] = e
	}
	return out, nil
}

// labelGatewayTranscripts gives every transcript a gateway store lists
// that store's labels, its topic transcripts the same key with their
// thread id, and its rotated transcripts (reset, deleted, backups) the
// key that names their session id, if one still does. A key whose
// transcript is not among the sources is ignored.
func labelGatewayTranscripts(found []Source) []Problem {
	var problems []Problem
	byPath := make(map[string]int, len(found))
	for i, s := range found {
		byPath[s.Path] = i
	}
	for _, st := range found {
		if st.Format != FormatGateway {
			continue
		}
		dir := filepath.Dir(st.Path)
		for i := range found {
			if filepath.Dir(found[i].Path) == dir {
				found[i].InStore = true
			}
		}
		store, err := readStore(st.Path)
		if err != nil {
			problems = append(problems, Problem{st.Path, err.Error()})
			continue
		}
		keys := make([]string, 0, len(store))
		for k := range store {
			keys = append(keys, k)
		}
		sort.Strings(keys)                 // two keys naming one transcript: the first in order labels it
		byFile := map[string]GatewayInfo{} // a key's labels by its transcript's base name
		for _, key := range keys {
			e := store[key]
			transcript := transcriptPath(dir, e)
			if transcript == "" {
				continue
			}
			info := storeInfo(st.Path, key, e)
			if _, ok := byFile[filepath.Base(transcript)]; !ok {
				byFile[filepath.Base(transcript)] = info
			}
			if i, ok := byPath[transcript]; ok && found[i].Gateway == nil {
				g := info
				found[i].Gateway = &g
			}
			labelTopics(found, dir, transcript, info)
		}
		labelRotated(found, dir, st.Path, byFile)
	}
	return problems
}

// storeInfo is what a store's entry says of its session.
func storeInfo(store, key string, e storeEntry) GatewayInfo {
	return GatewayInfo{
		Store: store, Key: key, SessionID: str(e.SessionID),
		DisplayName: str(e.DisplayName), ChatType: str(e.ChatType), Provider: str(e.Provider),
		Subject: str(e.Subject), UpdatedAt: updatedAt(e.UpdatedAt),
		InputTokens: num(e.InputTokens), OutputTokens: num(e.OutputTokens), TotalTokens: num(e.TotalTokens),
		ContextTokens: num(e.ContextTokens), CompactionCount: num(e.CompactionCount),
	}
}

// labelRotated gives each rotated transcript in the store's directory
// dir the key whose entry still names its session (a backup of the live
// transcript, a store that kept the entry); a transcript no entry names
// any more (a reset gives the entry a new session id) is labeled with
// its store and session id alone. The store's counters are the live
// session's: a rotated transcript does not get them.
func labelRotated(found []Source, dir, store string, byFile map[string]GatewayInfo) {
	for i := range found {
		s := &found[i]
		if s.Rotation == nil || s.Gateway != nil || filepath.Dir(s.Path) != dir {
			continue
		}
		live, _, _ := rotatedName(filepath.Base(s.Path))
		g := GatewayInfo{Store: store, SessionID: strings.TrimSuffix(live, ".jsonl")}
		if info, ok := byFile[live]; ok {
			g.Key, g.DisplayName, g.ChatType, g.Provider, g.Subject = info.Key, info.DisplayName, info.ChatType, info.Provider, info.Subject
		}
		s.Gateway = &g
	}
}

// transcriptPath is where the transcript of a store's entry is, in the
// store's directory dir; "" when the entry names none. A sessionFile
// written on any system resolves: an absolute one (/home/…, C:\Users\…)
// is looked for beside the store by its base name; a relative one with
// backslashes is read as a Windows path.
func transcriptPath(dir string, e storeEntry) string {
	id, file := str(e.SessionID), str(e.SessionFile)
	switch {
	case file != "" && foreignAbs(file):
		return filepath.Join(dir, foreignBase(file))
	case file != "":
		return filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(file, `\`, "/")))
	case id != "" && !strings.ContainsAny(id, `/\`):
		return filepath.Join(dir, id+".jsonl")
	}
	return ""
}

// labelTopics gives the topic threads of a transcript, in the store's
// directory dir (<transcript base>-topic-<thread>.jsonl), its labels and
// their thread.
func labelTopics(found []Source, dir, transcript string, info GatewayInfo) {
	prefix := strings.TrimSuffix(filepath.Base(transcript), ".jsonl") + "-topic-"
	for i := range found {
		s := &found[i]
		if s.Gateway != nil || s.Format != FormatJSONL || s.Rotation != nil || filepath.Dir(s.Path) != dir {
			continue
		}
		if thread, ok := strings.CutPrefix(filepath.Base(s.Path), prefix); ok {
			g := info
			g.Topic = strings.TrimSuffix(thread, ".jsonl")
			s.Gateway = &g
		}
	}
}

// updatedAt reads a store's updatedAt: ms since the epoch, or a string.
func updatedAt(v jsontext.Value) string {
	if ms, ok := decode[float64](v); ok && ms > 0 {
		return msTime(ms)
	}
	return str(v)
}
