package sessiongen

import (
	"fmt"
	"strings"
)

// synthPython writes a Python module: docstring, imports, constants, then
// dataclasses, classes and functions (pytest tests in test_*.py) until
// the file has its target length; scripts end with a main guard.
func synthPython(s *synth, path string) {
	test := strings.Contains(path, "/test_")
	script := strings.HasPrefix(path, "scripts/") && !test && !strings.Contains(path, "/lib/")
	if script {
		s.ln("#!/usr/bin/env python3")
	}
	s.ln(`"""` + s.sentence("This module") + `"""`)
	s.ln("")
	for _, imp := range s.pickList(pyImports, s.between(3, 8)) {
		s.ln(imp)
	}
	s.ln("")
	s.ln(`log = logging.getLogger(__name__)`)
	s.ln("")
	for range s.between(1, 4) {
		s.ln(strings.ToUpper(snakeCase(s.words())) + " = " + s.pyExpr())
	}
	s.ln("")
	s.ln("")
	for !s.full() {
		switch r := s.rng.IntN(10); {
		case test:
			s.pyTest()
		case r < 2:
			s.pyDataclass()
		case r < 4:
			s.pyClass()
		default:
			s.pyFunc(false)
		}
		s.ln("")
		s.ln("")
	}
	if script {
		s.pyMain()
	}
}

func (s *synth) pyDataclass() {
	name := s.pascal()
	s.ln("@dataclass")
	s.open("class " + name + ":")
	s.ln(`"""` + s.sentence(name) + `"""`)
	s.ln("")
	for range s.between(3, 8) {
		line := s.snake() + ": " + s.pick(pyTypes)
		if s.chance(0.3) {
			line += " = " + s.pyExpr()
		}
		s.ln(line)
	}
	s.depth--
}

func (s *synth) pyClass() {
	name := pascalCase([]string{s.noun, s.pick([]string{"client", "repository", "exporter", "importer"})})
	s.open("class " + name + ":")
	s.ln(`"""` + s.sentence(name) + `"""`)
	s.ln("")
	s.open("def __init__(self, " + s.snake() + ": " + s.pick(pyTypes) + ", timeout: float = " + s.number() + ") -> None:")
	for range s.between(2, 4) {
		s.ln("self._" + s.snake() + " = " + s.pyExpr())
	}
	s.depth--
	for range s.between(2, 4) {
		s.ln("")
		s.pyFunc(true)
	}
	s.depth--
}

func (s *synth) pyFunc(method bool) {
	name := snakeCase(s.funcWords())
	s.funcs = append(s.funcs, name)
	var params []string
	if method {
		params = append(params, "self")
	}
	for range s.between(0, 3) {
		params = append(params, s.snake()+": "+s.pick(pyTypes))
	}
	if s.chance(0.3) {
		params = append(params, "dry_run: bool = False")
	}
	s.open("def " + name + "(" + strings.Join(params, ", ") + ") -> " + s.pick(pyTypes) + ":")
	s.ln(`"""` + s.sentence(name) + `"""`)
	for range s.between(3, 8) {
		s.pyStmt(0)
	}
	s.ln("return " + s.pyExpr())
	s.depth--
}

// pyStmt writes one statement, nesting blocks up to a depth of 3.
func (s *synth) pyStmt(nest int) {
	if nest == 0 && s.chance(0.15) {
		s.ln("")
	}
	r := s.rng.IntN(11)
	if nest >= 2 && r >= 4 && r <= 7 {
		r = 0
	}
	a, b := s.snake(), s.snake()
	switch r {
	case 0, 1:
		s.ln(a + " = " + s.pyExpr())
	case 2:
		s.ln(a + " " + s.pick([]string{"+=", "-=", "="}) + " " + s.pyExpr())
	case 3:
		s.ln(`log.` + s.pick([]string{"info", "warning", "debug"}) + `("` + s.message() + ` %s", ` + a + `)`)
	case 4:
		s.open("if " + s.pyCond() + ":")
		s.pyBlock(nest + 1)
		if s.chance(0.3) {
			s.close("else:")
			s.depth++
			s.pyBlock(nest + 1)
		}
		s.depth--
	case 5:
		s.open("for " + a + " in " + b + "s:")
		s.pyBlock(nest + 1)
		s.depth--
	case 6:
		s.open("try:")
		s.pyBlock(nest + 1)
		s.close("except (KeyError, ValueError) as exc:")
		s.depth++
		s.ln(`raise RuntimeError(f"` + s.message() + `: {exc}") from exc`)
		s.depth--
	case 7:
		s.open("with conn.cursor() as cur:")
		s.ln(`cur.execute("SELECT id, ` + b + ` FROM ` + s.pick(idNouns) + `s WHERE ` + a + ` = %s", (` + a + `,))`)
		s.ln("rows = cur.fetchall()")
		s.depth--
	case 8:
		s.ln("# " + s.sentence(a))
		s.pyStmt(nest)
	case 9:
		s.ln(a + ` = [` + b + `.` + s.snake() + ` for ` + b + ` in ` + s.snake() + `s if ` + b + `.status == "` + s.pick(idQualifiers) + `"]`)
	default:
		s.ln(a + `[` + b + `["id"]] = ` + s.pyExpr())
	}
}

