package sessiontree

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Telling inputs apart by what they hold (detection) and saying what an
// input of another kind is (refusal). Both look at the shape of JSON
// objects: their "type", which member names they have, and a little of
// their members' values.

// shape is what detection reads of one JSON object.
type shape struct {
	typ   string   // the "type" member, when it is a string
	names []string // the first maxShown member names, in order
	count int      // how many members it has
	has   uint32   // the member names of interest it has (the f* bits)
	// payloadObject: a "payload" member that is an object (Codex).
	payloadObject bool
	// storeEntries: members whose value is an object with a sessionId or
	// sessionFile, among the first few (a gateway's sessions.json; Hermes
	// Agent's writes session_id).
	storeEntries int
	// messageParts: a "message" member that is an object with "parts"
	// (a Gemini Content, as Qwen Code writes it; Claude Code's has
	// "content").
	messageParts bool
}

// Member names that tell formats apart.
const (
	fUUID = 1 << iota
	fParentUUID
	fLogicalParentUUID
	fLeafUUID
	fSessionID
	fMessageID
	fID
	fParentID
	fMessage
	fMessages
	fProjectHash
	fMapping
	fInstructions
	fGit
	fData         // Copilot CLI's event payload
	fRewindTo     // Gemini CLI's $rewindTo
	fSet          // Gemini CLI's $set
	fQwenMetadata // Qwen Code's systemPayload, usageMetadata, toolCallResult
)

var shapeNames = map[string]uint32{
	"uuid": fUUID, "parentUuid": fParentUUID, "logicalParentUuid": fLogicalParentUUID,
	"leafUuid": fLeafUUID, "sessionId": fSessionID, "messageId": fMessageID,
	"id": fID, "parentId": fParentID, "message": fMessage, "messages": fMessages,
	"projectHash": fProjectHash, "mapping": fMapping, "instructions": fInstructions, "git": fGit,
	"data": fData, "$rewindTo": fRewindTo, "$set": fSet,
	"systemPayload": fQwenMetadata, "usageMetadata": fQwenMetadata, "toolCallResult": fQwenMetadata,
}

// maxShown is how many member names a refusal names.
const maxShown = 6

// shapeOf reads the shape of raw, a valid JSON object.
func shapeOf(raw []byte) shape {
	var sh shape
	w := walker{b: raw}
	w.object(func(name []byte) error {
		sh.count++
		if len(sh.names) < maxShown {
			sh.names = append(sh.names, string(name))
		}
		sh.has |= shapeNames[string(name)]
		switch {
		case string(name) == "type" && w.kind() == '"':
			t, err := w.text()
			sh.typ = t
			return err
		case string(name) == "payload" && w.kind() == '{':
			sh.payloadObject = true
		case string(name) == "message" && w.kind() == '{':
			return w.messageShape(&sh)
		case sh.count <= 4 && w.kind() == '{':
			return w.storeEntry(&sh)
		}
		return w.skip()
	})
	return sh
}

// storeEntry reads an object member's value, noting whether it names a
// session (sessionId, sessionFile) as a gateway's session store does.
func (w *walker) storeEntry(sh *shape) error {
	counted := false
	_, err := w.object(func(name []byte) error {
		if !counted && (string(name) == "sessionId" || string(name) == "sessionFile" || string(name) == "session_id") {
			sh.storeEntries++
			counted = true
		}
		return w.skip()
	})
	return err
}

// messageShape reads a "message" object's member names, noting "parts".
func (w *walker) messageShape(sh *shape) error {
	_, err := w.object(func(name []byte) error {
		sh.messageParts = sh.messageParts || string(name) == "parts"
		return w.skip()
	})
	return err
}

func (sh *shape) hasAny(f uint32) bool { return sh.has&f != 0 }

// The "type"s of the formats' records.
var (
	codexTypes = map[string]bool{
		"session_meta": true, "response_item": true, "event_msg": true, "turn_context": true, "compacted": true,
	}
	// Claude Code's lines without a uuid: they still name the session, or
	// a message (file-history-snapshot).
	claudeMetaTypes = map[string]bool{
		"summary": true, "custom-title": true, "ai-title": true, "agent-name": true, "file-history-snapshot": true,
		"queue-operation": true, "last-prompt": true, "permission-mode": true, "pr-link": true, "tag": true,
	}
	claudeMessageTypes = map[string]bool{"user": true, "assistant": true, "system": true}
	piTypes            = map[string]bool{
		TypeMessage: true, TypeCompaction: true, TypeBranchSummary: true, TypeCustom: true, TypeCustomMessage: true,
		TypeLabel: true, TypeSessionInfo: true, TypeThinkingLevelChange: true, TypeModelChange: true,
		"ttsr_injection": true, "session_init": true, "mode_change": true, "title_change": true, "service_tier_change": true,
	}
)

// kind is the format whose record the object is, kindText when none.
func (sh *shape) kind() inputKind {
	switch {
	case codexTypes[sh.typ] && sh.payloadObject:
		return kindCodex
	case sh.typ == "" && sh.hasAny(fID) && sh.hasAny(fInstructions|fGit):
		return kindCodex // the first line of a rollout of before September 2025
	case sh.isGemini():
		return kindGemini
	case sh.isQwen():
		return kindQwen
	case sh.isCopilot():
		return kindCopilot
	case sh.hasAny(fParentUUID | fLogicalParentUUID | fLeafUUID),
		sh.hasAny(fUUID) && (sh.hasAny(fSessionID) || claudeMessageTypes[sh.typ]):
		// Every Claude Code line with a uuid has a parentUuid (null at a
		// root), its sessionId and its type: a uuid alone is any log's
		// (Hermes' trace events have uuid and parent_uuid).
		return kindClaude
	case claudeMetaTypes[sh.typ] && sh.hasAny(fSessionID|fMessageID):
		return kindClaude
	case sh.typ == "session" || sh.typ == "title":
		return kindPi
	case piTypes[sh.typ] && (sh.typ != TypeMessage || sh.hasAny(fMessage|fID)):
		return kindPi
	case sh.typ != "" && sh.hasAny(fID) && sh.hasAny(fParentID):
		return kindPi // a current pi entry of a type we do not know
	}
	return kindText
}

