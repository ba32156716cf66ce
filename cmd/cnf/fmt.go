package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"slices"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/cnf-tools/cnf/syntax"
)

// fmtMode is what cnf fmt does with each file, as gofmt's flags choose.
type fmtMode struct {
	write bool // -w: rewrite the file
	list  bool // -l: print the names of the files whose layout differs
	diff  bool // -d: print a unified diff of each
	check bool // --check: like -l, and exit 1 if any differs (for CI)
}

func init() {
	var m fmtMode
	register(&command{
		name:    "fmt",
		args:    "[-w] [-l] [-d] [--check] FILE|DIR...",
		summary: "print programs in canonical layout (or rewrite, list or diff them; directories: every .cnf under them)",
		flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&m.write, "w", false, "write the result back to each file instead of printing it")
			fs.BoolVar(&m.list, "l", false, "print the name of each file whose layout differs from cnf fmt's")
			fs.BoolVar(&m.diff, "d", false, "print a unified diff of each file whose layout differs")
			fs.BoolVar(&m.check, "check", false, "print the name of each file whose layout differs, and exit with status 1 if any does")
		},
		run: func(ctx context.Context, e *env, args []string) int {
			return runFmt(ctx, e, args, m)
		},
	})
}

// runFmt formats each file in turn. A file that cannot be read, parsed or written is reported
// and the others are still formatted; the exit status is the worst seen (2 for I/O, 1 for
// programs with errors or, with --check, a file whose layout differs).
func runFmt(ctx context.Context, e *env, args []string, m fmtMode) int {
	if len(args) == 0 {
		e.errorf("fmt: no files given (usage: cnf fmt [-w] [-l] [-d] [--check] FILE|DIR...)")
		return exitUsage
	}
	if m.write && slices.Contains(args, "-") {
		e.errorf("fmt: -w cannot write back standard input (leave out -w to print the result)")
		return exitUsage
	}
	code := exitOK
	worst := func(c int) {
		if c == exitUsage || code == exitOK {
			code = c
		}
	}
	paths, ok := expandPaths(e, args)
	if !ok {
		worst(exitUsage)
	}
	printed := 0
	for _, path := range paths {
		if ctx.Err() != nil {
			e.errorf("fmt: interrupted")
			return exitUsage
		}
		if m.write && path != "-" {
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
		differs := !bytes.Equal(out, s.src)
		if m.list || m.check {
			if differs {
				fmt.Fprintln(e.stdout, s.path)
				if m.check {
					worst(exitProblems)
				}
			}
		}
		if m.diff && differs {
			fmt.Fprint(e.stdout, udiff.Unified(s.path+".orig", s.path, string(s.src), string(out)))
		}
		if m.write {
			if !differs {
				continue
			}
			if err := replaceFile(s.path, out); err != nil {
				e.errorf("fmt: %v", err)
				worst(exitUsage)
			}
			continue
		}
		if m.list || m.check || m.diff {
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
