package htmlpage

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	cv "canopy/conversation"
	"canopy/internal/text"
	"canopy/sessiontree"
)

// view builds the view of one entry. It reads only the entry, its body and
// the read-only session context, so entries can be built in parallel.
func (r *Renderer) view(ec *entryContext, e *sessiontree.Entry, b *sessiontree.Body, bodyErr error) *entryView {
	v := &entryView{ID: domID(e.ID), Time: formatTime(e), Label: ec.s.Labels[e.ID]}
	if bodyErr != nil || b == nil {
		v.Kind, v.Heading = "unknown", text.Or(e.Type, "entry")
		v.Notes = append(v.Notes, note{"warning", "this entry could not be read in full; its JSON is shown"})
		v.Parts = r.appendJSON(v.Parts, rawJSON(e), "JSON", true)
	} else {
		r.kindView(ec, v, e, b)
	}
	r.orphanResults(ec, v, e)
	if ec.convs != nil {
		r.orphanSubagents(ec, v, e)
	}
	if e.ParentGuessed {
		v.Notes = append(v.Notes, note{"info", sessiontree.ParentGuessedNote})
	}
	r.recordsOf(ec, v, e)
	return v
}

// kindView draws an entry by what it is (conversation.Classify).
func (r *Renderer) kindView(ec *entryContext, v *entryView, e *sessiontree.Entry, b *sessiontree.Body) {
	switch k := cv.Classify(e, b, nil); k {
	case cv.Continuation:
		// Its content is drawn whole at the reply's first line; the
		// entry stays, so that links to it land on the turn.
		v.Kind, v.Heading = "assistant", "Assistant"
		v.Notes = append(v.Notes, note{"info", "Continues the reply above, which shows it whole (written over several lines)"})
	case cv.Prompt, cv.Reply, cv.ToolResult, cv.Command, cv.UnknownRole, cv.NoMessage:
		r.messageView(ec, v, e, b.Message, k)
	case cv.CustomMessage:
		if e.Type == sessiontree.TypeMessage {
			r.messageView(ec, v, e, b.Message, k)
			return
		}
		v.Kind, v.Heading = "custom", text.Or(e.CustomType, "custom message")
		if !e.Display {
			v.Notes = append(v.Notes, note{"info", "hidden from the user; the model saw it"})
		}
		r.pieceParts(ec, v, ec.model.BlockPieces(e, b.Content))
	case cv.Compaction:
		r.compactionView(ec, v, e)
	case cv.BranchSummary:
		v.Kind, v.Heading = "branch-summary", "Branch summary"
		v.Notes = append(v.Notes, note{"info", "The conversation came back here from another branch; the model saw this summary of it."})
		v.Parts = append(v.Parts, part{Markdown: r.markdown(e.Summary)})
	case cv.ModelChange:
		v.Kind, v.Heading = "change", "Switched to model "+modelName(e.Provider, e.Model)
		if e.ModelRole != "" {
			v.Meta = e.ModelRole
		}
	case cv.ThinkingLevelChange:
		v.Kind, v.Heading = "change", "Thinking level: "+e.ThinkingLevel
	case cv.LabelChange:
		v.Kind = "change"
		if e.Label == "" {
			v.Heading = "Label cleared on " + e.TargetID
		} else {
			v.Heading = "Label “" + e.Label + "” set on " + e.TargetID
		}
	case cv.SessionInfo:
		v.Kind, v.Heading = "change", "Session named “"+e.Name+"”"
	case cv.State:
		v.Kind, v.Heading = "change", sessiontree.StateName(ec.s.Format)+": "+text.Or(e.CustomType, "custom")
		if len(b.Data) > 0 {
			v.Parts = r.appendJSON(v.Parts, b.Data, "data", false)
		}
	default:
		v.Kind, v.Heading = "unknown", text.Or(e.Type, "entry")
		v.Parts = r.appendJSON(v.Parts, rawJSON(e), "entry", false)
	}
}

// recordsOf folds into v the bookkeeping entries that hang off e
// (markRecords), each drawn as it would be on its own, and writes their
// tree rows: this worker is the one that draws them.
func (r *Renderer) recordsOf(ec *entryContext, v *entryView, e *sessiontree.Entry) {
	recs := ec.records[e.Index]
	if len(recs) == 0 {
		return
	}
	rv := &recordsView{Summary: recordsSummary(ec.s, recs)}
	for _, i := range recs {
		x := ec.s.Entries[i]
		b, err := x.Decode()
		ec.gatherRow(i, b)
		rv.Entries = append(rv.Entries, r.view(ec, x, b, err))
	}
	v.Records = rv
}

