package main

import (
	"context"
	"fmt"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/internal/buildinfo"
)

func init() {
	register(&command{
		name:    "version",
		summary: "print the version and revision of cnf, and the version of the HiGHS solver it links",
		run: func(ctx context.Context, e *env, args []string) int {
			solver := "HiGHS " + cluster.SolverVersion()
			if cluster.SolverVersion() == "" {
				solver = "no HiGHS: built without cgo; "
				auto, _ := cluster.SolverNamed("auto")
				if auto == cluster.NoSolver {
					solver += "no highs, glpsol or cbc on PATH"
				} else {
					solver += "clusters with " + auto.Name()
				}
			}
			fmt.Fprintf(e.stdout, "cnf %s (%s)\n", buildinfo.Version(), solver)
			return exitOK
		},
	})
}

// jsonVersion is the "version" field of every --json output.
func jsonVersion() string { return buildinfo.Version() }
