package sessiongen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// synthGo writes a Go file: package clause, imports, then declarations
// (types, constants, functions and methods with bodies, or table-driven
// tests in a _test.go file) until the file has its target length.
func synthGo(s *synth, path string) {
	dir := path[:max(0, strings.LastIndexByte(path, '/'))]
	pkg := dir[strings.LastIndexByte(dir, '/')+1:]
	if strings.HasPrefix(dir, "cmd/") {
		pkg = "main"
	}
	test := strings.HasSuffix(path, "_test.go")
	if !test && pkg != "main" && s.chance(0.6) {
		s.ln("// Package " + pkg + " " + s.pick(docVerbs) + " " + s.noun + "s and their " + s.pick(idNouns) + "s.")
		s.ln("// " + s.pick(docTails))
	}
	s.ln("package " + pkg)
	s.ln("")
	s.goImports(test)
	typ := pascalCase([]string{s.noun})
	svc := typ + s.pick([]string{"Service", "Store", "Handler", "Manager", "Client"})
	if test {
		for !s.full() {
			if s.chance(0.85) {
				s.goTest()
			} else {
				s.goBench()
			}
		}
		return
	}
	s.goConsts()
	s.goStruct(typ)
	s.goStruct(svc)
	for !s.full() {
		switch r := s.rng.IntN(20); {
		case r < 2:
			s.goStruct(s.pascal())
		case r < 3:
			s.goInterface()
		case r < 4:
			s.goConsts()
		case r < 11:
			s.goFunc(svc)
		default:
			s.goFunc("")
		}
	}
}

func (s *synth) goImports(test bool) {
	imps := append(s.pickList(goStdImports, s.between(3, 9)), "context", "errors", "fmt")
	if test {
		imps = append(imps, "testing", "net/http/httptest")
	}
	slices.Sort(imps)
	imps = slices.Compact(imps)
	s.open("import (")
	for _, i := range imps {
		s.ln(`"` + i + `"`)
	}
	if s.chance(0.7) {
		s.ln("")
		for _, p := range s.pickList([]string{"audit", "auth", "billing", "config", "metrics", "notify", "store"}, s.between(1, 3)) {
			s.ln(`"ledgerline/internal/` + p + `"`)
		}
	}
	s.close(")")
	s.ln("")
}

// pickList returns k distinct elements of list, in list order.
func (s *synth) pickList(list []string, k int) []string {
	var out []string
	for i, v := range list {
		// Selection sampling: each element is kept with probability
		// (needed)/(remaining).
		if s.rng.IntN(len(list)-i) < k-len(out) {
			out = append(out, v)
		}
	}
	return out
}

func (s *synth) goDoc(name string) {
	s.ln("// " + s.sentence(name))
	if s.chance(0.3) {
		s.ln("// " + s.pick(docTails))
	}
}

func (s *synth) goStruct(name string) {
	s.goDoc(name)
	s.open("type " + name + " struct {")
	type field struct{ name, typ, tag string }
	var fields []field
	width, twidth := 0, 0
	for range s.between(3, 10) {
		w := s.words()
		f := field{name: pascalCase(w), typ: s.pick(goTypes)}
		if s.chance(0.6) {
			f.tag = "`json:\"" + snakeCase(w)
			if s.chance(0.3) {
				f.tag += ",omitempty"
			}
			f.tag += "\"`"
		}
		width, twidth = max(width, len(f.name)), max(twidth, len(f.typ))
		fields = append(fields, f)
	}
	for _, f := range fields {
		line := f.name + strings.Repeat(" ", width-len(f.name)+1) + f.typ
		if f.tag != "" {
			line += strings.Repeat(" ", twidth-len(f.typ)+1) + f.tag
		}
		s.ln(line)
	}
	s.close("}")
	s.ln("")
}

func (s *synth) goInterface() {
	name := pascalCase([]string{s.nounOrOwn(), s.pick([]string{"store", "finder", "notifier", "source"})})
	s.goDoc(name)
	s.open("type " + name + " interface {")
	for range s.between(2, 5) {
		s.ln(pascalCase(s.funcWords()) + "(ctx context.Context, " + s.camel() + " " + s.pick(goTypes) + ") (" + s.pick(goTypes) + ", error)")
	}
	s.close("}")
	s.ln("")
}

