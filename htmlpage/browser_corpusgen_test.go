package htmlpage_test

// The hostile corpus session: every payload of
// testdata/hostile/payloads.txt in every text field of a pi session.

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// corpusPayload is one line of testdata/hostile/payloads.txt: the text as a
// reader sees it, and the JSON string literal written into the session.
type corpusPayload struct {
	text string // after loading: lone surrogates and invalid UTF-8 as U+FFFD
	lit  string // a JSON string literal, quotes included
}

// readPayloads reads payloads.txt: one payload a line; "##" starts a
// comment; "q:" a Go-quoted string; "j:" a JSON string literal kept as
// written (lone surrogates).
func readPayloads(t *testing.T, path string) []corpusPayload {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusPayload
	seen := map[string]bool{}
	for n, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var p corpusPayload
		switch {
		case line == "" || strings.HasPrefix(line, "##"):
			continue
		case strings.HasPrefix(line, "q:"):
			s, err := strconv.Unquote(line[2:])
			if err != nil {
				t.Fatalf("%s:%d: bad Go-quoted payload: %v", path, n+1, err)
			}
			p = corpusPayload{s, jsonLiteral(s)}
		case strings.HasPrefix(line, "j:"):
			var s string
			if err := json.Unmarshal([]byte(line[2:]), &s); err != nil {
				t.Fatalf("%s:%d: bad JSON payload: %v", path, n+1, err)
			}
			p = corpusPayload{s, line[2:]}
		default:
			p = corpusPayload{line, jsonLiteral(line)}
		}
		if seen[p.lit] {
			t.Fatalf("%s:%d: duplicate payload", path, n+1)
		}
		seen[p.lit] = true
		out = append(out, p)
	}
	return out
}

