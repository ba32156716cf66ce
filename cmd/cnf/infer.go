package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/cnf-tools/cnf/infer"
)

func init() {
	var asJSON, unicode bool
	register(&command{
		name:    "infer",
		args:    "[--json] [--unicode] FILE...",
		summary: "print size schemes, array sizes, iteration sizes and parent transducers",
		flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&asJSON, "json", false, "print JSON (sizes in ASCII notation)")
			fs.BoolVar(&unicode, "unicode", false, "print schemes in the thesis's notation (∀, ∃, →, ×)")
		},
		run: func(ctx context.Context, e *env, args []string) int {
			return runInfer(e, args, asJSON, unicode)
		},
	})
}

type inferJSON struct {
	Path string `json:"path"`
	infer.Summary
	Diagnostics []jsonDiagnostic `json:"diagnostics,omitempty"`
}

func runInfer(e *env, paths []string, asJSON, unicode bool) int {
	return perFunction(e, "infer", "[--json] FILE...", paths, asJSON, func(path string, prog *infer.Program, i int) (any, error) {
		fn, r := prog.Syntax.Funcs[i], prog.Funcs[i]
		if asJSON {
			entry := inferJSON{Path: path, Summary: infer.Summary{Name: fn.Def.Name.Name, Rejected: true}}
			if r != nil {
				entry.Summary = r.Summarize()
			}
			if entry.Rejected {
				entry.Diagnostics = definitionErrors(prog, i)
			}
			return entry, nil
		}
		if r == nil {
			fmt.Fprintf(e.stdout, "%s: not analysed (it has errors)\n", fn.Def.Name.Name)
			return nil, nil
		}
		r.WriteText(e.stdout, unicode)
		return nil, nil
	})
}
