package sessiontree

// readHead decodes a line into h as json.Unmarshal(raw, h, jsonOpts) does,
// for raw a valid JSON object (decodeHead checks). Every field of a head is
// lenient (a value of the wrong type reads as absent), so on valid JSON it
// cannot fail but for a walker's errSyntax.
func readHead(raw []byte, h *head) error {
	w := walker{b: raw}
	if _, err := w.object(func(name []byte) error {
		switch string(name) {
		case "type":
			return w.lstr(&h.Type)
		case "id":
			return w.optStr(&h.ID)
		case "parentId":
			return w.optStr(&h.ParentID)
		case "timestamp":
			return w.lstr(&h.Timestamp)
		case "version":
			return w.lnumPtr(&h.Version)
		case "cwd":
			return w.lstr(&h.Cwd)
		case "title":
			return w.lstr(&h.Title)
		case "parentSession":
			return w.lstr(&h.ParentSession)
		case "message":
			return w.headMessage(&h.Message)
		case "source":
			return w.lstr(&h.Source)
		case "summary":
			return w.lstr(&h.Summary)
		case "firstKeptEntryId":
			return w.lstr(&h.FirstKeptEntryID)
		case "firstKeptEntryIndex":
			return w.lnumPtr(&h.FirstKeptEntryIndex)
		case "tokensBefore":
			return w.lnum(&h.TokensBefore)
		case "usage":
			return w.headUsage(&h.Usage)
		case "fromId":
			return w.lstr(&h.FromID)
		case "targetId":
			return w.lstr(&h.TargetID)
		case "label":
			return w.lstr(&h.Label)
		case "name":
			return w.lstr(&h.Name)
		case "thinkingLevel":
			return w.lstr(&h.ThinkingLevel)
		case "provider":
			return w.lstr(&h.Provider)
		case "modelId":
			return w.lstr(&h.ModelID)
		case "model":
			return w.lstr(&h.Model)
		case "role":
			return w.lstr(&h.Role)
		case "customType":
			return w.lstr(&h.CustomType)
		case "display":
			return w.lbool(&h.Display)
		}
		return w.skip()
	}); err != nil {
		return err
	}
	return w.end()
}

// The lenient types, read as their UnmarshalJSONFrom methods read them.

func (w *walker) lstr(s *lstr) error {
	if w.kind() == '"' {
		raw, err := w.rawString()
		if err != nil {
			return err
		}
		*s = lstr(unquote(raw))
		return nil
	}
	*s = ""
	return w.skip()
}

// optStr: Set once a string was seen (a later value of another type
// leaves it set, as the method does).
func (w *walker) optStr(o *optStr) error {
	if w.kind() == '"' {
		o.Set = true
	}
	var s lstr
	err := w.lstr(&s)
	o.V = string(s)
	return err
}

func (w *walker) lnum(n *lnum) error {
	if w.kind() != '0' {
		*n = 0
		return w.skip()
	}
	f, ok := w.number()
	if !ok {
		// Out of range: ±Inf, read as 0 (see lnum); the walker's
		// number could also be malformed, when raw is not valid JSON.
		f = 0
	}
	*n = lnum(f)
	return nil
}

// lnumPtr: null is nil; anything else is a number, 0 when it is not one.
func (w *walker) lnumPtr(p **lnum) error {
	if w.kind() == 'n' {
		*p = nil
		return w.skip()
	}
	if *p == nil {
		*p = new(lnum)
	}
	return w.lnum(*p)
}

func (w *walker) lbool(b *lbool) error {
	switch k := w.kind(); k {
	case 't', 'f':
		*b = k == 't'
	default:
		*b = false
	}
	return w.skip()
}

// lobject reads a lobj: reset, then the members of an object, or absent.
func (w *walker) lobject(set *bool, field func(name []byte) error) error {
	*set = false
	if w.kind() != '{' {
		return w.skip()
	}
	*set = true
	_, err := w.object(field)
	return err
}

func (w *walker) headMessage(o *lobj[headMessage]) error {
	o.V = headMessage{}
	m := &o.V
	return w.lobject(&o.Set, func(name []byte) error {
		switch string(name) {
		case "role":
			return w.lstr(&m.Role)
		case "provider":
			return w.lstr(&m.Provider)
		case "model":
			return w.lstr(&m.Model)
		case "stopReason":
			return w.lstr(&m.StopReason)
		case "usage":
			return w.headUsage(&m.Usage)
		case "content":
			return w.blockHeads(&m.Content)
		case "toolName":
			return w.lstr(&m.ToolName)
		case "toolCallId":
			return w.lstr(&m.ToolCallID)
		case "customType":
			return w.lstr(&m.CustomType)
		case "display":
			return w.lbool(&m.Display)
		}
		return w.skip()
	})
}

func (w *walker) headUsage(o *lobj[headUsage]) error {
	o.V = headUsage{}
	u := &o.V
	return w.lobject(&o.Set, func(name []byte) error {
		switch string(name) {
		case "input":
			return w.lnum(&u.Input)
		case "output":
			return w.lnum(&u.Output)
		case "cacheRead":
			return w.lnum(&u.CacheRead)
		case "cacheWrite":
			return w.lnum(&u.CacheWrite)
		case "totalTokens":
			return w.lnum(&u.TotalTokens)
		case "cost":
			o := &u.Cost
			o.V = headCost{}
			c := &o.V
			return w.lobject(&o.Set, func(name []byte) error {
				switch string(name) {
				case "input":
					return w.lnum(&c.Input)
				case "output":
					return w.lnum(&c.Output)
				case "cacheRead":
					return w.lnum(&c.CacheRead)
				case "cacheWrite":
					return w.lnum(&c.CacheWrite)
				case "total":
					return w.lnum(&c.Total)
				}
				return w.skip()
			})
		}
		return w.skip()
	})
}

// blockHeads counts tool calls and looks at the first text, as
// blockHeads.UnmarshalJSONFrom does (a member given twice adds up).
func (w *walker) blockHeads(b *blockHeads) error {
	switch w.kind() {
	case '"':
		raw, err := w.rawString()
		b.silent = startsSilent(raw)
		return err
	case '[':
	default:
		return w.skip()
	}
	sawText := false
	return w.array(func() error {
		if w.kind() != '{' {
			return w.skip()
		}
		var typ, id lstr
		var text bool
		if _, err := w.object(func(name []byte) error {
			switch string(name) {
			case "type":
				return w.lstr(&typ)
			case "id":
				return w.lstr(&id)
			case "text":
				raw, err := w.rawValue()
				text = startsSilent(raw)
				return err
			}
			return w.skip()
		}); err != nil {
			return err
		}
		switch typ {
		case "toolCall":
			b.toolCalls++
			if id != "" {
				b.callIDs = append(b.callIDs, string(id))
			}
		case "text":
			if !sawText {
				sawText, b.silent = true, text
			}
		}
		return nil
	})
}
