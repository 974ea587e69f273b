package sessiontree

import (
	"path/filepath"
	"strings"
	"testing"
)

// OpenCode's /undo sets the session's revert to the first message it
// undid, and keeps the messages until the next prompt: they are a
// branch, abandoned, and the session's path ends before them.
func TestOpenCodeRevertIsABranch(t *testing.T) {
	rows := []string{
		`ALTER TABLE session ADD COLUMN revert TEXT`,
		`INSERT INTO session VALUES ('ses_r', 'p1', NULL, 's', '/src/app', 'Rename the flag', '1.2.3', 1760000000000, 1760000900000, '{"messageID":"msg_3","snapshot":"abc"}')`,
		`INSERT INTO message VALUES ('msg_1', 'ses_r', 1760000000000, 0, '{"role":"user","time":{"created":1760000000000}}')`,
		`INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_r', 0, 0, '{"type":"text","text":"rename --verbose to --debug"}')`,
		`INSERT INTO message VALUES ('msg_2', 'ses_r', 1760000001000, 0, '{"role":"assistant","time":{"created":1760000001000},"parentID":"msg_1","modelID":"claude-sonnet-4","providerID":"anthropic","cost":0.01,"tokens":{"input":10,"output":5,"cache":{"read":0,"write":0}}}')`,
		`INSERT INTO part VALUES ('prt_2', 'msg_2', 'ses_r', 0, 0, '{"type":"text","text":"Renamed."}')`,
		`INSERT INTO message VALUES ('msg_3', 'ses_r', 1760000002000, 0, '{"role":"user","time":{"created":1760000002000}}')`,
		`INSERT INTO part VALUES ('prt_3', 'msg_3', 'ses_r', 0, 0, '{"type":"text","text":"now delete the old flag everywhere"}')`,
		`INSERT INTO message VALUES ('msg_4', 'ses_r', 1760000003000, 0, '{"role":"assistant","time":{"created":1760000003000},"parentID":"msg_3","modelID":"claude-sonnet-4","providerID":"anthropic","cost":0.02,"tokens":{"input":20,"output":5,"cache":{"read":0,"write":0}}}')`,
		`INSERT INTO part VALUES ('prt_4', 'msg_4', 'ses_r', 0, 0, '{"type":"text","text":"Deleted it in twelve files."}')`,
	}
	path := makeDB(t, filepath.Join(t.TempDir(), "opencode.db"), false, append(append([]string{}, openCodeSchema...), rows...)...)
	s, err := LoadFileWith(path, LoadOptions{Session: "ses_r"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if leaves, points := s.Shape(); leaves != 2 || points != 1 {
		t.Errorf("%d leaves, %d branch points; want 2, 1", leaves, points)
	}
	var onPath []string
	for _, e := range s.Path(s.Leaf) {
		onPath = append(onPath, e.ID)
	}
	if got := strings.Join(onPath, ","); !strings.HasPrefix(got, "msg_1,") || strings.Contains(got, "msg_3") || s.Leaf.Type != TypeBranchSummary {
		t.Errorf("path %s, leaf %s %s", got, s.Leaf.ID, s.Leaf.Type)
	}
	undone := s.byID["msg_4"]
	if undone == nil || undone.Role != RoleAssistant {
		t.Fatalf("the undone reply is not kept: %+v", undone)
	}
}
