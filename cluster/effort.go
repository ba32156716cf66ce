package cluster

import (
	"context"
	"math"
	"time"

	"github.com/cnf-tools/cnf/cluster/internal/highs"
)

// Effort: how much a clustering may search, counted in deterministic work rather than time, so
// that its answer does not depend on the machine's load (a wall-clock limit made the same file
// give different clusterings, and a longer limit a worse one, on a busy machine).
//
// Work is counted in work units, priced so that one unit is about a microsecond of this
// machine's time when it is idle: the price of an LP iteration grows with the LP's size, a
// heuristic's with the pairs it weighs. A time limit T of the options becomes T's worth of
// units (TimeLimit.Microseconds()), and the clock stays as a safety net only, at
// safetyFactor times T: on an idle machine the work runs out first, and the answer is the same
// on every run; on a machine so loaded that the net fires, the answer says so (Result.Note).
//
// Every phase spends from one meter: the greedy start, the root loop's LPs and readings, and
// HiGHS's search (its LP iterations and nodes, counted by HiGHS at its interrupt points). A
// phase that is given a share of what is left stops at the same point of its work on every
// run, and more effort runs the same phases further: the answer never gets worse with more.

// SafetyFactor is how many times the nominal time the clock allows before it stops a search
// that still has work left (a machine running at a third of its speed still gets the
// deterministic answer).
const SafetyFactor = 4

const safetyFactor = SafetyFactor

// WorkOf is the work, in work units, of a time limit's worth of an idle machine's time.
func WorkOf(limit time.Duration) float64 { return workOf(limit) }

// meter counts the work of one search against its limit. Its children share its count with
// limits of their own (until). It is not safe for concurrent use: each search has its own.
type meter struct {
	net   context.Context // cancellation, Options.Stop and the clock's safety net
	used  *float64        // the work spent so far, shared with the children
	limit float64         // in work units; +Inf for none
	race  *Race           // another search's proof, which ends this one at as much work; nil for none
	leads bool            // this is the race's first search: its work passing the lead is told
	// cut, shared with the children, records the first time a meter of the family was found
	// out because its net was done while the whole search's work (total) was not spent. The
	// phases after such a stop may still spend their fixed costs (a search's set-up) and pass
	// the limit; without this record the answer of a search the clock cut short was reported as
	// the deterministic one.
	cut   *bool
	total float64 // the whole search's limit: the first meter's
}

// newMeter is a meter of limit work units (+Inf: none) that also stops when net is done.
func newMeter(net context.Context, limit float64) *meter {
	return &meter{net: net, used: new(float64), limit: limit, cut: new(bool), total: limit}
}

// unlimited is a meter without a work limit: only ctx stops it.
func unlimited(ctx context.Context) *meter { return newMeter(ctx, math.Inf(1)) }

// spend adds units of work and reports whether the search must stop: out of work, or
// stopped by its net.
func (m *meter) spend(units float64) bool {
	*m.used += units
	if m.leads {
		m.race.observe(*m.used)
	}
	return m.out()
}

// observe tells the race that the search has done work units in all (while HiGHS searches,
// from another goroutine: it reads nothing that changes).
func (m *meter) observe(work float64) {
	if m.leads {
		m.race.observe(work)
	}
}

// out reports whether the work is spent, another search of the race proved its answer with
// no more work than this one has spent, or the net is done.
func (m *meter) out() bool {
	if *m.used >= m.limit || m.raced() {
		return true
	}
	if m.net.Err() != nil {
		if *m.used < m.total {
			*m.cut = true
		}
		return true
	}
	return false
}

// cutShort reports whether a meter of the family was found out by its net before the whole
// search's work was spent (or proved by the race): the net, not the work, ended the search.
func (m *meter) cutShort() bool { return *m.cut }

// raced reports whether another search of the race proved its answer with no more work than
// this one has spent.
func (m *meter) raced() bool { return m.race != nil && *m.used >= m.race.limit() }

// exhausted reports whether the work (not the net) is spent.
func (m *meter) exhausted() bool { return *m.used >= m.limit }

// left is the work left (+Inf: no limit), to the limit or to the race's; never negative.
func (m *meter) left() float64 { return max(min(m.limit, m.race.limit())-*m.used, 0) }

