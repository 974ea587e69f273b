package conversation

import (
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"canopy/sessiontree"
)

// Context is what every entry of one session is read with: the session
// and its calls paired with their results. Read-only once made, and safe
// for concurrent use.
type Context struct {
	S     *sessiontree.Session
	Pairs *sessiontree.Pairs
	// tables holds, by message entry, its calls by id (callTable), made
	// the first time a result asks for one of them.
	tables sync.Map
}

// New pairs the calls of s with their results (sessiontree.PairCalls).
func New(s *sessiontree.Session) *Context {
	return &Context{S: s, Pairs: sessiontree.PairCalls(s)}
}

// Call is a tool call as a result is drawn with it: its id, name and
// raw arguments, and the message that made it.
type Call struct {
	ID      string
	Name    string
	Args    jsontext.Value
	Message *sessiontree.Entry
}

// callTable is a message's calls by id: the first with each id.
type callTable struct {
	once  sync.Once
	calls map[string]Call
}

// CallOf is the call the result res is drawn with (sessiontree's
// Pairs.CallOf): false when it answers none, or its message cannot be
// decoded or has no such call.
func (c *Context) CallOf(res *sessiontree.Entry) (Call, bool) {
	tc, ok := c.Pairs.CallOf(res)
	if !ok {
		return Call{}, false
	}
	return c.CallIn(tc.Message, tc.ID)
}

// CallIn is the first call with the id in message m. The message is
// decoded once for all its results: results far below their call are
// drawn apart from it, and decoding a message of 10,000 calls again for
// each of its results took 85 s.
func (c *Context) CallIn(m *sessiontree.Entry, id string) (Call, bool) {
	t := c.table(m)
	t.once.Do(func() {
		if b, err := m.Decode(); err == nil && b.Message != nil {
			t.fill(m, b.Message.Content)
		}
	})
	call, ok := t.calls[id]
	return call, ok
}

func (c *Context) table(m *sessiontree.Entry) *callTable {
	if v, ok := c.tables.Load(m); ok {
		return v.(*callTable)
	}
	v, _ := c.tables.LoadOrStore(m, new(callTable))
	return v.(*callTable)
}

func (t *callTable) fill(m *sessiontree.Entry, content sessiontree.Blocks) {
	t.calls = make(map[string]Call, len(m.CallIDs))
	for _, blk := range content {
		if _, dup := t.calls[blk.ID]; blk.Type == "toolCall" && !dup {
			t.calls[blk.ID] = Call{ID: blk.ID, Name: blk.Name, Args: blk.Arguments, Message: m}
		}
	}
}

// ModelName is a model as both writers name it: provider/model, or the
// model alone when no provider is known.
func ModelName(provider, model string) string {
	if provider == "" {
		return model
	}
	return provider + "/" + model
}

// Forget drops what CallIn holds of message m's calls: a writer that
// draws entries in order, once each, need not hold the calls of every
// message it has passed.
func (c *Context) Forget(m *sessiontree.Entry) { c.tables.Delete(m) }
