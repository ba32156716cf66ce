package analysis

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/syntax/gen"
)

// countingSolver counts the solves it makes and the most that ran at once.
type countingSolver struct {
	solves, running, most atomic.Int64
}

func (c *countingSolver) Name() string { return "counting " + cluster.DefaultSolver.Name() }

func (c *countingSolver) Solve(ctx context.Context, m *cluster.Model, opts cluster.SolveOptions) (*cluster.Solution, error) {
	c.solves.Add(1)
	n := c.running.Add(1)
	defer c.running.Add(-1)
	for {
		most := c.most.Load()
		if n <= most || c.most.CompareAndSwap(most, n) {
			break
		}
	}
	return cluster.DefaultSolver.Solve(ctx, m, opts)
}

const normalize2 = `normalize2 :: Array Int -> (Array Int, Array Int)
normalize2 xs =
  let sum1 = fold (+) 0 xs
      gts  = filter (> 0) xs
      sum2 = fold (+) 0 gts
      ys1  = map (/ sum1) xs
      ys2  = map (/ sum2) xs
  in  (ys1, ys2)
`

// An edit that leaves the graph unchanged (a worker's literal, a comment) reuses the clustering
// without a solve, and gives the same answer.
func TestEditInsideWorkerReusesClustering(t *testing.T) {
	solver := &countingSolver{}
	e := NewEngine(Config{Solver: solver})
	ctx := context.Background()
	first, err := e.Load("n.cnf", []byte(normalize2), 1).Def(ctx, "normalize2")
	if err != nil {
		t.Fatal(err)
	}
	if first.Reused || solver.solves.Load() == 0 {
		t.Fatalf("the first analysis: reused %v after %d solves", first.Reused, solver.solves.Load())
	}
	solves := solver.solves.Load()
	edited := strings.Replace(normalize2, "(> 0)", "(> 42)", 1) + "-- a comment\n"
	second, err := e.Load("n.cnf", []byte(edited), 2).Def(ctx, "normalize2")
	if err != nil {
		t.Fatal(err)
	}
	if !second.Reused || solver.solves.Load() != solves {
		t.Fatalf("an edit inside a worker: reused %v, %d more solves", second.Reused, solver.solves.Load()-solves)
	}
	if a, b := first.Report.Ours.String(), second.Report.Ours.String(); a != b || first.Report.Ours.Objective != second.Report.Ours.Objective {
		t.Fatalf("the reused clustering differs: %s against %s", b, a)
	}
	// A change of the graph (ys2 now reads gts) solves again.
	changed := strings.Replace(normalize2, "ys2  = map (/ sum2) xs", "ys2  = map (/ sum2) gts", 1)
	changed = strings.Replace(changed, "in  (ys1, ys2)", "in  (ys1, ys2)", 1)
	third, err := e.Load("n.cnf", []byte(changed), 3).Def(ctx, "normalize2")
	if err != nil {
		t.Fatal(err)
	}
	if third.Reused || solver.solves.Load() == solves {
		t.Fatal("a changed graph was not solved again")
	}
}

// Many callers asking for one definition at once get one computation.
func TestDefComputedOnce(t *testing.T) {
	solver := &countingSolver{}
	e := NewEngine(Config{Solver: solver})
	f := e.Load("n.cnf", []byte(normalize2), 1)
	var wg sync.WaitGroup
	defs := make([]*Def, 8)
	for i := range defs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := f.Def(context.Background(), "normalize2")
			if err != nil {
				t.Error(err)
			}
			defs[i] = d
		}()
	}
	wg.Wait()
	for _, d := range defs {
		if d != defs[0] {
			t.Fatal("two callers got different analyses")
		}
	}
	if n := solver.solves.Load(); n > 2 { // ours and Megiddo and Sarkar's, at most
		t.Fatalf("%d solves for one definition", n)
	}
}

// A computation abandoned because its caller gave up is made again for the next caller; other
// definitions' answers are unaffected.
func TestAbandonedComputationRetried(t *testing.T) {
	e := NewEngine(Config{})
	f := e.Load("n.cnf", []byte(normalize2), 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.Def(ctx, "normalize2"); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled caller got %v", err)
	}
	d, err := f.Def(context.Background(), "normalize2")
	if err != nil || d.Report.Ours.Loops() != 2 {
		t.Fatalf("after an abandoned computation: %v, %v", d, err)
	}
	if _, err := f.Def(context.Background(), "nope"); !errors.Is(err, ErrNoDefinition) {
		t.Fatalf("an unknown definition: %v", err)
	}
}

