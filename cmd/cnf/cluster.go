package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

func init() {
	var (
		asJSON    bool
		timeLimit time.Duration
	)
	register(&command{
		name:    "cluster",
		args:    "[--json] [--time-limit D] FILE...",
		summary: "find the optimal clustering of each definition into loops (ILP, HiGHS), with baselines",
		flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&asJSON, "json", false, "print JSON")
			timeLimitFlag(fs, &timeLimit, "time limit of each ILP solve")
		},
		run: func(ctx context.Context, e *env, args []string) int {
			return runCluster(ctx, e, args, asJSON, timeLimit)
		},
	})
}

type clusterJSON struct {
	Path string `json:"path"`
	cluster.Summary
	Rejected    bool             `json:"rejected,omitempty"`
	Diagnostics []jsonDiagnostic `json:"diagnostics,omitempty"`
}

func runCluster(ctx context.Context, e *env, paths []string, asJSON bool, limit time.Duration) int {
	return perFunction(e, "cluster", "[--json] FILE...", paths, asJSON, func(path string, prog *infer.Program, i int) (any, error) {
		fn, r := prog.Syntax.Funcs[i], prog.Funcs[i]
		if r == nil || !r.OK() {
			if !asJSON {
				fmt.Fprintf(e.stdout, "%s: not clustered (it has errors)\n", fn.Def.Name.Name)
			}
			return clusterJSON{Path: path, Summary: cluster.Summary{Name: fn.Def.Name.Name}, Rejected: true, Diagnostics: definitionErrors(prog, i)}, nil
		}
		rep, err := cluster.Analyze(ctx, r, cluster.Options{TimeLimit: limit})
		if err != nil {
			return nil, err
		}
		if !asJSON {
			rep.WriteText(e.stdout, true)
		}
		return clusterJSON{Path: path, Summary: rep.Summarize()}, nil
	})
}

// oneFunction analyses a file and picks the definition a command works on: the one named, or
// the only one the file has. It reports problems itself and returns a non-zero exit code.
func oneFunction(e *env, cmd, path, name string) (*infer.Result, int) {
	sources, ok := readSources(e, []string{path})
	if !ok {
		return nil, exitUsage
	}
	prog := infer.Analyze(sources[0].path, sources[0].src)
	var names []string
	for i, fn := range prog.Syntax.Funcs {
		names = append(names, fn.Def.Name.Name)
		if name != "" && fn.Def.Name.Name != name {
			continue
		}
		if name == "" && len(prog.Syntax.Funcs) > 1 {
			continue
		}
		r := prog.Funcs[i]
		if r == nil || !r.OK() {
			syntax.WriteDiagnostics(e.stderr, sources[0].path, prog.Syntax.File, diagnosticsIn(prog.Diagnostics, fn.Def.Range, syntax.Error))
			e.errorf("%s: %s has errors", cmd, fn.Def.Name.Name)
			return nil, exitProblems
		}
		return r, exitOK
	}
	switch {
	case len(names) == 0:
		e.errorf("%s: %s has no definitions", cmd, path)
	case name == "":
		e.errorf("%s: %s has several definitions (%s): choose one with --function", cmd, path, strings.Join(names, ", "))
	default:
		e.errorf("%s: %s has no definition %s (it has %s)", cmd, path, name, strings.Join(names, ", "))
	}
	return nil, exitUsage
}
