package sessiontree

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// cursorRows are Cursor's key-value table with two conversations: one of
// headers and bubbles (a prompt in <user_query>, a reply with thinking
// and a call, the call's result, a reply), one never begun; a JSON value
// written as a JSON string, and an ItemTable as the editor keeps.
var cursorRows = []string{
	`CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`,
	`CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`,
	`INSERT INTO cursorDiskKV VALUES ('composerData:c1', '{"_v":3,"composerId":"c1","name":"Add a test","createdAt":1760000000000,"lastUpdatedAt":1760000600000,"modelConfig":{"modelName":"claude-4-sonnet"},"workspaceIdentifier":{"uri":{"fsPath":"/home/me/proj"}},"fullConversationHeadersOnly":[{"bubbleId":"u1","type":1},{"bubbleId":"a1","type":2},{"bubbleId":"a2","type":2},{"bubbleId":"gone","type":2}],"subagentComposerIds":["c9"]}')`,
	`INSERT INTO cursorDiskKV VALUES ('composerData:c2', '{"composerId":"c2","createdAt":1760000000000,"fullConversationHeadersOnly":[]}')`,
	`INSERT INTO cursorDiskKV VALUES ('bubbleId:c1:u1', '{"_v":2,"type":1,"bubbleId":"u1","text":"<user_info>os</user_info>\n<user_query>\nadd a test for parse\n</user_query>","createdAt":"2025-10-09T08:53:21.000Z"}')`,
	`INSERT INTO cursorDiskKV VALUES ('bubbleId:c1:a1', '{"_v":2,"type":2,"bubbleId":"a1","text":"","thinking":{"text":"read parse.go"},"toolFormerData":{"name":"read_file","toolCallId":"tc_1","status":"completed","rawArgs":"{\"target_file\":\"parse.go\"}","result":"{\"contents\":\"package parse\"}"},"tokenCount":{"inputTokens":500,"outputTokens":40},"createdAt":"2025-10-09T08:53:25.000Z"}')`,
	`INSERT INTO cursorDiskKV VALUES ('bubbleId:c1:a2', '"{\"type\":2,\"bubbleId\":\"a2\",\"text\":\"Added **parse_test.go**.\",\"tokenCount\":{\"inputTokens\":600,\"outputTokens\":80}}"')`,
}

func TestCursorDB(t *testing.T) {
	path := makeDB(t, filepath.Join(t.TempDir(), "state.vscdb"), true, cursorRows...)
	_, list, ok, err := StoreSessions(path)
	if err != nil || !ok || len(list) != 1 || list[0].ID != "c1" || list[0].Title != "Add a test" || list[0].Cwd != "/home/me/proj" {
		t.Fatalf("conversations: %v %v %+v", ok, err, list)
	}
	s, err := LoadFile(path) // the one conversation begun
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Format != FormatCursorIDE || s.Name != "Add a test" || s.Header.Cwd != "/home/me/proj" {
		t.Errorf("format %q name %q cwd %q", s.Format, s.Name, s.Header.Cwd)
	}
	var got []string
	for _, e := range s.Entries {
		got = append(got, e.ID+" "+e.Role+" "+e.Model)
	}
	want := []string{"u1 user ", "a1 assistant claude-4-sonnet", "tc_1.result toolResult ", "a2 assistant claude-4-sonnet"}
	if !slices.Equal(got, want) {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	b, err := s.Entry("u1").Decode()
	if err != nil || b.Message.Content[0].Text != "add a test for parse" {
		t.Errorf("prompt: %+v %v", b, err)
	}
	if PairCalls(s).Result(s.Entry("a1"), "tc_1") == nil {
		t.Error("the call has no result")
	}
	if st := s.Stats(s.Entries); st.Usage.Input != 1100 || st.Usage.Output != 120 {
		t.Errorf("usage %+v", st.Usage)
	}
	if len(s.ChildSessions) != 1 || s.ChildSessions[0].Session != "c9" {
		t.Errorf("subagents %+v", s.ChildSessions)
	}
}
