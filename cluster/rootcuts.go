package cluster

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/cnf-tools/cnf/cluster/internal/highs"
)

// The cutting-plane loop at the root: solve the relaxation, add the triangle (or, when none is
// violated, path), convexity, directed cycle and star inequalities it violates (triangles.go,
// paths.go, convexity.go, cycles.go, stars.go), solve again from
// the previous basis, until none is violated, the bound stops rising, or the loop's share of
// the time is spent. The relaxation is solved without Fig 1.14's π rows (splitOrder): the
// cycle inequalities carry the order. The solver then starts from a model
// whose relaxation is close to the optimum, and when the bound already meets the starting
// clustering, or one read from a relaxation of the loop, no search is needed at all.

// The loop's bounds (besides its share of the time limit).
const (
	maxRootRounds = 60
	// cutsPerNode bounds each family's cuts a round, per node of the graph (loopConfig's
	// perNode), unless the solver says otherwise (highsSolver.loop).
	cutsPerNode = 20
	// stallRounds: the loop stops when the bound's ceiling (the objective is integral) has not
	// risen for this many rounds.
	stallRounds = 4
)

// loopConfig is what may differ between two runs of the loop on one model (the race's two
// solves run different loops: LPOrderSolver).
type loopConfig struct {
	// perNode bounds the cuts of each family a round: perNode times the nodes, at least 200.
	perNode int
	// sparseFirst takes the triangle inequalities of the nodes with the fewest pairs first
	// among those violated as much (separateTriangles).
	sparseFirst bool
	// alone, when not 0, is a share of the solve's work, at most the usual half: when the
	// loop has spent it, or has ended before, and HiGHS's search could not follow the loop
	// (searchFollows), the loop ends there, and the work left goes to kicks (kick.go), none to
	// the relaxation with π, which was for the search. On fans 200 under the default effort the
	// search never followed; the race's second search now kicks with three quarters of its
	// work, the first with half after its usual loop, and the race keeps the better answer
	// (docs/performance.md, "The loop alone").
	alone float64
}

// defaultLoop is the loop of a solve that is not told otherwise.
func defaultLoop() loopConfig { return loopConfig{perNode: cutsPerNode, alone: 0.5} }

// rootResult is what the loop found.
type rootResult struct {
	model  *Model    // the model with the cuts (a copy: the caller's model is unchanged)
	bound  float64   // the relaxation's optimum with them: no clustering costs less
	values []float64 // the relaxation's solution when it is integral (then optimal), else nil
	rounds int
	// converged says that the loop ended with nothing left to cut: its last relaxation
	// violates none of the inequalities it separates, nor a row of the model.
	converged bool
	// last and reduced are the last relaxation's solution and reduced costs (nil if none).
	last, reduced []float64
	// unsolved says that the loop's time ran out before the first relaxation was solved.
	unsolved bool
	// firstLP is the work of the first relaxation (or of its run, when it was not solved),
	// and firstRows how many rows it had.
	firstLP   float64
	firstRows int
	// firstBound is the first relaxation's optimum (with the cuts the loop started from).
	firstBound float64
	// alone says that the search could not follow the loop, which ended at its alone share
	// (loopConfig) or before: the work left is the kicks'.
	alone bool
	// read is the cheapest clustering read from the loop's relaxations (readDuring), as
	// column values, and readCost its objective (nil, +Inf: none).
	read     []float64
	readCost float64
	// reading is the work spent reading them; readLast says that last was read.
	reading  float64
	readLast bool
	// separators counts what each family of cuts did (separators.go).
	separators []SeparatorStats
	// binding are the cuts whose duals in the last relaxation of the loop are not zero, and
	// bindingLazy the model's lazy rows (lazyrows.go) whose are: with the model's other rows
	// they give its bound, and a later loop starts from them (carry.go).
	binding, bindingLazy []Row
}

// strengthen runs the loop on m, from the cuts from of an earlier loop on it (carry.go; nil for
// none), within the work of w, except that the first relaxation may take all of first's (w's
// parent: the whole solve's): without it nothing can be done, the search included. A relaxation that cannot be solved with the work left ends the loop with
// what it has. When w's net ends (ctx, the clock), the loop returns what it has found so far
// with its error.
func (m *Model) strengthen(w, first *meter, loop loopConfig, from *Cuts) (*rootResult, error) {
	return m.strengthenReporting(w, first, loop, from, nil)
}

