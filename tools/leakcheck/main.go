// Command leakcheck is tools/leakcheck.sh's helper: it unpacks what a
// canopy page holds compressed, lists the secrets canopy's detector finds
// in a session with their values, and says which secrets of a session are
// still in its exported outputs. It is a test tool, not part of canopy.
//
//	leakcheck unpack PAGE.html OUTDIR [OTHER_OUTPUT...]
//	leakcheck secrets SESSION
//	leakcheck survivors SESSION GITLEAKS_IN.json CANOPY_IN.json GITLEAKS_OUT.json CANOPY_OUT.json OUTDIR
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"canopy/redact"
)

func main() {
	var err error
	switch {
	case len(os.Args) >= 4 && os.Args[1] == "unpack":
		err = unpackAll(os.Args[2], os.Args[3], os.Args[4:])
	case len(os.Args) == 3 && os.Args[1] == "secrets":
		err = secrets(os.Args[2], os.Stdout)
	case len(os.Args) == 8 && os.Args[1] == "survivors":
		err = survivors(os.Args[2:], os.Stdout)
	default:
		fmt.Fprintln(os.Stderr, "usage: leakcheck unpack PAGE OUTDIR [OTHER...] | secrets SESSION | survivors SESSION GL_IN CANOPY_IN GL_OUT CANOPY_OUT OUTDIR")
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "leakcheck:", err)
		os.Exit(1)
	}
}

// gzBlob: base64 that starts with gzip's magic (H4sI), as the page writes
// its store chunks (<script type="text/x-canopy" … data-z>) and the
// embedded source (a JSON string): any of them, wherever it is, so that
// nothing compressed is left unread if the page's layout changes.
var gzBlob = regexp.MustCompile(`H4sI[A-Za-z0-9+/]*={0,2}`)

// unpackAll unpacks the page into dir, copies the other outputs (the
// Markdown) there as other-N, and writes dir/scan.jsonl: every decoded
// text as one message of a session, for canopy scan, which reads
// sessions, not text.
func unpackAll(page, dir string, others []string) error {
	if err := unpack(page, dir); err != nil {
		return err
	}
	for n, o := range others {
		b, err := os.ReadFile(o)
		if err != nil {
			return err
		}
		if err := writeBoth(filepath.Join(dir, fmt.Sprintf("other-%d", n+1)), b); err != nil {
			return err
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.decoded.txt"))
	if err != nil {
		return err
	}
	var sess bytes.Buffer
	enc := json.NewEncoder(&sess)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		msg := map[string]any{"type": "message", "id": filepath.Base(f),
			"message": map[string]any{"role": "user", "content": string(b)}}
		if err := enc.Encode(msg); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "scan.jsonl"), sess.Bytes(), 0o644)
}

// unpack writes into dir the page with every gzip blob replaced by its
// text (page.txt), each blob alone (blob-N.txt), and the same texts with
// HTML entities and JSON escapes decoded (*.decoded.txt), since a secret
// in the page's tree data is written "\u0026" or "&amp;" where the
// session had "&".
func unpack(page, dir string) error {
	b, err := os.ReadFile(page)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	n := 0
	var ferr error
	text := gzBlob.ReplaceAllFunc(b, func(m []byte) []byte {
		plain, err := gunzip(m)
		if err != nil {
			return m // base64 that only looks like gzip
		}
		n++
		if err := writeBoth(filepath.Join(dir, fmt.Sprintf("blob-%d", n)), plain); err != nil {
			ferr = err
		}
		return plain
	})
	if ferr != nil {
		return ferr
	}
	return writeBoth(filepath.Join(dir, "page"), text)
}

func gunzip(b64 []byte) ([]byte, error) {
	z := make([]byte, base64.StdEncoding.DecodedLen(len(b64)))
	n, err := base64.StdEncoding.Decode(z, b64)
	if err != nil {
		return nil, err
	}
	r, err := gzip.NewReader(bytes.NewReader(z[:n]))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// writeBoth writes base.txt as it is and base.decoded.txt decoded.
func writeBoth(base string, b []byte) error {
	if err := os.WriteFile(base+".txt", b, 0o644); err != nil {
		return err
	}
	return os.WriteFile(base+".decoded.txt", []byte(decodeText(string(b))), 0o644)
}

var jsonEscape = regexp.MustCompile(`\\u[0-9a-fA-F]{4}|\\[/"\\]`)

// decodeText undoes HTML entities and the JSON escapes that hide a
// secret's characters (\u0026, \/, \"); \n and \t stay, so lines stay.
func decodeText(s string) string {
	s = jsonEscape.ReplaceAllStringFunc(s, func(m string) string {
		if m[1] != 'u' {
			return m[1:]
		}
		if r, err := strconv.Unquote(`"` + m + `"`); err == nil {
			return r
		}
		return m
	})
	return html.UnescapeString(s)
}

var marker = regexp.MustCompile(`\[REDACTED:[a-z0-9-]+#[0-9]+\]`)

// secret is one secret of a session: a rule's kind and the value.
type secret struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// secrets prints, one JSON object a line, the secrets canopy's detector
// replaces in the session: the bytes each marker of the redacted copy
// stands for (the report never holds them), JSON escapes decoded.
func secrets(path string, w io.Writer) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	r, err := redact.New()
	if err != nil {
		return err
	}
	out, _ := r.Redact(data)
	seen := map[string]bool{}
	enc := json.NewEncoder(w)
	for _, s := range markedValues(data, out) {
		if !seen[s.Value] {
			seen[s.Value] = true
			if err := enc.Encode(s); err != nil {
				return err
			}
		}
	}
	return nil
}

