package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/codegen"
	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/syntax"
)

// clusterings are the clusterings cnf build and cnf bench compile, by name.
var clusterings = []string{"optimal", "unfused", "stream", "megiddo"}

// clusteringNamed picks a clustering of a report by name.
func clusteringNamed(rep *cluster.Report, name string) (*cluster.Clustering, error) {
	switch name {
	case "optimal", "":
		return rep.Ours.Clustering, nil
	case "unfused":
		return rep.Unfused, nil
	case "stream":
		return rep.Stream, nil
	case "megiddo":
		if rep.Megiddo == nil || rep.Megiddo.Clustering == nil {
			return nil, errors.New("the Megiddo and Sarkar clustering was not found")
		}
		return rep.Megiddo.Clustering, nil
	}
	return nil, fmt.Errorf("unknown clustering %q: choose optimal, unfused, stream or megiddo", name)
}

// readHost reads the --host file, or returns nil without one.
func readHost(path string) (*codegen.Host, error) {
	if path == "" {
		return nil, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the host file: %w", err)
	}
	return &codegen.Host{Path: path, Src: string(src)}, nil
}

// compileFailed reports why a definition cannot be compiled: located in the source when the
// code generator says where, else as a plain error.
func compileFailed(e *env, cmd string, f *analysis.File, err error) int {
	var ce *codegen.CompileError
	if errors.As(err, &ce) {
		syntax.WriteDiagnostics(e.stderr, f.Name, f.Prog.Syntax.File, []syntax.Diagnostic{ce.Diagnostic()})
		e.errorf("%s: cannot compile", cmd)
		return exitProblems
	}
	return e.fail(exitProblems, cmd, err)
}

func init() {
	var (
		function, which, host, out string
		lib, python, reassoc       bool
		threads                    int
		solve                      solving
	)
	register(&command{
		name:    "build",
		args:    "FILE [--function NAME] [--clustering CLUSTERING] [--host FILE] [-o FILE | --lib -o DIR | --python -o DIR] [--threads T] [--reassociate-floats] [--time-limit DURATION] [--solver SOLVER] [--rates FILE]",
		summary: "write a definition compiled to C under a clustering (one loop per cluster, each its fused process), or the file's definitions as a C library or a Python module",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&function, "function", "", "the definition to compile, by `NAME` (needed when the file has several)")
			fs.StringVar(&which, "clustering", "optimal", "the `CLUSTERING` to compile: optimal, unfused, stream or megiddo")
			fs.StringVar(&host, "host", "", "the C `FILE` (HOST.c) implementing the host functions and types the definition uses")
			fs.StringVar(&out, "o", "", "write the C to `FILE` (standard output without it); with --lib or --python, the directory to write into")
			fs.BoolVar(&lib, "lib", false, "write the file's definitions as a C library: NAME.h and NAME.c in the -o directory (NAME: the file's base name)")
			fs.BoolVar(&python, "python", false, "write the file's definitions as a Python module over NumPy arrays: NAME.py and libNAME.so (with NAME.h and NAME.c) in the -o directory")
			fs.IntVar(&threads, "threads", 1, "`T` threads for each loop that can be split, until the caller sets another number (NAME_threads in a library; compile with -fopenmp)")
			fs.BoolVar(&reassoc, "reassociate-floats", false, "split loops with Float folds too, combining partial sums in chunk order (the rounding then depends on the threads)")
			solvingFlags(fs, &solve, "time limit of the clustering")
		},
		run: func(ctx context.Context, e *env, rest []string) int {
			if len(rest) != 1 {
				e.errorf("build: give exactly one FILE")
				return exitUsage
			}
			engine, err := newEngine(solve)
			if err != nil {
				return e.fail(exitUsage, "build", err)
			}
			hostFile, err := readHost(host)
			if err != nil {
				return e.fail(exitUsage, "build", err)
			}
			if threads < 1 {
				e.errorf("build: --threads must be at least 1")
				return exitUsage
			}
			copts := codegen.Options{Host: hostFile, DefaultThreads: threads, ReassociateFloats: reassoc}
			if lib || python {
				return buildLibrary(ctx, e, engine, rest[0], function, which, copts, out, python)
			}
			f, name, code := oneFunction(ctx, e, engine, "build", rest[0], function)
			if f == nil {
				return code
			}
			def, err := f.Def(ctx, name)
			if err != nil {
				return e.fail(exitUsage, "build", err)
			}
			cl, err := clusteringNamed(def.Report, which)
			if err != nil {
				return e.fail(exitUsage, "build", err)
			}
			opts := copts
			if cl == def.Report.Ours.Clustering {
				opts.Fused = def.Fused()
			}
			if out != "" && out != "-" {
				opts.SourceName = filepath.Base(out)
			}
			c, err := codegen.Emit(def.Sizes, cl, opts, codegen.NoMain)
			if err != nil {
				return compileFailed(e, "build", f, err)
			}
			if out == "" || out == "-" {
				fmt.Fprint(e.stdout, c.Source)
				return exitOK
			}
			if err := replaceFile(out, []byte(c.Source)); err != nil {
				return e.fail(exitUsage, "build", err)
			}
			return exitOK
		},
	})
}