// strengthenReporting is strengthen that tells report, when not nil, after each round the
// cheapest clustering read so far (+Inf: none) and the bound: a proof's loop can run for
// minutes on large programs, and the editor's progress said nothing until it ended.
func (m *Model) strengthenReporting(w, first *meter, loop loopConfig, from *Cuts, report func(read, bound float64)) (*rootResult, error) {
	ctx := w.net
	res := &rootResult{model: m, bound: math.Inf(-1), readCost: math.Inf(1)}
	if len(m.Rows) == 0 {
		return res, nil // nothing to cut: every column is at its cheapest bound
	}
	// The loop's relaxation leaves out π (orderFree): the directed cycle inequalities state
	// the order in x instead, and the π rows, a third or more of the model, only slowed every
	// LP (docs/performance.md). Its bound and reduced costs hold for the whole model, which
	// has more rows. Without the graph there is nothing to separate the order from.
	// A model whose rows are all π rows is given whole (HiGHS takes no LP without rows).
	// The concestor rows are left out too, and added when violated (lazyrows.go).
	relaxed, orderFree := m, false
	var order, lazy []Row
	if m.Graph != nil {
		others, ord, conc := m.splitOrder()
		if len(others) > 0 {
			r := *m
			r.Rows = others
			relaxed, orderFree, order, lazy = &r, true, ord, conc
		}
	}
	lp, err := highs.NewLP(problemOf(relaxed))
	if err != nil {
		return res, err
	}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	pool := newCutPool()
	if from != nil {
		if err := lp.AddRows(highsRows(append(slices.Clip(from.list), from.lazy...))); err != nil {
			return res, err
		}
		pool.add(from.list, from.lazy)
	}
	res.separators = newSeparatorStats()
	perRound := max(loop.perNode*m.N, 200)
	best, stalled := math.Inf(-1), 0
	loopBegan := w.spent()
	// Once the loop has spent its alone share (if it has one), it asks, once, whether the
	// search could follow it; if not, it ends there.
	whole := first.left()
	decided := loop.alone <= 0 || math.IsInf(whole, 1)
	for res.rounds < maxRootRounds {
		if !decided && res.rounds > 0 && first.spent() >= loopBegan+loop.alone*whole {
			decided = true
			if !res.searchFollows(first.left(), searchRows(m, pool.all, res.last)) {
				res.alone = true
				break
			}
		}
		lw := w
		if res.rounds == 0 {
			lw = first
		}
		if lw.out() {
			res.unsolved = res.rounds == 0
			break
		}
		rows := lp.Rows()
		sol, err := lp.Solve(ctx, 0, lw.iterations(rows, len(m.Vars)))
		if err != nil {
			return res.with(m, pool.all), err
		}
		spent := lpWork(sol, rows, len(m.Vars))
		lw.spend(spent)
		if res.rounds == 0 {
			res.firstLP, res.firstRows, res.firstBound = spent, rows, sol.Objective
		}
		if sol.Status != highs.Optimal {
			res.unsolved = res.rounds == 0
			break // out of time: the bound so far stands
		}
		res.rounds++
		res.bound = sol.Objective
		res.binding, res.bindingLazy = pool.binding(sol.RowDuals, len(relaxed.Rows))
		if m.integral(sol.Values) && !orderFree {
			res.values = sol.Values
			break
		}
		res.last, res.reduced, res.readLast = sol.Values, sol.ReducedCosts, false
		read := func() bool { // reports whether the clustering read is optimal
			// Readings may take the solve's own work, not the loop's share.
			if res.reading <= (w.spent()-loopBegan)/readShare {
				res.readDuring(first, m, sol.Values)
			}
			return res.readCost < sol.Objective+1-1e-6
		}
		// An integral relaxation is read only once cuts are found in it: with none it is the
		// clustering (settle). Reading it first was most of the solve on programs the first
		// relaxation settles; not reading it at all made others slower (docs/performance.md,
		// "Behind the code", R1).
		integral := m.integral(sol.Values)
		if !integral && read() {
			break // the clustering read is optimal: nothing to prove beyond it
		}
		if first.out() {
			// The solve's work is done (a reading can take all of it): neither a relaxation
			// nor the search will use more cuts, and separating them on large programs took a
			// noticeable time more (docs/performance.md, "Behind the code", R2).
			break
		}
		if c := math.Ceil(sol.Objective - 1e-6); c > best {
			best, stalled = c, 0
			if report != nil {
				report(res.readCost, c)
			}
		} else if stalled++; stalled >= stallRounds {
			break
		}
		violated := violatedRows(lazy, sol.Values) // the model's own, not cuts
		found := m.separate(sol.Values, perRound, loop, len(violated), res.separators)
		w.spend(priceCutRound * float64(len(m.Vars)))
		if len(found)+len(violated) == 0 {
			res.converged = true
			if orderFree && integral {
				res.settle(m, sol.Values)
			}
			break
		}
		if integral && read() {
			break
		}
		// Cuts the relaxation leaves slack go before the new ones come in: the LP keeps the
		// model's rows and the live cuts only. Every LP of the loop is then smaller, which on
		// fans 100 made the loop twice as fast for the same bound (docs/performance.md). A
		// dropped cut stays in cuts (the search gets it if it binds at the end) and comes back
		// into the LP if a later relaxation violates it.
		if err := lp.DeleteRows(pool.dropSlack(sol.Values, len(relaxed.Rows))); err != nil {
			return res.with(m, pool.all), err
		}
		if err := lp.AddRows(highsRows(append(found, violated...))); err != nil {
			return res.with(m, pool.all), err
		}
		pool.add(found, violated)
	}
	// A clustering read within 1 of the bound is the answer (proves): no search follows, so the
	// relaxation with π, for the search and for reading, is not needed (it was a few percent of
	// a proof's time; docs/performance.md, "Behind the code", R3).
	proven := res.readCost < res.bound+1-1e-6
	if orderFree && !res.converged && res.values == nil && res.last != nil && !proven && ctx.Err() == nil {
		if !decided && res.rounds > 0 { // the loop ended before its alone share
			res.alone = !res.searchFollows(first.left(), searchRows(m, pool.all, res.last))
		}
		if !res.alone {
			res.ordered(lp, order, len(m.Vars), first.until(orderedShare))
		}
	}
	return res.with(m, pool.all), nil
}

