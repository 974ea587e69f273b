package sessiontree

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// pairsCall is an assistant message (id, parent) making calls with ids.
func pairsCall(id, parent string, calls ...string) string {
	var blocks []string
	for _, c := range calls {
		blocks = append(blocks, `{"type":"toolCall","id":`+strconv.Quote(c)+`,"name":"read","arguments":{}}`)
	}
	return `{"type":"message","id":` + strconv.Quote(id) + `,"parentId":` + pairsParent(parent) +
		`,"timestamp":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":[` + strings.Join(blocks, ",") + `]}}`
}

// pairsResult is a tool result (id, parent) answering call.
func pairsResult(id, parent, call string) string {
	return `{"type":"message","id":` + strconv.Quote(id) + `,"parentId":` + pairsParent(parent) +
		`,"timestamp":"2026-01-01T00:00:00Z","message":{"role":"toolResult","toolCallId":` + strconv.Quote(call) +
		`,"toolName":"read","content":[]}}`
}

func pairsParent(p string) string {
	if p == "" {
		return "null"
	}
	return strconv.Quote(p)
}

func pairsSession(t *testing.T, lines []string) *Session {
	t.Helper()
	head := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`
	s, err := Load([]byte(head+"\n"+strings.Join(lines, "\n")+"\n"), "pairs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pairsWant is what each result of a case pairs with: the call it answers
// ("message/id", "" for none), whether it is that call's result, and the
// call it is shown with (CallOf).
type pairsWant struct {
	answers string
	paired  bool
	shownAs string
}

var manyCallIDs = func() []string {
	var ids []string
	for k := range manyCalls + 4 {
		ids = append(ids, fmt.Sprintf("c%d", k))
	}
	return append(ids, "c3") // a repeated id: its first place counts
}()

var pairsCases = []struct {
	name  string
	lines []string
	want  map[string]pairsWant // by result id
}{{
	// Some models number their calls afresh in every turn: each result
	// answers the nearest call above it, and a retry on a branch answers
	// the same call without being its result (TestReusedCallIDs in render).
	name: "reused ids",
	lines: []string{
		pairsCall("a1", "", "call_0"),
		pairsResult("r1", "a1", "call_0"),
		pairsCall("a2", "r1", "call_0"),
		pairsResult("r2", "a2", "call_0"),
		pairsResult("r1b", "a1", "call_0"),
	},
	want: map[string]pairsWant{
		"r1":  {"a1/call_0", true, "a1/call_0"},
		"r2":  {"a2/call_0", true, "a2/call_0"},
		"r1b": {"a1/call_0", false, "a1/call_0"},
	},
}, {
	// A result answers no call that is not above it on its path, nor one
	// written after it; it is shown with the first call in the file with
	// its id.
	name: "not above",
	lines: []string{
		pairsCall("a1", "", "x"),
		pairsResult("r1", "", "x"),
		pairsResult("r2", "a3", "y"),
		pairsCall("a3", "", "y"),
		pairsResult("r3", "a1", "nope"),
		pairsResult("r4", "a1", ""),
	},
	want: map[string]pairsWant{
		"r1": {"", false, "a1/x"},
		"r2": {"", false, "a3/y"},
		"r3": {"", false, ""},
		"r4": {"", false, ""},
	},
}, {
	// Past manyCalls the ids are indexed: the same answers, the first place
	// of a repeated id.
	name: "many calls",
	lines: []string{
		pairsCall("a1", "", manyCallIDs...),
		pairsResult("r0", "a1", "c0"),
		pairsResult("r3", "r0", "c3"),
		pairsResult("r19", "r3", "c19"),
		pairsResult("r3b", "r19", "c3"),
	},
	want: map[string]pairsWant{
		"r0":  {"a1/c0", true, "a1/c0"},
		"r3":  {"a1/c3", true, "a1/c3"},
		"r19": {"a1/c19", true, "a1/c19"},
		"r3b": {"a1/c3", false, "a1/c3"},
	},
}}

func callName(c ToolCall, ok bool) string {
	if !ok {
		return ""
	}
	return c.Message.ID + "/" + c.ID
}

func TestPairCalls(t *testing.T) {
	for _, c := range pairsCases {
		t.Run(c.name, func(t *testing.T) {
			s := pairsSession(t, c.lines)
			p := PairCalls(s)
			for id, want := range c.want {
				res := s.Entry(id)
				if got := callName(p.Answers(res)); got != want.answers {
					t.Errorf("%s answers %q, want %q", id, got, want.answers)
				}
				if got := p.Paired(res); got != want.paired {
					t.Errorf("%s paired = %v, want %v", id, got, want.paired)
				}
				if got := callName(p.CallOf(res)); got != want.shownAs {
					t.Errorf("%s is shown with %q, want %q", id, got, want.shownAs)
				}
				if call, ok := p.Answers(res); ok && want.paired && p.Result(call.Message, call.ID) != res {
					t.Errorf("%s is not the result of %s", id, want.answers)
				}
			}
			for _, e := range s.Entries { // no entry pairs that is not a result
				if !isToolResult(e) && p.Paired(e) {
					t.Errorf("%s is paired", e.ID)
				}
			}
		})
	}
}

// TestPairsStepBound: a result looks answerSteps entries up for its call,
// and no further.
func TestPairsStepBound(t *testing.T) {
	for _, n := range []int{answerSteps - 1, answerSteps} {
		lines := []string{pairsCall("a", "", "c")}
		parent := "a"
		for k := range n {
			id := fmt.Sprintf("u%d", k)
			lines = append(lines, pairsResult(id, parent, "other"))
			parent = id
		}
		lines = append(lines, pairsResult("r", parent, "c"))
		s := pairsSession(t, lines)
		p := PairCalls(s)
		_, ok := p.Answers(s.Entry("r"))
		if want := n+1 <= answerSteps; ok != want {
			t.Errorf("%d entries between: answered = %v, want %v", n, ok, want)
		}
		if _, ok := p.CallOf(s.Entry("r")); !ok {
			t.Errorf("%d entries between: shown with no call", n)
		}
	}
}