func (s *synth) goConsts() {
	if s.chance(0.5) {
		s.open("var (")
		s.aligned(s.between(2, 5), func() (string, string) {
			return camelCase([]string{"err", s.pick(idNouns), s.pick(idQualifiers)}), `errors.New("` + s.noun + ": " + s.message() + `")`
		})
		s.close(")")
		s.ln("")
		return
	}
	s.ln("// " + s.sentence("These"))
	s.open("const (")
	s.aligned(s.between(2, 6), func() (string, string) { return s.camel(), s.number() })
	s.close(")")
	s.ln("")
}

// aligned writes n "name = value" lines with the = signs aligned, as gofmt
// does in a const or var block.
func (s *synth) aligned(n int, next func() (name, value string)) {
	names, values := make([]string, n), make([]string, n)
	width := 0
	for i := range n {
		names[i], values[i] = next()
		width = max(width, len(names[i]))
	}
	for i := range n {
		s.ln(names[i] + strings.Repeat(" ", width-len(names[i])) + " = " + values[i])
	}
}

// goFunc writes a function (a method on recv when recv is not empty).
func (s *synth) goFunc(recv string) {
	name := camelCase(s.funcWords())
	if recv != "" || s.chance(0.5) {
		name = strings.ToUpper(name[:1]) + name[1:]
	}
	s.funcs = append(s.funcs, name)
	s.goDoc(name)
	var params []string
	if s.chance(0.7) {
		params = append(params, "ctx context.Context")
	}
	for range s.between(0, 3) {
		params = append(params, s.camel()+" "+s.pick(goTypes))
	}
	res := s.pick(goTypes)
	sig := "func "
	if recv != "" {
		sig += "(" + strings.ToLower(recv[:1]) + " *" + recv + ") "
	}
	s.open(sig + name + "(" + strings.Join(params, ", ") + ") (" + res + ", error) {")
	for range s.between(3, 9) {
		s.goStmt(0)
	}
	s.ln("return " + s.goZero(res) + ", nil")
	s.close("}")
	s.ln("")
}

func (s *synth) goZero(typ string) string {
	switch {
	case typ == "string":
		return `""`
	case typ == "bool":
		return "false"
	case typ == "error" || strings.HasPrefix(typ, "[]") || strings.HasPrefix(typ, "*") || strings.HasPrefix(typ, "map") || typ == "json.RawMessage":
		return "nil"
	case typ == "time.Time":
		return "time.Time{}"
	}
	return "0"
}

// goStmt writes one statement, nesting blocks up to a depth of 3.
func (s *synth) goStmt(nest int) {
	if nest == 0 && s.chance(0.15) {
		s.ln("")
	}
	r := s.rng.IntN(12)
	if nest >= 2 && r >= 5 && r <= 7 {
		r = 0
	}
	a, b := s.camel(), s.camel()
	switch r {
	case 0, 1:
		call := s.pick([]string{"s.store.", "s.", "", "c.client.", "tx."}) + pascalCase(s.funcWords())
		s.ln(a + ", err := " + call + "(ctx, " + b + ")")
		s.open("if err != nil {")
		if s.chance(0.3) {
			s.ln(`s.log.Warn("` + s.message() + `", "err", err, "` + snakeCase(s.words()) + `", ` + b + ")")
		}
		s.ln(`return nil, fmt.Errorf("` + s.pick(idVerbs) + " " + s.pick(idNouns) + ` %q: %w", ` + b + ", err)")
		s.close("}")
	case 2:
		s.ln(a + " := " + s.goExpr())
	case 3:
		s.ln(a + " " + s.pick([]string{"+=", "=", "-=", "|="}) + " " + s.goExpr())
	case 4:
		s.ln(`s.log.` + s.pick([]string{"Info", "Debug", "Error"}) + `("` + s.message() + `", "` + snakeCase(s.words()) + `", ` + a + `, "elapsed", time.Since(start))`)
	case 5:
		s.open("if " + s.goCond() + " {")
		s.goBlock(nest + 1)
		if s.chance(0.3) {
			s.close("} else {")
			s.depth++
			s.goBlock(nest + 1)
		}
		s.close("}")
	case 6:
		s.open("for " + s.pick([]string{"_, ", "i, "}) + a + " := range " + b + "s {")
		s.goBlock(nest + 1)
		s.close("}")
	case 7:
		// gofmt puts the cases at the switch's own depth.
		s.ln("switch " + a + "." + pascalCase(s.words()) + " {")
		for range s.between(2, 4) {
			s.ln(fmt.Sprintf("case %q, %q:", s.pick(idQualifiers), s.pick(idQualifiers)))
			s.depth++
			s.goStmt(nest + 2)
			s.depth--
		}
		s.ln("default:")
		s.depth++
		s.ln(`return nil, fmt.Errorf("unknown ` + s.pick(idNouns) + ` %v", ` + a + ")")
		s.depth--
		s.ln("}")
	case 8:
		s.ln("s.mu.Lock()")
		s.ln("defer s.mu.Unlock()")
	case 9:
		s.ln(a + " = append(" + a + ", " + s.goExpr() + ")")
	case 10:
		s.ln("// " + s.sentence(a))
		s.goStmt(nest)
	default:
		s.ln(a + "[" + b + "." + pascalCase([]string{s.pick(idNouns), "id"}) + "] = " + s.goExpr())
	}
}