// readShare: the loop reads clusterings from its relaxations (readDuring) while that has
// taken at most 1/readShare of its time (a reading is not free, and on `fans` the bound meets
// the optimum only in the last rounds, so readings every round made the proof there slower;
// docs/performance.md, "Behind the code", R4).
const readShare = 20

// orderedShare is the share of the work left after the loop that the relaxation with π
// (ordered) may take: the rest goes to reading it and, when the search cannot follow, to kicks
// (kick.go). With all of it, the relaxation with π took the 2 s default's second half on fans
// 200 and left the reading nothing (docs/performance.md, "Kicks").
const orderedShare = 0.5

// readDuring reads a clustering from a relaxation of the loop (guided) and keeps it if it is the
// cheapest so far. Which relaxation of the loop reads best is not the last one: earlier
// relaxations may read the optimum where the last does not, and the search then takes longer to
// find it (docs/performance.md, "Behind the code", R5). When one costs less than the bound plus 1
// it is optimal, and the loop ends (proves, rootStage). Reading stops when w's work is done, with
// what it has: one reading of a large program can take most of the default limit, and kept the
// command past it.
func (r *rootResult) readDuring(w *meter, m *Model, values []float64) {
	began := w.spent()
	defer func() { r.reading += w.spent() - began }()
	cl := m.guided(w, values)
	if cl == nil || w.net.Err() != nil {
		return
	}
	r.readLast = true
	v := m.StartValues(cl)
	if c := objective(m, v); c < r.readCost {
		r.read, r.readCost = v, c
	}
}

