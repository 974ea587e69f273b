package main

// takeCompare takes the second id of `--compare A B` out of the
// arguments (a flag takes one value; this one takes two), before the
// flags are parsed: it returns the arguments without B, and B. Only
// arguments before "--" are flags. msg says what is wrong, if anything.
func takeCompare(args []string) (rest []string, b, msg string) {
	for i, a := range args {
		switch {
		case a == "--":
			return args, "", ""
		case a == "--compare":
			if i+2 >= len(args) {
				return nil, "", "--compare needs two entry ids: --compare A B"
			}
			return append(append([]string{}, args[:i+2]...), args[i+3:]...), args[i+2], ""
		case len(a) > len("--compare=") && a[:len("--compare=")] == "--compare=":
			if i+1 >= len(args) {
				return nil, "", "--compare needs two entry ids: --compare A B"
			}
			return append(append([]string{}, args[:i+1]...), args[i+2:]...), args[i+1], ""
		}
	}
	return args, "", ""
}

// checkCompare says what does not go with --compare, if anything.
func (f *exportFlags) checkCompare() string {
	if !f.fs.Changed("compare") {
		return ""
	}
	switch {
	case *f.compareA == "" || *f.compareB == "":
		return "--compare needs two entry ids: --compare A B"
	case f.fs.Changed("leaf"), f.fs.Changed("from"):
		return "--compare names the two leaves itself: it does not go with --leaf or --from"
	case f.job.Scope.PathOnly:
		return "--compare shows two branches: it does not go with --path-only, which keeps one"
	}
	return ""
}
