package fastlex

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// sessionLexers are the lexers sessions use most: the languages of the
// files they read (by extension) and of fenced code in replies.
var sessionLexers = []string{
	"go", "typescript", "tsx", "javascript", "python", "bash", "json", "yaml",
	"markdown", "diff", "html", "css", "rust", "java", "c", "cpp", "sql",
	"toml", "docker", "makefile", "xml", "ini", "php", "ruby", "swift",
	"kotlin", "csharp", "scss", "powershell", "lua", "hcl", "protobuf",
	"graphql", "nginx", "plaintext",
}

// lexer returns the registry's lexer for name, failing when there is none.
func lexer(t testing.TB, name string) chroma.Lexer {
	t.Helper()
	l := lexers.Get(name)
	if l == nil {
		t.Fatalf("no lexer %q", name)
	}
	return l
}

// result is a token stream, or the panic that ended it.
type result struct {
	tokens []chroma.Token
	panic  string
}

func collect(l chroma.Lexer, text string) (res result) {
	defer func() {
		if p := recover(); p != nil {
			res.panic = fmt.Sprint(p)
		}
	}()
	it, err := l.Tokenise(nil, text)
	if err != nil {
		return result{panic: "error: " + err.Error()}
	}
	for tok := it(); tok != chroma.EOF; tok = it() {
		res.tokens = append(res.tokens, tok)
	}
	return res
}

// sameTokens fails when the engine's tokens for text differ from chroma's.
// chroma's own tokens can vary from run to run: every rule has a 250 ms
// time limit, past which regexp2 fails the match, and on a loaded machine
// a fast match can run past it. So chroma is asked again before the
// engine is failed.
func sameTokens(t testing.TB, e *Engine, l chroma.Lexer, text string) {
	t.Helper()
	got := collect(e.Lexer(l), text)
	var diff string
	for range 3 {
		if diff = tokenDiff(collect(l, text), got); diff == "" {
			return
		}
	}
	t.Fatalf("%s on %q: %s", l.Config().Name, clip(text), diff)
}

// tokenDiff says how got differs from want ("" when it does not).
func tokenDiff(want, got result) string {
	if want.panic != got.panic {
		return fmt.Sprintf("panic %q, chroma's %q", got.panic, want.panic)
	}
	for i := range min(len(want.tokens), len(got.tokens)) {
		if want.tokens[i] != got.tokens[i] {
			return fmt.Sprintf("token %d is %v, chroma's %v (after %v)", i, got.tokens[i], want.tokens[i], want.tokens[max(0, i-3):i])
		}
	}
	if len(want.tokens) != len(got.tokens) {
		return fmt.Sprintf("%d tokens, chroma's %d", len(got.tokens), len(want.tokens))
	}
	return ""
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// The lexers sessions use are driven by the engine. A chroma upgrade that
// renames the fields fastlex reads fails here rather than slowing down.
func TestDriven(t *testing.T) {
	e := New()
	for _, name := range sessionLexers {
		if l := lexer(t, name); !Driven(e.Lexer(l)) {
			t.Errorf("%s (%T) is not driven", name, l)
		}
	}
}

// Small texts that reach the corners of chroma's loop: errors, the reset
// to the initial state at a newline, EnsureNL, CRLF, nested lexers,
// invalid UTF-8, text past the end of the rules.
var cornerTexts = []string{
	"", "\n", "\r\n", "x", "\x00", "\xff\xfe", "é", "日本語\n", "\t \r",
	"func f() {\n\tfmt.Println(\"héllo\", `raw\r\n`)\n}\n",
	"\"unterminated\nnext line\n", "'a\n'b", "/* open\n", "<!-- open",
	"<script>var x = 1;</script><style>p { color: red }</style>\n",
	"FROM alpine\nRUN apk add --no-cache bash && echo \"$HOME\"\nCMD [\"sh\"]",
	"all:\n\tgo build ./... && echo $(CC)\n",
	"# T\n\n```go\nx := 1\n```\n\n```\nplain\n```\n- [x] done\n1. *a* __b__\n",
	"---\ntitle: x\n---\n# body\n",
	"@@ -1,2 +1,2 @@\n-a\n+b\n c\r\n",
	"def f(x):\n    return f'{x!r:>10}' + r\"\\d\" # c\n",
	"SELECT a, 'b''c' FROM t WHERE x = 1; -- c\n",
	"{\"a\": [1, 2.5e3, true, null, \"\\u00e9\"]}",
	"key: [a, {b: c}]\n- &x !!str y\n",
	"#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 1); }\n",
	"fn main() { let s = r#\"raw\"#; println!(\"{s}\"); }\n",
	longLoops,
}

// longLoops takes the loops of strings and docstrings past maxIters, where
// the engine leaves the match to regexp2.
var longLoops = "x = \"" + strings.Repeat(`ab\" `, 1200) + "\"\n'''" + strings.Repeat("doc\n", 1100) + "'''\n"

func TestCornerTexts(t *testing.T) {
	e := New()
	for _, name := range sessionLexers {
		l := lexer(t, name)
		for _, text := range cornerTexts {
			sameTokens(t, e, l, text)
		}
	}
}

// Coalesce (as render wraps lexers) over the engine gives chroma's tokens.
func TestCoalesced(t *testing.T) {
	e := New()
	for _, name := range sessionLexers {
		l := lexer(t, name)
		for _, text := range cornerTexts {
			want := collect(chroma.Coalesce(l), text)
			got := collect(chroma.Coalesce(e.Lexer(l)), text)
			if fmt.Sprint(want) != fmt.Sprint(got) {
				t.Fatalf("%s on %q: coalesced %v, chroma's %v", name, text, got, want)
			}
		}
	}
}

// FuzzTokens holds the engine to chroma: for any text and any of the
// lexers sessions use, the same tokens (types and values), or the same
// panic.
func FuzzTokens(f *testing.F) {
	for i, text := range cornerTexts {
		f.Add(uint8(i), text)
	}
	for i, s := range seedSnippets {
		f.Add(uint8(i), s)
	}
	e := New()
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		if len(text) > 2<<10 {
			return // chroma's own cost (the square of the length, for some rules) bounds what is worth fuzzing
		}
		sameTokens(t, e, lexer(t, sessionLexers[int(which)%len(sessionLexers)]), text)
	})
}

