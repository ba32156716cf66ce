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

// argList collects repeated --arg name=value flags.
type argList []string

func (a *argList) String() string     { return strings.Join(*a, " ") }
func (a *argList) Set(v string) error { *a = append(*a, v); return nil }

func init() {
	var (
		function  string
		args      argList
		fused     bool
		network   bool
		timeLimit time.Duration
	)
	register(&command{
		name:    "run",
		args:    "FILE --function NAME --arg xs=[1,2,3] --arg n=4 [--fused | --network]",
		summary: "evaluate a definition on inputs: by the reference semantics, or loop by loop as fused processes",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&function, "function", "", "the definition to run (needed when the file has several)")
			fs.Var(&args, "arg", "an input, name=value: integers, floats, True/False, tuples (1, 2), arrays [1, 2] (repeatable)")
			fs.BoolVar(&fused, "fused", false, "run each loop of the optimal clustering as its fused process")
			fs.BoolVar(&network, "network", false, "run each loop of the optimal clustering as its unfused process network")
			fs.DurationVar(&timeLimit, "time-limit", cluster.DefaultTimeLimit, "time limit of the ILP solve")
		},
		run: func(ctx context.Context, e *env, rest []string) int {
			if len(rest) != 1 {
				e.errorf("run: give exactly one FILE")
				return exitUsage
			}
			if fused && network {
				e.errorf("run: --fused and --network exclude each other")
				return exitUsage
			}
			r, code := oneFunction(e, "run", rest[0], function)
			if r == nil {
				return code
			}
			inputs := map[string]fuse.Value{}
			for _, a := range args {
				name, text, ok := strings.Cut(a, "=")
				if !ok {
					e.errorf("run: --arg %q: expected name=value", a)
					return exitUsage
				}
				v, err := fuse.ParseValue(text)
				if err != nil {
					e.errorf("run: --arg %s: %v", name, err)
					return exitUsage
				}
				if r.Func.Symbols[name] == nil || r.Func.Symbols[name].Param < 0 {
					e.errorf("run: %s is not a parameter of %s", name, r.Func.Def.Name.Name)
					return exitUsage
				}
				inputs[name] = v
			}
			var out map[string]fuse.Value
			var err error
			if fused || network {
				res, serr := cluster.Solve(ctx, cluster.NewGraph(r), cluster.Options{TimeLimit: timeLimit})
				if serr != nil {
					e.errorf("run: %v", serr)
					return exitUsage
				}
				mode := fuse.RunFused
				if network {
					mode = fuse.RunNetwork
				}
				out, err = fuse.RunClusters(ctx, r.Func, res.Clustering, inputs, fuse.DefaultExternals(), mode)
			} else {
				out, err = fuse.RunReference(r, inputs, fuse.DefaultExternals())
			}
			if err != nil {
				var unknown *fuse.UnknownHostError
				if errors.As(err, &unknown) {
					e.errorf("run: %v", err)
					return exitProblems
				}
				e.errorf("run: %v", err)
				return exitProblems
			}
			for _, id := range r.Func.Def.Results {
				fmt.Fprintf(e.stdout, "%s = %s\n", id.Name, fuse.FormatValue(out[id.Name]))
			}
			return exitOK
		},
	})
}

func formatBinding(b *syntax.Binding) string { return syntax.FormatCombinator(b.Rhs) }
