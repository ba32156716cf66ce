package cluster

import (
	"context"
	"runtime"
)

// strategy is how a part of a model is solved.
type strategy int

const (
	// strategyAuto races the plain model against the model with cuts on large parts when two
	// cores are available, and solves the plain model otherwise.
	strategyAuto strategy = iota
	strategyPlain
	strategyCuts
	strategyPortfolio
)

// portfolioColumns is the number of undecided binary columns from which strategyAuto races two
// solves. Below it HiGHS proves the optimum in tens of milliseconds (docs/performance.md), and a
// second solve would only cost a goroutine and memory.
const portfolioColumns = 150

// solvePart solves one independent part of a model, given the transitivity cuts that fall
// inside it.
//
// Neither model wins everywhere (docs/performance.md): the cuts tighten the relaxation, which
// helps most on programs with large groups of same-size bindings, but the extra rows slow every
// node of the search on others. So on two cores both are solved side by side, the first proven
// optimum wins and the other solve is interrupted. Both models have the same optimum (the cuts
// remove no clustering), so which one wins changes the time, never the answer's cost.
func solvePart(ctx context.Context, m *Model, cuts []Row, s strategy, opts SolveOptions) (*Solution, error) {
	if s == strategyAuto {
		s = strategyPlain
		if len(cuts) > 0 && runtime.GOMAXPROCS(0) >= 2 && m.undecided() >= portfolioColumns {
			s = strategyPortfolio
		}
	}
	if len(cuts) == 0 || s == strategyPlain {
		return solveOne(ctx, m, opts)
	}
	withCuts := &Model{N: m.N, Vars: m.Vars, Rows: append(append([]Row(nil), m.Rows...), cuts...)}
	if s == strategyCuts {
		return solveOne(ctx, withCuts, opts)
	}
	return race(ctx, opts, m, withCuts)
}

// race solves the models side by side and returns the first proven optimum, interrupting the
// other solve. If neither proves optimality (the time limit), the better solution wins; an
// error is returned only if both fail.
func race(ctx context.Context, opts SolveOptions, models ...*Model) (*Solution, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		sol *Solution
		err error
	}
	results := make(chan result, len(models))
	for _, m := range models {
		go func() {
			sol, err := solveOne(ctx, m, opts)
			results <- result{sol, err}
		}()
	}
	var best *Solution
	var firstErr error
	for range models {
		r := <-results
		switch {
		case r.err != nil:
			if firstErr == nil {
				firstErr = r.err
			}
		case r.sol.Optimal:
			return r.sol, nil
		case best == nil || r.sol.Objective < best.Objective:
			best = r.sol
		}
	}
	if best != nil {
		return best, nil
	}
	return nil, firstErr
}

// undecided counts the binary columns that the bounds do not fix.
func (m *Model) undecided() int {
	n := 0
	for _, v := range m.Vars {
		if v.Kind == Binary && v.Lo != v.Hi {
			n++
		}
	}
	return n
}

// cutsByPart computes the model's transitivity cuts and gives each part those whose columns
// all lie in it, in the part's own columns. A cut across parts is dropped: the parts share no
// constraint, and a cut is never needed for correctness.
func (m *Model) cutsByPart(parts []part) [][]Row {
	out := make([][]Row, len(parts))
	where := make([][2]int, len(m.Vars)) // column -> (part+1, local column); 0: in no part
	for k, p := range parts {
		for local, col := range p.cols {
			where[col] = [2]int{k + 1, local}
		}
	}
	for _, r := range m.transitivityCuts() {
		k := where[r.Terms[0].Var][0]
		nr := Row{Name: r.Name, Lo: r.Lo, Hi: r.Hi}
		for _, t := range r.Terms {
			w := where[t.Var]
			if w[0] != k || k == 0 {
				nr.Terms = nil
				break
			}
			nr.Terms = append(nr.Terms, Term{Var: w[1], Coef: t.Coef})
		}
		if nr.Terms != nil {
			out[k-1] = append(out[k-1], nr)
		}
	}
	return out
}
