package conversation

import "canopy/sessiontree"

// A Piece is one thing a reader sees in a message, in the order the
// model or the user wrote it: a content block, what it is (Part), and for
// a tool call the entry that holds its result. Both writers draw a
// message from its pieces, so that they cannot disagree on what is in it,
// in what order, or which result answers which call.
type Piece struct {
	Part  Part               // what the block is; Blank pieces are there to be skipped
	Block *sessiontree.Block // the block; nil for an anchor
	// Owner is the entry whose block it is: the message's, or a later
	// line's of a streamed reply that keeps its own calls (see Pieces).
	Owner *sessiontree.Entry

	// Result is the entry that holds a ToolCall's result (sessiontree's
	// Pairs.Result), nil when the session has none for it. A Claude Code
	// line may answer several calls: Message.ResultFor picks this one's.
	Result *sessiontree.Entry

	// Anchor, on a piece with no block, is a later line of a reply
	// streamed over several lines (Message.Streamed): its blocks start
	// here. A page links to it; the Markdown has nothing to draw.
	Anchor *sessiontree.Entry
}

// Pieces lists the content of m, the message of entry e, as its reader
// sees it: every block in order, each with its Part; a ToolCall with the
// entry of its result. A reply Claude Code streamed over several lines,
// or a Codex turn of several items, is read whole at its first line, with
// an anchor where each later line's blocks start; the calls a later line
// made are its own where its reader keeps them there (Codex's items),
// else the turn's, and their results are found under that line.
func (c *Context) Pieces(e *sessiontree.Entry, m *sessiontree.Message) []Piece {
	out := make([]Piece, 0, len(m.Content)+len(m.Streamed))
	from, owner := 0, e
	for _, sl := range m.Streamed {
		at := min(max(sl.Block, from), len(m.Content))
		out = c.appendBlocks(out, owner, m.Content[from:at])
		from = at
		if ce := c.S.Entry(sl.ID); ce != nil && ce.Continues {
			out = append(out, Piece{Anchor: ce})
			owner = e
			if len(ce.CallIDs) > 0 {
				owner = ce
			}
		}
	}
	return c.appendBlocks(out, owner, m.Content[from:])
}

// appendBlocks appends the pieces of blocks, whose calls are owner's.
func (c *Context) appendBlocks(out []Piece, owner *sessiontree.Entry, blocks sessiontree.Blocks) []Piece {
	for i := range blocks {
		blk := &blocks[i]
		p := Piece{Part: PartOf(blk), Block: blk, Owner: owner}
		if p.Part == ToolCall {
			p.Result = c.Pairs.Result(owner, blk.ID)
		}
		out = append(out, p)
	}
	return out
}

// BlockPieces lists blocks that are not a message's (an extension's
// message content) the same way: e's calls, in order.
func (c *Context) BlockPieces(e *sessiontree.Entry, blocks sessiontree.Blocks) []Piece {
	return c.appendBlocks(make([]Piece, 0, len(blocks)), e, blocks)
}
