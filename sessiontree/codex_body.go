package sessiontree

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Decoding a Codex rollout entry into pi's shapes, for the renderers,
// following what the load decided each line is.

// codexDecoder decodes a rollout's entries. Read-only once loaded.
type codexDecoder struct {
	// calls holds the apply_patch calls by call id: the diff their
	// results show is their patch.
	calls map[string]*Entry
	// groups holds the later items of each reply by its first
	// (codexState.turn): the first decodes to all their blocks.
	groups map[*Entry][]*Entry
}

// codexRecord is what decoding reads of a line, leniently.
type codexRecord struct {
	Payload lobj[codexItem] `json:"payload"`
}

// codexItem is a line's payload: a response item or an event.
type codexItem struct {
	Type      lstr           `json:"type"`
	Content   jsontext.Value `json:"content"`
	Summary   jsontext.Value `json:"summary"` // reasoning
	Name      lstr           `json:"name"`
	Arguments jsontext.Value `json:"arguments"` // function_call: JSON in a string
	Input     jsontext.Value `json:"input"`     // custom_tool_call: text
	Action    jsontext.Value `json:"action"`    // local_shell_call, web_search_call
	Output    jsontext.Value `json:"output"`
	Message   jsontext.Value `json:"message"` // events
	Text      lstr           `json:"text"`    // agent_reasoning
	Reason    lstr           `json:"reason"`  // turn_aborted
	Images    jsontext.Value `json:"images"`  // user_message: data URLs
	Query     lstr           `json:"query"`   // web_search_end
}

func (d *codexDecoder) decode(e *Entry, raw []byte) (*Body, error) {
	switch e.Type {
	case TypeCustom:
		return &Body{Data: bytes.Clone(raw)}, nil
	case TypeMessage:
	default:
		return &Body{}, nil // a compaction, a model change, a name: in the entry
	}
	p, err := codexItemOf(raw)
	if err != nil {
		return nil, err
	}
	m := &Message{Role: e.Role, StopReason: e.StopReason}
	if e.Role == RoleAssistant {
		m.Provider, m.Model = e.Provider, e.Model
		if e.Usage != nil {
			u := *e.Usage
			m.Usage = &u
		}
	}
	if e.Role == RoleCustom {
		m.CustomType, m.Display = e.CustomType, e.Display
	}
	if e.Role == RoleAssistant && !e.Continues && len(d.groups[e]) > 0 {
		return d.turn(e, p, m)
	}
	switch p.Type {
	case "message", "reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call",
		"agent_message", "agent_reasoning", "agent_reasoning_raw_content":
		m.Content = d.itemBlocks(e, p)
	case "function_call_output", "custom_tool_call_output":
		return &Body{Message: m}, d.result(e, p, m)
	case "user_message":
		m.Content = textBlock(jsonText(p.Message))
		var urls []lstr
		json.Unmarshal(p.Images, &urls, jsonOpts) // anything but a list is no pictures
		for _, u := range urls {
			m.Content = append(m.Content, imageBlock(string(u)))
		}
	case "error":
		m.ErrorMessage = jsonText(p.Message)
	case "turn_aborted":
		m.ErrorMessage = string(p.Reason)
	case "web_search_end":
		m.ToolCallID, m.ToolName = e.ToolCallID, e.ToolName
		m.Content = textBlock(searchText(p))
	default: // a notice
		m.Content = textBlock(jsonText(p.Message))
	}
	return &Body{Message: m}, nil
}

