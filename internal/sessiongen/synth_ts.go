package sessiongen

import (
	"fmt"
	"strings"
)

// synthTS writes a TypeScript file: imports, then interfaces, types,
// functions, classes, React components (.tsx) or vitest suites (.test.ts)
// until the file has its target length.
func synthTS(s *synth, path string) {
	tsx := strings.HasSuffix(path, ".tsx")
	test := strings.Contains(path, ".test.")
	s.tsImports(tsx, test)
	if !test && s.chance(0.4) {
		s.ln("/**")
		s.ln(" * " + s.sentence("This module"))
		s.ln(" */")
	}
	if test {
		for !s.full() {
			s.tsDescribe()
		}
		return
	}
	typ := pascalCase([]string{s.noun})
	s.tsInterface(typ)
	for !s.full() {
		switch r := s.rng.IntN(20); {
		case r < 2:
			s.tsInterface(s.pascal())
		case r < 3:
			s.tsUnion()
		case r < 4:
			s.tsConstMap()
		case r < 9 && tsx:
			s.tsComponent()
		case r < 11:
			s.tsClass(typ)
		case r < 13:
			s.tsArrow()
		default:
			s.tsFunc()
		}
	}
}

func (s *synth) tsImports(tsx, test bool) {
	if tsx {
		s.ln(`import { ` + strings.Join(s.pickList([]string{"useCallback", "useEffect", "useMemo", "useRef", "useState"}, s.between(2, 4)), ", ") + ` } from "react";`)
	}
	if test {
		s.ln(`import { beforeEach, describe, expect, it, vi } from "vitest";`)
	}
	for _, m := range s.pickList(tsModules, s.between(2, 6)) {
		if m == "react" || m == "vitest" {
			continue
		}
		var names []string
		for range s.between(1, 4) {
			names = append(names, s.pick([]string{camelCase(s.funcWords()), pascalCase([]string{s.pick(idNouns)})}))
		}
		kw := "import"
		if s.chance(0.2) {
			kw = "import type"
		}
		s.ln(kw + " { " + strings.Join(names, ", ") + ` } from "` + m + `";`)
	}
	s.ln("")
}

func (s *synth) tsInterface(name string) {
	if s.chance(0.5) {
		s.ln("/** " + s.sentence(name) + " */")
	}
	s.open("export interface " + name + " {")
	for range s.between(3, 10) {
		if s.chance(0.15) {
			s.ln("/** " + s.pick(docTails) + " */")
		}
		opt := ""
		if s.chance(0.3) {
			opt = "?"
		}
		s.ln(s.camel() + opt + ": " + s.pick(tsTypes) + ";")
	}
	s.close("}")
	s.ln("")
}

func (s *synth) tsUnion() {
	var alts []string
	for _, q := range s.pickList(idQualifiers, s.between(2, 5)) {
		alts = append(alts, `"`+q+`"`)
	}
	s.ln("export type " + pascalCase([]string{s.pick(idNouns), "status"}) + " = " + strings.Join(alts, " | ") + ";")
	s.ln("")
}

func (s *synth) tsConstMap() {
	name := strings.ToUpper(snakeCase([]string{s.pick(idQualifiers), s.pick(idNouns), "by", s.pick(idNouns)}))
	s.open("export const " + name + ": Record<string, number> = {")
	for _, q := range s.pickList(idQualifiers, s.between(3, 8)) {
		s.ln(q + ": " + s.number() + ",")
	}
	s.close("};")
	s.ln("")
}

func (s *synth) tsParams() string {
	var ps []string
	for range s.between(0, 3) {
		ps = append(ps, s.camel()+": "+s.pick(tsTypes))
	}
	return strings.Join(ps, ", ")
}

func (s *synth) tsFunc() {
	name := camelCase(s.funcWords())
	s.funcs = append(s.funcs, name)
	s.tsDoc(name)
	async, ret := "", s.pick(tsTypes)
	if s.chance(0.4) {
		async, ret = "async ", "Promise<"+ret+">"
	}
	s.open("export " + async + "function " + name + "(" + s.tsParams() + "): " + ret + " {")
	for range s.between(3, 8) {
		s.tsStmt(0)
	}
	s.ln("return " + s.tsExpr() + ";")
	s.close("}")
	s.ln("")
}

func (s *synth) tsDoc(name string) {
	if s.chance(0.6) {
		s.ln("/**")
		s.ln(" * " + s.sentence(name))
		if s.chance(0.5) {
			s.ln(" * @param " + s.camel() + " " + s.pick(idQualifiers) + " " + s.pick(idNouns))
			s.ln(" * @returns the " + s.pick(idNouns))
		}
		s.ln(" */")
	}
}