// spent is the work spent so far.
func (m *meter) spent() float64 { return *m.used }

// until is a child meter that shares m's count and stops after share of what m has left (or
// when m stops).
func (m *meter) until(share float64) *meter {
	if math.IsInf(m.left(), 1) {
		return m
	}
	return &meter{net: m.net, used: m.used, limit: *m.used + share*m.left(), race: m.race, leads: m.leads, cut: m.cut, total: m.total}
}

// capped is a child meter that shares m's count and stops once it has reached limit work
// units in all (or when m stops).
func (m *meter) capped(limit float64) *meter {
	return &meter{net: m.net, used: m.used, limit: min(m.limit, limit), race: m.race, leads: m.leads, cut: m.cut, total: m.total}
}

// workOf is the work units of a time limit; +Inf for none (a negative limit).
func workOf(limit time.Duration) float64 {
	if limit < 0 {
		return math.Inf(1)
	}
	return float64(limit.Microseconds())
}

// The prices of work, in units (about a microsecond of this machine, idle; measured against
// the clock on whole solves, docs/performance.md, "Effort, not time", Prices, and "Effort on
// long limits", where fans 200 shows how far a phase's price can be off). An LP iteration costs in proportion to the
// LP's rows and columns; the heuristics in proportion to the pairs of clusters they weigh.
const (
	priceIterationEntry = 0.002 // an LP iteration, per row and column of the LP
	priceIterationBase  = 2.0   // an LP iteration, whatever its size
	priceSolveEntry     = 0.6   // an LP solve's set-up (factoring the basis), per row and column
	priceSearchFactor   = 2.0   // an iteration of HiGHS's search, against one of the root loop
	priceNode           = 100.0 // a node of HiGHS's branch and bound, besides its LPs
	pricePair           = 0.4   // the greedy merges' weighing of two clusters
	priceScan           = 0.05  // a step of a scan over nodes or pairs (moves, readings)
	priceTarget         = 0.005 // weighing a move of a node to a cluster, per node of the graph
	priceCutRound       = 2.0   // a separation round, per column of the model
	priceRow            = 0.5   // building a row of the model
	priceRebuild        = 0.5   // building a merger or a clustering from labels, or costing one, per node (kicks)
	orderedFactor       = 6     // the π rows' LP (orderfree.go) is priced as if it had this many times its rows
)

// iterationPrice is the price of one LP iteration on an LP of rows rows and cols columns.
func iterationPrice(rows, cols int) float64 {
	return priceIterationBase + priceIterationEntry*float64(rows+cols)
}

// lpWork is the work of an LP solve of rows rows and cols columns.
func lpWork(sol *highs.Result, rows, cols int) float64 {
	return priceSolveEntry*float64(rows+cols) + float64(sol.Iterations)*iterationPrice(rows, cols)
}

// iterations is how many iterations of an LP of rows rows and cols columns the meter has
// left after the solve's set-up (0: no limit; at least 1 when any work is left).
func (m *meter) iterations(rows, cols int) int64 {
	if math.IsInf(m.left(), 1) {
		return 0
	}
	return max(int64((m.left()-priceSolveEntry*float64(rows+cols))/iterationPrice(rows, cols)), 1)
}

// Stages are the time limits of the searches that a clustering under the time limit limit
// runs one after the other, each starting from the best clustering of those before, so that a
// longer limit never gives a worse answer. A limit of at most DefaultTimeLimit (or none) is
// one search. A longer one is rounded down to DefaultTimeLimit times a power of two, and
// searched in stages that double what was spent: 2 s, then 2 s more (4 s), 4 s more (8 s),
// and so on. The stages of a limit are the first stages of every longer limit's, and each
// stage's answer is the same on every run (it is counted in work), so the best of them can
// only improve as the limit grows. Below the default, a shorter limit is one shorter search,
// which may happen to find a better clustering than a longer one.
func Stages(limit time.Duration) []time.Duration {
	if limit == 0 {
		limit = DefaultTimeLimit
	}
	if limit < 0 || limit <= DefaultTimeLimit {
		return []time.Duration{limit}
	}
	stages := []time.Duration{DefaultTimeLimit}
	for total := DefaultTimeLimit; 2*total <= limit; total *= 2 {
		stages = append(stages, total)
	}
	return stages
}
