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
			return runFmt(ctx, e, args, write)
		},
	})
}

// runFmt formats each file in turn. A file that cannot be read, parsed or written is reported
// and the others are still formatted; the exit status is the worst seen (2 for I/O, 1 for
// programs with errors).
func runFmt(ctx context.Context, e *env, paths []string, write bool) int {
	if len(paths) == 0 {
		e.errorf("fmt: no files given (usage: cnf fmt [-w] FILE...)")
		return exitUsage
	}
	code := exitOK
	worst := func(c int) {
		if c == exitUsage || code == exitOK {
			code = c
		}
	}
	printed := 0
	for _, path := range paths {
		if ctx.Err() != nil {
			e.errorf("fmt: interrupted")
			return exitUsage
		}
		if write && path != "-" {
			// Never block on a FIFO or a device, and never replace one.
			if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
				e.errorf("fmt: %s is not a regular file", path)
				worst(exitUsage)
				continue
			}
		}
		sources, ok := readSources(e, []string{path})
		if !ok {
			worst(exitUsage)
			continue
		}
		s := sources[0]
		f, diags := syntax.Parse(s.path, s.src)
		if syntax.HasErrors(diags) {
			// Formatting would drop what did not parse: refuse, and say why.
			syntax.WriteDiagnostics(e.stderr, s.path, f, diags)
			worst(exitProblems)
			continue
		}
		out := syntax.Format(f)
		if write {
			if bytes.Equal(out, s.src) || s.path == "<stdin>" {
				continue
			}
			if err := replaceFile(s.path, out); err != nil {
				e.errorf("fmt: %v", err)
				worst(exitUsage)
			}
			continue
		}
		if len(paths) > 1 {
			if printed > 0 {
				fmt.Fprintln(e.stdout)
			}
			fmt.Fprintf(e.stdout, "-- %s\n", s.path)
		}
		printed++
		e.stdout.Write(out)
	}
	return code
}
