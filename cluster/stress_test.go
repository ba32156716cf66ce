package cluster

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax/gen"
)

// TestConcurrentSolvesSurvive runs time-limited, cancelled and complete solves on four
// goroutines while the garbage collector runs flat out. lanl/highs frees a HiGHS instance in a
// finalizer; an instance freed while its solve still used it crashed the language server
// (SIGSEGV in Highs_getIntInfoValue, or a solver double written over Go memory). Without the
// keep-alive in package highs this test dies within seconds; CI runs it under the race
// detector.
func TestConcurrentSolvesSurvive(t *testing.T) {
	solves := 600
	if testing.Short() {
		solves = 60
	}
	var graphs []*Graph
	for seed := uint64(1); seed <= 6; seed++ {
		graphs = append(graphs, benchProgram(t, 20+int(seed)*10, seed, seed%2 == 0))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	collecting := make(chan struct{})
	go func() {
		defer close(collecting)
		for ctx.Err() == nil {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
	}()
	var left atomic.Int64
	left.Store(int64(solves))
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for left.Add(-1) >= 0 && ctx.Err() == nil {
				g := graphs[r.IntN(len(graphs))]
				m := Formulate(g, FormulateOptions{})
				sctx, scancel := context.WithTimeout(ctx, time.Duration(1+r.IntN(60))*time.Millisecond)
				sol, err := SolveModel(sctx, m, SolveOptions{TimeLimit: time.Duration(5+r.IntN(40)) * time.Millisecond, Start: m.StartValues(Greedy(context.Background(), g, false))})
				scancel()
				if err == nil {
					if _, rerr := readback(m, sol.Values); rerr != nil {
						t.Errorf("a solution that is not a clustering: %v", rerr)
					}
				}
			}
		}()
	}
	wg.Wait()
	cancel()
	<-collecting
	if left.Load() >= 0 {
		t.Fatalf("only %d of %d solves ran within a minute", solves-int(left.Load()), solves)
	}
}

// Stop ends a long solve as its time limit would: soon, with the best clustering found, valid
// and marked as stopped (cancelling the context would abandon it instead).
func TestStopKeepsTheBestClustering(t *testing.T) {
	src := gen.Program(rand.New(rand.NewPCG(2, 0x636e66)), gen.Options{Bindings: 100, Shape: "fans"})
	r := infer.Analyze("fans.cnf", []byte(src)).Funcs[0]
	g := NewGraph(r)
	stop, stopNow := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, stopNow)
	start := time.Now()
	res, err := Solve(context.Background(), g, Options{TimeLimit: time.Minute, Stop: stop})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("stopped after %v", d)
	}
	if res.Optimal {
		t.Skip("proven optimal before the stop")
	}
	if !strings.Contains(res.Note, "stopped") {
		t.Errorf("note %q", res.Note)
	}
	if problems := Validate(g, res.Clustering.Of, false); len(problems) > 0 {
		t.Errorf("invalid clustering: %v", problems)
	}
}
