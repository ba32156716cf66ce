package main

import (
	"context"
	"flag"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/analysis"
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
			return perFunction(e, frontEngine(), "infer", "[--json] FILE...", args, asJSON, func(f *analysis.File, i int) (any, int, error) {
				fn, r := f.Prog.Syntax.Funcs[i], f.Prog.Funcs[i]
				if asJSON {
					entry := inferJSON{Path: f.Name, Summary: infer.Summary{Name: fn.Def.Name.Name, Rejected: true}}
					if r != nil {
						entry.Summary = r.Summarize()
					}
					if entry.Rejected {
						entry.Diagnostics = definitionErrors(f, i)
					}
					return entry, exitOK, nil
				}
				if r == nil {
					rejected(e, f, i, "analysed")
					return nil, exitOK, nil
				}
				r.WriteText(e.stdout, unicode)
				return nil, exitOK, nil
			})
		},
	})
}

type inferJSON struct {
	Path string `json:"path"`
	infer.Summary
	Diagnostics []jsonDiagnostic `json:"diagnostics,omitempty"`
}