// seedSnippets are one snippet per lexer, in sessionLexers' order, so
// that the fuzzer starts from each language's own syntax.
var seedSnippets = []string{
	"package main\n\nimport \"fmt\"\n\n// F is.\nfunc F[T any](x T) (int, error) {\n\tswitch v := any(x).(type) {\n\tcase int:\n\t\treturn v << 2, nil\n\t}\n\treturn 0x1F, fmt.Errorf(\"%w\", err)\n}\n",
	"export async function f<T extends object>(x: T): Promise<void> {\n  const y = `a ${x} b`; // c\n  /* d */ return await g(x as any) ?? null;\n}\n",
	"const A = () => <div className=\"a\">{x && <B y={1} />}</div>;\n",
	"import x from 'y';\nlet re = /a[/]b/gi; class C extends D { #p = 1; get q() { return this.#p } }\n",
	"@dataclass\nclass A(B):\n    \"\"\"Doc.\"\"\"\n    x: int = 0b101\n    async def f(self, *a, **k) -> None:\n        yield from g(lambda y: y ** 2)\n",
	"#!/bin/bash\nset -euo pipefail\nfor f in \"$@\"; do\n  [[ -f $f ]] && echo \"${f%.go}\" | sed 's/a/b/' > /dev/null 2>&1\ndone <<EOF\nx\nEOF\n",
	"{\n  \"name\": \"x\",\n  \"v\": [1, -2.5e-3, true, false, null],\n  \"o\": {\"k\": \"\\\"q\\\"\"}\n}\n",
	"version: '3'\nservices:\n  web:\n    image: \"nginx:1\"\n    ports: [80, 443]\n    env: &e\n      A: |\n        multi\n        line\n# c\n",
	"# Title\n\nSome *emph* and **strong** and `code`.\n\n```python\nprint(1)\n```\n\n> quote\n\n[link](http://x)\n",
	"diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-old\n+new\n same\n",
	"<!DOCTYPE html>\n<html><head><title>T</title><style>a{b:c}</style></head>\n<body onload=\"f()\"><!-- c --><p class=a>&amp;</p><script>if(a<b){}</script></body></html>\n",
	"@media (max-width: 600px) {\n  .a > b::before, #c[d=\"e\"] { color: #fff !important; margin: 0 calc(1px + 2em); }\n}\n",
	"#[derive(Debug)]\npub struct S<'a> { x: &'a str }\nimpl<'a> S<'a> { fn f(&self) -> Option<u8> { Some(b'x') } }\nmacro_rules! m { ($x:expr) => { $x }; }\n",
	"@Override\npublic <T> List<T> f(final int x) throws IOException {\n  return new ArrayList<>(); // c\n}\n",
	"#define M(x) ((x) * 2)\nstatic const char *s = \"a\\n\";\nint main(int argc, char **argv) { return argc > 1 ? 0 : 1; }\n",
	"template <typename T>\nclass A : public B { public: A() = default; auto f() const -> int { return 1'000; } };\n",
	"CREATE TABLE t (id SERIAL PRIMARY KEY, n TEXT NOT NULL);\nINSERT INTO t (n) VALUES ('a'), (\"b\");\nSELECT COUNT(*) FROM t WHERE n LIKE '%a%';\n",
	"[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\ndate = 1979-05-27T07:32:00Z\n",
	"FROM golang:1.26 AS build\nWORKDIR /src\nCOPY . .\nRUN go build -o /app ./cmd/x \\\n    && strip /app\nENTRYPOINT [\"/app\"]\n",
	"CC ?= gcc\n.PHONY: all\nall: $(OBJS)\n\t$(CC) -o $@ $^ $(LDFLAGS)\n%.o: %.c\n\t@echo \"cc $<\"\n",
	"<?xml version=\"1.0\"?>\n<a xmlns:x=\"u\"><![CDATA[ x ]]><b c='d'/></a>\n",
	"[section]\nkey = value ; c\n# c\nother=1\n",
	"<?php\nnamespace A;\nfunction f(array $a): ?int { return $a['x'] ?? null; }\necho \"v: {$x}\";\n",
	"class A < B\n  def f(x, *y, &z) = x.map { |v| v * 2 }\n  attr_reader :q\nend\nputs \"#{1 + 2}\"\n",
	"struct S: P { let x: Int; func f() async throws -> String { return \"\\(x)\" } }\n",
	"data class A(val x: Int) { fun f(): String = \"$x ${x + 1}\" }\n",
	"public record R(int X) { public string F() => $\"{X}\"; } // c\n",
	"$a: 1px;\n.b { &:hover { margin: $a * 2; } @include m(1); }\n",
	"$x = Get-ChildItem -Path C:\\ | Where-Object { $_.Length -gt 1kb }\nWrite-Host \"n: $($x.Count)\"\n",
	"local t = { a = 1, [\"b\"] = 2 }\nfunction t:f(...) return select('#', ...) end -- c\n",
	"resource \"aws_s3_bucket\" \"b\" {\n  bucket = \"x-${var.env}\"\n  tags = { A = 1 }\n}\n",
	"syntax = \"proto3\";\nmessage M { repeated string a = 1; map<string, int32> b = 2; }\n",
	"query Q($id: ID!) { node(id: $id) { ... on User { name } } }\n",
	"server {\n  listen 80;\n  location / { proxy_pass http://x; }\n}\n",
	"just text\nwith lines\n",
}