// jsonLiteral quotes s as a JSON string, escaping only what JSON requires:
// markup, U+2028 and invalid UTF-8 reach the file as they are.
func jsonLiteral(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// jstr is a JSON string literal that encoding/json writes as it is.
type jstr string

func (j jstr) MarshalJSON() ([]byte, error) { return []byte(j), nil }

// cat joins JSON string literals (and plain strings, quoted) into one.
func cat(parts ...any) jstr {
	var b strings.Builder
	b.WriteByte('"')
	for _, p := range parts {
		var lit string
		switch p := p.(type) {
		case jstr:
			lit = string(p)
		case corpusPayload:
			lit = p.lit
		case string:
			lit = jsonLiteral(p)
		default:
			panic(fmt.Sprintf("cat: %T", p))
		}
		b.WriteString(lit[1 : len(lit)-1])
	}
	b.WriteByte('"')
	return jstr(b.String())
}

type obj = map[string]any

// corpusSession is a pi v3 session carrying every payload in every text
// field, and what the test needs to know about it.
type corpusSession struct {
	data     []byte
	userText map[string]corpusPayload // user message id (as loaded) -> its payload
	ids      map[string][]string      // what -> entry ids (as loaded) to click
	bigID    string                   // the entry with the 10 MB word
	endID    string                   // the last entry
}

// loadedID is the id as the loader decodes the literal.
func loadedID(lit jstr) string {
	var s string
	if err := json.Unmarshal([]byte(lit), &s); err != nil {
		panic(err)
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// buildCorpusSession writes one round per payload P on the active path,
// each entry of it carrying P in every text field it has (its id among
// them), and off each round a short branch, stored in <template>s.
func buildCorpusSession(t *testing.T, payloads []corpusPayload) *corpusSession {
	t.Helper()
	cs := &corpusSession{userText: map[string]corpusPayload{}, ids: map[string][]string{}}
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	w := &corpusWriter{t: t, enc: enc, clock: time.Date(2026, 4, 1, 10, 0, 0, 0, time.UTC),
		usage: obj{"input": 10, "output": 20, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 30,
			"cost": obj{"input": 0.001, "output": 0.002, "cacheRead": 0, "cacheWrite": 0, "total": 0.003}}}

	var all []any
	for _, p := range payloads {
		all = append(all, p, "\n")
	}
	w.write(obj{"type": "session", "version": 3, "id": cat("corpus ", payloads[0], payloads[len(payloads)-1]),
		"cwd": cat(all...)})

	for i, pl := range payloads {
		p := jstr(pl.lit)
		w.id = func(k string) jstr { return cat(p, fmt.Sprintf(" #%d.%s", i, k)) }
		fork := w.round(cs, pl)
		w.branch(cs, p, fork)
		if i == 0 {
			// One word of 10 MB, on the path, early: the rest of the
			// conversation comes after it. (Early, too, because Chromium
			// takes seconds to lay it out: the clicks below keep it shown.)
			big := w.next("message", "big", obj{"message": obj{"role": "assistant",
				"content": []any{textBlock(strings.Repeat("Wx0", 10<<20/3))},
				"api":     "x", "provider": "p", "model": "m", "usage": w.usage, "stopReason": "stop", "timestamp": w.ms()}})
			cs.bigID = loadedID(big)
		}
	}
	w.id = func(string) jstr { return cat("END ", payloads[0]) }
	end := w.next("message", "end", obj{"message": obj{"role": "assistant", "content": []any{textBlock("END-OF-CONVERSATION")},
		"api": "x", "provider": "p", "model": "m", "usage": w.usage, "stopReason": "stop", "timestamp": w.ms()}})
	cs.endID = loadedID(end)
	cs.data = []byte(buf.String())
	return cs
}

// corpusWriter writes the corpus session's entries, one second apart.
type corpusWriter struct {
	t     *testing.T
	enc   *json.Encoder
	clock time.Time
	usage obj                 // every assistant message's
	tip   any                 // parentId of the next entry on the path: nil, then a jstr
	id    func(k string) jstr // the id of the current round's entry k
}

func (w *corpusWriter) write(o obj) {
	w.clock = w.clock.Add(time.Second)
	if _, ok := o["timestamp"]; !ok {
		o["timestamp"] = w.clock.Format("2006-01-02T15:04:05.000Z")
	}
	if err := w.enc.Encode(o); err != nil {
		w.t.Fatal(err)
	}
}

// ms is the clock, for a message's own timestamp.
func (w *corpusWriter) ms() int64 { return w.clock.UnixMilli() }

// entry writes the current round's entry k, of type typ, below parent.
func (w *corpusWriter) entry(typ any, k string, parent any, fields obj) jstr {
	o := obj{"type": typ, "id": w.id(k), "parentId": parent}
	for f, v := range fields {
		o[f] = v
	}
	w.write(o)
	return w.id(k)
}

// next writes the current round's entry k on the active path.
func (w *corpusWriter) next(typ any, k string, fields obj) jstr {
	e := w.entry(typ, k, w.tip, fields)
	w.tip = e
	return e
}

func textBlock(p any) obj { return obj{"type": "text", "text": p} }

// round writes payload pl's entries on the path: one of every kind, and
// returns the fork the round's branch starts from.
func (w *corpusWriter) round(cs *corpusSession, pl corpusPayload) (fork any) {
	p := jstr(pl.lit)
	u1 := w.next("message", "u1", obj{"message": obj{"role": "user", "content": p, "timestamp": w.ms()}})
	cs.userText[loadedID(u1)] = pl
	cid := func(k string) jstr { return cat(p, " call "+k) }
	a1 := w.next("message", "a1", obj{"message": obj{"role": "assistant",
		"content": []any{
			obj{"type": "thinking", "thinking": p},
			textBlock(p),
			obj{"type": "toolCall", "id": cid("bash"), "name": "bash", "arguments": obj{"command": p}},
			obj{"type": "toolCall", "id": cid("read"), "name": "read", "arguments": obj{"path": p}},
			obj{"type": "toolCall", "id": cid("write"), "name": "write", "arguments": obj{"path": p, "content": p}},
			obj{"type": "toolCall", "id": cid("edit"), "name": "edit", "arguments": obj{"path": p, "oldText": p, "newText": cat(p, "\nnew")}},
			obj{"type": "toolCall", "id": cid("own"), "name": p, "arguments": obj{"x": p, "path": p}},
		},
		"api": "x", "provider": p, "model": p, "usage": w.usage, "stopReason": "toolUse", "timestamp": w.ms()}})
	for _, k := range []string{"bash", "read", "write", "edit", "own"} {
		r := w.next("message", "r-"+k, obj{"message": obj{"role": "toolResult", "toolCallId": cid(k), "toolName": p,
			"content": []any{textBlock(p)}, "isError": k == "own", "timestamp": w.ms()}})
		if k == "own" {
			cs.ids["own-result"] = append(cs.ids["own-result"], loadedID(r))
		}
	}
	u2 := w.next("message", "u2", obj{"message": obj{"role": "user", "content": []any{textBlock(p), textBlock("second block")}, "timestamp": w.ms()}})
	w.next("label", "label", obj{"targetId": u2, "label": p})
	w.next("custom_message", "cm", obj{"customType": p, "content": p, "display": true})
	w.next("custom", "custom", obj{"customType": p, "data": obj{"x": p}})
	w.next("compaction", "compaction", obj{"summary": p, "firstKeptEntryId": u2, "tokensBefore": 12345})
	w.next("branch_summary", "bs", obj{"fromId": a1, "summary": p})
	w.next("model_change", "mc", obj{"provider": p, "modelId": p})
	w.next("thinking_level_change", "tl", obj{"thinkingLevel": p})
	w.next("session_info", "si", obj{"name": p})
	w.next("message", "bash", obj{"message": obj{"role": "bashExecution", "command": p, "output": p, "exitCode": 1,
		"cancelled": false, "truncated": true, "fullOutputPath": p, "timestamp": w.ms()}})
	w.next("message", "err", obj{"message": obj{"role": "assistant", "content": []any{}, "api": "x", "provider": p, "model": p,
		"usage": w.usage, "stopReason": "error", "errorMessage": p, "timestamp": w.ms()}})
	fork = w.tip
	x := w.next(p, "x", obj{"text": p})
	cs.ids["unknown-type"] = append(cs.ids["unknown-type"], loadedID(x))
	return fork
}

// branch writes the branch off the path at fork: written after the round,
// so that it is newer than the path's child of the fork.
func (w *corpusWriter) branch(cs *corpusSession, p jstr, fork any) {
	b1 := w.entry("message", "b1", fork, obj{"message": obj{"role": "user", "content": []any{textBlock(p)}, "timestamp": w.ms()}})
	cs.ids["branch-user"] = append(cs.ids["branch-user"], loadedID(b1))
	bid := func(k string) jstr { return cat(p, " branch call "+k) }
	b2 := w.entry("message", "b2", b1, obj{"message": obj{"role": "assistant",
		"content": []any{
			obj{"type": "thinking", "thinking": p},
			textBlock(p),
			obj{"type": "toolCall", "id": bid("edit"), "name": "edit", "arguments": obj{"path": p, "oldText": "a", "newText": "b"}},
			obj{"type": "toolCall", "id": bid("own"), "name": p, "arguments": obj{"x": p}},
		},
		"api": "x", "provider": p, "model": p, "usage": w.usage, "stopReason": "toolUse", "timestamp": w.ms()}})
	w.entry("message", "b3", b2, obj{"message": obj{"role": "toolResult", "toolCallId": bid("edit"), "toolName": "edit",
		"content": []any{textBlock(p)}, "details": obj{"diff": cat("-1 ", p, "\n+1 ", p, "\n ", p)}, "isError": false, "timestamp": w.ms()}})
}
