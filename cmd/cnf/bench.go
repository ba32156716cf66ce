package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/cnf-tools/cnf/codegen"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax"
)

type benchJSON struct {
	Version     string            `json:"version"`
	Function    string            `json:"function"`
	Size        int64             `json:"size"`
	Clusterings []benchClustering `json:"clusterings"`
	Copy        benchCopy         `json:"copy"`
	Assumed     []string          `json:"assumed,omitempty"` // inputs drawn other than by default
	Threads     int               `json:"threads"`
}

type benchClustering struct {
	Name       string  `json:"name"`
	Loops      int     `json:"loops"`
	Seconds    float64 `json:"seconds"`
	MinSeconds float64 `json:"minSeconds"`
	Runs       int     `json:"runs"` // timed runs, over all the rounds
	Bytes      int64   `json:"bytes"`
	Agree      bool    `json:"agree"`
	SameAs     string  `json:"sameAs,omitempty"` // an earlier clustering with the same C, measured once
}

type benchCopy struct {
	Seconds float64 `json:"seconds"`
	Bytes   int64   `json:"bytes"`
}

func init() {
	var (
		function, host, save string
		inputs               string
		size                 int64
		runs, rounds         int
		seed                 uint64
		asJSON, reassoc      bool
		threads              int
		args                 argList
		solve                solving
	)
	register(&command{
		name:    "bench",
		args:    "FILE [--function NAME] [--size N] [--runs K] [--rounds R] [--seed SEED] [--threads T] [--reassociate-floats] [--arg NAME=VALUE]... [--host FILE] [--inputs DIR] [--save DIR] [--json] [--time-limit DURATION] [--solver SOLVER] [--rates FILE]",
		summary: "compile every clustering (unfused, stream, megiddo, optimal) to native code and time it on the same random inputs",
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&function, "function", "", "the definition to measure, by `NAME` (needed when the file has several)")
			fs.Int64Var(&size, "size", 10_000_000, "`N`, the elements of every array parameter (of the largest array, when the program crosses parameters)")
			fs.IntVar(&runs, "runs", 5, "`K`, the timed runs of each clustering (after one warm-up run)")
			fs.IntVar(&rounds, "rounds", 1, "run the clusterings in turn `R` times, K runs each time, medians and minima over all (on a machine whose load comes and goes)")
			fs.Uint64Var(&seed, "seed", 1, "the `SEED` of the random inputs")
			fs.IntVar(&threads, "threads", runtime.NumCPU(), "`T` threads for each loop that can be split, and for the copy loop")
			fs.Var(&args, "arg", "a scalar parameter, `NAME=VALUE` (default: N, as most scalars are counts)")
			fs.StringVar(&host, "host", "", "the C `FILE` (HOST.c) implementing the host functions and types the definition uses")
			fs.BoolVar(&asJSON, "json", false, "print the measurements as JSON")
			fs.BoolVar(&reassoc, "reassociate-floats", false, "split loops with Float folds too, combining partial sums in chunk order (the rounding then depends on --threads)")
			fs.StringVar(&inputs, "inputs", "", "read the parameters from `DIR`'s NumPy files (in_NAME.npy: one-dimensional arrays of the parameters' element types, as --save writes them) instead of drawing them; a scalar without its file is --arg's or N")
			fs.StringVar(&save, "save", "", "store the inputs and the optimal clustering's results in `DIR` as NumPy .npy files (in_NAME.npy, out_NAME.npy), to run other tools on the same data")
			solvingFlags(fs, &solve, "time limit of the clustering")
		},
		run: func(ctx context.Context, e *env, rest []string) int {
			if len(rest) != 1 {
				e.errorf("bench: give exactly one FILE")
				return exitUsage
			}
			if size < 0 || runs < 1 || rounds < 1 {
				e.errorf("bench: --size must be at least 0, and --runs and --rounds at least 1")
				return exitUsage
			}
			engine, err := newEngine(solve)
			if err != nil {
				return e.fail(exitUsage, "bench", err)
			}
			hostFile, err := readHost(host)
			if err != nil {
				return e.fail(exitUsage, "bench", err)
			}
			f, name, code := oneFunction(ctx, e, engine, "bench", rest[0], function)
			if f == nil {
				return code
			}
			def, err := f.Def(ctx, name)
			if err != nil {
				return e.fail(exitUsage, "bench", err)
			}
			scalars, err := benchScalars(def.Sizes.Func, args)
			if err != nil {
				return e.fail(exitUsage, "bench", err)
			}
			if err := codegen.CheckMemory(def.Sizes.Func, size); err != nil {
				return e.fail(exitUsage, "bench", fmt.Errorf("--size: %w", err))
			}
			if inputs != "" {
				if st, err := os.Stat(inputs); err != nil || !st.IsDir() {
					return e.fail(exitUsage, "bench", fmt.Errorf("--inputs %s: not a directory", inputs))
				}
			}
			if save != "" {
				if err := os.MkdirAll(save, 0o755); err != nil {
					return e.fail(exitUsage, "bench", fmt.Errorf("--save: %w", err))
				}
			}
			res, err := codegen.Bench(ctx, def.Sizes, codegen.BenchClusterings(def.Report, def.Fused()), codegen.BenchOptions{Size: size, Runs: runs, Rounds: rounds, Seed: seed, Scalars: scalars, Host: hostFile, Threads: max(threads, 1), Save: save, Inputs: inputs, ReassociateFloats: reassoc})
			if err != nil {
				return compileFailed(e, "bench", f, err)
			}
			if asJSON {
				out := benchJSON{Version: jsonVersion(), Function: name, Size: size, Copy: benchCopy{res.CopySeconds, res.CopyBytes}, Assumed: res.Assumed, Threads: res.Threads}
				for _, m := range res.Clusterings {
					out.Clusterings = append(out.Clusterings, benchClustering{m.Name, m.Loops, m.Seconds, m.MinSeconds, m.Runs, m.Bytes, m.Agree, m.SameAs})
				}
				if err := writeJSON(e, out); err != nil {
					return e.fail(exitUsage, "bench", err)
				}
			} else {
				where := fmt.Sprintf("at %d elements", size)
				if inputs != "" {
					where = "on the inputs in " + inputs
				}
				each := fmt.Sprintf("%d runs each", runs)
				if rounds > 1 {
					each = fmt.Sprintf("%d rounds of %d runs each in turn", rounds, runs)
				}
				writeBench(e, name, where, each, res)
			}
			for _, m := range res.Clusterings {
				if !m.Agree {
					e.errorf("bench: %s computes other results than %s", m.Name, res.Clusterings[0].Name)
					return exitProblems
				}
			}
			return exitOK
		},
	})
}

