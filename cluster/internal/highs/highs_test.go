//go:build cgo

package highs

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// knapsack is a small MIP whose relaxation is fractional: maximise 5a + 4b (minimise the
// negation) subject to 6a + 4b <= 24, a + 2b <= 6, a, b integers in [0, 10]. The LP optimum is
// a = 3, b = 1.5; the integer optimum is a = 4, b = 0 (objective -20).
func knapsack() *Problem {
	inf := math.Inf(1)
	return &Problem{
		Cost: []float64{-5, -4}, ColLo: []float64{0, 0}, ColHi: []float64{10, 10}, Integer: []bool{true, true},
		RowLo: []float64{-inf, -inf}, RowHi: []float64{24, 6},
		Entries: []Entry{{0, 0, 6}, {0, 1, 4}, {1, 0, 1}, {1, 1, 2}},
	}
}

func TestSolveSmallMIP(t *testing.T) {
	res, err := Solve(context.Background(), knapsack(), Options{AbsGap: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Optimal || res.Objective != -20 || res.Values[0] != 4 || res.Values[1] != 0 {
		t.Fatalf("got %+v, want optimal -20 at [4 0]", res)
	}
}

func TestHandleReachable(t *testing.T) {
	raw, err := build(knapsack())
	if err != nil {
		t.Fatal(err)
	}
	if handle(raw) == nil {
		t.Fatal("lanl/highs's RawModel no longer holds its instance in the field obj")
	}
}

// TestInstanceOutlivesSolve collects garbage and runs finalizers right after HiGHS returns,
// before Solve reads the outcome from the instance. lanl/highs frees the instance in a
// finalizer of its wrapper, whose last Go use is inside raw.Solve: unless Solve keeps the
// wrapper alive, the instance is freed here and reading the outcome crashes or returns garbage.
func TestInstanceOutlivesSolve(t *testing.T) {
	testHookAfterRun = func() {
		for range 3 {
			runtime.GC()
			time.Sleep(5 * time.Millisecond) // finalizers run on their own goroutine
		}
	}
	defer func() { testHookAfterRun = nil }()
	for range 5 {
		res, err := Solve(context.Background(), knapsack(), Options{AbsGap: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		if res.Objective != -20 || res.Values[0] != 4 {
			t.Fatalf("got %+v after a collection, want -20 at [4 0]", res)
		}
	}
}

func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Solve(ctx, knapsack(), Options{}); err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestVersion(t *testing.T) {
	if v := Version(); v == "" || v[0] < '1' || v[0] > '9' {
		t.Fatalf("Version() = %q, want a version such as 1.10.0", v)
	}
}

// The relaxation is solved, cut and solved again in the same instance: the knapsack's LP
// optimum (a = 3, b = 1.5, -21) moves to a = 10/3, b = 1 (-62/3) once b <= 1 is added.
func TestLPAddRowsResolves(t *testing.T) {
	for _, ipm := range []bool{false, true} {
		t.Run(map[bool]string{false: "simplex", true: "interior point first"}[ipm], func(t *testing.T) {
			testLPAddRows(t, ipm)
		})
	}
}

// testLPAddRows is TestLPAddRowsResolves with the first solve by the dual simplex or, as for a
// large LP, by the interior point method with crossover (whose basis the second solve starts
// from).
func testLPAddRows(t *testing.T, ipm bool) {
	lp, err := NewLP(knapsack())
	if err != nil {
		t.Fatal(err)
	}
	lp.ipm = ipm
	res, err := lp.Solve(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Optimal || math.Abs(res.Objective+21) > 1e-9 || math.Abs(res.Values[1]-1.5) > 1e-9 {
		t.Fatalf("relaxation: got %+v, want -21 at [3 1.5]", res)
	}
	if len(res.ReducedCosts) != 2 {
		t.Fatalf("reduced costs: got %v, want one per column", res.ReducedCosts)
	}
	if err := lp.AddRows([]Row{{Lo: math.Inf(-1), Hi: 1, Cols: []int{1}, Vals: []float64{1}}}); err != nil {
		t.Fatal(err)
	}
	res, err = lp.Solve(context.Background(), time.Second, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Optimal || math.Abs(res.Objective+62.0/3) > 1e-9 || math.Abs(res.Values[0]-10.0/3) > 1e-9 {
		t.Fatalf("after the cut: got %+v, want -62/3 at [10/3 1]", res)
	}
	if err := lp.AddRows([]Row{{Lo: 0, Hi: 1, Cols: []int{2}, Vals: []float64{1}}}); err == nil {
		t.Fatal("a row naming a column the LP does not have was accepted")
	}
	// Without the cut (row 2, after the knapsack's two) the optimum is the first one again.
	if err := lp.DeleteRows([]int{2}); err != nil {
		t.Fatal(err)
	}
	res, err = lp.Solve(context.Background(), time.Second, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Optimal || math.Abs(res.Objective+21) > 1e-9 {
		t.Fatalf("after deleting the cut: got %+v, want -21", res)
	}
}

// A solve with a time limit returns by the limit and its grace even when HiGHS does not stop
// (its set-up heeds neither; the hook stands for it), with the start as its answer, and the
// instance left running is not freed under it (the hook after the run collects garbage).
func TestSolveAbandonedAtItsLimit(t *testing.T) {
	const limit = 100 * time.Millisecond
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	time.AfterFunc(3*time.Second, free) // a Solve that waits for HiGHS ends then, too late
	ended := make(chan struct{})
	testHookBeforeRun = func() { <-release }
	testHookAfterRun = func() {
		runtime.GC()
		close(ended)
	}
	defer func() { testHookBeforeRun, testHookAfterRun = nil, nil }()
	began := time.Now()
	start := []float64{3, 1} // feasible: 22 <= 24, 5 <= 6; objective -19
	res, err := Solve(context.Background(), knapsack(), Options{AbsGap: 0.5, TimeLimit: limit, Start: start})
	took := time.Since(began)
	free()
	if err != nil {
		t.Fatal(err)
	}
	if want := limit + abandonGrace(limit); took < want || took > want+time.Second {
		t.Errorf("Solve took %v, want about %v", took, want)
	}
	if res.Status != Limit || res.Objective != -19 || res.Values[0] != 3 || res.Values[1] != 1 {
		t.Errorf("got %+v, want the start [3 1] (-19) with status Limit", res)
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the abandoned solve never ended")
	}
}

// A solve that ends within its limit answers with its own solution, not the start.
func TestSolveWithinItsLimit(t *testing.T) {
	res, err := Solve(context.Background(), knapsack(), Options{AbsGap: 0.5, TimeLimit: 10 * time.Second, Start: []float64{3, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Optimal || res.Objective != -20 {
		t.Fatalf("got %+v, want optimal -20", res)
	}
}

// hardKnapsack is a multi-dimensional knapsack (as a minimisation: -value) that HiGHS cannot
// settle at its root: its search takes nodes, so a work limit stops it in the middle.
func hardKnapsack(n, dims int, seed uint64) *Problem {
	r := rand.New(rand.NewPCG(seed, 1))
	p := &Problem{Cost: make([]float64, n), ColLo: make([]float64, n), ColHi: make([]float64, n), Integer: make([]bool, n)}
	for j := range n {
		p.Cost[j] = -float64(10 + r.IntN(90))
		p.ColHi[j], p.Integer[j] = 1, true
	}
	for d := range dims {
		total := 0.0
		for j := range n {
			w := float64(5 + r.IntN(60))
			total += w
			p.Entries = append(p.Entries, Entry{Row: d, Col: j, Val: w})
		}
		p.RowLo = append(p.RowLo, math.Inf(-1))
		p.RowHi = append(p.RowHi, math.Floor(total/2))
	}
	return p
}

// A search stopped by its work limit stops at the same point of the search on every run:
// the same solution and the same work, whatever else the machine is doing.
func TestWorkLimitIsDeterministic(t *testing.T) {
	p := hardKnapsack(70, 5, 3)
	work := Work{PerIteration: 1, PerNode: 20}
	opts := Options{AbsGap: 0.5, Work: work}
	full, err := Solve(context.Background(), p, opts)
	if err != nil {
		t.Fatal(err)
	}
	if full.Status != Optimal || full.OutOfWork || full.Work < 1000 {
		t.Fatalf("without a limit: status %v, work %v, out of work %v; want an optimum after work >= 1000", full.Status, full.Work, full.OutOfWork)
	}
	opts.Work.Limit = full.Work / 3
	var first *Result
	for run := range 3 {
		busy := make(chan struct{})
		for range run { // the later runs beside busy goroutines
			go func() {
				for {
					select {
					case <-busy:
						return
					default:
					}
				}
			}()
		}
		res, err := Solve(context.Background(), p, opts)
		close(busy)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != Limit || !res.OutOfWork || res.Work < opts.Work.Limit {
			t.Fatalf("run %d: status %v, work %v of %v, out of work %v; want stopped by the work limit", run, res.Status, res.Work, opts.Work.Limit, res.OutOfWork)
		}
		if first == nil {
			first = res
			continue
		}
		if res.Work != first.Work || res.Objective != first.Objective || !slices.Equal(res.Values, first.Values) {
			t.Fatalf("run %d: work %v, objective %v; the first run: %v, %v", run, res.Work, res.Objective, first.Work, first.Objective)
		}
	}
}

// An LP's iteration limit stops it deterministically, with status Limit.
func TestLPIterationLimit(t *testing.T) {
	p := hardKnapsack(200, 40, 5)
	lp, err := NewLP(p)
	if err != nil {
		t.Fatal(err)
	}
	res, err := lp.Solve(context.Background(), 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Limit || res.Iterations > 3 {
		t.Fatalf("got status %v after %d iterations, want Limit after at most 3", res.Status, res.Iterations)
	}
	res, err = lp.Solve(context.Background(), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Optimal || res.Iterations <= 3 {
		t.Fatalf("got status %v after %d iterations, want an optimum after more than 3", res.Status, res.Iterations)
	}
}

// A work cap lowered while the search runs (another search of a race proved its answer)
// stops it once it has done the cap's work, never before.
func TestWorkCapStopsTheSearch(t *testing.T) {
	p := hardKnapsack(70, 5, 3)
	full, err := Solve(context.Background(), p, Options{AbsGap: 0.5, Work: Work{PerIteration: 1, PerNode: 20}})
	if err != nil {
		t.Fatal(err)
	}
	capped := full.Work / 4
	res, err := Solve(context.Background(), p, Options{AbsGap: 0.5, Work: Work{PerIteration: 1, PerNode: 20, Limit: full.Work * 10, Cap: func() float64 { return capped }}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != Limit || !res.OutOfWork || res.Work < capped || res.Work >= full.Work {
		t.Fatalf("status %v, work %v (cap %v, the whole search %v), out of work %v; want stopped by the cap", res.Status, res.Work, capped, full.Work, res.OutOfWork)
	}
}
