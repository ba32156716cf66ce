package cluster

import (
	"math"
	"sync/atomic"
)

// Race is shared by two searches of the same graph (the analysis core races two solvers):
// when one proves its clustering optimal after w units of work, the other stops once it has
// spent w itself. If it proves its own with less, its proof came first in work, and the caller
// takes its answer (Result.Work). Which search wins is decided by work, not by which finished
// first on the clock: the same on every run, however loaded the machine.
type Race struct {
	bits atomic.Uint64 // math.Float64bits of the least work of a proof so far
}

// NewRace is a race in which nothing is proven yet.
func NewRace() *Race {
	r := &Race{}
	r.bits.Store(math.Float64bits(math.Inf(1)))
	return r
}

// proved records a proof after work units; nil-safe.
func (r *Race) proved(work float64) {
	if r == nil {
		return
	}
	for {
		old := r.bits.Load()
		if work >= math.Float64frombits(old) || r.bits.CompareAndSwap(old, math.Float64bits(work)) {
			return
		}
	}
}

// limit is the least work of a proof so far (+Inf: none, or no race).
func (r *Race) limit() float64 {
	if r == nil {
		return math.Inf(1)
	}
	return math.Float64frombits(r.bits.Load())
}
