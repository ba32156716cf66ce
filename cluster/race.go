package cluster

import (
	"math"
	"sync"
	"sync/atomic"
)

// Race is shared by two searches of the same graph (the analysis core races two solvers):
// when one proves its clustering optimal after w units of work, the other stops once it has
// spent w itself. If it proves its own with less, its proof came first in work, and the caller
// takes its answer (Result.Work). Which search wins is decided by work, not by which finished
// first on the clock: the same on every run, however loaded the machine.
//
// The first search has a lead: the second need not start until the first has done lead work
// (Passed), and a proof of the first's within its lead wins whatever the second would have done
// (the caller's rule): most definitions are proven quickly, and then only one search runs.
type Race struct {
	bits   atomic.Uint64 // math.Float64bits of the least work of a proof so far
	lead   float64
	once   sync.Once
	passed chan struct{}
}

// NewRace is a race in which nothing is proven yet, the first search leading by lead work.
func NewRace(lead float64) *Race {
	r := &Race{lead: lead, passed: make(chan struct{})}
	r.bits.Store(math.Float64bits(math.Inf(1)))
	return r
}

// Lead is the first search's lead, in work units.
func (r *Race) Lead() float64 { return r.lead }

// Passed is closed once the first search has done its lead's work.
func (r *Race) Passed() <-chan struct{} { return r.passed }

// observe records that the leading search has done work units in all; nil-safe.
func (r *Race) observe(work float64) {
	if r != nil && work >= r.lead {
		r.once.Do(func() { close(r.passed) })
	}
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
