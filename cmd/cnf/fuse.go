package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/syntax"
)

func init() {
	var (
		function string
		notes    bool
		listing  bool
		solve    solving
	)
	register(&command{
		name:    "fuse",
		args:    "[--function NAME] [--listing] [--notes] [--time-limit DURATION] [--solver SOLVER] [--rates FILE] FILE...",
		summary: "print the fused process of every loop of the optimal clustering",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&function, "function", "", "only the definition `NAME` (every definition without it)")
			fs.BoolVar(&listing, "listing", false, "print processes as the thesis's Listing 4.4 does (joint labels as state names)")
			fs.BoolVar(&notes, "notes", false, "with the listing, show under each instruction its joint source labels and the fusion rule (implies --listing)")
			solvingFlags(fs, &solve, "time limit of each definition's clustering")
		},
		run: func(ctx context.Context, e *env, args []string) int {
			engine, err := newEngine(solve)
			if err != nil {
				return e.fail(exitUsage, "fuse", err)
			}
			style := fuse.LoopsOptions{Listing: listing || notes, Notes: notes, Times: true, Externals: true}
			if !style.Listing {
				fmt.Fprint(e.stdout, fuse.ReadableHeader+"\n")
			}
			if function != "" {
				if len(args) != 1 {
					e.errorf("fuse: give exactly one FILE with --function")
					return exitUsage
				}
				f, name, code := oneFunction(ctx, e, engine, "fuse", args[0], function)
				if f == nil {
					return code
				}
				return printFused(ctx, e, f, name, style)
			}
			several := len(args) > 1
			return perFunction(e, engine, "fuse", "[--function NAME] FILE...", args, false, func(f *analysis.File, i int) (any, int, error) {
				name := f.Prog.Syntax.Funcs[i].Def.Name.Name
				if r := f.Prog.Funcs[i]; r == nil || !r.OK() {
					rejected(e, f, i, "fused")
					return nil, exitOK, nil
				}
				if several || len(f.Prog.Syntax.Funcs) > 1 {
					fmt.Fprintf(e.stdout, "== %s: %s\n", f.Name, name)
				}
				return nil, printFused(ctx, e, f, name, style), nil
			})
		},
	})
}

// printFused prints a definition's lengths known before any loop, then the fused process of
// every loop (fuse.WriteLoops) with the externals between them. A loop that could not be fused
// makes the exit status 1.
func printFused(ctx context.Context, e *env, f *analysis.File, name string, style fuse.LoopsOptions) int {
	def, err := f.Def(ctx, name)
	if err != nil {
		if errors.Is(err, analysis.ErrRejected) {
			return exitProblems
		}
		return e.fail(exitUsage, "fuse", fmt.Errorf("%s: %w", name, err))
	}
	for _, b := range def.Report.Graph.Known {
		l, _ := def.Sizes.LengthOf(b)
		fmt.Fprintf(e.stdout, "-- before any loop: %s = %s\n\n", b.Name(), syntax.FormatExpr(l.Known))
	}
	if _, failed := fuse.WriteLoops(e.stdout, def.Fused(), style); failed {
		return exitProblems
	}
	return exitOK
}
