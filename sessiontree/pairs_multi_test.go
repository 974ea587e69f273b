package sessiontree

import "testing"

// TestPairsSeveralResults: each call is paired with the line that answers
// it, and the line is drawn in the cards (Paired) only when it is the
// result of every call it answers.
func TestPairsSeveralResults(t *testing.T) {
	s := mustLoad(t, multiResults())
	p := PairCalls(s)
	a, r := mustEntry(t, s, "a"), mustEntry(t, s, "r")
	for _, id := range []string{"t1", "t2", "t3"} {
		if p.Result(a, id) != r {
			t.Errorf("%s: result %v", id, p.Result(a, id))
		}
	}
	if !p.Paired(r) {
		t.Error("not paired")
	}
	// A later line answering t2 again is not its result, and not paired.
	more := append(multiResults(), jsonl(claudeJSONL("user", "r2", "b",
		`"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"again"},{"type":"tool_result","tool_use_id":"t9","content":"?"}]}`))...)
	s = mustLoad(t, more)
	p = PairCalls(s)
	if r2 := mustEntry(t, s, "r2"); p.Paired(r2) || p.Result(mustEntry(t, s, "a"), "t2") != mustEntry(t, s, "r") {
		t.Error("a second answer took the call")
	}
}
