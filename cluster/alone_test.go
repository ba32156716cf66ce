package cluster

import (
	"context"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/syntax/gen"
)

// On fans 200 seed 6 (no externals) HiGHS's search cannot follow the root loop within the
// default effort: its set-up is more than the work the loop leaves. The loop then takes its
// alone share of the work (loopConfig) instead of half: the first search's loop goes past the
// half, the second search's (LPOrderSolver's) stops before it, and neither is followed by the
// relaxation with π, which was the search's.
func TestLoopAloneWhenTheSearchCannotFollow(t *testing.T) {
	if !Linked() {
		t.Skip("the root loop needs HiGHS linked in")
	}
	g := generatedGraph(t, 6, gen.Options{Bindings: 200, Shape: "fans", NoExternals: true})
	m := Formulate(g, FormulateOptions{})
	// The second search of the analysis core's race has half the effort.
	for _, c := range []struct {
		name  string
		loop  loopConfig
		limit time.Duration
	}{{"first", defaultLoop(), DefaultTimeLimit}, {"second", LPOrderSolver.(highsSolver).loop, DefaultTimeLimit / 2}} {
		t.Run(c.name, func(t *testing.T) {
			first := newMeter(context.Background(), workOf(c.limit))
			whole := first.left()
			root, err := m.strengthen(first.until(0.5), first, c.loop, nil)
			if err != nil {
				t.Fatal(err)
			}
			share := first.spent() / whole
			t.Logf("alone %v after %d rounds, %.2f of the work", root.alone, root.rounds, share)
			if !root.alone {
				t.Fatalf("the loop kept to its half (%.2f of the work): the search could follow", share)
			}
			if c.loop.alone > 0.5 && share <= 0.5 || c.loop.alone < 0.5 && share >= 0.5 || share > c.loop.alone+0.05 {
				t.Fatalf("the loop took %.2f of the work; its share alone is %.2f", share, c.loop.alone)
			}
		})
	}
}

// The same program solved with the default effort: within 1% of the optimum that a solve with
// no limit proves (1,249,620 when this was written). With the loop at its half and the
// relaxation with π after it, the default's answer was 4.8% above it (1,309,111).
func TestDefaultNearTheOptimumWhereTheSearchCannotFollow(t *testing.T) {
	if !Linked() {
		t.Skip("the work limit needs HiGHS linked in")
	}
	if testing.Short() {
		t.Skip("a proof of 200 bindings")
	}
	g := generatedGraph(t, 6, gen.Options{Bindings: 200, Shape: "fans", NoExternals: true})
	opt, err := Solve(context.Background(), g, Options{TimeLimit: NoTimeLimit})
	if err != nil {
		t.Fatal(err)
	}
	if !opt.Optimal {
		t.Fatalf("no proof without a limit: %d", opt.Objective)
	}
	def, err := Solve(context.Background(), g, Options{TimeLimit: DefaultTimeLimit})
	if err != nil {
		t.Fatal(err)
	}
	if def.Clocked {
		t.Skipf("the machine is too slow for the clock's safety net (%v)", def.SolveTime)
	}
	gap := float64(def.Objective-opt.Objective) / float64(opt.Objective)
	t.Logf("default %d, optimum %d (%.2f%% over), solved in %v", def.Objective, opt.Objective, 100*gap, def.SolveTime.Round(time.Millisecond))
	if gap > 0.01 {
		t.Fatalf("the default's answer %d is %.1f%% above the optimum %d", def.Objective, 100*gap, opt.Objective)
	}
}
