package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// The command's behaviour as a user sees it (arguments, output, exit codes) is tested with
// testscript, as cmd/go is: each testdata/script/*.txtar is a shell-like script run against
// the real command.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"cnf": func() { os.Exit(runMain()) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			examples, err := filepath.Abs("../../examples")
			env.Setenv("EXAMPLES", examples)
			return err
		},
	})
}