// recordsSummary says what a fold of records holds: "5 records · 3 ×
// progress, 2 × attachment: file", "1 record · hook: PostToolUse".
func recordsSummary(s *sessiontree.Session, recs []int) string {
	var kinds []string
	count := map[string]int{}
	for _, i := range recs {
		e := s.Entries[i]
		k := text.Or(e.CustomType, text.Or(e.Type, "record"))
		if count[k] == 0 {
			kinds = append(kinds, k)
		}
		count[k]++
	}
	parts := make([]string, len(kinds))
	for j, k := range kinds {
		parts[j] = k
		if count[k] > 1 {
			parts[j] = strconv.Itoa(count[k]) + " × " + k
		}
	}
	return text.Count(len(recs), "record", "records") + " · " + strings.Join(parts, ", ")
}

// compactionView draws a compaction: its summary, and what the model
// stopped seeing.
func (r *Renderer) compactionView(ec *entryContext, v *entryView, e *sessiontree.Entry) {
	v.Kind, v.Heading = "compaction", "Compaction"
	v.Meta = fmt.Sprintf("%s tokens before", text.Thousands(e.TokensBefore))
	// The model stopped seeing the entries before the first kept one
	// (all of the path before the compaction when that entry is not on
	// it): count them with the depths computed once, walking only from
	// the compaction up to the kept entry, not to the root.
	var base int32 // the depth of the conversation's root
	if g := ec.s.GraftOf(e); g != nil {
		// A subagent's compaction: what its model no longer saw is of
		// its own conversation, which starts at its root.
		base = ec.depth[g.Root.Index]
	}
	before := ec.depth[e.Index] - base
	var kept *sessiontree.Entry
	if k := ec.s.Entry(e.FirstKeptID); k != nil && ec.depth[k.Index] >= base && ec.depth[k.Index] < ec.depth[e.Index] {
		p := e.Parent
		for p != nil && ec.depth[p.Index] > ec.depth[k.Index] {
			p = p.Parent
		}
		if p == k {
			kept = k
		}
	}
	if kept == nil {
		v.Notes = append(v.Notes, note{"info", fmt.Sprintf("From here on the model no longer saw the %d entries before this point, only this summary.", before)})
	} else {
		dropped := ec.depth[kept.Index] - base
		v.Notes = append(v.Notes, note{"info", fmt.Sprintf("From here on the model no longer saw the %d entries before %s; it saw this summary, then the entries from %s on.", dropped, kept.ID, kept.ID)})
	}
	v.Parts = append(v.Parts, part{Markdown: r.markdown(e.Summary)})
}

// modelName is conversation.ModelName (header.go names models too).
func modelName(provider, model string) string { return cv.ModelName(provider, model) }

// messageView draws a message entry of kind k.
func (r *Renderer) messageView(ec *entryContext, v *entryView, e *sessiontree.Entry, m *sessiontree.Message, k cv.Kind) {
	switch k {
	case cv.NoMessage:
		v.Kind, v.Heading = "unknown", "message"
		v.Parts = r.appendJSON(v.Parts, rawJSON(e), "entry", false)
		return
	case cv.Prompt:
		v.Kind, v.Heading = "user", "User"
		r.pieceParts(ec, v, ec.model.BlockPieces(e, m.Content))
	case cv.Reply:
		v.Kind, v.Heading = "assistant", "Assistant"
		r.pieceParts(ec, v, ec.model.Pieces(e, m))
		assistantNotes(v, e, m)
	case cv.ToolResult:
		v.Kind, v.Heading = "tool-result", "Tool result"
		name := m.ToolName
		var a args
		if call, ok := ec.model.CallOf(e); ok {
			name, a = call.Name, decodeArgs(call.Args)
			ec.rows[e.Index].text = "[" + toolSummary(name, a) + "]" // see gatherRow
		}
		tv := r.toolView(name, a, m, e.ID)
		v.Parts = append(v.Parts, part{Tool: tv})
	case cv.Command:
		r.bashView(v, m)
	case cv.CustomMessage:
		if e.IsContext() {
			// What the harness gave the model (its developer and system
			// prompts, the environment, instructions): context folded
			// shut, not a turn of the conversation.
			body := blocksText(m.Content, "\n")
			v.Kind, v.Heading = "context", "Context: "+text.Or(m.CustomType, "instructions")
			v.Parts = append(v.Parts, part{More: &fold{Summary: "What the model was given (" + byteSize(len(body)) + ")", HTML: escape(body)}})
			break
		}
		v.Kind, v.Heading = "custom", text.Or(m.CustomType, "custom message")
		if !m.Display {
			v.Notes = append(v.Notes, note{"info", "hidden from the user; the model saw it"})
		}
		if m.CustomType == sessiontree.CustomCommandOutput && ec.s.Format == sessiontree.FormatClaude {
			// What a command printed, as the terminal showed it (its
			// colours, its indentation), as bash results are, not Markdown.
			v.Parts = append(v.Parts, r.outputParts(ansiHTML, blocksText(m.Content, "\n"), "", "", previewBash)...)
			break
		}
		r.pieceParts(ec, v, ec.model.BlockPieces(e, m.Content))
	default:
		v.Kind, v.Heading = "unknown", text.Or(m.Role, "message")
		v.Parts = r.appendJSON(v.Parts, rawJSON(e), "entry", false)
	}
	if e.Source != "" {
		v.Meta = strings.TrimPrefix(v.Meta+" · source: "+e.Source, " · ")
	}
}

