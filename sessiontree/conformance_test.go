package sessiontree

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// expectation is the schema of expect.json: what the reference
// implementation says about a session file.
type expectation struct {
	File          string              `json:"file"`
	LeafID        *string             `json:"leafId"`
	ActivePath    []string            `json:"activePath"`
	Labels        map[string]string   `json:"labels"`
	SessionName   *string             `json:"sessionName"`
	Roots         []string            `json:"roots"`    // absent for the corpus
	Children      map[string][]string `json:"children"` // absent for the corpus
	Context       []ContextRef        `json:"context"`
	Model         *Model              `json:"model"`
	ThinkingLevel string              `json:"thinkingLevel"`
	EntryCount    int                 `json:"entryCount"`
}

// sharedDir is ../shared beside the checkout, where CI puts it.
func sharedDir() string {
	if d := os.Getenv("CANOPY_SHARED"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared")
}

type conformanceCase struct {
	name, session, expect string
	tree                  bool // the expectation has roots and children
}

func conformanceCases(t *testing.T) []conformanceCase {
	t.Helper()
	var cases []conformanceCase
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "conformance", "s*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no conformance cases in testdata/conformance (%v)", err)
	}
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(d, "*.jsonl"))
		if len(files) != 1 {
			t.Fatalf("%s: want one session file, have %d", d, len(files))
		}
		cases = append(cases, conformanceCase{filepath.Base(d), files[0], filepath.Join(d, "expect.json"), true})
	}
	corpus := filepath.Join(sharedDir(), "corpus")
	if expects, _ := filepath.Glob(filepath.Join(corpus, "*.expect.json")); len(expects) > 0 {
		for _, x := range expects {
			base := strings.TrimSuffix(filepath.Base(x), ".expect.json")
			cases = append(cases, conformanceCase{"corpus/" + base, filepath.Join(corpus, base+".jsonl"), x, false})
		}
	} else if os.Getenv("CI") != "" {
		t.Fatalf("CI is set but %s has no corpus", corpus)
	} else {
		t.Logf("skipping the corpus: %s not found", corpus)
	}
	return cases
}

// TestConformance checks that we rebuild exactly what the reference
// rebuilds, for every conformance case and the real legacy corpus.
func TestConformance(t *testing.T) {
	for _, c := range conformanceCases(t) {
		t.Run(c.name, func(t *testing.T) {
			var want expectation
			raw, err := os.ReadFile(c.expect)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatalf("%s: %v", c.expect, err)
			}
			s, err := LoadFile(c.session)
			if err != nil {
				t.Fatal(err)
			}
			got := s.Report(s.Leaf)
			check := func(field string, got, want any) {
				t.Helper()
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s:\n got  %v\n want %v", field, abbreviate(got), abbreviate(want))
				}
			}
			check("leafId", got.LeafID, want.LeafID)
			check("activePath", got.ActivePath, want.ActivePath)
			if want.Labels == nil {
				want.Labels = map[string]string{}
			}
			check("labels", got.Labels, want.Labels)
			check("sessionName", got.SessionName, want.SessionName)
			if c.tree {
				check("roots", got.Roots, want.Roots)
				check("children", got.Children, want.Children)
			}
			check("context", got.Context, want.Context)
			check("model", got.Model, want.Model)
			check("thinkingLevel", got.ThinkingLevel, want.ThinkingLevel)
			check("entryCount", got.EntryCount, want.EntryCount)
			for _, d := range got.Diagnostics {
				t.Errorf("unexpected diagnostic on a reference file: %+v", d)
			}
		})
	}
}

func abbreviate(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}
