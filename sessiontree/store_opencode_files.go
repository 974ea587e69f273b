package sessiontree

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// openCodeFiles reads a session of OpenCode's storage tree, as versions
// before 1.2 kept them (and a migrated install may still hold them):
// storage/session/<project>/<session id>.json, the session's info, is the
// file named; its messages are storage/message/<session id>/<message
// id>.json, and each message's parts storage/part/<message id>/<part
// id>.json. They are the objects the database keeps in its data columns,
// with their ids, read in the order of their ids (OpenCode's ids grow
// with time) and written as the database's are (writeOpenCode).
type openCodeFiles struct{}

// agent: OpenCode's, its directory declared once (by the database's
// reader).
func (openCodeFiles) agent() Agent {
	a := openCodeDB{}.agent()
	a.Dirs = nil
	return a
}
func (openCodeFiles) cut(s *Session) Cut { return piReader{}.cut(s) }

// ocSessionInfo is what is read of a session's info file.
type ocSessionInfo struct {
	ID        lstr   `json:"id"`
	ProjectID lstr   `json:"projectID"`
	Directory lstr   `json:"directory"`
	ParentID  lstr   `json:"parentID"`
	Title     lstr   `json:"title"`
	Version   lstr   `json:"version"`
	Time      ocTime `json:"time"`
	Type      *lstr  `json:"type"`
	Entries   *lstr  `json:"entries"`
	// Revert is a pending /undo: {"messageID", ...} (ocRevertFrom).
	Revert jsontext.Value `json:"revert"`
}

// openCodeInfo reads the input's start as a session's info: one small
// JSON object with an id "ses_…", a project or directory, a creation
// time, and neither "type" nor "entries".
func (p *probe) openCodeInfo() *ocSessionInfo {
	t := bytes.TrimSpace(p.chunk)
	if len(t) == 0 || t[0] != '{' || len(t) > 64<<10 || !bytes.Contains(t, []byte(`"ses_`)) {
		return nil
	}
	var info ocSessionInfo
	if json.Unmarshal(t, &info, jsonOpts) != nil || !strings.HasPrefix(string(info.ID), "ses_") ||
		info.ProjectID == "" && info.Directory == "" || info.Time.Created <= 0 || info.Type != nil || info.Entries != nil {
		return nil
	}
	return &info
}

func (openCodeFiles) detect(p *probe) bool { return p.openCodeInfo() != nil }

// Bounds on what is read of a storage tree: a message or a part is a
// small object (a tool's output is cut by OpenCode well below this).
const (
	maxOCFile  = 64 << 20
	maxOCFiles = 200_000
)

func (openCodeFiles) read(s *Session, in *input, p *probe) error {
	info := p.openCodeInfo()
	name := in.src.name
	if in.src.data != nil || name == "" || name == "-" {
		return notSession("an OpenCode session's info, without the storage directory its messages are in (name the file in OpenCode's storage/session/)")
	}
	// <root>/session/<project>/<id>.json
	root := filepath.Dir(filepath.Dir(filepath.Dir(name)))
	id := string(info.ID)
	w := &docWriter{format: FormatOpenCode, session: id}
	w.start(msTime(int64(info.Time.Created)), string(info.Directory), string(info.Title), string(info.ParentID), string(info.Version))
	count := 0
	msgs, err := readOCDir(filepath.Join(root, "message", id), &count)
	if err != nil {
		return fmt.Errorf("the session's messages: %w", err)
	}
	var out []ocMessage
	for _, m := range msgs {
		parts, err := readOCDir(filepath.Join(root, "part", m.id), &count)
		if err != nil {
			return fmt.Errorf("the parts of message %s: %w", m.id, err)
		}
		om := ocMessage{id: m.id, data: m.data}
		for _, pt := range parts {
			om.parts = append(om.parts, ocRawPart{pt.id, pt.data})
		}
		out = append(out, om)
	}
	revert := ""
	if len(info.Revert) > 0 && info.Revert[0] == '{' {
		revert = string(info.Revert)
	}
	writeOpenCode(w, out, ocRevertFrom(revert, out))
	return loadDocument(s, in, w.bytes())
}

// ocFileData is one object file of the tree: its id (the file's name)
// and bytes.
type ocFileData struct {
	id   string
	data []byte
}

// readOCDir reads the .json files of dir, in the order of their names; a
// directory that is not there holds none. count bounds the files read.
func readOCDir(dir string, count *int) ([]ocFileData, error) {
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []ocFileData
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		if *count++; *count > maxOCFiles {
			return nil, fmt.Errorf("more than %d files", maxOCFiles)
		}
		data, err := readSmall(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		out = append(out, ocFileData{id: strings.TrimSuffix(name, ".json"), data: data})
	}
	slices.SortFunc(out, func(a, b ocFileData) int { return strings.Compare(a.id, b.id) })
	return out, nil
}

// readSmall reads a file of at most maxOCFile bytes, read-only.
func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxOCFile+1))
	if err == nil && len(data) > maxOCFile {
		err = fmt.Errorf("%s: larger than %d bytes", path, maxOCFile)
	}
	return data, err
}

// StoreTwin is, for a file that holds a session an agent's database may
// hold too, that database's path and the session's id there: OpenCode
// 1.2 copied its storage/ tree into opencode.db beside it and left the
// files, so a session of before then is in both
// (<dir>/storage/session/<project>/<id>.json and <dir>/opencode.db). A
// session found both ways is one session, read from the database.
func StoreTwin(path string) (db, id string, ok bool) {
	id, isJSON := strings.CutSuffix(filepath.Base(path), ".json")
	session := filepath.Dir(filepath.Dir(path))
	storage := filepath.Dir(session)
	if !isJSON || !strings.HasPrefix(id, "ses_") || filepath.Base(session) != "session" || filepath.Base(storage) != "storage" {
		return "", "", false
	}
	return filepath.Join(filepath.Dir(storage), "opencode.db"), id, true
}
