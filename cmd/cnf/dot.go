package main

import (
	"context"
	"flag"

	"github.com/cnf-tools/cnf/internal/present"
)

func init() {
	var (
		function string
		collapse bool
		solve    solving
	)
	register(&command{
		name:    "dot",
		args:    "FILE [--function NAME] [--collapse] [--time-limit DURATION] [--solver SOLVER] [--rates FILE]",
		summary: "print the optimal clustering as a Graphviz diagram",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&function, "function", "", "the definition, by `NAME` (needed when the file has several)")
			fs.BoolVar(&collapse, "collapse", false, "draw each loop as one box that lists its bindings, with the edges between loops bundled (for large clusterings)")
			solvingFlags(fs, &solve, "time limit of the definition's clustering")
		},
		run: func(ctx context.Context, e *env, args []string) int {
			if len(args) != 1 {
				e.errorf("dot: give exactly one FILE")
				return exitUsage
			}
			engine, err := newEngine(solve)
			if err != nil {
				return e.fail(exitUsage, "dot", err)
			}
			f, name, code := oneFunction(ctx, e, engine, "dot", args[0], function)
			if f == nil {
				return code
			}
			def, err := f.Def(ctx, name)
			if err != nil {
				return e.fail(exitUsage, "dot", err)
			}
			if err := present.WriteDOT(e.stdout, def.Report.Ours.Clustering, present.DOTOptions{Title: name, Legend: true, Collapse: collapse}); err != nil {
				e.errorf("dot: %v", err)
				return exitUsage
			}
			return exitOK
		},
	})
}
