package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/internal/present"
)

func init() {
	var (
		asJSON, explain, cuts bool
		solve                 solving
	)
	register(&command{
		name:    "cluster",
		args:    "[--json] [--explain] [--cuts] [--time-limit DURATION] [--solver SOLVER] [--rates FILE] FILE...",
		summary: "find the optimal clustering of each definition into loops (ILP, HiGHS), with baselines",
		flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&asJSON, "json", false, "print JSON")
			fs.BoolVar(&explain, "explain", false, "say, for every binding, why it is not in each other loop")
			fs.BoolVar(&cuts, "cuts", false, "say what each family of cuts did in the solver's root loop (rounds, cuts found, time)")
			solvingFlags(fs, &solve, "time limit of each definition's clustering")
		},
		run: func(ctx context.Context, e *env, args []string) int {
			return runCluster(ctx, e, args, asJSON, explain, cuts, solve)
		},
	})
}

type clusterJSON struct {
	Path string `json:"path"`
	present.Summary
	Rejected     bool             `json:"rejected,omitempty"`
	Diagnostics  []jsonDiagnostic `json:"diagnostics,omitempty"`
	Explanations []explanation    `json:"explanations,omitempty"`
	Cuts         []cutFamily      `json:"cuts,omitempty"`
}

// cutFamily is what one family of cuts did in the root loop (--cuts).
type cutFamily struct {
	Family  string  `json:"family"`
	Rounds  int     `json:"rounds"`
	Found   int     `json:"found"`
	Seconds float64 `json:"seconds"`
}

// explanation says why one binding is not in each other loop (--explain).
type explanation struct {
	Binding string      `json:"binding"`
	Loop    int         `json:"loop"` // its own loop; 0 for an external
	NotIn   []exclusion `json:"notIn"`
}

type exclusion struct {
	Loop   int    `json:"loop"`
	Kind   string `json:"kind"` // path, external, sizes, forced-cost, no-clustering, invalid-move, move-cost
	Reason string `json:"reason"`
}

func runCluster(ctx context.Context, e *env, paths []string, asJSON, explain, cuts bool, solve solving) int {
	engine, err := newEngine(solve)
	if err != nil {
		return e.fail(exitUsage, "cluster", err)
	}
	return perFunction(e, engine, "cluster", "[--json] FILE...", paths, asJSON, func(f *analysis.File, i int) (any, int, error) {
		name := f.Prog.Syntax.Funcs[i].Def.Name.Name
		def, err := f.Def(ctx, name)
		if errors.Is(err, analysis.ErrRejected) {
			if !asJSON {
				rejected(e, f, i, "clustered")
			}
			return clusterJSON{Path: f.Name, Summary: present.Summary{Name: name}, Rejected: true, Diagnostics: definitionErrors(f, i)}, exitOK, nil
		}
		if err != nil {
			return nil, exitUsage, err
		}
		entry := clusterJSON{Path: f.Name, Summary: present.Summarize(def.Report)}
		if explain {
			f.Force(ctx, def)
			entry.Explanations = explanations(def)
		}
		if cuts {
			for _, s := range def.Report.Ours.Separators {
				entry.Cuts = append(entry.Cuts, cutFamily{Family: s.Name, Rounds: s.Calls, Found: s.Found, Seconds: s.Time.Seconds()})
			}
		}
		if !asJSON {
			present.WriteText(e.stdout, def.Report, true)
			writeExplanations(e, entry.Explanations)
			writeCuts(e, cuts, entry.Cuts)
		}
		return entry, exitOK, nil
	})
}

// explanations are the exclusions of every binding of a clustering, in source order.
func explanations(def *analysis.Def) []explanation {
	cl := def.Report.Ours
	out := []explanation{}
	for _, nd := range def.Report.Graph.Nodes {
		x := explanation{Binding: nd.Name, Loop: cl.LoopNumber(cl.Of[nd.ID]), NotIn: []exclusion{}}
		for _, ex := range def.WhyNot(nd.ID) {
			x.NotIn = append(x.NotIn, exclusion{Loop: ex.Loop, Kind: ex.Kind.String(), Reason: ex.Reason()})
		}
		out = append(out, x)
	}
	return out
}

func writeExplanations(e *env, xs []explanation) {
	if len(xs) == 0 {
		return
	}
	fmt.Fprintf(e.stdout, "  why not in another loop:\n")
	for _, x := range xs {
		where := fmt.Sprintf("loop %d", x.Loop)
		if x.Loop == 0 {
			where = "external"
		}
		for _, n := range x.NotIn {
			fmt.Fprintf(e.stdout, "    %s (%s), not in loop %d: %s\n", x.Binding, where, n.Loop, n.Reason)
		}
	}
}

// writeCuts prints what each family of cuts did (--cuts): the root loop did not run when the
// model was settled without it (no rows, another solver, or the cache).
func writeCuts(e *env, asked bool, cuts []cutFamily) {
	if !asked {
		return
	}
	if len(cuts) == 0 {
		fmt.Fprintf(e.stdout, "  cuts: the root loop did not run\n")
		return
	}
	fmt.Fprintf(e.stdout, "  cuts of the root loop:\n")
	for _, c := range cuts {
		fmt.Fprintf(e.stdout, "    %-20s %4d rounds %7d found %8.3fs\n", c.Family, c.Rounds, c.Found, c.Seconds)
	}
}