func TestSeedsLineUp(t *testing.T) {
	if len(seedSnippets) != len(sessionLexers) {
		t.Fatalf("%d seed snippets for %d lexers", len(seedSnippets), len(sessionLexers))
	}
	e := New()
	for i, name := range sessionLexers {
		sameTokens(t, e, lexer(t, name), seedSnippets[i])
	}
}

// BenchmarkTokens lexes, with chroma and with the engine, this package's
// Go source, dense code (minified JavaScript, one short token after
// another) and indented JSON.
func BenchmarkTokens(b *testing.B) {
	src, err := os.ReadFile("run.go")
	if err != nil {
		b.Fatal(err)
	}
	var js, json strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&js, "var a%d=function(b,c){return b[c]+%d||!c?b:c.d(%q)};", i, i, "e")
		fmt.Fprintf(&json, "  {\"id\": %d, \"name\": \"item %d\", \"ok\": true, \"tags\": [\"a\", \"b\"]},\n", i, i)
	}
	e := New()
	for _, in := range []struct{ lexer, name, text string }{
		{"go", "go", string(src)}, {"javascript", "minified-js", js.String()}, {"json", "json", "[\n" + json.String() + "  {}\n]\n"},
	} {
		l := lexer(b, in.lexer)
		for _, c := range []struct {
			name string
			l    chroma.Lexer
		}{{"chroma", l}, {"fastlex", e.Lexer(l)}} {
			b.Run(in.name+"/"+c.name, func(b *testing.B) {
				b.SetBytes(int64(len(in.text)))
				b.ReportAllocs()
				for b.Loop() {
					if res := collect(c.l, in.text); res.panic != "" {
						b.Fatal(res.panic)
					}
				}
			})
		}
	}
}

// BenchmarkNewTable is what the engine spends on a lexer before its first
// text: studying its rules.
func BenchmarkNewTable(b *testing.B) {
	for _, name := range []string{"go", "typescript", "python", "markdown", "bash", "json", "yaml", "diff"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if !Driven(New().Lexer(lexer(b, name))) {
					b.Fatal("not driven")
				}
			}
		})
	}
}
