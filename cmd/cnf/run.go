package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"

	"github.com/cnf-tools/cnf/codegen"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax"
)

func init() {
	var (
		function string
		args     argList
		fused    bool
		network  bool
		compiled bool
		host     string
		threads  int
		reassoc  bool
		profile  string
		solve    solving
	)
	register(&command{
		name:    "run",
		args:    "FILE [--function NAME] --arg NAME=VALUE... [--fused | --network | --compiled [--host FILE] [--threads T] [--reassociate-floats]] [--profile FILE] [--time-limit DURATION] [--solver SOLVER] [--rates FILE]",
		summary: "evaluate a definition on inputs: by the reference semantics, or loop by loop as fused processes",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&function, "function", "", "the definition to run, by `NAME` (needed when the file has several)")
			fs.Var(&args, "arg", "an input, `NAME=VALUE`: integers, floats, True/False, tuples (1, 2), arrays [1, 2]; name=@FILE reads the value from a file, @- from standard input (repeatable)")
			fs.BoolVar(&fused, "fused", false, "run each loop of the optimal clustering as its fused process")
			fs.BoolVar(&network, "network", false, "run each loop of the optimal clustering as its unfused process network")
			fs.BoolVar(&compiled, "compiled", false, "compile the optimal clustering to C (cnf build), compile that with the system C compiler (cached), and run it")
			fs.StringVar(&host, "host", "", "with --compiled, the C `FILE` implementing the host functions and types the definition uses")
			fs.IntVar(&threads, "threads", runtime.NumCPU(), "with --compiled, `T` threads for each loop that can be split (results are the same on any number)")
			fs.BoolVar(&reassoc, "reassociate-floats", false, "with --compiled, split loops with Float folds too, combining partial sums in chunk order (the rounding then depends on --threads)")
			fs.StringVar(&profile, "profile", "", "by the reference semantics, record what each filter read and kept in the rates `FILE` (other definitions' entries are kept), for --rates of cluster, build and bench")
			solvingFlags(fs, &solve, "time limit of the clustering (with --fused or --network)")
		},
		run: func(ctx context.Context, e *env, rest []string) int {
			if len(rest) != 1 {
				e.errorf("run: give exactly one FILE")
				return exitUsage
			}
			if fused && network || compiled && (fused || network) {
				e.errorf("run: --fused, --network and --compiled exclude each other")
				return exitUsage
			}
			if profile != "" && (fused || network || compiled) {
				e.errorf("run: --profile measures the reference semantics: not with --fused, --network or --compiled")
				return exitUsage
			}
			if host != "" && !compiled {
				e.errorf("run: --host goes with --compiled")
				return exitUsage
			}
			hostFile, err := readHost(host)
			if err != nil {
				return e.fail(exitUsage, "run", err)
			}
			engine, err := newEngine(solve)
			if err != nil {
				return e.fail(exitUsage, "run", err)
			}
			f, name, code := oneFunction(ctx, e, engine, "run", rest[0], function)
			if f == nil {
				return code
			}
			_, r, _ := f.Func(name)
			inputs, err := inputsOf(r.Func, args, e.stdin)
			if err != nil {
				e.errorf("run: %v", err)
				return exitUsage
			}
			var out map[string]fuse.Value
			if fused || network || compiled {
				def, derr := f.Def(ctx, name)
				if derr != nil {
					return e.fail(exitUsage, "run", derr)
				}
				cl := def.Report.Ours.Clustering
				switch {
				case compiled:
					// The results are printed as the program writes them, not held: a result
					// of tens of millions of elements took gigabytes in this process.
					err = codegen.RunPrint(ctx, e.stdout, r, cl, inputs, codegen.Options{Host: hostFile, Fused: def.Fused(), Threads: max(threads, 1), ReassociateFloats: reassoc})
					var re *codegen.RunError
					if err != nil && !errors.As(err, &re) {
						// The program could not be compiled (or no compiler runs): not a
						// run-time error of the definition.
						return compileFailed(e, "run", f, err)
					}
					if err == nil {
						return exitOK
					}
				case network:
					out, err = fuse.RunClusters(ctx, r.Func, cl, inputs, fuse.DefaultExternals(), fuse.RunNetwork)
				default:
					out, err = fuse.RunClusters(ctx, r.Func, cl, inputs, fuse.DefaultExternals(), fuse.RunFused)
				}
				// Which error a failing program reports is the reference's (docs/language.md).
				err = fuse.ProgramError(ctx, r, inputs, fuse.DefaultExternals(), err)
			} else if profile != "" {
				var counts map[string]fuse.FilterCount
				out, counts, err = fuse.Profile(ctx, r, inputs, fuse.DefaultExternals())
				if err == nil {
					if werr := writeProfile(profile, name, counts); werr != nil {
						return e.fail(exitUsage, "run", werr)
					}
					fmt.Fprintf(e.stderr, "cnf run: %s of %s measured into %s (for --rates)\n", syntax.Plural(len(counts), "filter"), name, profile)
				}
			} else {
				out, err = fuse.RunReference(ctx, r, inputs, fuse.DefaultExternals())
			}
			if err != nil {
				return e.fail(exitProblems, "run", err)
			}
			for _, id := range r.Func.Def.Results {
				fmt.Fprintf(e.stdout, "%s = %s\n", id.Name, fuse.FormatValue(out[id.Name]))
			}
			return exitOK
		},
	})
}
