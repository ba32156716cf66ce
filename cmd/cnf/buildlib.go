package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cnf-tools/cnf/codegen"
	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/syntax"
)

// buildLibrary is cnf build --lib and --python: every definition of the file (or the one
// --function names) compiled under the clustering which into a C library in dir, NAME.h and
// NAME.c (NAME: the file's base name); with python, also the Python module NAME.py and the
// shared library it loads, libNAME.so, built with the system C compiler.
func buildLibrary(ctx context.Context, e *env, engine *analysis.Engine, path, function, which string, opts codegen.Options, dir string, python bool) int {
	cmd := "build"
	if dir == "" || dir == "-" {
		e.errorf("%s: --lib and --python write files: give the directory with -o DIR", cmd)
		return exitUsage
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		e.errorf("%s: %s is a directory: give one file", cmd, path)
		return exitUsage
	}
	sources, ok := readSources(e, []string{path})
	if !ok {
		return exitUsage
	}
	f := engine.Load(sources[0].path, sources[0].src, 0)
	prog := f.Prog
	var defs []codegen.LibraryDef
	for i, fn := range prog.Syntax.Funcs {
		if function != "" && fn.Def.Name.Name != function {
			continue
		}
		if r := prog.Funcs[i]; r == nil || !r.OK() {
			syntax.WriteDiagnostics(e.stderr, sources[0].path, prog.Syntax.File, diagnosticsIn(prog.Diagnostics, fn.Def.Range, syntax.Error))
			e.errorf("%s: %s has errors", cmd, fn.Def.Name.Name)
			return exitProblems
		}
		def, err := f.Def(ctx, fn.Def.Name.Name)
		if err != nil {
			return e.fail(exitUsage, cmd, err)
		}
		cl, err := clusteringNamed(def.Report, which)
		if err != nil {
			return e.fail(exitUsage, cmd, err)
		}
		ld := codegen.LibraryDef{Sizes: def.Sizes, Clustering: cl}
		if cl == def.Report.Ours.Clustering {
			ld.Fused = def.Fused()
		}
		defs = append(defs, ld)
	}
	switch {
	case len(defs) == 0 && function != "":
		e.errorf("%s: %s has no definition %s (it has %s)", cmd, path, function, strings.Join(f.Names(), ", "))
		return exitUsage
	case len(defs) == 0:
		e.errorf("%s: %s has no definitions", cmd, path)
		return exitUsage
	}
	name := codegen.LibraryName(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
	lib, err := codegen.EmitLibrary(name, defs, opts)
	if err != nil {
		return compileFailed(e, cmd, f, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return e.fail(exitUsage, cmd, fmt.Errorf("making %s: %w", dir, err))
	}
	files := map[string]string{name + ".h": lib.Header, name + ".c": lib.Source}
	if python {
		files[name+".py"] = codegen.PythonModule(lib)
	}
	for file, text := range files {
		if err := replaceFile(filepath.Join(dir, file), []byte(text)); err != nil {
			return e.fail(exitUsage, cmd, err)
		}
	}
	if python {
		if err := codegen.BuildShared(ctx, dir, name); err != nil {
			return e.fail(exitProblems, cmd, err)
		}
	}
	return exitOK
}
