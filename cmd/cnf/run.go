package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax"
)

func init() {
	var (
		function  string
		args      argList
		fused     bool
		network   bool
		timeLimit time.Duration
	)
	register(&command{
		name:    "run",
		args:    "FILE --function NAME --arg xs=[1,2,3] --arg n=4 [--fused | --network]",
		summary: "evaluate a definition on inputs: by the reference semantics, or loop by loop as fused processes",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&function, "function", "", "the definition to run (needed when the file has several)")
			fs.Var(&args, "arg", "an input, name=value: integers, floats, True/False, tuples (1, 2), arrays [1, 2] (repeatable)")
			fs.BoolVar(&fused, "fused", false, "run each loop of the optimal clustering as its fused process")
			fs.BoolVar(&network, "network", false, "run each loop of the optimal clustering as its unfused process network")
			timeLimitFlag(fs, &timeLimit, "time limit of the ILP solve")
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
			r, code := oneFunction(e, "run", rest[0], function)
			if r == nil {
				return code
			}
			inputs, err := inputsOf(r.Func, args, e.stdin)
			if err != nil {
				e.errorf("run: %v", err)
				return exitUsage
			}
			var out map[string]fuse.Value
			if fused || network {
				res, serr := cluster.Solve(ctx, cluster.NewGraph(r), cluster.Options{TimeLimit: timeLimit})
				if serr != nil {
					e.errorf("run: %v", serr)
					return exitUsage
				}
				mode := fuse.RunFused
				if network {
					mode = fuse.RunNetwork
				}
				out, err = fuse.RunClusters(ctx, r.Func, res.Clustering, inputs, fuse.DefaultExternals(), mode)
			} else {
				out, err = fuse.RunReference(r, inputs, fuse.DefaultExternals())
			}
			if err != nil {
				var unknown *fuse.UnknownHostError
				if errors.As(err, &unknown) {
					e.errorf("run: %v", err)
					return exitProblems
				}
				e.errorf("run: %v", err)
				return exitProblems
			}
			for _, id := range r.Func.Def.Results {
				fmt.Fprintf(e.stdout, "%s = %s\n", id.Name, fuse.FormatValue(out[id.Name]))
			}
			return exitOK
		},
	})
}

func formatBinding(b *syntax.Binding) string { return syntax.FormatCombinator(b.Rhs) }
