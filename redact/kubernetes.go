// Kubernetes and Docker configuration: the values of a Secret's data and
// stringData (YAML or JSON, also in JSON-escaped text), and the auth and
// tokens of a Docker config.json.

package redact

import (
	"encoding/base64"
	"sort"
	"strings"
)

// kubernetesSecret: the values under data: (base64) and stringData: of a
// Kubernetes Secret, in YAML (kind: Secret before or after the data, in
// the same document) or JSON ("kind": "Secret"). In text whose line
// breaks are JSON escapes (a line that is not valid JSON), the manifest is
// read from an unescaped copy.
func kubernetesSecret(d *detector, at, kwLen int) {
	s := d.s
	if !leftOK(s, at) {
		return
	}
	p := at + kwLen
	isJSON := p < len(s) && s[p] == '"'
	if isJSON {
		p++
	}
	for p < len(s) && (s[p] == ' ' || s[p] == '\t' || s[p] == '\\' && isJSON) {
		p++
	}
	if p >= len(s) || s[p] != ':' {
		return
	}
	p++
	for p < len(s) && (s[p] == ' ' || s[p] == '\t' || s[p] == '"' || s[p] == '\'' || s[p] == '\\') {
		p++
	}
	if len(s)-p < 6 || !strings.EqualFold(s[p:p+6], "secret") || p+6 < len(s) && sets[setWord][s[p+6]] {
		return
	}
	near := s[max(0, at-4096):min(len(s), at+4096)]
	if strings.IndexByte(near, '\n') < 0 && strings.Contains(near, `\n`) {
		a, b := max(0, at-1<<16), min(len(s), at+1<<16)
		text, rawOf := unescapeMap(s[a:b])
		k := sort.Search(len(rawOf), func(i int) bool { return int(rawOf[i]) >= at-a })
		k8sDocument(d, k8sText{text: text, base: a, rawOf: rawOf}, k, isJSON)
		return
	}
	k8sDocument(d, k8sText{text: s}, at, isJSON)
}

// k8sText is the text a manifest is read in: d.s, or an unescaped copy of
// s[base:] with rawOf mapping each of its bytes to an offset from base.
type k8sText struct {
	text  string
	base  int
	rawOf []int32
}

// span maps a span of the text to one of d.s.
func (t k8sText) span(a, b int) (int, int) {
	if t.rawOf == nil {
		return a, b
	}
	return t.base + int(t.rawOf[a]), t.base + int(t.rawOf[b-1]) + 1
}

func k8sDocument(d *detector, t k8sText, at int, isJSON bool) {
	s := t.text
	// The document: between YAML "---" lines.
	ds := strings.LastIndex(s[:at], "\n---")
	ds++
	de := len(s)
	if k := strings.Index(s[at:], "\n---"); k >= 0 {
		de = at + k
	}
	doc := s[:de]
	for _, block := range []string{"data", "stringData"} {
		for from := ds; ; {
			k := strings.Index(doc[from:], block)
			if k < 0 {
				break
			}
			k += from
			from = k + len(block)
			if k > 0 && sets[setWord][doc[k-1]] || from < len(doc) && sets[setWord][doc[from]] {
				continue
			}
			if isJSON || k > 0 && doc[k-1] == '"' {
				k8sJSONData(d, t, doc, from, block == "data")
			} else {
				k8sYAMLData(d, t, doc, k, from, block == "data")
			}
		}
	}
}

// unescapeMap decodes the JSON escapes \n \t \r \" \\ \/ of raw (others are
// kept as they are), with the offset in raw of each byte of the result and
// len(raw) at the end.
func unescapeMap(raw string) (string, []int32) {
	out := make([]byte, 0, len(raw))
	rawOf := make([]int32, 0, len(raw)+1)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\\' && i+1 < len(raw) {
			switch raw[i+1] {
			case 'n':
				c = '\n'
			case 't':
				c = '\t'
			case 'r':
				c = '\r'
			case '"', '\\', '/':
				c = raw[i+1]
			}
			if c != '\\' || raw[i+1] == '\\' {
				out = append(out, c)
				rawOf = append(rawOf, int32(i))
				i++
				continue
			}
		}
		out = append(out, c)
		rawOf = append(rawOf, int32(i))
	}
	rawOf = append(rawOf, int32(len(raw)))
	return string(out), rawOf
}

// lineIndent returns the start of the line holding k and the width of
// its indentation: blanks, and the +, - and line number that an edit's
// diff puts before each line ("+ 13     password: ...").
func lineIndent(doc string, k int) (ls, indent int) {
	ls = strings.LastIndexByte(doc[:k], '\n') + 1
	i := ls
	for i < len(doc) && indentByte(doc[i]) {
		i++
	}
	return ls, i - ls
}

func indentByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '+' || c == '-' || '0' <= c && c <= '9'
}