func (s *synth) goBlock(nest int) {
	for range s.between(1, 3) {
		s.goStmt(nest)
	}
	if s.chance(0.3) {
		s.ln(s.pick([]string{"continue", "break", "return nil, " + camelCase([]string{"err", s.pick(idNouns), s.pick(idQualifiers)})}))
	}
}

func (s *synth) goExpr() string {
	a, b := s.camel(), s.camel()
	switch s.rng.IntN(9) {
	case 0:
		return "len(" + a + ")"
	case 1:
		return a + "." + pascalCase(s.words())
	case 2:
		return "strconv.Itoa(" + a + ")"
	case 3:
		return s.number()
	case 4:
		return fmt.Sprintf("%q", s.message())
	case 5:
		return a + " * int64(" + b + ".Qty)"
	case 6:
		return "time.Now().Add(" + strconv.Itoa(s.between(1, 90)) + " * time." + s.pick([]string{"Second", "Minute", "Hour"}) + ")"
	case 7:
		return fmt.Sprintf(`fmt.Sprintf("%%s/%%d", %s, %s)`, a, b)
	default:
		return camelCase(s.funcWords()) + "(" + a + ", " + b + ")"
	}
}

func (s *synth) goCond() string {
	a := s.camel()
	switch s.rng.IntN(7) {
	case 0:
		return a + " == nil"
	case 1:
		return "len(" + a + ") == 0"
	case 2:
		return a + "." + pascalCase(s.words()) + " < " + s.number()
	case 3:
		return "!" + camelCase([]string{"ok"})
	case 4:
		return "errors.Is(err, " + camelCase([]string{"err", s.pick(idNouns), s.pick(idQualifiers)}) + ")"
	case 5:
		return a + " > " + s.camel() + " && !" + s.camel()
	default:
		return fmt.Sprintf("%s.Status == %q", a, s.pick(idQualifiers))
	}
}

func (s *synth) goTest() {
	fn := pascalCase(s.funcWords())
	s.funcs = append(s.funcs, "Test"+fn)
	s.open("func Test" + fn + "(t *testing.T) {")
	s.open("tests := []struct {")
	s.ln("name    string")
	s.ln("in      " + s.pick(goTypes))
	s.ln("want    " + s.pick(goTypes))
	s.ln("wantErr bool")
	s.close("}{")
	s.depth++
	for range s.between(3, 12) {
		s.ln(fmt.Sprintf("{%q, %s, %s, %v},", s.pick(idQualifiers)+" "+s.pick(idNouns), s.goExpr(), s.number(), s.chance(0.3)))
	}
	s.close("}")
	s.open("for _, tt := range tests {")
	s.open("t.Run(tt.name, func(t *testing.T) {")
	s.ln("got, err := " + fn + "(context.Background(), tt.in)")
	s.open("if (err != nil) != tt.wantErr {")
	s.ln(`t.Fatalf("` + fn + `(%v) error = %v, wantErr %v", tt.in, err, tt.wantErr)`)
	s.close("}")
	s.open("if got != tt.want {")
	s.ln(`t.Errorf("` + fn + `(%v) = %v, want %v", tt.in, got, tt.want)`)
	s.close("}")
	s.close("})")
	s.close("}")
	s.close("}")
	s.ln("")
}

func (s *synth) goBench() {
	fn := pascalCase(s.funcWords())
	s.funcs = append(s.funcs, "Benchmark"+fn)
	s.open("func Benchmark" + fn + "(b *testing.B) {")
	s.ln(s.camel() + " := " + s.goExpr())
	s.ln("b.ReportAllocs()")
	s.open("for b.Loop() {")
	s.open("if _, err := " + fn + "(context.Background(), " + s.camel() + "); err != nil {")
	s.ln("b.Fatal(err)")
	s.close("}")
	s.close("}")
	s.close("}")
	s.ln("")
}
