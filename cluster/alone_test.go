package cluster

import (
	"context"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/syntax/gen"
)

// On fans 200 seed 6 (no externals) HiGHS's search cannot follow the root loop within the
// default effort: its set-up is more than the work the loop leaves. The loop of the race's
// second search (LPOrderSolver, half the effort) then ends at its alone share, a quarter,
// the first search's at its half, and no relaxation with π follows either (it took another
// quarter of the work).
func TestLoopAloneWhenTheSearchCannotFollow(t *testing.T) {
	if !Linked() {
		t.Skip("the root loop needs HiGHS linked in")
	}
	g := generatedGraph(t, 6, gen.Options{Bindings: 200, Shape: "fans", NoExternals: true})
	m := Formulate(g, FormulateOptions{})
	for _, c := range []struct {
		name  string
		loop  loopConfig
		limit time.Duration
	}{
		{"second", LPOrderSolver.(highsSolver).loop, DefaultTimeLimit / 2},
		{"first", defaultLoop(), DefaultTimeLimit},
	} {
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
				t.Fatalf("not alone after %.2f of the work: the search could follow", share)
			}
			// A round may end a little past the share; the relaxation with π took a quarter
			// more, and the second's usual loop its half.
			if share < c.loop.alone-0.02 || share > c.loop.alone+0.1 {
				t.Fatalf("the loop alone took %.2f of the work; its share is %.2f", share, c.loop.alone)
			}
		})
	}
}

// The race's second search on the same program, with its half of the default effort, and its
// work after a quarter of it in kicks: within 1.5% of the optimum that a solve with no limit
// proves (1,249,620 when this was written; the second search's answer was 1,264,133). With
// its loop at its half and the relaxation with π after it, it was 6.7% above (1,333,733).
func TestSecondSearchKicksWhereTheSearchCannotFollow(t *testing.T) {
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
	second, err := Solve(context.Background(), g, Options{TimeLimit: DefaultTimeLimit / 2, Solver: LPOrderSolver})
	if err != nil {
		t.Fatal(err)
	}
	if second.Clocked {
		t.Skipf("the machine is too slow for the clock's safety net (%v)", second.SolveTime)
	}
	gap := float64(second.Objective-opt.Objective) / float64(opt.Objective)
	t.Logf("second search %d, optimum %d (%.2f%% over), solved in %v", second.Objective, opt.Objective, 100*gap, second.SolveTime.Round(time.Millisecond))
	if gap > 0.015 {
		t.Fatalf("the second search's answer %d is %.1f%% above the optimum %d", second.Objective, 100*gap, opt.Objective)
	}
}