// stage is what the root stage hands the search.
type stage struct {
	model *Model    // the model to search: strengthened, with variables fixed by reduced cost
	start []float64 // the better of the caller's start and the clustering the relaxation points at
	// settled is the solution when the loop settled the model by itself (nil: search on).
	settled *Solution
	// bound is the relaxation's optimum after the loop: no solution costs less (-Inf: none
	// solved).
	bound float64
	// separators is what each family of cuts did in the loop.
	separators []SeparatorStats
	// cuts are the loop's cuts and lazy rows that bind in its last relaxation, for a later
	// solve to start from (carry.go); nil for none.
	cuts *Cuts
	// searchCap, when not 0, is the work (as the solve's meter counts it) past which the
	// search stops, short of the solve's own limit.
	searchCap float64
}

// rootStage runs the cutting-plane loop before HiGHS searches m (in this process), within half
// of w's work, and returns what the search starts from. began is when the solve began. An
// error is ctx's.
func (m *Model) rootStage(ctx context.Context, opts SolveOptions, began time.Time, w *meter, loop loopConfig) (stage, error) {
	// Half of what is left at most: the search needs work too. The first relaxation may take all
	// of it: without it the search cannot begin either, and the clustering read from it is far
	// better than the greedy one on the programs where it is slow (docs/performance.md, "Behind
	// the code", R6).
	stop := w.net // ctx, opts.Stop and the clock
	start := opts.Start
	loopWork := w.until(0.5)
	half := loopWork.left() // the loop's share, which a continued stage's search gets too
	// An error ends the loop with the cuts found so far: the model stays valid without them,
	// and when opts.Stop ended it, the search stops at once with the start.
	var report func(read, bound float64)
	if opts.Progress != nil {
		report = func(read, bound float64) {
			best := read // +Inf: none yet
			if start != nil {
				best = min(best, objective(m, start))
			}
			opts.Progress(best, bound)
		}
	}
	root, _ := m.strengthenReporting(loopWork, w, loop, opts.carried, report)
	if ctx.Err() != nil {
		return stage{}, ctx.Err()
	}
	st := stage{model: m, start: start, bound: root.bound, separators: root.separators, cuts: cutsOf(m, root.binding, root.bindingLazy)}
	if root.read != nil && (start == nil || root.readCost < objective(m, start)) {
		st.start = root.read
	}
	if st.settled = root.proves(m, st.start, began); st.settled != nil {
		return st, nil
	}
	if root.unsolved && start != nil && stop.Err() == nil {
		// The relaxation could not be solved in the time. The start is the answer.
		st.settled = &Solution{Values: start, Objective: math.Round(objective(m, start)), Time: time.Since(began)}
		return st, nil
	}
	st.model = root.model
	if root.last == nil {
		return st, nil
	}
	if !root.readLast {
		// The relaxation points at a clustering better than the start, often the optimum.
		// Reading and mending take the work left at most (they stop with what they have).
		if cl := st.model.guided(w, root.last); cl != nil {
			if v := st.model.StartValues(cl); st.start == nil || objective(m, v) < objective(m, st.start) {
				st.start = v
			}
		}
		if st.settled = root.proves(m, st.start, began); st.settled != nil {
			return st, nil
		}
	}
	setup := root.searchSetup(len(st.model.Rows))
	if st.start != nil && stop.Err() == nil && (root.alone || w.left() < setup) {
		// HiGHS's search begins by presolving the model and solving its relaxation again, and
		// does not stop for its limit until it has: on large models it overran its limit and
		// found nothing better than the start (docs/performance.md, "Behind the code", R7). With
		// less work left than that takes, the best start is the answer, within the limit.
		// The work left goes to kicks from the start (kick.go): the loop's readings stop at
		// a local optimum that, on fans 200, was 6-33% above the optimum.
		st.start = kickedValues(w, m, st.start, root.last)
		st.settled = &Solution{Values: st.start, Objective: math.Round(objective(m, st.start)), Time: time.Since(began)}
		return st, nil
	}
	if opts.carried != nil {
		// A loop that continues a stage before (carry.go) may stall at once, its bound already
		// reached, and leave the search more than the half a fresh loop leaves it. HiGHS's
		// search is priced low for what its work takes on these models (2-8 µs a unit, not
		// 1: docs/performance.md, "Stages that continue"), and glued 200 seed 4's stage of 4 s
		// then ran into the clock's net (16 s). Its search keeps to half the stage's work.
		st.searchCap = w.spent() + half
	}
	w.spend(setup) // the search's set-up, which HiGHS does not count as work
	if root.reduced != nil && st.start != nil {
		st.model = st.model.fixByReducedCost(root.last, root.reduced, objective(m, st.start)-root.bound)
	}
	return st, nil
}

