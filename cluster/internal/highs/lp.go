//go:build cgo

package highs

// #include <stdlib.h>
// #include "bridge.h"
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"
	"unsafe"

	"github.com/lanl/highs"
)

// LP is the linear relaxation of a Problem (every column continuous) held in one HiGHS
// instance, so that it can be solved, given more rows and solved again from the previous
// basis (a few dual simplex iterations instead of a solve from scratch): what a cutting-plane
// loop needs. It is not safe for concurrent use.
type LP struct {
	raw   *highs.RawModel
	obj   unsafe.Pointer
	ncols int
	// ipm says that the next solve is the first of a large LP, by the interior point method
	// with crossover (the later ones start from its basis with the dual simplex).
	ipm bool
	// solved says that the LP has been solved once (it has a basis to start from).
	solved bool
}

// ipmRows is the size from which the first solve of an LP uses the interior point method: on
// large relaxations it beat the dual simplex by a factor of three; on small ones both take
// milliseconds (docs/performance.md, "Behind the code", H1).
const ipmRows = 20000

// NewLP builds the relaxation of p in a new HiGHS instance, quiet.
func NewLP(p *Problem) (*LP, error) {
	if len(p.RowLo) == 0 {
		return nil, errors.New("HiGHS: a problem without rows") // lanl/highs crashes on these
	}
	relaxed := *p
	relaxed.Integer = make([]bool, len(p.Cost))
	raw, err := build(&relaxed)
	if err != nil {
		return nil, err
	}
	lp := &LP{raw: raw, obj: handle(raw), ncols: len(p.Cost), ipm: len(p.RowLo) >= ipmRows}
	if lp.obj == nil {
		return nil, errors.New("HiGHS: cannot reach the instance inside lanl/highs (has its RawModel changed?)")
	}
	if err := raw.SetBoolOption("output_flag", false); err != nil {
		return nil, fmt.Errorf("setting the HiGHS option output_flag: %w", err)
	}
	return lp, nil
}

// Solve solves the relaxation as it now is, within limit (0: none) and within iterations
// iterations of the simplex or interior point method (0: none; a deterministic limit, where
// the time limit is only a safety net). Cancelling ctx interrupts HiGHS and returns ctx's
// error. The result's Status is Optimal with the LP's optimum, Infeasible, or Limit when the
// time or the iterations ran out (Values nil); its Iterations are the solve's.
func (lp *LP) Solve(ctx context.Context, limit time.Duration, iterations int64) (*Result, error) {
	defer runtime.KeepAlive(lp.raw)
	start := time.Now()
	seconds := math.Inf(1)
	if limit > 0 {
		seconds = limit.Seconds()
	}
	if err := lp.raw.SetFloat64Option("time_limit", seconds); err != nil {
		return nil, fmt.Errorf("setting the HiGHS option time_limit: %w", err)
	}
	most := int64(math.MaxInt32) // HiGHS's iteration limits are 32-bit
	if iterations > 0 {
		most = min(iterations, most)
	}
	for _, name := range []string{"simplex_iteration_limit", "ipm_iteration_limit"} {
		if err := lp.raw.SetIntOption(name, int(most)); err != nil {
			return nil, fmt.Errorf("setting the HiGHS option %s: %w", name, err)
		}
	}
	solver := "simplex"
	if lp.ipm {
		solver = "ipm"
	}
	if err := lp.raw.SetStringOption("solver", solver); err != nil {
		return nil, fmt.Errorf("setting the HiGHS option solver: %w", err)
	}
	w := interruptOn(lp.obj, ctx)
	failed := C.cnf_highs_run(lp.obj) != 0
	w.release()
	lp.ipm, lp.solved = false, true
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if failed {
		return nil, errors.New("HiGHS failed to solve the relaxation")
	}
	res, err := outcome(lp.obj, lp.ncols, time.Since(start))
	if err != nil {
		return nil, err
	}
	res.Iterations = int64(C.cnf_highs_iterations(lp.obj))
	if res.Status != Optimal {
		res.Values = nil
		return res, nil
	}
	nrows := lp.Rows()
	duals, rowDuals := make([]C.double, max(lp.ncols, 1)), make([]C.double, max(nrows, 1))
	if C.cnf_highs_reduced_costs(lp.obj, &duals[0], C.int(lp.ncols), &rowDuals[0], C.int(nrows)) == 0 {
		res.ReducedCosts = make([]float64, lp.ncols)
		for i := range res.ReducedCosts {
			res.ReducedCosts[i] = float64(duals[i])
		}
		res.RowDuals = make([]float64, nrows)
		for i := range res.RowDuals {
			res.RowDuals[i] = float64(rowDuals[i])
		}
	}
	return res, nil
}

// Rows is the number of rows the relaxation has now.
func (lp *LP) Rows() int {
	defer runtime.KeepAlive(lp.raw)
	return int(C.cnf_highs_num_rows(lp.obj))
}

// Nonzeros is the number of nonzeros the relaxation's matrix has now.
func (lp *LP) Nonzeros() int {
	defer runtime.KeepAlive(lp.raw)
	return int(C.cnf_highs_num_nz(lp.obj))
}

// AddRows adds rows to the relaxation: rows[k].Lo <= Σ Vals·x[Cols] <= rows[k].Hi.
func (lp *LP) AddRows(rows []Row) error {
	defer runtime.KeepAlive(lp.raw)
	if len(rows) == 0 {
		return nil
	}
	lo, hi := make([]C.double, len(rows)), make([]C.double, len(rows))
	starts := make([]C.int, len(rows))
	var index []C.int
	var value []C.double
	for k, r := range rows {
		lo[k], hi[k] = C.double(r.Lo), C.double(r.Hi)
		starts[k] = C.int(len(index))
		for i, c := range r.Cols {
			if c < 0 || c >= lp.ncols {
				return fmt.Errorf("HiGHS: a row names column %d of %d", c, lp.ncols)
			}
			index = append(index, C.int(c))
			value = append(value, C.double(r.Vals[i]))
		}
	}
	if len(index) == 0 {
		return errors.New("HiGHS: rows without entries")
	}
	if C.cnf_highs_add_rows(lp.obj, C.int(len(rows)), &lo[0], &hi[0], C.int(len(index)), &starts[0], &index[0], &value[0]) != 0 {
		return errors.New("HiGHS refused the new rows")
	}
	if !lp.solved && lp.Rows() >= ipmRows {
		lp.ipm = true // rows before the first solve make a large LP as surely as NewLP's
	}
	return nil
}

// DeleteRows removes the rows at the given indices (ascending, of the rows as they now are);
// the rows after them move up. Rows slack at the last solution can go without losing its
// basis.
func (lp *LP) DeleteRows(indices []int) error {
	defer runtime.KeepAlive(lp.raw)
	if len(indices) == 0 {
		return nil
	}
	set := make([]C.int, len(indices))
	for k, i := range indices {
		set[k] = C.int(i)
	}
	if C.cnf_highs_delete_rows(lp.obj, C.int(len(set)), &set[0]) != 0 {
		return errors.New("HiGHS refused to delete rows")
	}
	return nil
}
