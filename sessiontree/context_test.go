package sessiontree

import (
	"reflect"
	"strings"
	"testing"
)

// ctxCase is one row of the context tests.
type ctxCase struct {
	name     string
	in       []byte
	leaf     string // "" for s.Leaf
	want     []string
	model    string // "provider/model"; "-" for none; "" not checked
	thinking string
}

// TestContext: the compaction rules, and the context of a nil leaf.
func TestContext(t *testing.T) {
	chain := func(firstKept string) []byte {
		return jsonl(header, user("u1", ""), asst("a1", "u1"), user("u2", "a1"), asst("a2", "u2"),
			compaction("comp", "a2", firstKept), user("u3", "comp"), user("x", "u1"))
	}
	runContextCases(t, []ctxCase{
		{
			name:     "no compaction",
			in:       jsonl(header, user("u1", ""), asst("a1", "u1"), user("u2", "a1")),
			want:     []string{"user:u1", "assistant:a1", "user:u2"},
			model:    "anthropic/claude-a",
			thinking: "off",
		},
		{
			name:  "compaction with firstKeptEntryId on the path",
			in:    chain("u2"),
			leaf:  "u3",
			want:  []string{"compactionSummary:comp", "user:u2", "assistant:a2", "user:u3"},
			model: "anthropic/claude-a",
		},
		{
			name:  "firstKeptEntryId not in the session",
			in:    chain("elsewhere"),
			leaf:  "u3",
			want:  []string{"compactionSummary:comp", "user:u3"},
			model: "anthropic/claude-a",
		},
		{
			name: "firstKeptEntryId on another branch",
			in:   chain("x"),
			leaf: "u3",
			want: []string{"compactionSummary:comp", "user:u3"},
		},
		{
			name: "two compactions: the earlier is dropped",
			in: jsonl(header, user("u1", ""), compaction("c1", "u1", "u1"), user("u2", "c1"),
				compaction("c2", "u2", "u2"), user("u3", "c2")),
			want:  []string{"compactionSummary:c2", "user:u2", "user:u3"},
			model: "-",
		},
		{
			name: "two compactions, the later keeping from before the earlier",
			in: jsonl(header, user("u1", ""), compaction("c1", "u1", "u1"), user("u2", "c1"),
				compaction("c2", "u2", "u1"), user("u3", "c2")),
			want: []string{"compactionSummary:c2", "user:u1", "user:u2", "user:u3"},
		},
		{
			name: "compaction is the leaf",
			in:   jsonl(header, user("u1", ""), user("u2", "u1"), compaction("c", "u2", "u2")),
			want: []string{"compactionSummary:c", "user:u2"},
		},
	})
	t.Run("nil leaf", func(t *testing.T) {
		s, err := Load(jsonl(header, user("u1", "")), "ctx.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		c := s.Context(nil)
		if len(c.Messages) != 0 || c.Model != nil || c.ThinkingLevel != "off" || c.Compaction != nil {
			t.Errorf("Context(nil) = %+v", c)
		}
	})
}

// TestContextEntryTypes: which entry types are context, and the model and
// thinking level in effect.
func TestContextEntryTypes(t *testing.T) {
	runContextCases(t, []ctxCase{
		{
			name: "branch summaries: an empty one is not context",
			in: jsonl(header, user("u1", ""),
				ent("branch_summary", "bs1", "u1", `"fromId":"root","summary":""`),
				ent("branch_summary", "bs2", "bs1", `"fromId":"u1","summary":"went elsewhere"`),
				ent("branch_summary", "bs3", "bs2", `"fromId":"u1"`),
				user("u2", "bs3")),
			want: []string{"user:u1", "branchSummary:bs2", "user:u2"},
		},
		{
			name: "custom messages are context even when not displayed; custom entries are not",
			in: jsonl(header, user("u1", ""),
				ent("custom_message", "cm1", "u1", `"customType":"note","content":"hidden","display":false`),
				ent("custom_message", "cm2", "cm1", `"customType":"note","content":[{"type":"text","text":"shown"}],"display":true`),
				ent("custom", "cu", "cm2", `"customType":"state","data":{"k":1}`),
				user("u2", "cu")),
			want: []string{"user:u1", "custom:cm1", "custom:cm2", "user:u2"},
		},
		{
			name: "settings, labels and names are not context",
			in: jsonl(header, user("u1", ""),
				label("l", "u1", "u1", `"x"`),
				ent("session_info", "n", "l", `"name":"N"`),
				ent("thinking_level_change", "th", "n", `"thinkingLevel":"high"`),
				ent("model_change", "m", "th", `"provider":"openai","modelId":"gpt-5"`),
				user("u2", "m")),
			want:     []string{"user:u1", "user:u2"},
			model:    "openai/gpt-5",
			thinking: "high",
		},
		{
			name: "thinking level: the last change on the path",
			in: jsonl(header, user("u1", ""),
				ent("thinking_level_change", "t1", "u1", `"thinkingLevel":"high"`),
				ent("thinking_level_change", "t2", "t1", `"thinkingLevel":"medium"`),
				ent("thinking_level_change", "t3", "u1", `"thinkingLevel":"low"`), // another branch
				user("u2", "t2")),
			want:     []string{"user:u1", "user:u2"},
			thinking: "medium",
		},
		{
			name: "model: the last on the path, from a change or an assistant message",
			in: jsonl(header, user("u1", ""), asstModel("a1", "u1", "anthropic", "claude-a"),
				ent("model_change", "m", "a1", `"provider":"openai","modelId":"gpt-5"`),
				asstModel("a2", "m", "google", "gemini"),
				ent("model_change", "m2", "a2", `"provider":"xai","modelId":"grok"`)), // leaf
			leaf:  "a2",
			want:  []string{"user:u1", "assistant:a1", "assistant:a2"},
			model: "google/gemini",
		},
		{
			name: "message roles carried through",
			in: jsonl(header, user("u1", ""),
				ent("message", "tr", "u1", `"message":{"role":"toolResult","toolCallId":"c","toolName":"bash","content":[],"isError":false}`),
				ent("message", "bx", "tr", `"message":{"role":"bashExecution","command":"ls","output":"","cancelled":false,"truncated":false}`),
				ent("message", "hm", "bx", `"message":{"role":"hookMessage","customType":"h","content":"x","display":true}`)),
			want: []string{"user:u1", "toolResult:tr", "bashExecution:bx", "custom:hm"},
		},
	})
}

func runContextCases(t *testing.T, cases []ctxCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Load(c.in, "ctx.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			checkDiags(t, s, nil)
			leaf := s.Leaf
			if c.leaf != "" {
				leaf = mustEntry(t, s, c.leaf)
			}
			ctx := s.Context(leaf)
			if got := ctxRefs(ctx); !reflect.DeepEqual(got, c.want) {
				t.Errorf("context:\n got  %v\n want %v", got, c.want)
			}
			model := ""
			if ctx.Model != nil {
				model = ctx.Model.Provider + "/" + ctx.Model.ModelID
			}
			if c.model != "" && model != strings.TrimPrefix(c.model, "-") {
				t.Errorf("model %q, want %q", model, c.model)
			}
			want := c.thinking
			if want == "" {
				want = "off"
			}
			if ctx.ThinkingLevel != want {
				t.Errorf("thinking %q, want %q", ctx.ThinkingLevel, want)
			}
			if len(ctx.Messages) > 0 && ctx.Messages[0].Role == RoleCompactionSummary && ctx.Compaction != ctx.Messages[0].Entry {
				t.Errorf("Compaction %v is not the summary's entry", idOf(ctx.Compaction))
			}
		})
	}
}

