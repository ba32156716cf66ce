package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/cnf-tools/cnf/syntax"
)

func init() {
	var write bool
	register(&command{
		name:    "fmt",
		args:    "[-w] FILE...",
		summary: "print programs in canonical layout (or rewrite the files with -w)",
		flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&write, "w", false, "write the result back to each file instead of printing it")
		},
		run: func(ctx context.Context, e *env, args []string) int {
			return runFmt(e, args, write)
		},
	})
}

func runFmt(e *env, paths []string, write bool) int {
	if len(paths) == 0 {
		e.errorf("fmt: no files given (usage: cnf fmt [-w] FILE...)")
		return exitUsage
	}
	sources, readOK := readSources(e, paths)
	code := exitOK
	for i, s := range sources {
		f, diags := syntax.Parse(s.path, s.src)
		if syntax.HasErrors(diags) {
			// Formatting would drop what did not parse: refuse, and say why.
			syntax.WriteDiagnostics(e.stderr, s.path, f, diags)
			code = exitProblems
			continue
		}
		out := syntax.Format(f)
		if write {
			if bytes.Equal(out, s.src) || s.path == "<stdin>" {
				continue
			}
			if err := os.WriteFile(s.path, out, 0o644); err != nil {
				e.errorf("fmt: %v", err)
				return exitUsage
			}
			continue
		}
		if len(sources) > 1 {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			fmt.Fprintf(e.stdout, "-- %s\n", s.path)
		}
		e.stdout.Write(out)
	}
	if !readOK {
		return exitUsage
	}
	return code
}
