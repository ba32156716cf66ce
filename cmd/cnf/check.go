package main

import (
	"context"
	"flag"

	"github.com/cnf-tools/cnf/syntax"
)

func init() {
	var asJSON bool
	register(&command{
		name:    "check",
		args:    "[--json] FILE...",
		summary: "report syntax, name, kind and size errors and warnings",
		flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&asJSON, "json", false, "print diagnostics as JSON with LSP-style positions")
		},
		run: func(ctx context.Context, e *env, args []string) int {
			return runCheck(e, args, asJSON)
		},
	})
}

func runCheck(e *env, paths []string, asJSON bool) int {
	if len(paths) == 0 {
		e.errorf("check: no files given (usage: cnf check [--json] FILE...)")
		return exitUsage
	}
	sources, readOK := readSources(e, paths)
	type jsonFile struct {
		Path        string           `json:"path"`
		Diagnostics []jsonDiagnostic `json:"diagnostics"`
	}
	report := struct {
		Version string     `json:"version"`
		Files   []jsonFile `json:"files"`
	}{Version: jsonVersion(), Files: []jsonFile{}}
	code := exitOK
	engine := frontEngine()
	for _, s := range sources {
		prog := engine.Load(s.path, s.src, 0).Prog
		file := prog.Syntax.File
		if syntax.HasErrors(prog.Diagnostics) {
			code = exitProblems
		}
		if asJSON {
			report.Files = append(report.Files, jsonFile{Path: s.path, Diagnostics: toJSONDiagnostics(file, prog.Diagnostics)})
		} else {
			syntax.WriteDiagnostics(e.stdout, s.path, file, prog.Diagnostics)
		}
	}
	if asJSON {
		if err := writeJSON(e, report); err != nil {
			e.errorf("check: writing JSON: %v", err)
			return exitUsage
		}
	}
	if !readOK {
		return exitUsage
	}
	return code
}
