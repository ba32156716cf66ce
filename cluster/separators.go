package cluster

import (
	"math"
	"strconv"
	"time"
)

// The root loop's cut families as a table (as HiGHS keeps its HighsSeparator objects, or
// OR-tools its CutGenerators): the loop calls each in order, and a new family of cuts is one
// more entry here, with its separation routine in a file of its own (triangles.go, paths.go,
// convexity.go, cycles.go, stars.go). The pool keeps every cut found once, and which the LP
// holds now.

// separatorWhen says when a family runs in a round.
type separatorWhen int

const (
	// always: every round.
	always separatorWhen = iota
	// ifNoneBefore: only when the family before it found nothing this round (paths, the
	// longer chains, after triangles: triangles.go).
	ifNoneBefore
	// lastResort: only when nothing at all was found, the model's violated lazy rows included
	// (stars with many starts: stars.go).
	lastResort
)

// separator is a family of cuts: its name, when it runs, and its separation routine, which
// returns at most perRound inequalities violated by x.
type separator struct {
	name string
	when separatorWhen
	run  func(m *Model, x []float64, perRound int, loop loopConfig) []Row
}

// separators are the families in the order the loop calls them; the order of the rows they add
// is the order of this table (the LP's row order is part of the loop's path).
var separators = []separator{
	{"triangles", always, func(m *Model, x []float64, n int, loop loopConfig) []Row {
		return m.separateTriangles(x, n, loop.sparseFirst)
	}},
	{"paths", ifNoneBefore, func(m *Model, x []float64, n int, _ loopConfig) []Row { return m.separatePaths(x, n) }},
	{"convexity", always, func(m *Model, x []float64, n int, _ loopConfig) []Row { return m.separateConvexity(x, n) }},
	{"cycles", always, func(m *Model, x []float64, n int, _ loopConfig) []Row { return m.separateCycles(x, n) }},
	{"stars", always, func(m *Model, x []float64, n int, _ loopConfig) []Row { return m.separateStars(x, n, 1) }},
	{"stars, more starts", lastResort, func(m *Model, x []float64, n int, _ loopConfig) []Row {
		return m.separateStars(x, n, starStarts)
	}},
}

// SeparatorStats is what one family of cuts did in a root loop: rounds it ran, cuts it found
// (each round's, so a cut found again after it was dropped counts again) and the time its
// separation took.
type SeparatorStats struct {
	Name  string
	Calls int
	Found int
	Time  time.Duration
}

// separate runs the table on x for one round: the cuts found, in table order. violated are the
// model's lazy rows that x violates (lazyrows.go), which a last-resort family waits for too.
// stats, one per entry of separators, are updated.
func (m *Model) separate(x []float64, perRound int, loop loopConfig, violated int, stats []SeparatorStats) []Row {
	var found []Row
	prev := -1 // what the family before found this round; -1: it did not run
	for i, s := range separators {
		switch {
		case s.when == ifNoneBefore && prev != 0:
			prev = -1
			continue
		case s.when == lastResort && len(found)+violated > 0:
			prev = -1
			continue
		}
		began := time.Now()
		rows := s.run(m, x, perRound, loop)
		stats[i].Calls++
		stats[i].Found += len(rows)
		stats[i].Time += time.Since(began)
		found = append(found, rows...)
		prev = len(rows)
	}
	return found
}

// newSeparatorStats are zero counts, one per family.
func newSeparatorStats() []SeparatorStats {
	out := make([]SeparatorStats, len(separators))
	for i, s := range separators {
		out[i].Name = s.name
	}
	return out
}

// cutPool is every cut the loop has found, each once (the search gets those that bind at the
// end), and the ones the LP holds now (live), in the order they were added to it.
type cutPool struct {
	all   []Row
	known map[string]bool
	live  []Row
	lazy  []bool // for each of live, whether it is one of the model's lazy rows, not a cut
}

func newCutPool() *cutPool { return &cutPool{known: map[string]bool{}} }

// dropSlack removes from live the cuts x leaves slack and returns their positions in the LP
// (after its first rows rows): a dropped cut stays in the pool, and comes back into the LP if
// a later relaxation violates it.
func (p *cutPool) dropSlack(x []float64, first int) []int {
	keep, lazy, drop := p.live[:0], p.lazy[:0], []int(nil)
	for k, c := range p.live {
		if activity(c, x) > c.Lo+1e-6 { // every cut is a >= row
			drop = append(drop, first+k)
		} else {
			keep, lazy = append(keep, c), append(lazy, p.lazy[k])
		}
	}
	p.live, p.lazy = keep, lazy
	return drop
}

// binding returns the rows of live whose dual in duals (one per row of the LP, whose live rows
// come after its first rows rows) is not zero: without the others the LP has the same optimum.
// The cuts and the model's lazy rows apart; with no duals, every live row.
func (p *cutPool) binding(duals []float64, first int) (cuts, lazy []Row) {
	for k, c := range p.live {
		if duals != nil && first+k < len(duals) && math.Abs(duals[first+k]) <= 1e-9 {
			continue
		}
		if p.lazy[k] {
			lazy = append(lazy, c)
		} else {
			cuts = append(cuts, c)
		}
	}
	return cuts, lazy
}

// add records the rows just added to the LP: the new cuts (kept once in the pool) and the
// model's lazy rows (live, but not cuts).
func (p *cutPool) add(found, lazy []Row) {
	p.live = append(append(p.live, found...), lazy...)
	for range found {
		p.lazy = append(p.lazy, false)
	}
	for range lazy {
		p.lazy = append(p.lazy, true)
	}
	for _, c := range found {
		if k := cutKey(c); !p.known[k] {
			p.known[k] = true
			p.all = append(p.all, c)
		}
	}
}

// activity is Σ coef·value over the row's terms.
func activity(r Row, values []float64) float64 {
	sum := 0.0
	for _, t := range r.Terms {
		sum += t.Coef * values[t.Var]
	}
	return sum
}

// cutKey identifies a cut by its terms and bound, so that a cut found again after it was
// dropped from the loop's LP is not kept twice.
func cutKey(r Row) string {
	b := make([]byte, 0, 8*len(r.Terms)+8)
	for _, t := range r.Terms {
		b = strconv.AppendInt(b, int64(t.Var), 10)
		b = append(b, ':')
		b = strconv.AppendFloat(b, t.Coef, 'g', -1, 64)
		b = append(b, ',')
	}
	return string(strconv.AppendFloat(b, r.Lo, 'g', -1, 64))
}