// k8sYAMLData reads the members of the YAML block whose key (data: or
// stringData:) is at k, ending at from: the lines after it indented more
// than the key, each a name, a colon and a value on the line or in a
// block below it.
func k8sYAMLData(d *detector, t k8sText, doc string, k, from int, b64 bool) {
	ls, ind := lineIndent(doc, k)
	if ls+ind != k || !strings.HasPrefix(doc[from:], ":") {
		return // not a key at the start of its line
	}
	p := from + 1
	for p < len(doc) && (doc[p] == ' ' || doc[p] == '\t') {
		p++
	}
	if p < len(doc) && doc[p] != '\n' && doc[p] != '\r' && doc[p] != '#' {
		return // data: on one line ({} or a scalar)
	}
	// The member lines: indented more than "data:".
	line := strings.IndexByte(doc[p:], '\n')
	if line < 0 {
		return
	}
	p += line + 1
	for p < len(doc) {
		e := lineEnd(doc, p)
		_, li := lineIndent(doc, p)
		text := strings.TrimSpace(doc[p:e])
		if text == "" || text[0] == '#' {
			p = e + 1
			continue
		}
		if li <= ind {
			return
		}
		c := strings.Index(doc[p:e], ":")
		if c < 0 {
			p = e + 1
			continue
		}
		vs, ve := yamlLineValue(doc, p+c+1, e, b64)
		next := e + 1
		if v := doc[vs:ve]; v == "|" || v == ">" || strings.HasPrefix(v, "|-") || strings.HasPrefix(v, ">-") ||
			strings.HasPrefix(v, "|+") || strings.HasPrefix(v, ">+") || v == "" {
			// A block value: the lines indented more than its key.
			vs, ve, next = yamlBlockValue(doc, next, li)
			if vs < 0 {
				p = next
				continue
			}
		}
		k8sValue(d, t, doc, vs, ve, b64)
		p = next
	}
}

// lineEnd returns the end of the line that starts at p: its line break,
// or the end of doc.
func lineEnd(doc string, p int) int {
	e := strings.IndexByte(doc[p:], '\n')
	if e < 0 {
		return len(doc)
	}
	return e + p
}

// yamlLineValue returns the span of a member's value on its line, between
// the colon's end vs and the line's end e, without blanks around it.
func yamlLineValue(doc string, vs, e int, b64 bool) (int, int) {
	for vs < e && (doc[vs] == ' ' || doc[vs] == '\t') {
		vs++
	}
	ve := e
	for ve > vs && (doc[ve-1] == ' ' || doc[ve-1] == '\t' || doc[ve-1] == '\r') {
		ve--
	}
	if b64 { // base64 has no blanks: what follows is not the value
		if sp := strings.IndexAny(doc[vs:ve], " \t"); sp >= 0 {
			ve = vs + sp
		}
	}
	return vs, ve
}

// yamlBlockValue reads a block value: the lines from q indented more than
// its key (li), from the first one's text to the last one's. It returns
// that span (vs < 0: none has text) and the start of the line after them.
func yamlBlockValue(doc string, q, li int) (vs, ve, next int) {
	vs, ve = -1, -1
	for q < len(doc) {
		qe := lineEnd(doc, q)
		_, qi := lineIndent(doc, q)
		if strings.TrimSpace(doc[q:qe]) != "" && qi <= li {
			break
		}
		if t := strings.TrimSpace(doc[q:qe]); t != "" {
			if vs < 0 {
				vs = q + strings.Index(doc[q:qe], t)
			}
			ve = q + strings.Index(doc[q:qe], t) + len(t)
		}
		q = qe + 1
	}
	return vs, ve, q
}

func k8sJSONData(d *detector, t k8sText, doc string, from int, b64 bool) {
	p := from
	for p < len(doc) && strings.IndexByte("\" \t\r\n:", doc[p]) >= 0 {
		p++
	}
	if p >= len(doc) || doc[p] != '{' {
		return
	}
	end := strings.IndexByte(doc[p:], '}')
	if end < 0 {
		return
	}
	obj := doc[p : p+end]
	for i := 0; i < len(obj); {
		c := strings.Index(obj[i:], `":`)
		if c < 0 {
			return
		}
		q := i + c + 2
		for q < len(obj) && (obj[q] == ' ' || obj[q] == '\t' || obj[q] == '\n' || obj[q] == '\r') {
			q++
		}
		if q >= len(obj) || obj[q] != '"' {
			i = q
			continue
		}
		e := strings.IndexByte(obj[q+1:], '"')
		if e < 0 {
			return
		}
		k8sValue(d, t, doc, p+q+1, p+q+1+e, b64)
		i = q + 1 + e + 1
	}
}

// k8sValue: a Secret's value, unless empty or a template; under data: it
// must be base64 of at least 8 bytes (shorter ones are test values such as
// "bar").
func k8sValue(d *detector, t k8sText, doc string, vs, ve int, b64 bool) {
	for ve > vs && doc[ve-1] == ',' { // a YAML line inside a JSON string or list
		ve--
	}
	vs, ve = trimQuotes(doc, vs, ve)
	v := doc[vs:ve]
	if v == "" || strings.HasPrefix(v, "{{") || strings.HasPrefix(v, "${") || placeholder(v) {
		return
	}
	if b64 {
		n := 0
		for i := 0; i < len(v); i++ {
			switch c := v[i]; {
			case sets[setB64][c]:
				n++
			case c == '=' || isSpace(c):
			default:
				return
			}
		}
		if n < 10 {
			return
		}
	} else if len(v) < 4 {
		return
	}
	a, b := t.span(vs, ve)
	d.add(a, b, "kubernetes-secret", prioHeader)
}

// dockerAuth: the "auth" of a Docker (or Podman, Kubernetes
// .dockerconfigjson) registry login, base64 of user:password, and the
// identity and registry tokens beside it.
func dockerAuth(v, ident string) bool {
	id := strings.Trim(ident, `"'\`)
	switch {
	case strings.EqualFold(id, "auth"):
		raw, err := base64.StdEncoding.DecodeString(v)
		if err != nil || len(raw) < 3 {
			return false
		}
		c := strings.IndexByte(string(raw), ':')
		return c > 0 && c < len(raw)-1
	case strings.EqualFold(id, "identitytoken"), strings.EqualFold(id, "registrytoken"):
		return len(v) >= 16 && !placeholder(v)
	}
	return false
}