// turn decodes a reply written as several items: the first's blocks,
// then each later item's, where Message.Streamed says.
func (d *codexDecoder) turn(e *Entry, p *codexItem, m *Message) (*Body, error) {
	m.Content = d.itemBlocks(e, p)
	for _, o := range d.groups[e] {
		var more Blocks
		err := o.withRaw(func(raw jsontext.Value) error {
			op, err := codexItemOf(raw)
			if err == nil {
				more = d.itemBlocks(o, op)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		m.Streamed = append(m.Streamed, StreamedLine{ID: o.ID, Block: len(m.Content)})
		m.Content = append(m.Content, more...)
	}
	return &Body{Message: m}, nil
}

// itemBlocks are the blocks of one item a reply is written in (and of
// the events that stand for them).
func (d *codexDecoder) itemBlocks(e *Entry, p *codexItem) Blocks {
	switch p.Type {
	case "message":
		return codexContent(p.Content)
	case "reasoning":
		return reasoningBlocks(p)
	case "function_call", "custom_tool_call", "local_shell_call", "web_search_call":
		return Blocks{codexCall(e, p)}
	case "agent_message":
		return textBlock(jsonText(p.Message))
	case "agent_reasoning", "agent_reasoning_raw_content":
		return Blocks{{Type: "thinking", Thinking: string(p.Text)}}
	}
	return nil
}

// searchText is what a rollout keeps of a web search's result: what was
// searched for or opened. The pages themselves went to the model and are
// not in the rollout.
func searchText(p *codexItem) string {
	var a struct {
		Type    lstr `json:"type"`
		Query   lstr `json:"query"`
		URL     lstr `json:"url"`
		Pattern lstr `json:"pattern"`
	}
	json.Unmarshal(p.Action, &a, jsonOpts) // newer versions say it in an action
	switch {
	case a.Type == "open_page" && a.URL != "":
		return "Opened " + string(a.URL) + " (the page is not in the rollout)"
	case a.Type == "find_in_page" && a.Pattern != "":
		return "Searched " + string(a.URL) + " for " + strconv.Quote(string(a.Pattern)) + " (the matches are not in the rollout)"
	}
	q := firstOf(string(p.Query), string(a.Query))
	if q == "" {
		return "Searched the web (the results are not in the rollout)"
	}
	return "Searched the web for " + strconv.Quote(q) + " (the results are not in the rollout)"
}

// environmentCwd is the <cwd> of an environment context message's text.
func environmentCwd(raw jsontext.Value) string {
	for _, b := range codexContent(raw) {
		if cwd, ok := tagged(b.Text, "cwd"); ok {
			return cwd
		}
	}
	return ""
}

// codexItemOf reads a line's payload: its "payload", or, in a rollout of
// before September 2025, the line itself.
func codexItemOf(raw []byte) (*codexItem, error) {
	var r codexRecord
	if err := json.Unmarshal(raw, &r, jsonOpts); err != nil {
		return nil, err
	}
	if r.Payload.Set {
		return &r.Payload.V, nil
	}
	var it codexItem
	err := json.Unmarshal(raw, &it, jsonOpts)
	return &it, err
}

// jsonText is the text of a JSON string, "" for any other value.
func jsonText(raw jsontext.Value) string {
	if len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	var s lstr
	json.Unmarshal(raw, &s, jsonOpts)
	return string(s)
}

// codexContent decodes a message's content items: text, and pictures as
// data URLs.
func codexContent(raw jsontext.Value) Blocks {
	var items []jsontext.Value
	if len(raw) == 0 || raw[0] != '[' || json.Unmarshal(raw, &items, jsonOpts) != nil {
		if t := jsonText(raw); t != "" {
			return textBlock(t)
		}
		return nil
	}
	var out Blocks
	for _, it := range items {
		var c struct {
			Type     lstr `json:"type"`
			Text     lstr `json:"text"`
			ImageURL lstr `json:"image_url"`
		}
		if json.Unmarshal(it, &c, jsonOpts) != nil {
			continue
		}
		switch c.Type {
		case "input_text", "output_text", "text", "summary_text", "reasoning_text":
			out = append(out, Block{Type: "text", Text: string(c.Text)})
		case "input_image":
			out = append(out, imageBlock(string(c.ImageURL)))
		default:
			out = append(out, Block{Type: string(c.Type), Arguments: bytes.Clone(it)})
		}
	}
	return out
}

// imageBlock is a picture given as a URL: a data URL is the picture; any
// other is named, never fetched.
func imageBlock(url string) Block {
	if rest, ok := strings.CutPrefix(url, "data:"); ok {
		if mime, data, ok := strings.Cut(rest, ";base64,"); ok {
			return Block{Type: "image", MimeType: mime, Data: data}
		}
	}
	return Block{Type: "text", Text: "[image: " + url + "]"}
}

// reasoningBlocks is a reasoning item as thinking: its summary, else its
// text; encrypted only, it is redacted thinking.
func reasoningBlocks(p *codexItem) Blocks {
	var parts []string
	for _, raw := range []jsontext.Value{p.Summary, p.Content} {
		for _, b := range codexContent(raw) {
			if b.Type == "text" && b.Text != "" {
				parts = append(parts, b.Text)
			}
		}
		if len(parts) > 0 {
			break
		}
	}
	if len(parts) == 0 {
		return Blocks{{Type: "thinking", Redacted: true}}
	}
	return Blocks{{Type: "thinking", Thinking: strings.Join(parts, "\n\n")}}
}

// codexCall is a tool call as pi's: shell commands as bash with the
// command as one string, apply_patch as an edit of the files it names.
func codexCall(e *Entry, p *codexItem) Block {
	b := Block{Type: "toolCall", Name: codexToolName(string(p.Type), string(p.Name))}
	if len(e.CallIDs) > 0 {
		b.ID = e.CallIDs[0]
	}
	args := map[string]any{}
	switch p.Type {
	case "function_call":
		raw := []byte(jsonText(p.Arguments))
		if len(raw) == 0 {
			raw = p.Arguments
		}
		if json.Unmarshal(raw, &args) != nil {
			args = map[string]any{"arguments": string(raw)}
		}
	case "custom_tool_call":
		args["input"] = jsonText(p.Input)
	case "local_shell_call", "web_search_call":
		json.Unmarshal(p.Action, &args)
		delete(args, "type")
	}
	switch b.Name {
	case "bash":
		args["command"] = shellCommand(args)
		delete(args, "cmd")
		if wd, ok := args["working_directory"]; ok {
			args["workdir"] = wd
			delete(args, "working_directory")
		}
	case "edit":
		patch, _ := args["input"].(string)
		args = map[string]any{"path": strings.Join(patchFiles(patch), ", "), "patch": patch}
	}
	b.Arguments, _ = json.Marshal(args, json.Deterministic(true))
	return b
}

// shellCommand is a shell call's command as one string: the script of
// ["bash", "-lc", script], else its words joined.
func shellCommand(args map[string]any) string {
	switch c := args["command"].(type) {
	case string:
		return c
	case []any:
		var argv []string
		for _, a := range c {
			s, _ := a.(string)
			argv = append(argv, s)
		}
		if len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c") && strings.HasSuffix(argv[0], "sh") {
			return argv[2]
		}
		for i, a := range argv {
			if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`;&|<>()*?[]#~") {
				argv[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
			}
		}
		return strings.Join(argv, " ")
	}
	s, _ := args["cmd"].(string)
	return s
}

// patchFiles lists the files an apply_patch patch adds, updates or
// deletes (patchOps).
func patchFiles(patch string) []string {
	var files []string
	for op, f := range patchOps(patch) {
		if op != "Move to" {
			files = append(files, f)
		}
	}
	return files
}

// patchToDiff writes an apply_patch patch as an edit's diff as pi writes
// one (see patchDiff), without line numbers, which a patch does not have:
// its file and hunk headers are context lines of their own.
func patchToDiff(patch string) string {
	var b strings.Builder
	for _, l := range strings.Split(patch, "\n") {
		switch {
		case l == "" || l == "*** Begin Patch" || l == "*** End Patch":
			continue
		case l[0] == '+' || l[0] == '-' || l[0] == ' ':
			// A space before the text: it is never read as a number.
			b.WriteString(l[:1] + " " + l[1:])
		default:
			b.WriteString(" " + l)
		}
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// result decodes a call's output: text (a shell command's output without
// Codex's JSON around it) or content items; an error when the command
// failed. An apply_patch result shows its patch as a diff.
func (d *codexDecoder) result(e *Entry, p *codexItem, m *Message) error {
	m.ToolCallID, m.ToolName = e.ToolCallID, e.ToolName
	m.Content, m.IsError = codexOutput(p.Output)
	call := d.calls[e.ToolCallID]
	if e.ToolName != "edit" || call == nil {
		return nil
	}
	return call.withRaw(func(raw jsontext.Value) error {
		p, err := codexItemOf(raw)
		if err != nil {
			return err
		}
		c := codexCall(call, p)
		var args struct {
			Patch lstr `json:"patch"`
		}
		json.Unmarshal(c.Arguments, &args, jsonOpts)
		if diff := patchToDiff(string(args.Patch)); diff != "" {
			m.Details, _ = json.Marshal(struct {
				Diff string `json:"diff"`
			}{diff})
		}
		return nil
	})
}

// codexOutput decodes a call's output: a string (perhaps JSON holding the
// output and an exit code), content items, or {content, success}.
func codexOutput(raw jsontext.Value) (Blocks, bool) {
	if len(raw) > 0 && raw[0] == '[' {
		return codexContent(raw), false
	}
	if len(raw) > 0 && raw[0] == '{' {
		var o struct {
			Content lstr           `json:"content"`
			OK      jsontext.Value `json:"success"`
		}
		json.Unmarshal(raw, &o, jsonOpts)
		return textBlock(string(o.Content)), string(o.OK) == "false"
	}
	text := jsonText(raw)
	var o struct {
		Output   jsontext.Value `json:"output"`
		Metadata struct {
			ExitCode jsontext.Value `json:"exit_code"`
		} `json:"metadata"`
	}
	if strings.HasPrefix(text, "{") && json.Unmarshal([]byte(text), &o, jsonOpts) == nil && len(o.Output) > 0 {
		code := string(o.Metadata.ExitCode)
		return textBlock(jsonText(o.Output)), code != "" && code != "0" && code != "null"
	}
	if rest, ok := strings.CutPrefix(text, "Exit code: "); ok {
		n, _, _ := strings.Cut(rest, "\n")
		if c, err := strconv.Atoi(strings.TrimSpace(n)); err == nil && c != 0 {
			return textBlock(text), true
		}
	}
	return textBlock(text), false
}
