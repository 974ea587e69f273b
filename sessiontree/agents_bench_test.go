package sessiontree

import (
	"bytes"
	"encoding/json"
	"testing"
)

// agentBenchSize is about how large the benchmark's session of each
// agent is: its test session repeated.
const agentBenchSize = 4 << 20

// agentInput is an agent's test session grown to agentBenchSize: a JSONL
// one's records (past its header line) repeated, a document's messages
// repeated (member, "" for an array), Aider's runs repeated.
func agentInput(name, file string, header bool, member string) benchInput {
	return benchInput{"agent-" + name, func(b *testing.B) []byte {
		data := agentFixture(b, file)
		if member != "" || bytes.HasPrefix(data, []byte("[")) {
			return growDocument(b, data, member)
		}
		var out bytes.Buffer
		body := data
		if header {
			i := bytes.IndexByte(data, '\n') + 1
			out.Write(data[:i])
			body = data[i:]
		}
		for out.Len() < agentBenchSize {
			out.Write(body)
		}
		return out.Bytes()
	}}
}

// growDocument repeats a document's messages.
func growDocument(b *testing.B, data []byte, member string) []byte {
	var doc map[string]json.RawMessage
	var msgs []json.RawMessage
	var err error
	if member == "" {
		err = json.Unmarshal(data, &msgs)
	} else if err = json.Unmarshal(data, &doc); err == nil {
		err = json.Unmarshal(doc[member], &msgs)
	}
	if err != nil {
		b.Fatal(err)
	}
	var grown []json.RawMessage
	for size := 0; size < agentBenchSize; {
		for _, m := range msgs {
			grown = append(grown, m)
			size += len(m)
		}
	}
	var out []byte
	if member == "" {
		out, err = json.Marshal(grown)
	} else {
		doc[member], _ = json.Marshal(grown)
		out, err = json.MarshalIndent(doc, "", "  ")
	}
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// agentInputs are the benchmark's sessions of the agents read as chains.
var agentInputs = []benchInput{
	agentInput("kimi", "kimi/wire.jsonl", true, ""),
	agentInput("amp", "amp/T-3f1c2a9e-1b2c-4d5e-8f90-a1b2c3d4e5f6.json", false, "messages"),
	agentInput("cursor", "cursor/5b0e8c1a-2f3d-4e5f-9a0b-1c2d3e4f5a6b.jsonl", false, ""),
	agentInput("hermes", "hermes/20260101_100000_5a3e2ff1.jsonl", true, ""),
	agentInput("cline", "cline/task1/api_conversation_history.json", false, ""),
	agentInput("aider", "aider/.aider.chat.history.md", false, ""),
}