// with sets the result's model to m with the cuts that the last relaxation holds tight or
// violates (a cut dropped from the loop's LP may be violated again; all of them when there was no
// relaxation). The slack ones do not bear on the bound (the relaxation's optimum and its reduced
// costs stay as they are without them) and only slow every LP of the search: on large programs
// the loop adds thousands of rows that raise the bound by hundredths of a percent, and the search
// with only the tight ones was several times faster (docs/performance.md, "Behind the code", R8).
func (r *rootResult) with(m *Model, cuts []Row) *rootResult {
	if r.last != nil {
		cuts = slices.DeleteFunc(cuts, func(c Row) bool { return !holdsTight(c, r.last) })
	}
	if len(cuts) > 0 {
		strong := *m
		strong.Rows = append(slices.Clip(m.Rows), cuts...)
		r.model = &strong
	}
	return r
}

// holdsTight says that x holds the cut c tight or violates it (every cut is a >= row).
func holdsTight(c Row, x []float64) bool { return activity(c, x) <= c.Lo+1e-6 }

// searchRows is how many rows the search's model would have after the loop (with): m's and
// the cuts that last holds tight or violates (all of them without last).
func searchRows(m *Model, cuts []Row, last []float64) int {
	n := len(m.Rows)
	for _, c := range cuts {
		if last == nil || holdsTight(c, last) {
			n++
		}
	}
	return n
}

// integral reports whether every integer column of values is within a tolerance of an
// integer.
func (m *Model) integral(values []float64) bool {
	for i, v := range m.Vars {
		if v.Kind == Binary && math.Abs(values[i]-math.Round(values[i])) > 1e-6 {
			return false
		}
	}
	return true
}

func highsRows(rows []Row) []highs.Row {
	out := make([]highs.Row, len(rows))
	for k, r := range rows {
		h := highs.Row{Lo: r.Lo, Hi: r.Hi, Cols: make([]int, len(r.Terms)), Vals: make([]float64, len(r.Terms))}
		for i, t := range r.Terms {
			h.Cols[i], h.Vals[i] = t.Var, t.Coef
		}
		out[k] = h
	}
	return out
}

// proves returns the optimal solution when the loop settled the model by itself: its
// relaxation's solution is integral, or the start costs no more than the bound (the objective
// is integral, so a start within 1 of the bound is optimal). Nil when the search must go on.
func (r *rootResult) proves(m *Model, start []float64, began time.Time) *Solution {
	var values []float64
	switch {
	case r.values != nil:
		values = make([]float64, len(r.values))
		for i, v := range r.values {
			if m.Vars[i].Kind == Binary {
				v = math.Round(v)
			}
			values[i] = v
		}
	case start != nil && objective(m, start) < r.bound+1-1e-6:
		values = start
	default:
		return nil
	}
	return &Solution{Values: values, Objective: math.Round(objective(m, values)), Optimal: true, Time: time.Since(began)}
}

// fixByReducedCost returns a copy of m in which every binary column whose reduced cost shows
// that moving it from its bound in the relaxation would cost more than gap is fixed at that
// bound: no solution better than the incumbent (which is within gap of the bound) has it
// elsewhere. The incumbent satisfies every fixing (a fixing it broke would make it cost more
// than bound + gap), so it stays a valid start.
func (m *Model) fixByReducedCost(values, reduced []float64, gap float64) *Model {
	out := *m
	out.Vars = slices.Clone(m.Vars)
	for j, v := range out.Vars {
		if v.Kind != Binary || v.Lo == v.Hi {
			continue
		}
		switch {
		case values[j] <= 1e-9 && reduced[j] > gap+1e-6:
			out.Vars[j].Hi = 0
		case values[j] >= 1-1e-9 && -reduced[j] > gap+1e-6:
			out.Vars[j].Lo = 1
		}
	}
	return &out
}