func TestUsageSince(t *testing.T) {
	s, err := Load(jsonl(header, user("u1", ""), asstUsage("a1", "u1", 10, 1), user("u2", "a1"),
		asstUsage("a2", "u2", 20, 2), asstUsage("a3", "a2", 30, 3), user("b", "a1")), "usage.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	leaf := mustEntry(t, s, "a3")
	cases := []struct {
		since   string
		leaf    *Entry
		ok      bool
		entries int
		input   float64
		cost    float64
	}{
		{"u1", leaf, true, 4, 60, 6},
		{"a1", leaf, true, 3, 50, 5},
		{"a2", leaf, true, 1, 30, 3},
		{"a3", leaf, true, 0, 0, 0}, // the leaf itself: nothing since
		{"b", leaf, false, 0, 0, 0}, // another branch: unknown
		{"zzz", leaf, false, 0, 0, 0},
		{"", leaf, false, 0, 0, 0},
		{"u1", nil, false, 0, 0, 0},
		{"u1", s.Entry("b"), true, 2, 10, 1},
	}
	for _, c := range cases {
		t.Run(c.since+"→"+idOf(c.leaf), func(t *testing.T) {
			st, ok := s.UsageSince(c.since, c.leaf)
			if ok != c.ok || st.Entries != c.entries || st.Usage.Input != c.input || st.Usage.Cost.Total != c.cost {
				t.Errorf("got ok=%v entries=%d input=%v cost=%v; want ok=%v entries=%d input=%v cost=%v",
					ok, st.Entries, st.Usage.Input, st.Usage.Cost.Total, c.ok, c.entries, c.input, c.cost)
			}
		})
	}
}