// notSessionError is an input that holds no session canopy reads: it
// says what the input looks like, and what to do instead.
type notSessionError struct {
	what string
	hint string // after the message; the formats canopy reads when ""
}

func (e notSessionError) Error() string {
	hint := e.hint
	if hint == "" {
		hint = " (it reads the sessions of " + strings.Join(formatsRead(), ", ") + ")"
	}
	return e.what + ": not a session canopy reads" + hint
}

// formatsRead are the formats of the sessions canopy reads, as its
// readers declare them, sorted, each once (an agent's sessions may be
// read by several readers: a database, an export).
func formatsRead() []string {
	var names []string
	for _, r := range readers() {
		for _, f := range r.agent().Formats {
			if !slices.Contains(names, f) {
				names = append(names, f)
			}
		}
	}
	slices.Sort(names) // as people look for a name, not in the order they are tried
	return names
}

func (e notSessionError) Unwrap() error { return ErrNotSession }

func notSession(what string) error { return notSessionError{what: what} }

// refuseLines is the refusal of JSONL whose objects are of no format
// canopy reads; first is the first of them, n the non-blank lines probed.
// A file of one line is a document.
func refuseLines(first *shape, n int) error {
	if n == 1 {
		return refuseObject(first, "a JSON document")
	}
	return notSession("JSON lines whose first object has " + memberList(first))
}

// refuseDocument is the refusal of a JSON document of another kind: v is
// its value (an object or an array), several that it spans several lines.
func refuseDocument(v []byte, several bool) error {
	what := "a JSON document"
	if several {
		what = "a JSON document of several lines"
	}
	if len(v) > 0 && v[0] == '{' {
		sh := shapeOf(v)
		return refuseObject(&sh, what)
	}
	n, first := arrayShape(v)
	if first != nil && first.hasAny(fMapping) {
		return notSession("a ChatGPT export (" + what + ", an array of conversations with members " + names(first) + ")")
	}
	if first != nil && first.has&(fSessionID|fMessageID|fMessage) == fSessionID|fMessageID|fMessage && !first.messageParts {
		// Gemini CLI's logs.json (~/.gemini/tmp/<project>/): the prompts
		// typed, each {sessionId, messageId, type, message, timestamp},
		// kept to recall them. No reply is in it: the session is its
		// chat, chats/session-*.json beside it.
		return notSessionError{
			what: "a Gemini CLI prompt log (logs.json: " + plural(n, "prompt") + " typed, kept for recall, without replies)",
			hint: "; the session itself is the chat beside it, chats/session-*.json",
		}
	}
	switch {
	case n == 0:
		return notSession(what + ", an empty array")
	case first != nil:
		return notSession(what + ", an array of " + strconv.Itoa(n) + " values, the first an object with " + memberList(first))
	}
	return notSession(what + ", an array of " + strconv.Itoa(n) + " values that are not objects")
}

// refuseObject is the refusal of a document that is one object; what
// says how it is written.
func refuseObject(sh *shape, what string) error {
	switch {
	case sh.storeEntries > 0 && sh.storeEntries == min(sh.count, 4):
		// The message names no directory: it would name the file a second
		// time, where the caller already does.
		return notSessionError{
			what: "a gateway session store (sessions.json), which lists sessions rather than holding one",
			hint: "; to read the sessions it lists, archive the directory it is in: canopy archive DIR",
		}
	}
	return notSession(what + " with top-level " + memberList(sh))
}

// arrayShape counts the values of a JSON array and reads the shape of its
// first value, when it is an object.
func arrayShape(v []byte) (n int, first *shape) {
	w := walker{b: v}
	w.array(func() error {
		n++
		if n == 1 && w.kind() == '{' {
			raw, err := w.rawValue()
			sh := shapeOf(raw)
			first = &sh
			return err
		}
		return w.skip()
	})
	return n, first
}

// memberList says which members an object has: "members a, b" or "no
// members".
func memberList(sh *shape) string {
	if sh.count == 0 {
		return "no members"
	}
	return "members " + names(sh)
}

// names lists the object's first member names, shown safely: the message
// is one line of a terminal, and the names are the input's.
func names(sh *shape) string {
	shown := make([]string, len(sh.names))
	for i, n := range sh.names {
		shown[i] = safeName(n)
	}
	s := strings.Join(shown, ", ")
	if more := sh.count - len(sh.names); more > 0 {
		s += " and " + strconv.Itoa(more) + " more"
	}
	return s
}

// safeName is a member name as a message shows it: as it is when it is a
// plain word, else quoted (control characters escaped), and cut at 40
// characters.
func safeName(n string) string {
	if utf8.RuneCountInString(n) > 40 {
		r := []rune(n)
		n = string(r[:40]) + "…"
	}
	for _, c := range n {
		if !(c == '_' || c == '-' || c == '.' || c == '$' || c == '@' || c == '…' ||
			'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return strconv.QuoteToASCII(n)
		}
	}
	if n == "" {
		return `""`
	}
	return n
}

// plural is n and the word, made plural when n is not 1.
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
