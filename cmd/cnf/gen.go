package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/syntax/gen"
)

func init() {
	var (
		bindings    int
		seed        uint64
		name        string
		noExternals bool
		thesis      bool
		shape       string
	)
	register(&command{
		name:    "gen",
		args:    "[--bindings N] [--seed S] [--name NAME] [--no-externals] [--thesis] [--shape SHAPE]",
		summary: "write a random valid program (for tests and benchmarks)",
		flags: func(fs *flag.FlagSet) {
			fs.IntVar(&bindings, "bindings", 10, "`N`, the number of bindings")
			fs.Uint64Var(&seed, "seed", 1, "random seed `S`: the same seed gives the same program")
			fs.StringVar(&name, "name", "prog", "`NAME` of the definition")
			fs.BoolVar(&noExternals, "no-externals", false, "leave out external bindings")
			fs.BoolVar(&thesis, "thesis", false, "only the combinators of the thesis (no scans, slices, append, length, ...)")
			fs.StringVar(&shape, "shape", "", "the second generator's `SHAPE`: "+strings.Join(gen.Shapes, ", ")+" (the classic mix without it)")
		},
		run: func(ctx context.Context, e *env, args []string) int {
			if len(args) > 0 {
				e.errorf("gen: unexpected arguments %q", args)
				return exitUsage
			}
			if bindings < 1 || bindings > 100000 {
				e.errorf("gen: --bindings must be between 1 and 100000")
				return exitUsage
			}
			if shape != "" && !slices.Contains(gen.Shapes, shape) {
				e.errorf("gen: --shape %q is not one of %s", shape, strings.Join(gen.Shapes, ", "))
				return exitUsage
			}
			if !syntax.ValidName(name) {
				e.errorf("gen: --name %q is not a name a definition can have (a lowercase identifier that is not a keyword or a combinator)", name)
				return exitUsage
			}
			r := rand.New(rand.NewPCG(seed, 0x636e66))
			fmt.Fprint(e.stdout, gen.Program(r, gen.Options{Name: name, Bindings: bindings, NoExternals: noExternals, ThesisOnly: thesis, Shape: shape}))
			return exitOK
		},
	})
}
