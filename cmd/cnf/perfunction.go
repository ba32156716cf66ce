package main

import (
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

// perFunction is the shared driver of the commands that report per definition (infer,
// cluster): it reads the files, runs the front end and size inference, prints the diagnostics
// (text mode), calls visit for every definition, and in JSON mode prints {"functions": [...]}
// with the entries visit returns. The exit status is 1 if any file has errors, 2 on usage or
// I/O errors.
func perFunction(e *env, cmd, usage string, paths []string, asJSON bool, visit func(path string, prog *infer.Program, i int) (any, error)) int {
	if len(paths) == 0 {
		e.errorf("%s: no files given (usage: cnf %s %s)", cmd, cmd, usage)
		return exitUsage
	}
	sources, readOK := readSources(e, paths)
	report := struct {
		Functions []any `json:"functions"`
	}{Functions: []any{}}
	code := exitOK
	for _, s := range sources {
		prog := infer.Analyze(s.path, s.src)
		if syntax.HasErrors(prog.Diagnostics) {
			code = exitProblems
		}
		if !asJSON {
			syntax.WriteDiagnostics(e.stdout, s.path, prog.Syntax.File, prog.Diagnostics)
		}
		for i := range prog.Syntax.Funcs {
			entry, err := visit(s.path, prog, i)
			if err != nil {
				e.errorf("%s: %s: %v", cmd, prog.Syntax.Funcs[i].Def.Name.Name, err)
				return exitUsage
			}
			if asJSON {
				report.Functions = append(report.Functions, entry)
			}
		}
	}
	if asJSON {
		if err := writeJSON(e, report); err != nil {
			e.errorf("%s: writing JSON: %v", cmd, err)
			return exitUsage
		}
	}
	if !readOK {
		return exitUsage
	}
	return code
}

// definitionErrors are the errors of the i-th definition, in the JSON form of cnf check.
func definitionErrors(prog *infer.Program, i int) []jsonDiagnostic {
	return toJSONDiagnostics(prog.Syntax.File, diagnosticsIn(prog.Diagnostics, prog.Syntax.Funcs[i].Def.Range, syntax.Error))
}
