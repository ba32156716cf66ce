package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/internal/ratesfile"
	"github.com/cnf-tools/cnf/syntax"
)

// frontEngine is the analysis core of a command that does not cluster (check, infer, ilp).
func frontEngine() *analysis.Engine { return analysis.NewEngine(analysis.Config{}) }

// newEngine is the analysis core of one command run (see package analysis). It fails when the
// solver --solver names is not installed.
func newEngine(s solving) (*analysis.Engine, error) {
	solver, err := cluster.SolverNamed(s.solver)
	if err != nil {
		return nil, err
	}
	cfg := analysis.Config{TimeLimit: s.limit, Solver: solver}
	if s.rates != "" {
		if cfg.Rates, err = ratesfile.Read(s.rates); err != nil {
			return nil, err
		}
	}
	return analysis.NewEngine(cfg), nil
}

// perFunction is the shared driver of the commands that report per definition (infer,
// cluster, fuse): it reads the files, loads each into the engine (front end and sizes), prints
// the diagnostics (text mode), calls visit for every definition, and in JSON mode prints
// {"version": ..., "functions": [...]} with the entries visit returns. The exit status is the
// worst of 1 if any file has errors (or visit says so), 2 on usage or I/O errors.
func perFunction(e *env, engine *analysis.Engine, cmd, usage string, paths []string, asJSON bool, visit func(f *analysis.File, i int) (any, int, error)) int {
	if len(paths) == 0 {
		e.errorf("%s: no files given (usage: cnf %s %s)", cmd, cmd, usage)
		return exitUsage
	}
	sources, readOK := readSources(e, paths)
	report := jsonReport{Version: jsonVersion(), Functions: []any{}}
	code := exitOK
	for _, s := range sources {
		f := engine.Load(s.path, s.src, 0)
		if syntax.HasErrors(f.Prog.Diagnostics) {
			code = exitProblems
		}
		if !asJSON {
			syntax.WriteDiagnostics(e.stdout, s.path, f.Prog.Syntax.File, f.Prog.Diagnostics)
		}
		for i, fn := range f.Prog.Syntax.Funcs {
			warnRates(e, engine, cmd, fn)
			entry, c, err := visit(f, i)
			if errors.Is(err, context.Canceled) {
				return exitInterrupted // runMain says so
			}
			if err != nil {
				e.errorf("%s: %s: %v", cmd, f.Prog.Syntax.Funcs[i].Def.Name.Name, err)
				return exitUsage
			}
			code = max(code, c)
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

// jsonReport is the top level of the --json output of infer, cluster and fuse.
type jsonReport struct {
	Version   string `json:"version"`
	Functions []any  `json:"functions"`
}

// definitionErrors are the errors of the i-th definition, in the JSON form of cnf check.
func definitionErrors(f *analysis.File, i int) []jsonDiagnostic {
	prog := f.Prog
	return toJSONDiagnostics(prog.Syntax.File, diagnosticsIn(prog.Diagnostics, prog.Syntax.Funcs[i].Def.Range, syntax.Error))
}

// oneFunction loads a file and picks the definition a command works on: the one named, or the
// only one the file has. It reports problems itself and returns a non-zero exit code.
func oneFunction(ctx context.Context, e *env, engine *analysis.Engine, cmd, path, name string) (*analysis.File, string, int) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		e.errorf("%s: %s is a directory: give one file", cmd, path)
		return nil, "", exitUsage
	}
	sources, ok := readSources(e, []string{path})
	if !ok {
		return nil, "", exitUsage
	}
	f := engine.Load(sources[0].path, sources[0].src, 0)
	prog := f.Prog
	names := f.Names()
	for i, fn := range prog.Syntax.Funcs {
		if name != "" && fn.Def.Name.Name != name || name == "" && len(names) > 1 {
			continue
		}
		if r := prog.Funcs[i]; r == nil || !r.OK() {
			syntax.WriteDiagnostics(e.stderr, sources[0].path, prog.Syntax.File, diagnosticsIn(prog.Diagnostics, fn.Def.Range, syntax.Error))
			e.errorf("%s: %s has errors", cmd, fn.Def.Name.Name)
			return nil, "", exitProblems
		}
		warnRates(e, engine, cmd, fn)
		return f, fn.Def.Name.Name, exitOK
	}
	switch {
	case len(names) == 0:
		e.errorf("%s: %s has no definitions", cmd, path)
	case name == "" && hasErrors(prog.Diagnostics):
		// Not a list of definitions parsed out of a file that is not a program (or is half of
		// one): its errors first.
		syntax.WriteDiagnostics(e.stderr, sources[0].path, prog.Syntax.File, errorsOf(prog.Diagnostics))
		e.errorf("%s: %s has errors (and several definitions, %s: choose one with --function)", cmd, path, strings.Join(names, ", "))
		return nil, "", exitProblems
	case name == "":
		e.errorf("%s: %s has several definitions (%s): choose one with --function", cmd, path, strings.Join(names, ", "))
	default:
		e.errorf("%s: %s has no definition %s (it has %s)", cmd, path, name, strings.Join(names, ", "))
	}
	return nil, "", exitUsage
}

// rejected says, in text mode, that a definition with errors was skipped.
func rejected(e *env, f *analysis.File, i int, what string) {
	fmt.Fprintf(e.stdout, "%s: not %s (it has errors)\n", f.Prog.Syntax.Funcs[i].Def.Name.Name, what)
}
