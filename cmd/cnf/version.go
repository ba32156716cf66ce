package main

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/cnf-tools/cnf/cluster"
)

func init() {
	register(&command{
		name:    "version",
		summary: "print the versions of cnf and of the HiGHS solver it links",
		run: func(ctx context.Context, e *env, args []string) int {
			v := "(devel)"
			if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
				v = bi.Main.Version
			}
			fmt.Fprintf(e.stdout, "cnf %s (HiGHS %s)\n", v, cluster.SolverVersion())
			return exitOK
		},
	})
}
