package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
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
	if len(paths) == 0 {
		e.errorf("infer: no files given (usage: cnf infer [--json] FILE...)")
		return exitUsage
	}
	sources, readOK := readSources(e, paths)
	report := struct {
		Functions []inferJSON `json:"functions"`
	}{Functions: []inferJSON{}}
	code := exitOK
	for _, s := range sources {
		prog := infer.Analyze(s.path, s.src)
		file := prog.Syntax.File
		if syntax.HasErrors(prog.Diagnostics) {
			code = exitProblems
		}
		if !asJSON {
			syntax.WriteDiagnostics(e.stdout, s.path, file, prog.Diagnostics)
		}
		for i, fn := range prog.Syntax.Funcs {
			r := prog.Funcs[i]
			if asJSON {
				entry := inferJSON{Path: s.path, Summary: infer.Summary{Name: fn.Def.Name.Name, Rejected: true}}
				if r != nil {
					entry.Summary = r.Summarize()
				}
				if entry.Rejected {
					entry.Diagnostics = toJSONDiagnostics(file, diagnosticsIn(prog.Diagnostics, fn.Def.Range, syntax.Error))
				}
				report.Functions = append(report.Functions, entry)
				continue
			}
			if r == nil {
				fmt.Fprintf(e.stdout, "%s: not analysed (it has errors)\n", fn.Def.Name.Name)
				continue
			}
			r.WriteText(e.stdout, unicode)
		}
	}
	if asJSON {
		if err := writeJSON(e, report); err != nil {
			e.errorf("infer: writing JSON: %v", err)
			return exitUsage
		}
	}
	if !readOK {
		return exitUsage
	}
	return code
}

// diagnosticsIn returns the diagnostics of at least the given severity that start in r.
func diagnosticsIn(ds []syntax.Diagnostic, r syntax.Range, worst syntax.Severity) []syntax.Diagnostic {
	var out []syntax.Diagnostic
	for _, d := range ds {
		if d.Severity <= worst && r.Contains(d.Range.Start) {
			out = append(out, d)
		}
	}
	return out
}

func writeJSON(e *env, v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // schemes contain "->"
	return enc.Encode(v)
}
