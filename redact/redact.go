// The API (New, Redact, Text, Finding, Report) and the pipeline around the
// rules: the input cut into units, scanned in parallel by workers, the
// candidates of each string resolved, the secrets numbered and replaced.

package redact

import (
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// Finding is one occurrence of a secret. It never holds the secret itself.
type Finding struct {
	Kind   string `json:"kind"`   // rule id, e.g. "aws-access-key", "github-pat", "private-key", "jwt", "url-credentials", "generic-secret"
	Marker string `json:"marker"` // the replacement text, e.g. "[REDACTED:github-pat#2]"
	Line   int    `json:"line"`   // 1-based line of the input where it was found

	// Where it is, named by the caller that knows the input's entries
	// (package export; a scan leaves them empty): the entry of Line, ""
	// for a header; and the file, when it is not the session's own (a
	// subagent's transcript, whose Line and EntryID they are).
	EntryID string `json:"entryId,omitempty"`
	File    string `json:"file,omitempty"`
}

// Report lists the secrets found in one input, and replaced when it was
// redacted: what --redact-report and canopy scan --json write.
type Report struct {
	File     string         `json:"file"`     // the session's file, named by the caller
	Findings []Finding      `json:"findings"` // in input order; one per occurrence
	Kinds    map[string]int `json:"kinds"`    // distinct secrets per kind
}

// Total is the number of distinct secrets found.
func (r *Report) Total() int {
	n := 0
	for _, c := range r.Kinds {
		n += c
	}
	return n
}

// Redactor holds the compiled rules. It is immutable after New, so one
// Redactor may be used by any number of goroutines at once: all numbering
// state lives in a single call of Redact or Text.
type Redactor struct {
	ac      *acMatcher
	kwRule  []int // keyword id -> index in rules
	rules   []rule
	assigns []assignRule
	keyAC   *acMatcher // assignment keywords, for JSON member names
	keyRule []int      // keyAC keyword id -> index in assigns
	nVendor int        // gitleaks rules, each with a window memo per worker
}

// New compiles the rule table: ours, then gitleaks' default rules (1.2
// ms in all; their expressions are compiled at their rules' first keyword
// hits).
func New() (*Redactor, error) {
	cfg, err := loadGitleaks()
	if err != nil {
		return nil, err
	}
	rules, assigns := buildRules()
	// The allowlists of gitleaks' rules that share a keyword with our
	// generic rule apply to it: the non-secret names of gitleaks' generic
	// rule (public_key, foreignKey, credentialsId, csrf-token, ...), its
	// values made only of letters, and the global ones (${VAR}, paths).
	// (Our token formats instead give way where a gitleaks rule found the
	// same text and its allowlist accepted it: see detector.allowed.)
	byKW := map[string][]*allowlist{}
	for _, gr := range cfg.rules {
		for _, kw := range gr.keywords {
			byKW[kw] = append(byKW[kw], gr.allowlists...)
		}
	}
	for i := range assigns {
		if assigns[i].kind != "generic-secret" {
			continue
		}
		for _, kw := range assigns[i].keywords {
			assigns[i].allow = appendNew(assigns[i].allow, byKW[kw])
		}
		assigns[i].allow = appendNew(assigns[i].allow, cfg.allowlists)
	}
	vendor := vendorRules(cfg)
	r := &Redactor{rules: append(rules, vendor...), assigns: assigns, nVendor: len(vendor)}
	var kws, akws []string
	kws, r.kwRule = keywordTable(r.rules, func(ru rule) []string { return ru.keywords })
	r.ac = newACMatcher(kws)
	akws, r.keyRule = keywordTable(assigns, func(ar assignRule) []string { return ar.keywords })
	r.keyAC = newACMatcher(akws)
	return r, nil
}

// keywordTable lists the keywords of items, in order, with the index of
// the item each one belongs to.
func keywordTable[T any](items []T, keywords func(T) []string) (kws []string, owner []int) {
	for i, it := range items {
		for _, kw := range keywords(it) {
			kws = append(kws, kw)
			owner = append(owner, i)
		}
	}
	return kws, owner
}

// appendNew appends the allowlists of add not in als already.
func appendNew(als, add []*allowlist) []*allowlist {
	for _, a := range add {
		if !slices.Contains(als, a) {
			als = append(als, a)
		}
	}
	return als
}

// hit is a secret located in the input: a raw byte span and its decoded value.
type hit struct {
	start, end int
	value      string
	kind       string
	line       int
	plain      bool
}

// No secret shape is shorter than this (scheme://:p@h).
const minSecretLen = 8

// Bigger than this and made only of base64 characters: image data, skipped.
const base64SkipLen = 1 << 20

// Inputs smaller than this are handled on the calling goroutine.
const parallelMin = 1 << 18

// Redact returns a copy of data (JSONL, one JSON value per line; or a whole
// JSON document, compact or pretty-printed) with every secret found in a
// JSON string value or key replaced by its marker. The same secret value
// gets the same marker everywhere in the input. Lines that are not valid
// JSON are redacted as plain text, line by line. Only the string tokens
// that hold a secret change, and in them only the bytes of the secret (an
// escape sequence is replaced whole), so the output is valid JSON wherever
// the input was and every other byte is as it was. data is not modified;
// it must not be modified by others while Redact runs.
func (r *Redactor) Redact(data []byte) ([]byte, Report) {
	hits := r.collect(data)
	return apply(data, hits, nil)
}

// Text redacts one string, as plain text, with its own numbering. Lines
// in the report are lines of s.
func (r *Redactor) Text(s string) (string, Report) {
	w := newWorker(r)
	var hits []hit
	w.scanString(s, unit{start: 0, end: len(s), keyEnd: -1, line: 1, flags: uPlain}, nil, &hits)
	data := unsafe.Slice(unsafe.StringData(s), len(s))
	hits = spread(data, hits, r.foundAlone)
	out, rep := apply(data, hits, func(off int) int {
		return 1 + strings.Count(s[:off], "\n")
	})
	return string(out), rep
}

// collect scans data and returns the secrets in input order.
func (r *Redactor) collect(data []byte) []hit {
	return r.collectFirst(data, nil)
}

// collectFirst is collect, calling first (when not nil) once, as soon as
// a first secret is detected, before the scan is over. That secret may
// yet be dropped (settle): first means "probably some".
func (r *Redactor) collectFirst(data []byte, first func()) []hit {
	workers := runtime.GOMAXPROCS(0)
	if len(data) < parallelMin {
		workers = 1
	}
	return r.collectWith(data, workers, first)
}

// collectWith is collectFirst with the given number of workers: with
// fewer than two, the scan and the detection take turns on one goroutine.
// The hits are the same either way (TestWorkersSameHits).
func (r *Redactor) collectWith(data []byte, workers int, first func()) []hit {
	var hits []hit
	var retracted [][2]int
	if workers < 2 {
		w := newWorker(r)
		sc := &scanner{data: data,
			emit: func(u unit) {
				if w.unit(data, u, &hits); len(hits) > 0 && first != nil {
					first()
					first = nil
				}
			},
			retract: func(a, b int) { retracted = append(retracted, [2]int{a, b}) },
		}
		sc.run()
	} else {
		hits, retracted = r.collectParallel(data, workers, first)
	}
	return spread(data, settle(hits, retracted), r.foundAlone)
}

type job struct {
	units []unit
	rc    chan []hit
}

// collectParallel: the scanner cuts the input into batches of units,
// workers detect, and results are gathered back in batch order.
func (r *Redactor) collectParallel(data []byte, workers int, first func()) ([]hit, [][2]int) {
	const batchBytes, batchUnits = 256 << 10, 4096
	jobs := make(chan job, workers*2)
	order := make(chan chan []hit, workers*4)
	pool := sync.Pool{New: func() any { return make([]unit, 0, batchUnits) }}
	var retracted [][2]int

	go func() {
		batch := pool.Get().([]unit)[:0]
		size := 0
		flush := func() {
			if len(batch) == 0 {
				return
			}
			rc := make(chan []hit, 1)
			order <- rc
			jobs <- job{batch, rc}
			batch, size = pool.Get().([]unit)[:0], 0
		}
		sc := &scanner{data: data,
			emit: func(u unit) {
				if u.flags&uEscaped == 0 && u.end-u.start < minSecretLen {
					// Too short to hold a secret (scanString): most keys
					// and many values, not handed to a worker at all. The
					// scanner is the scan's one serial part.
					return
				}
				batch = append(batch, u)
				size += u.end - u.start
				if size >= batchBytes || len(batch) >= batchUnits {
					flush()
				}
			},
			retract: func(a, b int) { retracted = append(retracted, [2]int{a, b}) },
		}
		sc.run()
		flush()
		close(jobs)
		close(order)
	}()

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newWorker(r)
			for j := range jobs {
				var hs []hit
				for _, u := range j.units {
					w.unit(data, u, &hs)
				}
				pool.Put(j.units[:0])
				j.rc <- hs
			}
		}()
	}
	var hits []hit
	for rc := range order {
		if hits = append(hits, <-rc...); len(hits) > 0 && first != nil {
			first()
			first = nil
		}
	}
	wg.Wait()
	return hits, retracted
}

