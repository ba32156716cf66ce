package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cnf-tools/cnf/infer"
)

// DefaultTimeLimit bounds each ILP solve unless the caller says otherwise.
const DefaultTimeLimit = 2 * time.Second

// NoTimeLimit as Options.TimeLimit lets the solver run until it proves its answer optimal (or
// the context ends).
const NoTimeLimit time.Duration = -1

// Options configure clustering.
type Options struct {
	TimeLimit    time.Duration // per solve; 0 means DefaultTimeLimit, NoTimeLimit none
	SameSizeOnly bool          // the Megiddo-Sarkar variant
	Together     [][2]int      // node pairs forced into one cluster
}

// Result is a clustering found by the ILP, with how it was found.
type Result struct {
	*Clustering
	Model     *Model
	Objective int  // Fig 1.14's objective for the clustering
	Optimal   bool // proven optimal by the solver
	SolveTime time.Duration
	// Fallback is non-empty when the solver failed and the clustering is the unfused one: why.
	Fallback string
}

// Solve formulates and solves the ILP for a graph. It never fails: if HiGHS finds no solution
// (an error, or the time limit with nothing found), it falls back to the unfused clustering and
// says so in Fallback. Only the context's cancellation is returned as an error.
func Solve(ctx context.Context, g *Graph, opts Options) (*Result, error) {
	m := Formulate(g, FormulateOptions{SameSizeOnly: opts.SameSizeOnly, Together: opts.Together})
	limit := opts.TimeLimit
	switch {
	case limit == 0:
		limit = DefaultTimeLimit
	case limit < 0:
		limit = 0 // SolveModel's "no limit"
	}
	var start []float64
	if len(opts.Together) == 0 {
		// A greedy clustering as the starting solution (valid for both variants when the
		// variant's own rules hold; HiGHS ignores a start that violates the model).
		start = m.StartValues(Greedy(g))
	}
	sol, err := SolveModel(ctx, m, SolveOptions{TimeLimit: limit, Start: start})
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return fallback(g, m, fmt.Sprintf("the ILP solver failed (%v): showing the unfused clustering", err)), nil
	}
	cl, err := readback(m, sol.Values)
	if err != nil {
		return fallback(g, m, fmt.Sprintf("the solver's answer is not a clustering (%v): showing the unfused clustering", err)), nil
	}
	return &Result{Clustering: cl, Model: m, Objective: cl.Cost(), Optimal: sol.Optimal, SolveTime: sol.Time}, nil
}

func fallback(g *Graph, m *Model, why string) *Result {
	cl := Unfused(g)
	return &Result{Clustering: cl, Model: m, Objective: cl.Cost(), Fallback: why}
}

// Report is the clustering of a definition with the baselines of Table 1.1.
type Report struct {
	Graph   *Graph
	Ours    *Result
	Megiddo *Result
	Stream  *Clustering
	Unfused *Clustering
}

// Analyze builds the dependency graph of a definition accepted by size inference and finds
// its optimal clustering and the baselines.
func Analyze(ctx context.Context, sizes *infer.Result, opts Options) (*Report, error) {
	if !sizes.OK() {
		return nil, fmt.Errorf("%s was rejected by size inference", sizes.Func.Def.Name.Name)
	}
	g := NewGraph(sizes)
	// The two solves are independent: run them side by side.
	mopts := opts
	mopts.SameSizeOnly = true
	var meg *Result
	var megErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		meg, megErr = Solve(ctx, g, mopts)
	}()
	ours, err := Solve(ctx, g, opts)
	<-done
	if err != nil {
		return nil, err
	}
	if megErr != nil {
		return nil, megErr
	}
	return &Report{Graph: g, Ours: ours, Megiddo: meg, Stream: Stream(g), Unfused: Unfused(g)}, nil
}
