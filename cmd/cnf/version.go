package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

func init() {
	register(&command{
		name:    "version",
		summary: "print the version of cnf",
		run: func(ctx context.Context, e *env, args []string) int {
			v := "(devel)"
			if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
				v = bi.Main.Version
			}
			fmt.Fprintf(e.stdout, "cnf %s\n", v)
			return exitOK
		},
	})
}
