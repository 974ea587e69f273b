package searchindex

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTokens(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Fix billing.go: TLS renewal", "fix billing go tls renewal"},
		{"snake_case and CamelCase42", "snake_case and camelcase42"},
		{"Ünïcode ΣΟΦΙΑ café", "ünïcode σοφια café"},
		{"a " + strings.Repeat("x", MaxTokenRunes+1) + " b " + strings.Repeat("y", MaxTokenRunes), "a b " + strings.Repeat("y", MaxTokenRunes)},
		{"", ""},
		{"--- !!! ...", ""},
	} {
		var got []string
		Tokens(c.in, func(s string) { got = append(got, s) })
		if strings.Join(got, " ") != c.want {
			t.Errorf("Tokens(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTextRoundTrip(t *testing.T) {
	in := []Entry{{ID: "a1", Leaf: "z9", Kind: "prompt", Text: "hello </script> \"world\" \u2028"}, {ID: "b", Kind: "reply", Text: "ok"}}
	data, err := EncodeText("sessions/x.html", in)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("</script")) || !bytes.HasPrefix(data, []byte("window.canopySearch&&canopySearch.text(\""+textID("sessions/x.html")+"\",")) {
		t.Errorf("text file: %.100s", data)
	}
	page, out, err := DecodeText(data)
	if err != nil || page != "sessions/x.html" || !slices.Equal(out, in) {
		t.Errorf("DecodeText = %q, %+v, %v", page, out, err)
	}
	for _, bad := range []string{"", "alert(1)", `window.canopySearch&&canopySearch.text("x","!!!");`, `window.canopySearch&&canopySearch.text("x","aGVsbG8=");`} {
		if _, _, err := DecodeText([]byte(bad)); err == nil {
			t.Errorf("DecodeText(%q) succeeded", bad)
		}
	}
}

// Every term is in the shard whose key is the longest key that begins
// it, so that the script finds it there; no shard is over the limit
// unless its key is as long as keys go or it holds one term.
func TestShardGroups(t *testing.T) {
	post := map[string][]uint32{}
	var terms []string
	for i := range 5000 {
		term := fmt.Sprintf("t%c%04d", 'a'+i%3, i)
		if i%500 == 0 {
			term = term[:2] // a term as short as a key
		}
		terms = append(terms, term)
		post[term] = make([]uint32, 2*(1+i%40))
	}
	terms = append(terms, "é", "ü1")
	post["é"], post["ü1"] = []uint32{0, 1}, []uint32{0, 1}
	slices.Sort(terms)
	terms = slices.Compact(terms)
	sizes := make([]int, len(terms))
	for i, term := range terms {
		sizes[i] = len(post[term]) / 2
	}
	groups := shardGroups(terms, sizes)
	keys := map[string]bool{}
	for _, g := range groups {
		if keys[g.key] {
			t.Fatalf("key %q twice", g.key)
		}
		keys[g.key] = true
		size := 0
		for _, term := range g.terms {
			size += len(post[term]) / 2
		}
		if size > maxShardPostings && utf8.RuneCountInString(g.key) < maxKeyRunes && len(g.terms) > 1 {
			t.Errorf("shard %q holds %d postings", g.key, size)
		}
	}
	if len(groups) < 4 {
		t.Errorf("%d shards: the large ones were not split", len(groups))
	}
	for _, g := range groups {
		for _, term := range g.terms {
			longest := ""
			for n := 1; n <= utf8.RuneCountInString(term); n++ {
				if p := prefix(term, n); keys[p] {
					longest = p
				}
			}
			if longest != g.key {
				t.Errorf("term %q is in shard %q, the script looks in %q", term, g.key, longest)
			}
		}
	}
}

// The same sessions, in any order, make the same files; a change to one
// session's text changes only the shards of its terms.
func TestBuild(t *testing.T) {
	text := func(page string, words ...string) []byte {
		b, err := EncodeText(page, []Entry{{ID: "e1", Kind: "prompt", Text: strings.Join(words, " ")}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ss := []Session{
		{Page: "b.html", Title: "Second", Agent: "pi", Text: text("b.html", "renewal", "billing")},
		{Page: "a.html", Title: "First", Agent: "codex", Models: []string{"m1", "m2"}, Text: text("a.html", "tls", "renewal")},
		{Page: "c.html", Title: "No text"},
	}
	one, err := Build(context.Background(), ss, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	two, err := Build(context.Background(), []Session{ss[2], ss[0], ss[1]}, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(one, two, func(a, b File) bool { return a.Path == b.Path && bytes.Equal(a.Data, b.Data) }) {
		t.Error("the same sessions in another order made other files")
	}
	ss[0].Text = text("b.html", "renewal", "zebra")
	three, err := Build(context.Background(), ss, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	changed := map[string]bool{}
	old := map[string][]byte{}
	for _, f := range one {
		old[f.Path] = f.Data
	}
	for _, f := range three {
		if !bytes.Equal(old[f.Path], f.Data) {
			changed[f.Path] = true
		}
	}
	// billing's shard (bi) goes, zebra's (ze) comes, and meta.js lists
	// the shards' keys; renewal's (re) keeps its postings, and its bytes.
	want := map[string]bool{shardDir + "7a65.js": true, MetaPath: true}
	if _, ok := old[shardDir+"6269.js"]; !ok || slices.Contains(paths(three), shardDir+"6269.js") {
		t.Fatalf("shard bi before %v, after %v", paths(one), paths(three))
	}
	if !maps(changed, want) {
		t.Errorf("changed files %v, want %v", changed, want)
	}
	// Terms counted as the text files were made (what an archive run
	// hands over) make the same files as the text files read back.
	d := NewDict()
	counted := slices.Clone(ss)
	for i := range counted {
		if counted[i].Text != nil {
			_, entries, err := DecodeText(counted[i].Text)
			if err != nil {
				t.Fatal(err)
			}
			counted[i].Terms, counted[i].Text = d.Count(entries), nil
		}
	}
	four, err := Build(context.Background(), counted, 2, d)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(three, four, func(a, b File) bool { return a.Path == b.Path && bytes.Equal(a.Data, b.Data) }) {
		t.Error("the terms counted with the text files made other files than the text files")
	}
	// A text file that is not one fails the build, naming the file.
	ss[1].Text = []byte("garbage")
	if _, err := Build(context.Background(), ss, 1, nil); err == nil || !strings.Contains(err.Error(), TextPath("a.html")) {
		t.Errorf("a bad text file: %v", err)
	}
}

func paths(fs []File) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Path)
	}
	return out
}

func maps(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// tokensPlain is Tokens read rune by rune, as it was first written: the
// fuzz test holds Tokens' byte table to it.
func tokensPlain(s string, f func(term string)) {
	start, n := -1, 0
	for i := 0; i <= len(s); {
		r, size := utf8.RuneError, 1
		if i < len(s) {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if i < len(s) && wordRune(r) {
			if start < 0 {
				start, n = i, 0
			}
			n++
		} else if start >= 0 {
			if n <= MaxTokenRunes {
				f(strings.ToLower(s[start:i]))
			}
			start = -1
		}
		i += size
	}
}

func FuzzTokens(f *testing.F) {
	for _, s := range []string{"Fix billing.go: TLS renewal", "snake_case CamelCase42", "Ünïcode ΣΟΦΙΑ café\xff\xfeé", "a\u0301b İstanbul ǅ", strings.Repeat("x", MaxTokenRunes+1) + " y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got, want []string
		Tokens(s, func(w string) { got = append(got, w) })
		tokensPlain(s, func(w string) { want = append(want, w) })
		if !slices.Equal(got, want) {
			t.Errorf("Tokens(%q) = %q, want %q", s, got, want)
		}
	})
}
