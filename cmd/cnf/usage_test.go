package main

import (
	"flag"
	"strings"
	"testing"
)

// Every command's synopsis names each of its flags as its flag list does (-w, --json, with the
// same metavariable: --time-limit DURATION), so that --help, the docs and the completions
// spell flags one way.
func TestSynopsisNamesEveryFlag(t *testing.T) {
	for name, c := range registry {
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		if c.flags != nil {
			c.flags(fs)
		}
		fs.VisitAll(func(f *flag.Flag) {
			arg, _ := flag.UnquoteUsage(f)
			want := flagName(f.Name)
			if arg != "" {
				want += " " + arg
			}
			if !strings.Contains(c.args, want) {
				t.Errorf("cnf %s: the synopsis %q does not name %q", name, c.args, want)
			}
			if arg != "" && arg != strings.ToUpper(arg) {
				t.Errorf("cnf %s %s: metavariable %q is not in capitals", name, flagName(f.Name), arg)
			}
		})
	}
}
