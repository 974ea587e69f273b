package archive

import (
	"path/filepath"
	"testing"
)

// A Gemini CLI session kept as the older JSON document
// (chats/session-*.json) gets a page when its store is archived; the
// prompt log beside it (logs.json) does not, and is no problem.
func TestArchiveGeminiDocument(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "home", ".gemini", "tmp", "79b6fa86")
	write(t, filepath.Join(store, "chats", "session-2025-10-18T14-57-f86f5318.json"), `{
  "sessionId": "f86f5318-0000-4000-8000-000000000001",
  "projectHash": "79b6fa86e3c0d31765c7e3c6de511a7b96342a2e947135d5db396e49e27020cd",
  "startTime": "2025-10-18T14:57:28.974Z",
  "lastUpdated": "2025-10-18T14:58:07.161Z",
  "messages": [
    {"id": "u1", "timestamp": "2025-10-18T14:57:28.974Z", "type": "user", "content": "List the files in the current directory"},
    {"id": "a1", "timestamp": "2025-10-18T14:57:34.332Z", "type": "gemini", "content": "A Node.js project: src, tests, package.json.",
     "model": "gemini-2.5-pro", "tokens": {"input": 8500, "output": 15, "cached": 8000, "thoughts": 0, "tool": 0, "total": 8515}}
  ]
}`)
	write(t, filepath.Join(store, "logs.json"), `[{"sessionId": "f86f5318-0000-4000-8000-000000000001", "messageId": 0, "type": "user", "message": "List the files in the current directory", "timestamp": "2025-10-18T14:57:28.974Z"}]`)
	out := filepath.Join(dir, "out")
	res := run(t, []string{filepath.Join(dir, "home")}, out, Options{})
	if res.Sessions != 1 || len(res.Problems) > 0 {
		t.Fatalf("%+v", res)
	}
	s := manifest(t, out).Sessions[0]
	if s.Format != "gemini-cli" || s.Title != "List the files in the current directory" {
		t.Errorf("session %+v", s)
	}
}