// markedValues walks the input and its redacted copy together: the text
// between markers is the same in both, so each marker stands for the
// input's bytes from where the text before it ends to where the text
// after it starts (up to 64 bytes of it are looked for). Markers that
// were in the input already (an output scanned again) stand for
// themselves.
func markedValues(in, out []byte) []secret {
	var found []secret
	locs := marker.FindAllIndex(out, -1)
	i, o := 0, 0
	for k, m := range locs {
		i += m[0] - o                                // the text before the marker
		if bytes.HasPrefix(in[i:], out[m[0]:m[1]]) { // a marker the input had already
			i, o = i+m[1]-m[0], m[1]
			continue
		}
		next := out[m[1]:]
		if k+1 < len(locs) {
			next = out[m[1]:locs[k+1][0]]
		}
		next = next[:min(len(next), 64)]
		end := len(in)
		if len(next) > 0 {
			e := bytes.Index(in[i+1:], next)
			if e < 0 {
				break
			}
			end = i + 1 + e
		}
		kind := string(out[m[0]+10 : bytes.IndexByte(out[m[0]:m[1]], '#')+m[0]])
		v := string(in[i:end])
		if u, err := strconv.Unquote(`"` + v + `"`); err == nil {
			v = u
		}
		found = append(found, secret{Kind: kind, Value: v})
		i, o = end, m[1]
	}
	return found
}

// glFinding is what leakcheck reads of a gitleaks JSON report.
type glFinding struct {
	RuleID string
	Secret string
}

func readGitleaks(path string) ([]secret, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var fs []glFinding
	if err := json.Unmarshal(b, &fs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []secret
	for _, f := range fs {
		// Its generic rule takes any long word after key, token, auth,
		// ...: in transcripts mostly ids and hashes (see the brief).
		if f.RuleID == "generic-api-key" {
			continue
		}
		v := f.Secret
		if u, err := strconv.Unquote(`"` + v + `"`); err == nil {
			v = u
		}
		out = append(out, secret{Kind: f.RuleID, Value: v})
	}
	return out, nil
}

func readSecrets(path string) ([]secret, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []secret
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var s secret
		if err := dec.Decode(&s); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// survivors prints one tab-separated row for the session: the secrets
// gitleaks and canopy find in its input, how many of them are still in
// the outputs (their value anywhere in the unpacked texts, or found
// again there by either tool), then one line for each that is, masked.
func survivors(args []string, w io.Writer) error {
	session, dir := args[0], args[5]
	var lists [4][]secret
	for i, p := range args[1:5] {
		var err error
		if i%2 == 0 {
			lists[i], err = readGitleaks(p)
		} else {
			lists[i], err = readSecrets(p)
		}
		if err != nil {
			return err
		}
	}
	outText, err := outputsText(dir)
	if err != nil {
		return err
	}
	foundOut := map[string]bool{}
	for _, s := range append(lists[2], lists[3]...) {
		foundOut[s.Value] = true
	}
	glIn, cIn := distinct(lists[0]), distinct(lists[1])
	var lines []string
	count := func(in []secret) int {
		n := 0
		for _, s := range in {
			if foundOut[s.Value] || len(s.Value) >= 6 && strings.Contains(outText, s.Value) {
				n++
				lines = append(lines, fmt.Sprintf("  survives: %s %s", s.Kind, mask(s.Value)))
			}
		}
		return n
	}
	glSurv, cSurv := count(glIn), count(cIn)
	fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%d\n", filepath.Base(session), len(glIn), len(cIn),
		glSurv, cSurv, len(distinct(lists[2])), len(distinct(lists[3])))
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	return nil
}

// outputsText is every unpacked output of dir, as it is and decoded.
func outputsText(dir string) (string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return "", err
	}
	var all strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		all.Write(b)
		all.WriteByte(0)
	}
	return all.String(), nil
}

func distinct(in []secret) []secret {
	seen := map[string]bool{}
	var out []secret
	for _, s := range in {
		if !seen[s.Value] {
			seen[s.Value] = true
			out = append(out, s)
		}
	}
	return out
}

// mask shows a secret's start and length only: the report is shared.
func mask(v string) string {
	return fmt.Sprintf("%q… (%d chars)", v[:min(len(v), 6)], len(v))
}