// settle drops hits from string units of segments that turned out not to
// be valid JSON (their lines were scanned again as plain text) and sorts
// the rest by position.
func settle(hits []hit, retracted [][2]int) []hit {
	if len(retracted) > 0 {
		kept := hits[:0]
		for _, h := range hits {
			if !h.plain {
				k := sort.Search(len(retracted), func(i int) bool { return retracted[i][1] > h.start })
				if k < len(retracted) && retracted[k][0] <= h.start {
					continue
				}
			}
			kept = append(kept, h)
		}
		hits = kept
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].start < hits[j].start })
	return hits
}

// Scan returns the report Redact would return for data, without making
// the redacted copy: for a caller that only lists the secrets (canopy
// scan), that copy was a tenth of the time.
func (r *Redactor) Scan(data []byte) Report {
	rep, _ := number(r.collect(data), nil)
	return rep
}

// Found is what a scan of some data found: the report Scan gives, and
// where the secrets are, so that Apply replaces them without scanning
// the data again (a second scan of an 85 MB session was 0.2 CPU-s).
type Found struct {
	Report Report
	hits   []hit
}

// Find scans data as Scan does, keeping the places of the secrets for
// Apply. first, when not nil, is called once (on Find's goroutine), as
// soon as a first secret is detected, before the scan is over: a caller
// may then stop work it would throw away if there were any. The secret that called it may yet be dropped by the rest of the
// scan, which Report then says.
func (r *Redactor) Find(data []byte, first func()) Found {
	hits := r.collectFirst(data, first)
	rep, _ := number(hits, nil)
	return Found{Report: rep, hits: hits}
}