func (s *synth) tsArrow() {
	name := camelCase(s.funcWords())
	s.funcs = append(s.funcs, name)
	if s.chance(0.5) {
		s.ln("export const " + name + " = (" + s.tsParams() + "): " + s.pick(tsTypes) + " =>")
		s.depth++
		s.ln(s.tsExpr() + ";")
		s.depth--
	} else {
		s.open("export const " + name + " = async (" + s.tsParams() + ") => {")
		for range s.between(2, 6) {
			s.tsStmt(0)
		}
		s.close("};")
	}
	s.ln("")
}

func (s *synth) tsClass(typ string) {
	name := typ + s.pick([]string{"Client", "Store", "Cache", "Service", "Queue"})
	s.open("export class " + name + " {")
	for range s.between(2, 4) {
		s.ln("private " + s.camel() + ": " + s.pick(tsTypes) + " = " + s.tsExpr() + ";")
	}
	s.ln("")
	s.ln("constructor(private readonly " + s.camel() + ": " + pascalCase([]string{s.pick(idNouns), "options"}) + ") {}")
	for range s.between(2, 5) {
		s.ln("")
		m := camelCase(s.funcWords())
		s.funcs = append(s.funcs, name+"."+m)
		async := ""
		if s.chance(0.5) {
			async = "async "
		}
		s.open(async + m + "(" + s.tsParams() + ") {")
		for range s.between(2, 6) {
			s.tsStmt(1)
		}
		s.close("}")
	}
	s.close("}")
	s.ln("")
}

// tsStmt writes one statement, nesting blocks up to a depth of 3.
func (s *synth) tsStmt(nest int) {
	if nest == 0 && s.chance(0.15) {
		s.ln("")
	}
	r := s.rng.IntN(12)
	if nest >= 2 && r >= 5 && r <= 8 {
		r = 0
	}
	a, b := s.camel(), s.camel()
	switch r {
	case 0, 1:
		s.ln("const " + a + " = " + s.tsExpr() + ";")
	case 2:
		s.ln("const " + a + " = await " + s.pick([]string{"client", "api", "this.http"}) + ".get<" + pascalCase([]string{s.pick(idNouns)}) + ">(`/api/" + s.pick(idNouns) + "s/${" + b + "}`);")
	case 3:
		s.ln(a + " " + s.pick([]string{"+=", "=", "-=", "??="}) + " " + s.tsExpr() + ";")
	case 4:
		s.ln(`console.` + s.pick([]string{"warn", "error", "debug"}) + `("` + s.message() + `", ` + a + `);`)
	case 5:
		s.open("if (" + s.tsCond() + ") {")
		s.tsBlock(nest + 1)
		s.close("}")
	case 6:
		s.open("for (const " + a + " of " + b + "s) {")
		s.tsBlock(nest + 1)
		s.close("}")
	case 7:
		s.open("try {")
		s.tsBlock(nest + 1)
		s.close("} catch (err) {")
		s.depth++
		s.ln(`throw new ApiError(` + s.number() + `, ` + "`" + s.message() + ": ${String(err)}`);")
		s.close("}")
	case 8:
		s.open("switch (" + a + ".kind) {")
		for _, q := range s.pickList(idQualifiers, s.between(2, 4)) {
			s.ln(`case "` + q + `":`)
			s.depth++
			s.ln("return " + s.tsExpr() + ";")
			s.depth--
		}
		s.ln("default:")
		s.depth++
		s.ln("return " + s.tsExpr() + ";")
		s.depth--
		s.close("}")
	case 9:
		s.ln("// " + s.sentence(a))
		s.tsStmt(nest)
	case 10:
		s.ln("if (" + s.tsCond() + ") return " + s.tsExpr() + ";")
	default:
		s.ln("let " + a + ": " + s.pick(tsTypes) + " = " + s.tsExpr() + ";")
	}
}

func (s *synth) tsBlock(nest int) {
	for range s.between(1, 3) {
		s.tsStmt(nest)
	}
}

