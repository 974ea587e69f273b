package archive

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"canopy/searchindex"
)

// The search index is part of the archive: the same sources give the
// same bytes, every file of it is in the manifest (verify passes), and a
// redacted archive's index holds no secret.
func TestSearchDeterministic(t *testing.T) {
	srcs, _ := fixtures(t)
	run(t, srcs, "a", Options{Jobs: 1})
	run(t, srcs, "b", Options{Jobs: 4})
	sameBytes(t, "a", "b")
	m := manifest(t, "a")
	var texts, shards int
	meta := false
	for _, p := range m.Pages {
		switch {
		case searchindex.IsTextFile(p.Path):
			texts++
		case p.Path == searchindex.MetaPath:
			meta = true
		case searchindex.IsIndexFile(p.Path):
			shards++
		}
	}
	if texts != len(m.Sessions) || !meta || shards == 0 {
		t.Errorf("the manifest lists %d text files for %d sessions, meta %v, %d shards", texts, len(m.Sessions), meta, shards)
	}
	if _, ok, err := Verify("a"); !ok || err != nil {
		t.Errorf("Verify: %v %v", ok, err)
	}
}

// A re-run with one session changed rewrites its page, its text file
// and only the shards of its terms; every other file of the index is
// the same file as before (kept, not written).
func TestSearchIncremental(t *testing.T) {
	srcs, _ := fixtures(t)
	run(t, srcs, "out", Options{})
	before := manifest(t, "out")
	stat := map[string]os.FileInfo{}
	for _, p := range before.Pages {
		fi, err := os.Stat(filepath.Join("out", p.Path))
		if err != nil {
			t.Fatal(err)
		}
		stat[p.Path] = fi
	}
	var page string
	for _, s := range before.Sessions {
		if strings.HasSuffix(s.Source, gwCron) {
			page = s.Page
		}
	}
	textPath := searchindex.TextPath(page)
	oldTerms := textTerms(t, filepath.Join("out", textPath))
	appendTo(t, "src/gateway/agents/main/sessions/"+gwCron, `{"type":"message","id":"c3","parentId":"c2","timestamp":"2026-05-07T02:00:00.000Z","message":{"role":"user","content":"what about the quixotic yodeling?","timestamp":0}}`+"\n")
	res := run(t, srcs, "out", Options{})
	if res.Rendered != 1 {
		t.Fatalf("rendered %d pages, want 1", res.Rendered)
	}
	newTerms := textTerms(t, filepath.Join("out", textPath))
	if !newTerms["quixotic"] || oldTerms["quixotic"] {
		t.Fatalf("the new words are not in the session's text file")
	}
	var kept, rewritten []string
	for _, p := range manifest(t, "out").Pages {
		if !inSearch(p.Path) {
			continue
		}
		fi, err := os.Stat(filepath.Join("out", p.Path))
		if err != nil {
			t.Fatal(err)
		}
		if old, ok := stat[p.Path]; ok && os.SameFile(old, fi) {
			kept = append(kept, p.Path)
			if p.Path == textPath {
				t.Errorf("%s: the changed session's text file was kept", p.Path)
			}
			continue
		}
		rewritten = append(rewritten, p.Path)
		if !searchindex.IsIndexFile(p.Path) || p.Path == searchindex.MetaPath {
			if p.Path != textPath && p.Path != searchindex.MetaPath {
				t.Errorf("%s: rewritten, and not the changed session's", p.Path)
			}
			continue
		}
		key := shardKey(t, p.Path)
		if !anyPrefixed(oldTerms, key) && !anyPrefixed(newTerms, key) {
			t.Errorf("shard %s (%q) rewritten, though no term of the changed session is in it", p.Path, key)
		}
	}
	// The new words' shards are among the rewritten ones.
	for _, w := range []string{"quixotic", "yodeling"} {
		found := false
		for _, p := range rewritten {
			if searchindex.IsIndexFile(p) && p != searchindex.MetaPath && strings.HasPrefix(w, shardKey(t, p)) {
				found = true
			}
		}
		if !found {
			t.Errorf("no shard of %q was rewritten: %v", w, rewritten)
		}
	}
	if len(kept) < 3*len(rewritten) {
		t.Errorf("kept %d files of the index, rewrote %d: %v", len(kept), len(rewritten), rewritten)
	}
}

