package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax"
)

func init() {
	var (
		function  string
		notes     bool
		timeLimit time.Duration
	)
	register(&command{
		name:    "fuse",
		args:    "FILE [--function NAME] [--notes]",
		summary: "print the fused process of every loop of the optimal clustering",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&function, "function", "", "the definition (needed when the file has several)")
			fs.BoolVar(&notes, "notes", false, "show, under each instruction, its joint source labels and the fusion rule")
			timeLimitFlag(fs, &timeLimit, "time limit of the ILP solve")
		},
		run: func(ctx context.Context, e *env, args []string) int {
			if len(args) != 1 {
				e.errorf("fuse: give exactly one FILE")
				return exitUsage
			}
			r, code := oneFunction(e, "fuse", args[0], function)
			if r == nil {
				return code
			}
			res, err := cluster.Solve(ctx, cluster.NewGraph(r), cluster.Options{TimeLimit: timeLimit})
			if err != nil {
				e.errorf("fuse: %v", err)
				return exitUsage
			}
			code = exitOK
			for _, b := range res.Graph.Known {
				l, _ := r.LengthOf(b)
				fmt.Fprintf(e.stdout, "-- before any loop: %s = %s\n\n", b.Name(), syntax.FormatExpr(l.Known))
			}
			loop := 0
			for _, f := range fuse.FuseClusters(res.Clustering, fuse.MaxStates) {
				if f.Cluster.External() {
					b := f.Cluster.Nodes[0].Binding
					fmt.Fprintf(e.stdout, "-- external: %s (a host call between loops)\n\n", strings.Join(f.Cluster.Names(), ", ")+" = "+formatBinding(b))
					continue
				}
				loop++
				fmt.Fprintf(e.stdout, "-- loop %d: %s\n", loop, strings.Join(f.Cluster.Names(), ", "))
				var fe *fuse.FusionError
				switch {
				case f.Process != nil:
					fmt.Fprintf(e.stdout, "-- %d states, fused in %s\n", f.Process.States(), f.Time.Round(time.Microsecond))
					fuse.WriteProcess(e.stdout, f.Process, notes)
				case errors.As(f.Err, &fe):
					code = exitProblems
					fmt.Fprintf(e.stdout, "-- fusion failed: %v\n-- the loop runs as %d concurrent processes; as far as fusion got:\n", fe, len(fe.Partial))
					for _, p := range fe.Partial {
						fuse.WriteProcess(e.stdout, p, notes)
					}
				default:
					e.errorf("fuse: loop %d: %v", loop, f.Err)
					return exitUsage
				}
				fmt.Fprintln(e.stdout)
			}
			return code
		},
	})
}
