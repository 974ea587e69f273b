package sessiontree

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// gooseExport reads a session Goose exported (goose session export: one
// JSON object, the session's row with its "conversation", the messages
// as the database holds them).
type gooseExport struct{}

// agent: Goose's, its directory declared once (by the database's
// reader).
func (gooseExport) agent() Agent {
	a := gooseDB{}.agent()
	a.Dirs, a.StoreFiles = nil, nil
	return a
}

func (gooseExport) cut(s *Session) Cut { return piReader{}.cut(s) }

// detect: a JSON object whose first members name a Goose session: "id",
// "working_dir" and "created_at" before "conversation", read member by
// member (the conversation may be large).
func (gooseExport) detect(p *probe) bool {
	t := bytes.TrimLeft(p.chunk, " \t\r\n")
	if len(t) == 0 || t[0] != '{' || !bytes.Contains(p.chunk, []byte(`"working_dir"`)) {
		return false
	}
	d := jsontext.NewDecoder(bufio.NewReader(p.body()), jsonOpts)
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return false
	}
	seen := map[string]bool{}
	for n := 0; n < 32 && d.PeekKind() == '"'; n++ {
		tok, err := d.ReadToken()
		if err != nil {
			return false
		}
		name := tok.String()
		if name == "conversation" || name == "type" || name == "entries" {
			break
		}
		seen[name] = true
		if d.SkipValue() != nil {
			return false
		}
	}
	return seen["id"] && seen["working_dir"] && seen["created_at"]
}

// gooseSession is what is read of an exported session.
type gooseSession struct {
	ID           lstr `json:"id"`
	Name         lstr `json:"name"`
	Description  lstr `json:"description"`
	WorkingDir   lstr `json:"working_dir"`
	CreatedAt    lstr `json:"created_at"`
	InputTokens  lnum `json:"accumulated_input_tokens"`
	OutputTokens lnum `json:"accumulated_output_tokens"`
	Cost         lnum `json:"accumulated_cost"`
	Provider     lstr `json:"provider_name"`
	ModelConfig  lobj[struct {
		Name lstr `json:"model_name"`
	}] `json:"model_config"`
	Conversation []struct {
		ID       lstr           `json:"id"`
		Role     lstr           `json:"role"`
		Created  lnum           `json:"created"`
		Content  jsontext.Value `json:"content"`
		Metadata jsontext.Value `json:"metadata"`
	} `json:"conversation"`
}

func (gooseExport) read(s *Session, in *input, p *probe) error {
	data, err := in.all(p.first)
	if err != nil {
		return err
	}
	var g gooseSession
	if err := json.Unmarshal(bytes.TrimPrefix(data, bom), &g, jsonOpts); err != nil {
		return fmt.Errorf("a Goose session export that cannot be read: %s: %w", describe(err), ErrNotSession)
	}
	w := &docWriter{format: FormatGoose, session: string(g.ID)}
	w.start(sqliteTime(string(g.CreatedAt)), string(g.WorkingDir), string(cmp.Or(g.Name, g.Description)), "", "")
	last := -1
	for i, m := range g.Conversation {
		id := string(m.ID)
		if id == "" {
			id = "m" + strconv.Itoa(i+1)
		}
		if k := writeGooseMessage(w, id, string(m.Role), m.Content, m.Metadata, secTime(int64(m.Created))); k >= 0 {
			last = k
		}
	}
	w.replyModel(string(g.Provider), string(g.ModelConfig.V.Name))
	w.totals(last, float64(g.Cost), float64(g.InputTokens), float64(g.OutputTokens))
	return loadDocument(s, in, w.bytes())
}

// gooseLines reads a session as Goose kept them before its database
// (~/.local/share/goose/sessions/<name>.jsonl): a first line of the
// session's metadata (working_dir, description, tokens), then a message
// a line, as the database holds them.
type gooseLines struct{}

// agent: Goose's (gooseExport's).
func (gooseLines) agent() Agent         { return gooseExport{}.agent() }
func (gooseLines) cut(s *Session) Cut   { return piReader{}.cut(s) }
func (gooseLines) detect(p *probe) bool { return gooseMetadata(p.line) != nil }

// gooseMeta is what is read of the metadata line.
type gooseMetaLine struct {
	WorkingDir   *lstr `json:"working_dir"`
	Description  lstr  `json:"description"`
	InputTokens  lnum  `json:"accumulated_input_tokens"`
	OutputTokens lnum  `json:"accumulated_output_tokens"`
	Type         *lstr `json:"type"`
	Role         *lstr `json:"role"`
}

// gooseMetadata reads line as a legacy session's metadata line: an
// object with "working_dir" and "description", and neither "type" nor
// "role"; nil for any other line.
func gooseMetadata(line []byte) *gooseMetaLine {
	line = bytes.TrimSpace(line)
	if !bytes.HasPrefix(line, []byte("{")) || !bytes.Contains(line, []byte(`"working_dir"`)) || !bytes.Contains(line, []byte(`"description"`)) {
		return nil
	}
	var m gooseMetaLine
	if json.Unmarshal(line, &m, jsonOpts) != nil || m.WorkingDir == nil || m.Type != nil || m.Role != nil {
		return nil
	}
	return &m
}

func (gooseLines) read(s *Session, in *input, p *probe) error {
	data, err := in.all(p.first)
	if err != nil {
		return err
	}
	meta := gooseMetadata(p.line)
	name := strings.TrimSuffix(filepath.Base(in.src.name), ".jsonl")
	w := &docWriter{format: FormatGoose, session: name}
	w.start(time.Time{}, string(*meta.WorkingDir), string(meta.Description), "", "")
	last := -1
	var bad []Diagnostic // the file's lines, not the document's
	lines := bytes.Split(bytes.TrimPrefix(data, bom), []byte("\n"))
	for i, line := range lines[1:] {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var m struct {
			ID       lstr           `json:"id"`
			Role     lstr           `json:"role"`
			Created  lnum           `json:"created"`
			Content  jsontext.Value `json:"content"`
			Metadata jsontext.Value `json:"metadata"`
		}
		id := "L" + strconv.Itoa(i+2)
		if err := json.Unmarshal(line, &m, jsonOpts); err != nil {
			bad = append(bad, Diagnostic{Line: i + 2, Severity: SevError, Message: "line skipped: " + describe(err)})
			continue
		}
		if m.ID != "" {
			id = string(m.ID)
		}
		if k := writeGooseMessage(w, id, string(m.Role), m.Content, m.Metadata, secTime(int64(m.Created))); k >= 0 {
			last = k
		}
	}
	w.totals(last, 0, float64(meta.InputTokens), float64(meta.OutputTokens))
	if err := loadDocument(s, in, w.bytes()); err != nil {
		return err
	}
	for _, d := range bad {
		s.diag(d.Line, d.Severity, "%s", d.Message)
	}
	return nil
}