func (s *synth) tsExpr() string {
	a, b := s.camel(), s.camel()
	switch s.rng.IntN(9) {
	case 0:
		return a + ".filter((" + b + ") => " + b + ".status === \"" + s.pick(idQualifiers) + "\").map((" + b + ") => " + b + "." + s.camel() + ")"
	case 1:
		return a + "?." + s.camel() + " ?? " + s.number()
	case 2:
		return "`${" + a + "} " + s.pick(idNouns) + "s for ${" + b + "}`"
	case 3:
		return s.number()
	case 4:
		return fmt.Sprintf("%q", s.message())
	case 5:
		return "{ ..." + a + ", " + s.camel() + ": " + b + " }"
	case 6:
		return "Math.round(" + a + " * " + s.number() + ") / 100"
	case 7:
		return "new Date(" + a + ").toISOString()"
	default:
		return camelCase(s.funcWords()) + "(" + a + ", " + b + ")"
	}
}

func (s *synth) tsCond() string {
	a := s.camel()
	switch s.rng.IntN(5) {
	case 0:
		return "!" + a
	case 1:
		return a + ".length === 0"
	case 2:
		return a + "." + s.camel() + " > " + s.number()
	case 3:
		return "typeof " + a + ` === "string"`
	default:
		return a + " !== undefined && " + a + ".status === \"" + s.pick(idQualifiers) + "\""
	}
}

func (s *synth) tsComponent() {
	name := pascalCase(s.words())
	s.funcs = append(s.funcs, name)
	props := []string{s.camel(), s.camel(), "on" + pascalCase([]string{s.pick(idVerbs)})}
	s.open("export function " + name + "({ " + strings.Join(props, ", ") + " }: " + name + "Props) {")
	st := s.camel()
	s.ln("const [" + st + ", set" + pascalCase([]string{st}) + "] = useState<" + s.pick(tsTypes) + ">(" + s.tsExpr() + ");")
	s.ln("const " + s.camel() + " = useMemo(() => " + s.tsExpr() + ", [" + props[0] + "]);")
	if s.chance(0.6) {
		s.open("useEffect(() => {")
		s.tsBlock(1)
		s.close("}, [" + props[1] + "]);")
	}
	s.ln("")
	s.open("return (")
	s.jsx(0)
	s.close(");")
	s.close("}")
	s.ln("")
}

// jsx writes an element with children, up to a depth of 3.
func (s *synth) jsx(nest int) {
	tag := s.pick(htmlTags)
	attrs := ` className="` + strings.Join(s.pickList(cssClasses, s.between(1, 2)), " ") + `"`
	if s.chance(0.3) {
		attrs += " onClick={() => " + camelCase(s.funcWords()) + "(" + s.camel() + ")}"
	}
	s.open("<" + tag + attrs + ">")
	for range s.between(1, 4) {
		switch r := s.rng.IntN(6); {
		case r < 2 && nest < 3:
			s.jsx(nest + 1)
		case r < 3:
			a := s.camel()
			s.open("{" + a + "s.map((" + a + ") => (")
			s.ln("<" + pascalCase(s.words()) + " key={" + a + ".id} " + s.camel() + "={" + a + "} />")
			s.close("))}")
		case r < 4:
			s.ln("{" + s.camel() + " && <" + s.pick([]string{"Spinner", "EmptyState", "ErrorBanner"}) + " />}")
		default:
			s.ln(pascalCase([]string{s.pick(idQualifiers)}) + " " + s.pick(idNouns) + ": {" + camelCase(s.funcWords()) + "(" + s.camel() + ")}")
		}
	}
	s.close("</" + tag + ">")
}

func (s *synth) tsDescribe() {
	fn := camelCase(s.funcWords())
	s.funcs = append(s.funcs, fn)
	s.open(`describe("` + fn + `", () => {`)
	if s.chance(0.4) {
		s.open("beforeEach(() => {")
		s.ln("vi.useFakeTimers();")
		s.ln(s.camel() + ".mockReset();")
		s.close("});")
		s.ln("")
	}
	for i := range s.between(2, 6) {
		if i > 0 {
			s.ln("")
		}
		s.open(`it("` + s.pick(idVerbs) + "s " + s.pick(idQualifiers) + " " + s.pick(idNouns) + `s", ` + s.pick([]string{"", "async "}) + "() => {")
		for range s.between(1, 3) {
			s.ln("const " + s.camel() + " = " + s.tsExpr() + ";")
		}
		for range s.between(1, 4) {
			s.ln("expect(" + fn + "(" + s.camel() + ")).to" + s.pick([]string{"Be", "Equal", "StrictEqual", "BeCloseTo"}) + "(" + s.tsExpr() + ");")
		}
		s.close("});")
	}
	s.close("});")
	s.ln("")
}