// assistantNotes writes an assistant message's small print (model, tokens,
// cost) and its notes: a silent turn, an error, an abort, a cut.
func assistantNotes(v *entryView, e *sessiontree.Entry, m *sessiontree.Message) {
	meta := []string{modelName(m.Provider, m.Model)}
	if u := m.Usage; u != nil {
		// Appended, not through fmt: every assistant message has it.
		b := make([]byte, 0, 96)
		b = text.AppendThousands(append(b, "in "...), u.Input)
		b = text.AppendThousands(append(b, " · out "...), u.Output)
		b = text.AppendThousands(append(b, " · cache read "...), u.CacheRead)
		b = text.AppendThousands(append(b, " · cache write "...), u.CacheWrite)
		meta = append(meta, string(b))
		if u.Cost.Total > 0 {
			meta = append(meta, "$"+strconv.FormatFloat(u.Cost.Total, 'f', 4, 64)) // as %.4f
		}
	}
	v.Meta = strings.Join(meta, " · ")
	if e.Silent {
		v.Silent = true
		v.Notes = append(v.Notes, note{"info", "Silent turn (" + text.Or(m.SilentMark(), "NO_REPLY") + "): not delivered to the user"})
	}
	switch cv.StopOf(m) {
	case cv.Failed:
		v.Notes = append(v.Notes, note{"error", "Error: " + text.Or(m.ErrorMessage, "the request failed")})
	case cv.Aborted:
		v.Notes = append(v.Notes, note{"warning", "Aborted" + text.Prefixed(": ", m.ErrorMessage)})
	case cv.Cut:
		v.Notes = append(v.Notes, note{"warning", "Stopped: the output reached the length limit"})
	}
}

// bashView draws a command the user ran (pi's "!"), its output and how it
// ended.
func (r *Renderer) bashView(v *entryView, m *sessiontree.Message) {
	v.Kind, v.Heading = "bash", "User ran a command"
	v.Parts = append(v.Parts, part{Command: escape(m.Command)})
	out := r.outputParts(ansiHTML, m.Output, "", "", previewBash)
	v.Parts = append(v.Parts, out...)
	if m.ExitCode != nil && *m.ExitCode != 0 {
		v.Notes = append(v.Notes, note{"error", fmt.Sprintf("exit code %d", *m.ExitCode)})
	}
	if m.Cancelled {
		v.Notes = append(v.Notes, note{"warning", "cancelled"})
	}
	if m.Truncated {
		v.Notes = append(v.Notes, note{"info", "output truncated" + text.Prefixed("; full output in ", m.FullOutputPath)})
	}
	if m.ExcludeFromContext {
		v.Notes = append(v.Notes, note{"info", "not sent to the model (!!)"})
	}
}