// A re-run with nothing changed keeps the previous index without
// building it (its key is the same), and the archive is the same bytes;
// one with a session changed builds it.
func TestSearchKeptWhenNothingChanged(t *testing.T) {
	srcs, _ := fixtures(t)
	built := 0
	testHooks.searchBuilt = func() { built++ }
	defer func() { testHooks.searchBuilt = nil }()
	run(t, srcs, "out", Options{})
	run(t, srcs, "fresh", Options{})
	before, err := os.ReadFile(filepath.Join("out", ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	if built != 2 {
		t.Fatalf("two new archives built the index %d times", built)
	}
	run(t, srcs, "out", Options{})
	after, err := os.ReadFile(filepath.Join("out", ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	if built != 2 {
		t.Errorf("a re-run with nothing changed built the index")
	}
	if string(before) != string(after) {
		t.Errorf("a re-run with nothing changed changed the manifest")
	}
	sameBytes(t, "out", "fresh")
	appendTo(t, "src/gateway/agents/main/sessions/"+gwCron, `{"type":"message","id":"c3","parentId":"c2","timestamp":"2026-05-07T02:00:00.000Z","message":{"role":"user","content":"and the zymurgy?","timestamp":0}}`+"\n")
	run(t, srcs, "out", Options{})
	if built != 3 {
		t.Errorf("a re-run with a session changed did not build the index")
	}
	run(t, srcs, "fresh2", Options{})
	sameBytes(t, "out", "fresh2")
	if _, ok, err := Verify("out"); !ok || err != nil {
		t.Errorf("Verify: %v %v", ok, err)
	}
}

// textTerms are the terms of a text file.
func textTerms(t *testing.T, p string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	_, entries, err := searchindex.DecodeText(data)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, e := range entries {
		searchindex.Tokens(e.Text, func(s string) { out[s] = true })
	}
	return out
}

func shardKey(t *testing.T, p string) string {
	t.Helper()
	k, err := hex.DecodeString(strings.TrimSuffix(filepath.Base(p), ".js"))
	if err != nil {
		t.Fatal(err)
	}
	return string(k)
}

func anyPrefixed(terms map[string]bool, key string) bool {
	for term := range terms {
		if strings.HasPrefix(term, key) {
			return true
		}
	}
	return false
}

// Shards merged are one machine's archive byte for byte, search index
// included; a redacted archive's index holds the redacted text only.
func TestSearchShardsAndRedaction(t *testing.T) {
	srcs, _ := fixtures(t)
	const secret = "ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c"
	appendTo(t, "src/gateway/agents/main/sessions/"+gwCron, `{"type":"message","id":"c3","parentId":"c2","timestamp":"2026-05-07T02:00:00.000Z","message":{"role":"user","content":"my token is `+secret+`","timestamp":0}}`+"\n")
	run(t, srcs, "single", Options{Redact: true})
	shardRun(t, srcs, "merged", 2, []int{1, 0})
	// shardRun makes unredacted shards: make redacted ones and merge them.
	for _, d := range []string{"merged", "merged-0", "merged-1"} {
		os.RemoveAll(d)
	}
	run(t, srcs, "merged-0", Options{Redact: true, Shard: 0, Shards: 2})
	run(t, srcs, "merged-1", Options{Redact: true, Shard: 1, Shards: 2})
	mergeDirs(t, "merged", "merged-1", "merged-0")
	sameBytes(t, "single", "merged")
	found := false
	for name, data := range tree(t, "single") {
		if !strings.HasPrefix(filepath.ToSlash(name), searchindex.Dir+"/text/") {
			continue
		}
		_, entries, err := searchindex.DecodeText(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if strings.Contains(e.Text, "ghp_") {
				t.Errorf("%s holds the secret: %q", name, e.Text)
			}
			if strings.Contains(e.Text, "my token is [REDACTED") {
				found = true
			}
		}
	}
	if !found {
		t.Error("the redacted entry is not in the index")
	}
}

func mergeDirs(t *testing.T, out string, shards ...string) {
	t.Helper()
	if _, err := Merge(t.Context(), shards, out, "test"); err != nil {
		t.Fatalf("Merge: %v", err)
	}
}
