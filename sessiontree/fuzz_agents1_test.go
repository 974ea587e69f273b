package sessiontree

import "testing"

// The first lines of the inputs FuzzGemini, FuzzQwen and FuzzCopilot
// load: whatever follows, the input is read as a Gemini CLI log, a Qwen
// Code chat, a Copilot CLI event log.
const (
	geminiStart  = `{"sessionId":"f","projectHash":"h","startTime":"2026-03-04T08:00:00.000Z"}`
	qwenStart    = `{"uuid":"fuzz0","parentUuid":null,"sessionId":"f","type":"user","version":"0.6.1","message":{"role":"user","parts":[{"text":"start"}]}}`
	copilotStart = `{"type":"session.start","data":{"sessionId":"f","copilotVersion":"1.0.0"},"id":"fuzz0","parentId":null}`
)

// FuzzGemini loads arbitrary lines as a Gemini CLI log, with FuzzClaude's
// checks (fuzzFormat).
func FuzzGemini(f *testing.F) {
	f.Add(agents1Fixture(f, "gemini", geminiLog))
	f.Add(jsonl(`{"id":"a","type":"gemini","toolCalls":[{"id":"c","status":"success","result":7},{"name":3},"x"],"thoughts":"no","tokens":{"input":"x"}}`,
		`{"$rewindTo":"a"}`, `{"$rewindTo":7}`, `{"$set":{"summary":"n","messages":[1]}}`, `{"$set":"x"}`,
		`{"id":"a","type":"user","content":{"functionResponse":{"response":"r"}}}`, `{"id":5}`, `[1]`, `{"id":"b","type":"info","content":[null,{"inlineData":{"data":"AA=="}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzFormat(t, append([]byte(geminiStart+"\n"), data...), FormatGemini)
	})
}

// FuzzQwen loads arbitrary lines as a Qwen Code chat.
func FuzzQwen(f *testing.F) {
	f.Add(agents1Fixture(f, "qwen", qwenChat))
	f.Add(jsonl(`{"uuid":"a","parentUuid":"fuzz0","type":"assistant","message":{"parts":[{"functionCall":{"name":"run_shell_command"}},{"functionCall":"x"},{"thought":"yes","text":1}]},"usageMetadata":{"promptTokenCount":-5}}`,
		`{"uuid":"b","parentUuid":"a","type":"tool_result","message":{"parts":"x"},"toolCallResult":{"callId":7,"error":{"message":"m"}}}`,
		`{"uuid":"c","parentUuid":"c","type":"system","subtype":"chat_compression","systemPayload":{"compressedHistory":[{"parts":[{"text":"s"}]}],"info":[]}}`,
		`{"uuid":"d","type":"system","subtype":"custom_title","systemPayload":"t"}`, `{"parentUuid":"x","type":"user"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzFormat(t, append([]byte(qwenStart+"\n"), data...), FormatQwen)
	})
}

// FuzzCopilot loads arbitrary lines as a Copilot CLI event log.
func FuzzCopilot(f *testing.F) {
	f.Add(agents1Fixture(f, "copilot", "events.jsonl"))
	f.Add(jsonl(`{"type":"assistant.message","data":{"toolRequests":[{"toolCallId":"t"},{"toolCallId":"t"},5],"outputTokens":"x","model":1},"id":"a"}`,
		`{"type":"tool.execution_start","data":{"toolCallId":"u","arguments":"{bad"},"id":"b","parentId":"b"}`,
		`{"type":"tool.execution_complete","data":{"toolCallId":"t","result":{"content":7},"error":"e","success":"no"},"id":"a"}`,
		`{"type":"session.shutdown","data":{"modelMetrics":{"":{"usage":{"inputTokens":1e308}},"m":5}},"id":"c"}`,
		`{"type":"session.model_change","data":[],"id":"d"}`, `{"type":"abort","data":{"reason":3}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzFormat(t, append([]byte(copilotStart+"\n"), data...), FormatCopilot)
	})
}
