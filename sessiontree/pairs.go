package sessiontree

import (
	"slices"
	"sync"
)

// Pairs tells which tool result answers which tool call. It is read from
// what Load read of every entry (Entry.CallIDs, Entry.ToolCallID) and
// decodes nothing, so that every format and every renderer pairs calls the
// same way.
//
// The rule. A result answers the nearest message above it (its parent,
// its parent's parent, ...) that made a call with its id, looking at most
// answerSteps entries up, and only at messages written before it in the
// file: some models number their calls afresh in every turn ("call_0"),
// so an id alone does not tell which call a result answers. A call's
// result is the first result, in file order, that answers it; a later one
// (a retry on another branch) answers the same call but is not its
// result. A result that answers no call above it is shown with the first
// call in the file that has its id (CallOf).
//
// A Pairs is read-only once made, and safe for concurrent use.
type Pairs struct {
	s *Session
	// The result of each call: result[callAt[i]+k] is the index+1 of the
	// result of entry i's call CallIDs[k] (0: none), for the first k with
	// its id. Slices, not maps keyed by call: at 100,000 entries the maps
	// were 6 MB that the collector marked in every cycle, and hashing their
	// keys 2% of an export's CPU.
	callAt []int32
	result []int32
	// paired has bit i set when entry i is the result of the call it
	// answers.
	paired []uint64
	// callIndex maps, for each entry with more than manyCalls calls (by
	// index), a call id to the first k with CallIDs[k] == id: looking ids
	// up one by one in a message of 40,000 calls cost the square of that.
	callIndex map[int32]map[string]int32
	// calls maps a call id to the first call with it, in file order: what
	// a result that answers no call above it is shown with (CallOf). Made
	// the first time one asks, which most sessions never do.
	callsOnce sync.Once
	calls     map[string]ToolCall
}

// ToolCall is one tool call: its id and the assistant message that made it.
type ToolCall struct {
	ID      string
	Message *Entry
}

// manyCalls is how many calls an entry may make before its ids are
// indexed (callIndex); below it, a linear search is as fast.
const manyCalls = 16

// answerSteps bounds how far up a result looks for its call: results
// follow their call closely, and a chain of 100,000 results that answer
// nothing would otherwise cost the square of that.
const answerSteps = 256

// PairCalls pairs the tool calls of s with their results.
func PairCalls(s *Session) *Pairs {
	n := len(s.Entries)
	p := &Pairs{s: s, callAt: make([]int32, n), paired: make([]uint64, (n+63)/64)}
	calls := 0
	for i, e := range s.Entries {
		p.callAt[i] = int32(calls)
		calls += len(e.CallIDs)
		if len(e.CallIDs) > manyCalls {
			if p.callIndex == nil {
				p.callIndex = map[int32]map[string]int32{}
			}
			m := make(map[string]int32, len(e.CallIDs))
			for k, id := range e.CallIDs {
				if _, dup := m[id]; !dup {
					m[id] = int32(k)
				}
			}
			p.callIndex[int32(i)] = m
		}
	}
	p.result = make([]int32, calls)
	for i, e := range s.Entries {
		if isToolResult(e) {
			p.pair(i, e)
		}
	}
	return p
}

// pair makes the result e (entry i) the result of each call it answers
// that has none yet. It is paired (drawn in its calls' cards) when it is
// the result of every call it answers: a Claude Code line answers
// several (Entry.Answered), each shown in its own card
// (Message.ResultFor).
func (p *Pairs) pair(i int, e *Entry) {
	n := e.Answered()
	all := n > 0
	for k := range n {
		call, ck, ok := p.answered(e, e.AnsweredID(k))
		if !ok {
			all = false
			continue
		}
		slot := &p.result[p.callAt[call.Message.Index]+int32(ck)]
		if *slot == 0 {
			*slot = int32(i) + 1
		}
		all = all && *slot == int32(i)+1
	}
	if all {
		p.paired[i/64] |= 1 << (i % 64)
	}
}

func isToolResult(e *Entry) bool {
	return e.Type == TypeMessage && e.Role == RoleToolResult
}

// Answers is the call a result answers, by the rule above.
func (p *Pairs) Answers(res *Entry) (ToolCall, bool) {
	call, _, ok := p.answered(res, res.ToolCallID)
	return call, ok
}

// answered is the call with the id that res answers, by the rule above,
// with k the first of the message's calls with the id.
func (p *Pairs) answered(res *Entry, id string) (call ToolCall, k int, ok bool) {
	if id == "" {
		return ToolCall{}, 0, false
	}
	for m, n := res.Parent, 0; m != nil && n < answerSteps; m, n = m.Parent, n+1 {
		if m.Index < res.Index {
			if k := p.callPos(m, id); k >= 0 {
				return ToolCall{id, m}, k, true
			}
		}
	}
	return ToolCall{}, 0, false
}

// Result is the result of the call id that message m made, or nil.
func (p *Pairs) Result(m *Entry, id string) *Entry {
	k := p.callPos(m, id)
	if k < 0 {
		return nil
	}
	if r := p.result[p.callAt[m.Index]+int32(k)]; r > 0 {
		return p.s.Entries[r-1]
	}
	return nil
}

// Paired reports whether res is the result of the call it answers (the
// first result to answer it).
func (p *Pairs) Paired(res *Entry) bool {
	return p.paired[res.Index/64]&(1<<(res.Index%64)) != 0
}

// CallOf is the call whose name and arguments a result is shown with: the
// one it answers, else the first in the file with its id.
func (p *Pairs) CallOf(res *Entry) (ToolCall, bool) {
	if call, _, ok := p.answered(res, res.ToolCallID); ok {
		return call, true
	}
	p.callsOnce.Do(func() {
		p.calls = map[string]ToolCall{}
		for _, e := range p.s.Entries {
			for _, id := range e.CallIDs {
				if _, dup := p.calls[id]; !dup {
					p.calls[id] = ToolCall{id, e}
				}
			}
		}
	})
	call, ok := p.calls[res.ToolCallID]
	return call, ok
}

// callPos is the first k with m.CallIDs[k] == id, or -1.
func (p *Pairs) callPos(m *Entry, id string) int {
	if len(m.CallIDs) > manyCalls {
		if k, ok := p.callIndex[int32(m.Index)][id]; ok {
			return int(k)
		}
		return -1
	}
	return slices.Index(m.CallIDs, id)
}