func (s *synth) pyBlock(nest int) {
	for range s.between(1, 3) {
		s.pyStmt(nest)
	}
	if s.chance(0.2) {
		s.ln(s.pick([]string{"continue", "break", "return None"}))
	}
}

func (s *synth) pyExpr() string {
	a, b := s.snake(), s.snake()
	switch s.rng.IntN(8) {
	case 0:
		return "len(" + a + ")"
	case 1:
		return `f"{` + a + `}/` + s.pick(idNouns) + `s/{` + b + `:>6}"`
	case 2:
		return s.number()
	case 3:
		return fmt.Sprintf("%q", s.message())
	case 4:
		return "Decimal(" + a + ").quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_EVEN)"
	case 5:
		return `{"` + a + `": ` + b + `, "` + s.snake() + `": ` + s.number() + `}`
	case 6:
		return "sum(x." + a + " for x in " + b + ")"
	default:
		return snakeCase(s.funcWords()) + "(" + a + ", " + b + ")"
	}
}

func (s *synth) pyCond() string {
	a := s.snake()
	switch s.rng.IntN(4) {
	case 0:
		return "not " + a
	case 1:
		return a + " is None"
	case 2:
		return a + "." + s.snake() + " > " + s.number()
	default:
		return a + ` in ("` + s.pick(idQualifiers) + `", "` + s.pick(idQualifiers) + `")`
	}
}

func (s *synth) pyTest() {
	fn := snakeCase(s.funcWords())
	s.funcs = append(s.funcs, "test_"+fn)
	if s.chance(0.4) {
		s.ln("@pytest.mark.parametrize(")
		s.depth++
		s.ln(`"value, expected",`)
		s.open("[")
		for range s.between(3, 8) {
			s.ln("(" + s.pyExpr() + ", " + s.number() + "),")
		}
		s.close("],")
		s.close(")")
		s.open("def test_" + fn + "(value, expected):")
		s.ln("assert " + fn + "(value) == expected")
		s.depth--
		return
	}
	s.open("def test_" + fn + "_" + s.pick(idQualifiers) + "(tmp_path, monkeypatch):")
	for range s.between(2, 5) {
		s.ln(s.snake() + " = " + s.pyExpr())
	}
	if s.chance(0.4) {
		s.open("with pytest.raises(" + s.pick([]string{"ValueError", "KeyError", "RuntimeError"}) + "):")
		s.ln(fn + "(" + s.snake() + ")")
		s.depth--
	}
	for range s.between(1, 3) {
		s.ln("assert " + s.pyCond())
	}
	s.depth--
}

func (s *synth) pyMain() {
	s.open("def main() -> None:")
	s.ln(`parser = argparse.ArgumentParser(description="` + s.sentence("This script") + `")`)
	for range s.between(2, 5) {
		s.ln(`parser.add_argument("--` + strings.ReplaceAll(s.snake(), "_", "-") + `", type=` + s.pick([]string{"int", "str", "date.fromisoformat", "Path"}) + `, default=` + s.pyExpr() + `)`)
	}
	s.ln(`parser.add_argument("--dry-run", action="store_true")`)
	s.ln("args = parser.parse_args()")
	s.ln(`logging.basicConfig(level=os.environ.get("LOG_LEVEL", "INFO"))`)
	s.open(`with psycopg.connect(os.environ["DATABASE_URL"]) as conn:`)
	run := "run"
	if len(s.funcs) > 0 {
		run = s.pick(s.funcs)
	}
	s.ln("n = " + run + "(conn, args)")
	s.depth--
	s.ln(`print(f"{n} rows {'would be ' if args.dry_run else ''}updated")`)
	s.depth--
	s.ln("")
	s.ln("")
	s.open(`if __name__ == "__main__":`)
	s.ln("main()")
	s.depth--
}