// benchScalars reads the --arg values of the bench: scalar parameters only.
func benchScalars(fn *syntax.Func, args []string) (map[string]fuse.Value, error) {
	out := map[string]fuse.Value{}
	for _, a := range args {
		name, text, ok := strings.Cut(a, "=")
		if !ok {
			return nil, fmt.Errorf("--arg %q: expected name=value", shorten(a))
		}
		sym := fn.Symbols[name]
		if sym == nil || sym.Param < 0 || sym.Kind == syntax.Array {
			return nil, fmt.Errorf("--arg %s: not a scalar parameter of %s (arrays are made with --size elements)", shorten(name), fn.Def.Name.Name)
		}
		v, err := fuse.ParseValue(text)
		if err != nil {
			return nil, fmt.Errorf("--arg %s: %w", name, err)
		}
		out[name] = v
	}
	return out, nil
}

// writeBench prints the measurements as a table: per clustering its loops, median and minimum
// time, bytes streamed and stored, bandwidth, fraction of the copy loop's, speed-up over
// unfused.
func writeBench(e *env, name, where, each string, res *codegen.BenchResult) {
	fmt.Fprintf(e.stdout, "%s %s, %s (median, min), %s a loop, compiled with cc %s\n\n", name, where, each, syntax.Plural(res.Threads, "thread"), strings.Join(codegen.Flags, " "))
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "clustering\tloops\tmedian\tmin\tarray MB\tGB/s\tof copy\tspeed-up\t")
	copyRate := 0.0
	if res.CopySeconds > 0 {
		copyRate = float64(res.CopyBytes) / res.CopySeconds
	}
	base := res.Clusterings[0].Seconds
	for _, m := range res.Clusterings {
		rate := float64(m.Bytes) / m.Seconds
		frac := "-"
		if copyRate > 0 {
			frac = fmt.Sprintf("%.0f%%", 100*rate/copyRate)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%.0f\t%.1f\t%s\t%.2f×\t\n", m.Name, m.Loops, ms(m.Seconds), ms(m.MinSeconds), float64(m.Bytes)/1e6, rate/1e9, frac, base/m.Seconds)
	}
	if res.CopySeconds > 0 {
		fmt.Fprintf(tw, "copy loop\t\t%s\t\t%.0f\t%.1f\t100%%\t\t\n", ms(res.CopySeconds), float64(res.CopyBytes)/1e6, copyRate/1e9)
	}
	tw.Flush()
	agree := true
	for _, m := range res.Clusterings {
		agree = agree && m.Agree
	}
	if agree {
		fmt.Fprintln(e.stdout, "\nall clusterings compute the same results (checksum "+res.Clusterings[0].Checksum+")")
	}
	for _, m := range res.Clusterings {
		if m.SameAs != "" {
			fmt.Fprintf(e.stdout, "%s compiles to the same C as %s: run once\n", m.Name, m.SameAs)
		}
	}
	for _, a := range res.Assumed {
		fmt.Fprintln(e.stdout, "inputs: "+a)
	}
}

func ms(s float64) string { return fmt.Sprintf("%.1f ms", s*1e3) }