// pieceParts draws a message's pieces (conversation.Pieces) in their
// original order: text, thinking, images and tool calls interleaved as
// the model produced them, each call with its result; at an anchor, the
// link target of a later line of a streamed reply, whose tree row is
// written here, by the worker that draws its card.
func (r *Renderer) pieceParts(ec *entryContext, v *entryView, pieces []cv.Piece) {
	for _, pc := range pieces {
		if pc.Anchor != nil {
			v.Parts = append(v.Parts, part{Anchor: domID(pc.Anchor.ID)})
			ec.gatherRow(pc.Anchor.Index, continuedBody)
			continue
		}
		blk := pc.Block
		switch pc.Part {
		case cv.Blank:
		case cv.Text:
			v.Parts = append(v.Parts, part{Markdown: r.markdown(blk.Text)})
		case cv.RedactedThinking:
			v.Parts = append(v.Parts, part{Thinking: &fold{Summary: "Thinking (redacted)"}})
		case cv.Thinking:
			v.Parts = append(v.Parts, part{Thinking: &fold{Summary: "Thinking", HTML: r.markdown(blk.Thinking), Open: true}})
		case cv.Image:
			if src := imageSrc(blk.MimeType, blk.Data); src != "" {
				v.Parts = append(v.Parts, part{Image: src})
			} else {
				v.Parts = append(v.Parts, part{Text: escape(fmt.Sprintf("[image of type %q not shown]", blk.MimeType))})
			}
		case cv.ToolCall:
			v.Parts = append(v.Parts, part{Tool: r.callView(ec, v, pc)})
		default:
			raw, _ := jsonMarshal(*blk)
			v.Parts = r.appendJSON(v.Parts, raw, blk.Type, false)
		}
	}
}

// callView draws a tool call with its result, when it has one.
func (r *Renderer) callView(ec *entryContext, v *entryView, pc cv.Piece) *toolView {
	blk := pc.Block
	var res *sessiontree.Message
	resultID := ""
	a := decodeArgs(blk.Arguments)
	if re := pc.Result; re != nil {
		rb, err := re.Decode()
		ec.gotBody(re, rb)
		if err == nil && rb.Message != nil {
			// A Claude Code line may answer several calls: each
			// card shows its own part.
			res, resultID = rb.Message.ResultFor(blk.ID), re.ID
		}
		if res != nil && ec.rows[re.Index].text == "" {
			// The result's tree row, which no one else writes
			// (see gatherRow). A result that cannot be decoded
			// is left to orphanResults, which shows its JSON.
			ec.rows[re.Index].text = "[" + toolSummary(blk.Name, a) + "]"
		}
	}
	tv := r.toolView(blk.Name, a, res, resultID)
	if res == nil {
		tv.Pending = true
	} else if !res.IsError {
		row := &ec.rows[pc.Owner.Index] // written by this worker only: it draws the owner's card
		targets := sessiontree.FileTargets(blk.Name, a, ec.s.Format)
		row.files = append(row.files, targets...)
		for range targets {
			row.fileCards = append(row.fileCards, pc.Result.Index)
		}
	}
	if ec.convs != nil {
		tv.Agents = r.subagentViews(ec, v, pc.Owner, blk.ID, a)
	}
	return tv
}

// orphanResults draws, after the rest of e, the results of e's calls
// (sessiontree.Pairs) that no card drew: when e cannot be decoded, or its
// content is not what Load read (the pairing reads the calls' ids as Load
// did, leniently; Decode is strict, and takes the last of two "content"
// members). They have no block of their own, and would otherwise not be on
// the page at all.
func (r *Renderer) orphanResults(ec *entryContext, v *entryView, e *sessiontree.Entry) {
	for _, id := range e.CallIDs {
		re := ec.pairs.Result(e, id)
		if re == nil || ec.rows[re.Index].text != "" {
			continue
		}
		name := text.Or(re.ToolName, "tool")
		ec.rows[re.Index].text = "[" + name + "]"
		rb, err := re.Decode()
		ec.gotBody(re, rb)
		if err == nil && rb.Message != nil {
			v.Parts = append(v.Parts, part{Tool: r.toolView(re.ToolName, nil, rb.Message, re.ID)})
		} else {
			v.Parts = r.appendJSON(v.Parts, rawJSON(re), "result "+name, false)
		}
	}
}

func formatTime(e *sessiontree.Entry) string {
	if !e.TimeOK {
		return e.Timestamp
	}
	return e.Time.UTC().Format("2006-01-02 15:04:05 UTC")
}

func timeParse(ts string) (time.Time, error) { return time.Parse(time.RFC3339Nano, ts) }

// continuedBody is what a later line of a streamed reply decodes to: an
// assistant message with no content (its blocks are its first line's).
// Read only.
var continuedBody = &sessiontree.Body{Message: &sessiontree.Message{Role: sessiontree.RoleAssistant}}