// Apply returns what Redact returns for data, which must be the data f
// was found in: its secrets replaced by their markers (a copy of data
// when there are none), and the same report as f's.
func (f Found) Apply(data []byte) ([]byte, Report) {
	return apply(data, f.hits, nil)
}

// number numbers the secrets in input order, one marker per distinct value
// (first kind wins), and returns the report and each hit's marker.
func number(hits []hit, lineOf func(off int) int) (Report, []string) {
	rep := Report{Kinds: map[string]int{}}
	type mk struct{ marker, kind string }
	markers := map[string]mk{}
	of := make([]string, len(hits))
	for i, h := range hits {
		m, ok := markers[h.value]
		if !ok {
			rep.Kinds[h.kind]++
			m = mk{"[REDACTED:" + h.kind + "#" + strconv.Itoa(rep.Kinds[h.kind]) + "]", h.kind}
			markers[h.value] = m
		}
		line := h.line
		if lineOf != nil {
			line = lineOf(h.start)
		}
		rep.Findings = append(rep.Findings, Finding{Kind: m.kind, Marker: m.marker, Line: line})
		of[i] = m.marker
	}
	return rep, of
}

// apply numbers the secrets in input order and builds the output.
func apply(data []byte, hits []hit, lineOf func(off int) int) ([]byte, Report) {
	if len(hits) == 0 {
		return slices.Clone(data), Report{Kinds: map[string]int{}}
	}
	rep, markers := number(hits, lineOf)
	if len(data) < parallelMin || runtime.GOMAXPROCS(0) < 2 {
		out := make([]byte, 0, len(data)+len(hits)*32)
		return replace(out, data, 0, len(data), hits, markers), rep
	}
	// A large input is copied in two halves at once, the second from a
	// place in the input outside every secret, to its place in the output:
	// the copy of an 85 MB session was 30 ms on one core.
	n := len(data)
	for i, h := range hits {
		n += len(markers[i]) - (h.end - h.start)
	}
	mid := len(data) / 2
	k := sort.Search(len(hits), func(i int) bool { return hits[i].end > mid })
	if k < len(hits) && hits[k].start < mid {
		mid = hits[k].start // inside a secret: from its start
	}
	at := mid // where mid's byte goes
	for i, h := range hits[:k] {
		at += len(markers[i]) - (h.end - h.start)
	}
	out := make([]byte, n)
	var wg sync.WaitGroup
	wg.Go(func() { replace(out[at:at], data, mid, len(data), hits[k:], markers[k:]) })
	replace(out[:0], data, 0, mid, hits[:k], markers[:k])
	wg.Wait()
	return out, rep
}

