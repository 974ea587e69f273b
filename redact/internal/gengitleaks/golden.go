package main

import (
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// translateProgram reads the rules with gitleaks' own code. It is kept as
// text, not as a Go file of this package: importing gitleaks here would
// make canopy's go.mod require it (and viper, and the rest), which is what
// this generator exists to avoid.
//
//go:embed translate.go.txt
var translateProgram []byte

// translateByGitleaks runs translateProgram in a module of its own, in a
// temporary directory, that requires gitleaks at src.version (its
// dependencies at the versions gitleaks' go.mod names, checked against
// the checksum database), and returns what it writes.
func translateByGitleaks(src sourceFile) ([]byte, error) {
	dir, err := os.MkdirTemp("", "gengitleaks")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	gomod := fmt.Sprintf("module gengitleaks/translate\n\ngo 1.24\n\nrequire %s %s\n", module, src.version)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), translateProgram, 0o644); err != nil {
		return nil, err
	}
	if _, err := goCmd(dir, "mod", "tidy"); err != nil {
		return nil, err
	}
	return goCmd(dir, "run", ".", src.version, src.sha256)
}

// goCmd runs the go command in dir, outside any workspace.
func goCmd(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %v: %w", args, err)
	}
	return out, nil
}
