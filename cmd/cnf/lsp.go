package main

import (
	"context"
	"flag"
	"io"
	"os"
	"time"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/lsp"
)

func init() {
	var debounce, limit time.Duration
	var rpcTrace, solver string
	def := lsp.DefaultOptions()
	register(&command{
		name:    "lsp",
		args:    "[--debounce DELAY] [--time-limit DURATION] [--solver SOLVER] [--rpc-trace FILE]",
		summary: "run the language server on standard input and output",
		flags: func(fs *flag.FlagSet) {
			debounce = def.Debounce
			fs.Var(nonNegative{&debounce}, "debounce", "`DELAY` before clustering and fusion run after an edit")
			limit = def.TimeLimit
			fs.Var(timeLimit{d: &limit, required: true}, "time-limit", "effort of each definition's clustering, as an idle machine's work (a positive `DURATION`)")
			solver = "auto"
			fs.Var(solverName{&solver}, "solver", "the ILP `SOLVER` (as for cnf cluster)")
			fs.StringVar(&rpcTrace, "rpc-trace", "", "append a line per protocol message to `FILE` (for debugging editors)")
		},
		run: func(ctx context.Context, e *env, args []string) int {
			opts := def
			opts.Debounce, opts.TimeLimit = debounce, limit
			s, err := cluster.SolverNamed(solver)
			if err != nil {
				return e.fail(exitUsage, "lsp", err)
			}
			opts.Solver = s
			if rpcTrace != "" {
				f, err := os.OpenFile(rpcTrace, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
				if err != nil {
					return e.fail(exitUsage, "lsp", err)
				}
				defer f.Close()
				opts.RPCTrace = f
			}
			// stdout carries the protocol only: logs go to stderr (and to the client).
			if err := lsp.Serve(ctx, stdio{in: e.stdin, out: e.stdout}, e.stderr, opts); err != nil {
				e.errorf("lsp: %v", err)
				return 1
			}
			return exitOK
		},
	})
}

// stdio joins standard input and output into the connection the server reads and writes.
type stdio struct {
	in  io.Reader
	out io.Writer
}

func (s stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.out.Write(p) }
func (s stdio) Close() error {
	if c, ok := s.in.(io.Closer); ok && c != os.Stdin {
		return c.Close()
	}
	return nil
}