// replace appends data[from:to] to out, each of hits (all within it) by
// its marker.
func replace(out, data []byte, from, to int, hits []hit, markers []string) []byte {
	last := from
	for i, h := range hits {
		out = append(out, data[last:h.start]...)
		out = append(out, markers[i]...)
		last = h.end
	}
	return append(out, data[last:to]...)
}

// --- per-goroutine detection ------------------------------------------------

type worker struct {
	r   *Redactor
	d   detector
	hit func(kw int32, start int)
	buf []byte // decoded string contents
	kb  []byte // decoded key
}

func newWorker(r *Redactor) *worker {
	w := &worker{r: r}
	w.d.r = r
	w.d.vmemo = make([]runMemo, r.nVendor)
	w.hit = func(kw int32, start int) {
		r.rules[r.kwRule[kw]].match(&w.d, start, r.ac.kwLen[kw])
	}
	return w
}

func bytesToString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// unit scans one unit of data and appends its hits.
func (w *worker) unit(data []byte, u unit, out *[]hit) {
	raw := data[u.start:u.end]
	if len(raw) > base64SkipLen && pureBase64(raw) {
		return
	}
	var key []byte
	if u.keyEnd >= 0 {
		key = data[u.keyStart:u.keyEnd]
	}
	if u.flags&uEscaped == 0 {
		w.scanString(bytesToString(raw), u, key, out)
		return
	}
	w.buf, _ = decodeJSONString(w.buf[:0], raw, false)
	n := len(*out)
	w.scanString(bytesToString(w.buf), u, key, out)
	if cap(w.buf) > 1<<20 {
		w.buf = nil
	}
	if len(*out) == n {
		return
	}
	_, rawOf := decodeJSONString(nil, raw, true)
	for i := n; i < len(*out); i++ {
		h := &(*out)[i]
		a, b := rawSpan(rawOf, h.start-u.start, h.end-u.start)
		h.start, h.end = u.start+a, u.start+b
	}
}

// scanString detects secrets in s (the decoded contents of u) and appends
// hits whose spans are offsets in s shifted by u.start.
func (w *worker) scanString(s string, u unit, key []byte, out *[]hit) {
	if len(s) < minSecretLen {
		return
	}
	d := &w.d
	d.reset(s)
	w.r.ac.scan(s, w.hit)
	d.dots()
	if key != nil && len(key) <= 64 && len(s) >= 16 && len(s) <= 1024 && allIn(s, setValue) {
		k := bytesToString(key)
		if u.flags&uKeyEscaped != 0 {
			w.kb, _ = decodeJSONString(w.kb[:0], key, false)
			k = bytesToString(w.kb)
		}
		d.keyValue(k)
	}
	if len(d.allowed) > 0 {
		d.dropAllowed()
	}
	if len(d.cands) == 0 {
		return
	}
	for _, c := range resolve(d.cands) {
		*out = append(*out, hit{
			start: u.start + c.start, end: u.start + c.end,
			value: strings.Clone(s[c.start:c.end]),
			kind:  c.kind, line: u.line, plain: u.flags&uPlain != 0,
		})
	}
}

// resolve picks non-overlapping candidates: by priority, then earliest,
// then longest; the result is sorted by position.
func resolve(cands []cand) []cand {
	if len(cands) == 1 {
		return cands
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.prio != b.prio {
			return a.prio < b.prio
		}
		if a.start != b.start {
			return a.start < b.start
		}
		return a.end > b.end
	})
	var chosen []cand
	for _, c := range cands {
		if c.end <= c.start {
			continue
		}
		ok := true
		for _, o := range chosen {
			if c.start < o.end && o.start < c.end {
				ok = false
				break
			}
		}
		if ok {
			chosen = append(chosen, c)
		}
	}
	sort.Slice(chosen, func(i, j int) bool { return chosen[i].start < chosen[j].start })
	return chosen
}

// pureBase64: only base64 characters (and the escapes \/ \n \r that JSON
// encoders put in wrapped base64), possibly after a data: URL prefix.
func pureBase64(raw []byte) bool {
	if len(raw) > 5 && string(raw[:5]) == "data:" {
		k := strings.Index(bytesToString(raw[:min(len(raw), 200)]), ";base64,")
		if k < 0 {
			return false
		}
		raw = raw[k+8:]
	}
	b64 := sets[setB64]
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if b64[c] || c == '=' {
			continue
		}
		if c == '\\' && i+1 < len(raw) && (raw[i+1] == '/' || raw[i+1] == 'n' || raw[i+1] == 'r') {
			i++
			continue
		}
		return false
	}
	return true
}