// However many files are analysed at once, no more solves run at once than there are slots.
func TestSolvesBoundedBySlots(t *testing.T) {
	solver := &countingSolver{}
	e := NewEngine(Config{Solver: solver, TimeLimit: time.Second})
	var wg sync.WaitGroup
	for seed := range uint64(12) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := gen.Program(rand.New(rand.NewPCG(seed, 3)), gen.Options{Bindings: 30})
			if _, err := e.Load("g.cnf", []byte(src), int64(seed)).Defs(context.Background()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if most, slots := solver.most.Load(), int64(e.slots.capacity); most > slots {
		t.Fatalf("%d solves ran at once with %d slots", most, slots)
	}
}

// Waiters get slots newest (highest priority) first.
func TestSlotsPriority(t *testing.T) {
	s := newSlots(1)
	release, err := s.acquire(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	order := make(chan int64, 3)
	var wg sync.WaitGroup
	for i, p := range []int64{1, 3, 2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rel, err := s.acquire(context.Background(), p)
			if err != nil {
				t.Error(err)
				return
			}
			order <- p
			rel()
		}()
		for { // wait until it is queued: arrival order known
			s.mu.Lock()
			queued := len(s.waiting)
			s.mu.Unlock()
			if queued == i+1 {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	release()
	wg.Wait()
	close(order)
	var got []int64
	for p := range order {
		got = append(got, p)
	}
	if len(got) != 3 || got[0] != 3 || got[1] != 2 || got[2] != 1 {
		t.Fatalf("slots were granted in the order %v, want [3 2 1]", got)
	}
	// A waiter whose context ends leaves the queue and the slot stays free.
	rel, _ := s.acquire(context.Background(), 0)
	ctx, cancel := context.WithCancel(context.Background())
	go cancel()
	if _, err := s.acquire(ctx, 5); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled waiter got %v", err)
	}
	rel()
	if r, err := s.acquire(context.Background(), 0); err != nil {
		t.Fatal(err)
	} else {
		r()
	}
}

// The forced re-solves that explain exclusions are made once per graph: a later version with
// the same graph (an edit inside a worker) makes none.
func TestForcedSolvesRemembered(t *testing.T) {
	solver := &countingSolver{}
	e := NewEngine(Config{Solver: solver})
	ctx := context.Background()
	src := "normalizeInc xs =\n  let sum1 = fold (+) 0 xs\n      incs = map (+ 1) xs\n      ys = map2 (\\x i -> x / sum1 + i) xs incs\n  in  ys\n"
	f1 := e.Load("n.cnf", []byte(src), 1)
	d1, err := f1.Def(ctx, "normalizeInc")
	if err != nil {
		t.Fatal(err)
	}
	if made := f1.Force(ctx, d1); made == 0 {
		t.Fatal("no forced re-solve for normalizeInc (incs is kept out of sum1's loop by cost)")
	}
	before := solver.solves.Load()
	f2 := e.Load("n.cnf", []byte(strings.Replace(src, "(+ 1)", "(+ 2)", 1)), 2)
	d2, err := f2.Def(ctx, "normalizeInc")
	if err != nil {
		t.Fatal(err)
	}
	if made := f2.Force(ctx, d2); made != 0 || solver.solves.Load() != before {
		t.Fatalf("the second version made %d forced re-solves (%d solves)", made, solver.solves.Load()-before)
	}
	for _, nd := range d2.Report.Graph.Nodes {
		for _, x := range d2.WhyNot(nd.ID) {
			if x.Kind == cluster.ByMoveCost {
				t.Errorf("%s: explained by a move, not by the remembered re-solve: %s", nd.Name, x.Reason())
			}
		}
	}
}

// Fusion is reused when nothing it depends on changed (a comment, the layout): the same
// processes, attached to the new analysis's clusters (whose bindings carry the new text's
// positions). An edit inside a worker fuses again, and the process shows the new worker.
func TestFusionReusedOnlyWhenBindingsUnchanged(t *testing.T) {
	e := NewEngine(Config{})
	ctx := context.Background()
	first, err := e.Load("n.cnf", []byte(normalize2), 1).Def(ctx, "normalize2")
	if err != nil {
		t.Fatal(err)
	}
	moved := "-- a comment that moves every line\n" + normalize2
	second, err := e.Load("n.cnf", []byte(moved), 2).Def(ctx, "normalize2")
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range second.Fused() {
		if f.Cluster != second.Report.Ours.Clusters[i] {
			t.Fatalf("loop %d: the fused loop is attached to another analysis's cluster", i)
		}
		if f.Process == nil || f.Process != first.Fused()[i].Process {
			t.Errorf("loop %d fused again after a comment", i)
		}
		if at := f.Cluster.Nodes[0].Binding.Names[0].Start; int(at) < len("-- a comment that moves every line\n") {
			t.Errorf("loop %d: its binding is at offset %d of the old text", i, at)
		}
	}
	worker := strings.Replace(normalize2, "map (/ sum1) xs", "map (/ (sum1 + 7)) xs", 1)
	third, err := e.Load("n.cnf", []byte(worker), 3).Def(ctx, "normalize2")
	if err != nil {
		t.Fatal(err)
	}
	var shows bool
	for i, f := range third.Fused() {
		if f.Process == first.Fused()[i].Process && strings.Contains(strings.Join(f.Cluster.Names(), ","), "ys1") {
			t.Errorf("loop %d (with ys1) not fused again after its worker changed", i)
		}
		var b strings.Builder
		if f.Process != nil {
			fuse.WriteReadable(&b, f.Process)
		}
		shows = shows || strings.Contains(b.String(), "sum1 + 7")
	}
	if !shows {
		t.Error("no process shows the new worker")
	}
}

// A version keeps the configuration it was loaded with: a setting changed after Load (the
// server's didChangeConfiguration while a version is being clustered) applies from the next
// version, so one version is never analysed under two configurations.
func TestConfigFixedPerVersion(t *testing.T) {
	solver := &countingSolver{}
	e := NewEngine(Config{Solver: solver})
	ctx := context.Background()
	if _, err := e.Load("n.cnf", []byte(normalize2), 1).Def(ctx, "normalize2"); err != nil {
		t.Fatal(err)
	}
	loaded := e.Load("n.cnf", []byte(normalize2), 2)
	e.SetConfig(Config{Solver: solver, Fresh: true}) // after the load: not this version's
	d, err := loaded.Def(ctx, "normalize2")
	if err != nil {
		t.Fatal(err)
	}
	if !d.Reused {
		t.Fatal("a setting changed after Load applied to the version loaded before it")
	}
	d, err = e.Load("n.cnf", []byte(normalize2), 3).Def(ctx, "normalize2")
	if err != nil {
		t.Fatal(err)
	}
	if d.Reused {
		t.Fatal("the next version did not take the new setting (Fresh: no cache)")
	}
}
