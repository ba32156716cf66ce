package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/cnf-tools/cnf/fuse"
)

func init() {
	var (
		function string
		args     argList
		fused    bool
		network  bool
		solve    solving
	)
	register(&command{
		name:    "run",
		args:    "FILE [--function NAME] --arg NAME=VALUE... [--fused | --network] [--time-limit DURATION] [--solver SOLVER]",
		summary: "evaluate a definition on inputs: by the reference semantics, or loop by loop as fused processes",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&function, "function", "", "the definition to run, by `NAME` (needed when the file has several)")
			fs.Var(&args, "arg", "an input, `NAME=VALUE`: integers, floats, True/False, tuples (1, 2), arrays [1, 2]; name=@FILE reads the value from a file, @- from standard input (repeatable)")
			fs.BoolVar(&fused, "fused", false, "run each loop of the optimal clustering as its fused process")
			fs.BoolVar(&network, "network", false, "run each loop of the optimal clustering as its unfused process network")
			solvingFlags(fs, &solve, "time limit of the clustering (with --fused or --network)")
		},
		run: func(ctx context.Context, e *env, rest []string) int {
			if len(rest) != 1 {
				e.errorf("run: give exactly one FILE")
				return exitUsage
			}
			if fused && network {
				e.errorf("run: --fused and --network exclude each other")
				return exitUsage
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
			if fused || network {
				def, derr := f.Def(ctx, name)
				if derr != nil {
					return e.fail(exitUsage, "run", derr)
				}
				mode := fuse.RunFused
				if network {
					mode = fuse.RunNetwork
				}
				out, err = fuse.RunClusters(ctx, r.Func, def.Report.Ours.Clustering, inputs, fuse.DefaultExternals(), mode)
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
