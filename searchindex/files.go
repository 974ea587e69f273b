package searchindex

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/klauspost/compress/gzip"
)

// Where the index's files are, in the archive.
const (
	Dir       = "search"
	MetaPath  = Dir + "/meta.js"
	shardDir  = Dir + "/t/"
	textDir   = Dir + "/text/"
	maxDecode = 256 << 20 // a text file decompressed; MaxSessionText and its JSON are far below
)

// IsIndexFile reports whether path (in an archive, slash-separated) is a
// file Build makes from the text files: meta.js or a shard. A text file
// is not one: it is made with its session's page.
func IsIndexFile(path string) bool {
	return path == MetaPath || strings.HasPrefix(path, shardDir)
}

// IsTextFile reports whether path is a session's text file.
func IsTextFile(path string) bool { return strings.HasPrefix(path, textDir) }

// TextPath is the text file of the session whose page is page: named by
// a hash of the page's path (page paths are long, and any character may
// be in them).
//
// They are dealt into 256 directories by the id's first two characters:
// thousands of files made at once in one directory made ext4 look long
// for a free inode (a tenth of an archive's CPU time in the kernel).
func TextPath(page string) string {
	id := textID(page)
	return textDir + id[:2] + "/" + id + ".js"
}

func textID(page string) string {
	h := sha256.Sum256([]byte(page))
	return hex.EncodeToString(h[:8])
}

// textPayload is what a text file holds, compressed.
type textPayload struct {
	Page    string      `json:"page"`
	Entries [][4]string `json:"e"` // id, leaf, kind, text
}

// EncodeText is the text file of page's session: its entries' text.
func EncodeText(page string, entries []Entry) ([]byte, error) {
	p := textPayload{Page: page, Entries: make([][4]string, len(entries))}
	for i, e := range entries {
		p.Entries[i] = [4]string{e.ID, e.Leaf, e.Kind, e.Text}
	}
	// Gzip's fastest level: the text files are most of the index and
	// are written with every page; measured on the benchmark's sessions,
	// the default level took 1.5x the time for 16% smaller files.
	return register("text", textID(page), p, gzip.BestSpeed)
}

// DecodeText reads a text file back: the page it is for and the entries.
func DecodeText(data []byte) (string, []Entry, error) {
	var p textPayload
	if err := unregister(data, "text", &p); err != nil {
		return "", nil, err
	}
	out := make([]Entry, len(p.Entries))
	for i, e := range p.Entries {
		out[i] = Entry{ID: e[0], Leaf: e[1], Kind: e[2], Text: e[3]}
	}
	return p.Page, out, nil
}

// register is a script that hands v to the index page's script: the
// JSON of v, gzip-compressed at level, in base64, as the argument of
// canopySearch.<fn>(id, data). Neither id (hex) nor the base64 can end
// the string they are in.
func register(fn, id string, v any, level int) ([]byte, error) {
	js, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		return nil, fmt.Errorf("encoding the search index: %w", err)
	}
	var z bytes.Buffer
	zw, err := gzip.NewWriterLevel(&z, level)
	if err != nil {
		return nil, err
	}
	zw.Write(js) // a bytes.Buffer does not fail
	if err := zw.Close(); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Grow(base64.StdEncoding.EncodedLen(z.Len()) + 64)
	fmt.Fprintf(&out, "window.canopySearch&&canopySearch.%s(%q,\"", fn, id)
	out.WriteString(base64.StdEncoding.EncodeToString(z.Bytes()))
	out.WriteString("\");\n")
	return out.Bytes(), nil
}

// unregister reads back what register wrote into v.
func unregister(data []byte, fn string, v any) error {
	prefix := "window.canopySearch&&canopySearch." + fn + "("
	s := string(data)
	if !strings.HasPrefix(s, prefix) {
		return errors.New("not a search " + fn + " file")
	}
	s = s[len(prefix):]
	i := strings.Index(s, ",\"")
	j := strings.LastIndex(s, "\");")
	if i < 0 || j < i+2 {
		return errors.New("not a search " + fn + " file")
	}
	z, err := base64.StdEncoding.DecodeString(s[i+2 : j])
	if err != nil {
		return fmt.Errorf("search %s file: %w", fn, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return fmt.Errorf("search %s file: %w", fn, err)
	}
	js, err := io.ReadAll(io.LimitReader(zr, maxDecode+1))
	if err != nil {
		return fmt.Errorf("search %s file: %w", fn, err)
	}
	if len(js) > maxDecode {
		return fmt.Errorf("search %s file: larger than %d MB decompressed", fn, maxDecode>>20)
	}
	if err := json.Unmarshal(js, v); err != nil {
		return fmt.Errorf("search %s file: %w", fn, err)
	}
	return nil
}
