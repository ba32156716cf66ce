package highs

import (
	"context"
	"errors"
	"time"
)

// Problem is a mixed-integer linear program: minimise Cost·x subject to RowLo <= A·x <= RowHi
// and ColLo <= x <= ColHi, with x_j integral where Integer[j]. Infinite bounds are ±Inf.
type Problem struct {
	Cost, ColLo, ColHi []float64
	Integer            []bool
	RowLo, RowHi       []float64
	Entries            []Entry // the nonzeros of A
}

// Entry is a nonzero coefficient of the constraint matrix.
type Entry struct {
	Row, Col int
	Val      float64
}

// Options bound and steer a solve.
type Options struct {
	// TimeLimit bounds the solve (0: no limit). HiGHS checks it only between iterations and
	// nodes, and not at all while it sets up: Solve returns by TimeLimit plus abandonGrace
	// whatever HiGHS is doing (solveUntil).
	TimeLimit time.Duration
	// Start is a feasible solution (a value per column) to start from, or nil. A solve stopped
	// by its time limit returns at least this.
	Start []float64
	// Stop, when done, stops the solve like its time limit: the best solution so far is the
	// answer (unlike cancelling Solve's context, which abandons it). Nil for none.
	Stop context.Context
	// AbsGap is the absolute optimality gap at which HiGHS stops: below 1 proves optimality of
	// an integral objective. The relative gap is always 0.
	AbsGap float64
	// Progress, when not nil, is called during the search with its best objective so far
	// (primal; +Inf before the first) and its bound (dual), when they change, at most twice a
	// second, from another goroutine.
	Progress func(primal, dual float64)
	// Work bounds the search by a deterministic amount of work instead of time (the zero
	// value: none). Where a work limit stops it does not depend on the machine's load.
	Work Work
}

// Work is a deterministic measure of a search's effort: its LP iterations and its
// branch-and-bound nodes, each at a price. The units are the caller's (cluster prices them
// in microseconds of an idle machine).
type Work struct {
	Limit        float64 // the search stops at its first interrupt point past it; 0: none
	PerIteration float64 // the price of one LP iteration
	PerNode      float64 // the price of one node of the branch and bound
	// Cap, when not nil, is polled while the search runs: when it returns less than Limit,
	// the search stops at its first interrupt point with at least that much work. Where it
	// stops then depends on when the poll saw the change, but never stops it before it has
	// done Cap's work.
	Cap func() float64
	// Seen, when not nil, is told the search's work as it goes (polled with Cap).
	Seen func(work float64)
}

// Status says how a solve ended.
type Status int

const (
	Optimal    Status = iota // proven optimal within the gap
	Limit                    // stopped by the time or an iteration limit, with or without a solution
	Infeasible               // the problem has no solution
	Failed                   // any other ending
)

// Result is the outcome of a solve: Values is nil when HiGHS found no feasible solution.
type Result struct {
	Status    Status
	Values    []float64
	Objective float64
	// Bound is the MIP search's dual bound: no solution has a smaller objective. -Inf when
	// HiGHS has none (it stopped before solving the relaxation; LP.Solve never sets it).
	Bound float64
	Time  time.Duration
	// Work is the search's work at its last interrupt point, priced as Options.Work says
	// (for LP.Solve: its iterations times the price it was given), and OutOfWork says that
	// the work limit stopped it.
	Work      float64
	OutOfWork bool
	// Iterations is the number of LP iterations of an LP.Solve, or of the search at its last
	// interrupt point, and Nodes the search's nodes then.
	Iterations, Nodes int64
	// ReducedCosts are the reduced costs of the columns at an LP's optimum (LP.Solve only;
	// nil when HiGHS has no dual solution).
	ReducedCosts []float64
	// RowDuals are the duals of the rows at an LP's optimum (LP.Solve only; nil when HiGHS
	// has none): a row whose dual is zero can go without lowering the optimum.
	RowDuals []float64
}

// ErrUnavailable is returned by Solve in a build without cgo, where HiGHS is not linked.
var ErrUnavailable = errors.New("HiGHS is not linked into this build of cnf (it was built without cgo)")

// Row is a constraint added to an LP: Lo <= Σ Vals[k]·x[Cols[k]] <= Hi.
type Row struct {
	Lo, Hi float64
	Cols   []int
	Vals   []float64
}

// abandonAt is when Solve returns whatever HiGHS is doing (zero: never, without a time limit).
func (o Options) abandonAt(start time.Time) time.Time {
	if o.TimeLimit <= 0 {
		return time.Time{}
	}
	return start.Add(o.TimeLimit + abandonGrace(o.TimeLimit))
}

// abandonGrace is how long past its time limit a solve may take to stop by itself: an eighth
// of the limit, between 50 ms and 1 s. HiGHS usually stops within milliseconds of its limit
// (finishing a node), and the solution it has then is better than the start that an
// abandoned solve answers with.
func abandonGrace(limit time.Duration) time.Duration {
	return min(max(limit/8, 50*time.Millisecond), time.Second)
}
