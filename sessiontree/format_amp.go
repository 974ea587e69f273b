package sessiontree

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// ampReader reads an Amp thread (~/.local/share/amp/threads/T-*.json):
// one JSON document, {"v", "id": "T-…", "created", "title", "messages",
// "env", "meta"}, whose messages are Anthropic's shape (role, content
// blocks: text, thinking, tool_use, tool_result) with Amp's own fields:
// a tool_result names its call as toolUseID and holds its outcome in run
// ({status, result, error}); an assistant message's usage names its model
// and its tokens; its state says how it ended.
//
// The rules, as this reader applies them:
//   - Each message is an entry, m<n> (n its index), the child of the one
//     before: a thread has no branches (Amp forks a thread into a new file).
//   - A user message of tool results is their toolResult message; one of
//     text is the prompt.
//   - Usage: inputTokens, outputTokens, cacheReadInputTokens and
//     cacheCreationInputTokens; for a gpt- model Amp files the uncached
//     prompt as cache creation, which is input, not a cache write. Amp
//     records no cost: it is estimated from package pricing.
//   - The title names the session; created is its time; the first tree
//     of env.initial (a file: URI) its directory.
type ampReader struct{}

func (ampReader) agent() Agent {
	return Agent{Formats: []string{FormatAmp}, Dirs: []string{".local/share/amp/threads"}, EstimateCost: true, Document: true}
}

// detect: a JSON object whose id is a thread's ("T-…") beside Amp's v,
// created or messages, read from its first members.
func (ampReader) detect(p *probe) bool {
	thread, amp := false, false
	topMembers(p, func(name string, d *jsontext.Decoder) (bool, error) {
		switch name {
		case "id":
			var id lstr
			err := json.UnmarshalDecode(d, &id, jsonOpts)
			thread = strings.HasPrefix(string(id), "T-")
			return !thread, err
		case "v", "created":
			amp = true
		case "messages":
			amp = true
			return true, nil
		}
		return thread && amp, nil
	})
	return thread && amp
}

// ampMessage is what load reads of a message.
type ampMessage struct {
	Role    lstr           `json:"role"`
	Content jsontext.Value `json:"content"`
	Usage   lobj[struct {
		Model         lstr `json:"model"`
		Input         lnum `json:"inputTokens"`
		Output        lnum `json:"outputTokens"`
		CacheCreation lnum `json:"cacheCreationInputTokens"`
		CacheRead     lnum `json:"cacheReadInputTokens"`
		Timestamp     lstr `json:"timestamp"`
	}] `json:"usage"`
	State lobj[struct {
		Type       lstr `json:"type"`
		StopReason lstr `json:"stopReason"`
	}] `json:"state"`
	Meta lobj[struct {
		SentAt lnum `json:"sentAt"`
	}] `json:"meta"`
}

func (ampReader) read(s *Session, in *input, p *probe) error {
	r, err := newDocReader(s, in, p, "Amp thread")
	if err != nil {
		return err
	}
	s.Format, s.Version = FormatAmp, 1
	c := newChain(s)
	names := map[string]string{}
	n := 0
	err = r.object(func(name string) error {
		var err error
		switch name {
		case "id":
			s.Header.ID, err = r.str()
		case "title":
			s.Header.Title, err = r.str()
		case "v":
			var v float64
			v, err = r.num()
			s.Version, s.FormatVersion = int(v), strconv.Itoa(int(v))
		case "created":
			var ms float64
			ms, err = r.num()
			var e Entry
			e.setTime("", ms)
			s.Header.Timestamp = e.Timestamp
		case "env":
			var env struct {
				Initial struct {
					Trees []struct {
						URI lstr `json:"uri"`
					} `json:"trees"`
				} `json:"initial"`
			}
			if err = json.UnmarshalDecode(r.d, &env, jsonOpts); err != nil {
				var se *json.SemanticError
				if !errors.As(err, &se) {
					return err
				}
				err = nil // an env of another shape names no directory
			}
			if t := env.Initial.Trees; len(t) > 0 {
				s.Header.Cwd = filePath(string(t[0].URI))
			}
		case "messages":
			err = r.records(func(raw []byte, off int64, line int) {
				ampEntry(s, c, names, raw, off, line, n)
				n++
			})
		default:
			err = r.d.SkipValue()
		}
		return err
	})
	if err != nil {
		return err
	}
	s.src.body = &listDecoder{groups: c.groups, one: ampDecode}
	return nil
}

// ampEntry keeps the entry of one message, the n-th.
func ampEntry(s *Session, c *chain, names map[string]string, raw []byte, off int64, line, n int) {
	e := s.newEntry(line, off, raw, "m"+strconv.Itoa(n))
	var m ampMessage
	if err := json.Unmarshal(raw, &m, jsonOpts); err != nil {
		s.diag(line, SevError, "message skipped: %s", describe(err))
		return
	}
	anthMessageEntry(e, string(m.Role), m.Content, names)
	e.setTime(string(m.Usage.V.Timestamp), float64(m.Meta.V.SentAt))
	if e.Role == RoleAssistant {
		u := &m.Usage.V
		e.Provider, e.Model = splitModel(string(u.Model))
		if m.Usage.Set {
			in, write := float64(u.Input), float64(u.CacheCreation)
			if e.Provider == "openai" {
				in, write = in+write, 0
			}
			e.Usage = &Usage{Input: in, Output: float64(u.Output), CacheRead: float64(u.CacheRead), CacheWrite: write}
			e.Usage.TotalTokens = e.Usage.Input + e.Usage.Output + e.Usage.CacheRead + e.Usage.CacheWrite
		}
		switch st := &m.State.V; {
		case st.Type == "cancelled":
			e.StopReason = "aborted"
		case st.Type == "error":
			e.StopReason = "error"
		default:
			e.StopReason = anthStop(string(st.StopReason))
		}
	}
	c.add(e)
	c.turn(e, true)
}

// anthStop is an Anthropic stop reason as pi's.
func anthStop(r string) string {
	switch r {
	case "end_turn", "stop_sequence":
		return "stop"
	case "tool_use":
		return "toolUse"
	case "max_tokens":
		return "length"
	}
	return r
}

func ampDecode(e *Entry, raw []byte) (*Body, error) {
	var m struct {
		Content jsontext.Value `json:"content"`
	}
	if err := json.Unmarshal(raw, &m, jsonOpts); err != nil {
		return nil, err
	}
	msg, err := anthMessage(e, m.Content, nil)
	if err != nil {
		return nil, err
	}
	return &Body{Message: msg}, nil
}

func (ampReader) cut(s *Session) Cut {
	return listCut{s: s, rewrite: anthRewrite(""), write: func(lines []cutLine) ([]byte, error) {
		return writeDocument(s, "messages", lines)
	}}
}

// filePath is the path a file: URI names, its escapes decoded
// ("file:///home/u/my%20app" is /home/u/my app); a value that is not such
// a URI is kept as it is.
func filePath(uri string) string {
	p, ok := strings.CutPrefix(uri, "file://")
	if !ok {
		return uri
	}
	if d, err := url.PathUnescape(p); err == nil {
		return d
	}
	return p
}
