package infer

import (
	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// Program is a file after the front end and size inference.
type Program struct {
	Syntax *syntax.Program
	// Funcs has one entry per definition, in source order; nil for a definition that the front
	// end rejected (size inference skips it, and only it).
	Funcs []*Result
	// Diagnostics are the front end's and size inference's, sorted by position.
	Diagnostics []syntax.Diagnostic
}

// Check runs size inference and type checking on every valid definition of a checked program.
func Check(prog *syntax.Program) *Program {
	out := &Program{Syntax: prog, Funcs: make([]*Result, len(prog.Funcs))}
	diags := append([]syntax.Diagnostic(nil), prog.Diagnostics...)
	var env *types.Env
	for i, fn := range prog.Funcs {
		if !fn.Valid {
			continue
		}
		r := Infer(fn)
		var typeErrs []syntax.Diagnostic
		if env == nil {
			env = types.NewEnv(prog.File)
		}
		r.Types, typeErrs = types.Check(fn, env)
		out.Funcs[i] = r
		diags = append(diags, r.Diagnostics...)
		diags = append(diags, typeErrs...)
	}
	out.Diagnostics = syntax.SortDiagnostics(diags)
	return out
}

// Analyze parses, checks and infers the sizes of a source file.
func Analyze(name string, src []byte) *Program {
	return Check(syntax.Analyze(name, src))
}
