package main

import (
	"context"
	"flag"

	"github.com/cnf-tools/cnf/cluster"
)

func init() {
	var (
		function string
		paper    bool
	)
	register(&command{
		name:    "ilp",
		args:    "FILE [--function NAME] [--paper]",
		summary: "print the clustering ILP (Fig 1.14) in CPLEX LP format, for glpsol, cbc or highs",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&function, "function", "", "the definition, by `NAME` (needed when the file has several)")
			fs.BoolVar(&paper, "paper", false, "print Fig 1.14 literally (π unbounded, big-M = N, no transitivity cuts, every array N²) instead of the tightened model cnf solves")
		},
		run: func(ctx context.Context, e *env, args []string) int {
			if len(args) != 1 {
				e.errorf("ilp: give exactly one FILE")
				return exitUsage
			}
			f, name, code := oneFunction(ctx, e, frontEngine(), "ilp", args[0], function)
			if f == nil {
				return code
			}
			_, sizes, _ := f.Func(name)
			m := cluster.Formulate(cluster.NewGraph(sizes), cluster.FormulateOptions{Paper: paper})
			if err := cluster.WriteLP(e.stdout, m, "clustering ILP of "+name); err != nil {
				e.errorf("ilp: %v", err)
				return exitUsage
			}
			return exitOK
		},
	})
}
