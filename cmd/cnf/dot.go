package main

import (
	"context"
	"flag"
	"time"

	"github.com/cnf-tools/cnf/cluster"
)

func init() {
	var (
		function  string
		timeLimit time.Duration
	)
	register(&command{
		name:    "dot",
		args:    "FILE [--function NAME]",
		summary: "print the optimal clustering as a Graphviz diagram",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&function, "function", "", "the definition (needed when the file has several)")
			timeLimitFlag(fs, &timeLimit, "time limit of the ILP solve")
		},
		run: func(ctx context.Context, e *env, args []string) int {
			if len(args) != 1 {
				e.errorf("dot: give exactly one FILE")
				return exitUsage
			}
			r, code := oneFunction(e, "dot", args[0], function)
			if r == nil {
				return code
			}
			res, err := cluster.Solve(ctx, cluster.NewGraph(r), cluster.Options{TimeLimit: timeLimit})
			if err != nil {
				e.errorf("dot: %v", err)
				return exitUsage
			}
			if err := cluster.WriteDOT(e.stdout, res.Clustering, r.Func.Def.Name.Name); err != nil {
				e.errorf("dot: %v", err)
				return exitUsage
			}
			return exitOK
		},
	})
}
