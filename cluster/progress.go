package cluster

import (
	"math"
	"sync"
)

// tally adds up what the independent parts of a model report during their solves, for
// SolveOptions.Progress: the whole model's best objective so far and the bound proved so far.
type tally struct {
	mu      sync.Mutex
	report  func(objective, bound float64)
	outside float64   // the cost of the columns in no part
	floor   float64   // a bound on the whole known before the parts (the root loop's)
	obj     []float64 // each part's best objective so far (+Inf: none yet)
	bound   []float64 // each part's bound so far
}

// newTally starts a tally of the parts of m (nil when report is nil). start, when not nil, is
// the whole model's start: each part's best so far until its search reports.
func newTally(report func(objective, bound float64), m *Model, parts []part, outside, floor float64, start []float64) *tally {
	if report == nil {
		return nil
	}
	t := &tally{report: report, outside: outside, floor: floor, obj: make([]float64, len(parts)), bound: make([]float64, len(parts))}
	for k, p := range parts {
		t.obj[k], t.bound[k] = math.Inf(1), float64(p.model.LowerBound())
		if start != nil {
			t.obj[k] = 0
			for _, col := range p.cols {
				t.obj[k] += m.Vars[col].Cost * start[col]
			}
		}
	}
	return t
}

// part returns what part k's search calls with its primal and dual bounds (nil for a nil
// tally).
func (t *tally) part(k int) func(primal, dual float64) {
	if t == nil {
		return nil
	}
	return func(primal, dual float64) { t.update(k, primal, dual) }
}

// update records part k's bounds and reports the whole's.
func (t *tally) update(k int, primal, dual float64) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !math.IsNaN(primal) && primal < t.obj[k] {
		t.obj[k] = primal
	}
	if !math.IsNaN(dual) && !math.IsInf(dual, 0) && dual > t.bound[k] {
		t.bound[k] = dual
	}
	obj, bound := t.outside, t.outside
	for i := range t.obj {
		obj += t.obj[i]
		bound += t.bound[i]
	}
	t.report(obj, max(bound, t.floor))
}
