package sessiontree

// kimiContextReader reads the context file of a Kimi CLI session, as
// Kimi CLI kept it before its wire log
// (~/.kimi/sessions/<work dir hash>/<session id>.jsonl, and a ReadContext
// subagent's <session id>_read_<n>.jsonl beside it): each line a message
// of OpenAI's shape ({"role": "user"|"assistant"|"tool", "content" a
// string or a list of parts, "tool_calls", "tool_call_id"}), between
// records Kimi keeps for itself ({"role": "_checkpoint", "id"} before a
// step, {"role": "_usage", "token_count"} the context's size after it).
//
// The rules, as this reader applies them:
//   - Each line is an entry (L<n>), the child of the one before; the
//     session is one branch (a checkpoint marks where Kimi may roll the
//     context back to, and the file keeps no rolled-back messages).
//   - Messages are read as Hermes Agent's (hermesState: the same shapes);
//     _checkpoint and _usage lines, and any other role Kimi may add, are
//     bookkeeping.
//   - token_count is the context's size, not a request's usage, and the
//     file names no model: the session has no tokens and no cost.
type kimiContextReader struct{}

func (kimiContextReader) agent() Agent {
	return Agent{Formats: []string{FormatKimi}, StateName: "Kimi record", EstimateCost: true}
}

// detect: the first line is one of Kimi's own records, which no other
// format writes: a role beginning with an underscore.
func (kimiContextReader) detect(p *probe) bool {
	line := firstObjectLine(p)
	var h hermesHead
	if len(line) == 0 || line[0] != '{' || h.parse(line) != nil {
		return false
	}
	switch h.Role {
	case "_checkpoint", "_usage", "_system_prompt":
		return true
	}
	return false
}

func (kimiContextReader) read(s *Session, in *input, p *probe) error {
	s.Format, s.Version = FormatKimi, 1
	st := &hermesState{s: s, c: newChain(s), names: map[string]string{}}
	lines, err := readAgentLines[hermesHead](in, p)
	if err != nil {
		return err
	}
	for i := range lines {
		l := &lines[i]
		if e := l.entryOf(s); e != nil {
			st.message(e, &l.h)
		}
	}
	s.src.body = &listDecoder{groups: st.c.groups, one: hermesDecode}
	return nil
}

func (kimiContextReader) cut(s *Session) Cut { return listCut{s: s, rewrite: hermesRewrite} }
