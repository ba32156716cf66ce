package analysis

import (
	"slices"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/cluster"
)

// decide: the rules depend on the searches' work and answers only, never on which finished
// first. A proof with less work wins (the first search on a tie); with no proof, the cheaper
// clustering (the first on a tie).
func TestDecideByWork(t *testing.T) {
	provenEarly := &cluster.Result{Objective: 9, Optimal: true, Work: 100}
	provenLate := &cluster.Result{Objective: 9, Optimal: true, Work: 300}
	provenTie := &cluster.Result{Objective: 9, Optimal: true, Work: 100}
	cheap := &cluster.Result{Objective: 5, Work: 2e6}
	cheapToo := &cluster.Result{Objective: 5, Work: 2e6}
	dear := &cluster.Result{Objective: 7, Work: 2e6}
	for _, c := range []struct {
		name string
		a, b *cluster.Result
		want *cluster.Result
	}{
		{"the first proves with less work", provenEarly, provenLate, provenEarly},
		{"the second proves with less work", provenLate, provenEarly, provenEarly},
		{"proofs with equal work: the first", provenEarly, provenTie, provenEarly},
		{"only the second proves", dear, provenLate, provenLate},
		{"only the first proves", provenLate, cheap, provenLate},
		{"no proof: the cheaper", dear, cheap, cheap},
		{"no proof: the cheaper, first", cheap, dear, cheap},
		{"no proof, equal cost: the first", cheap, cheapToo, cheap},
		{"the first proves within its lead: the second did not run", &cluster.Result{Objective: 9, Optimal: true, Work: 40}, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := c.want
			if want == nil {
				want = c.a
			}
			if got := decide(c.a, c.b, 50); got != want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

// The searches of a race solve the same model, so the answer carries the best of their
// bounds; a bound that meets the answer's objective proves it optimal.
func TestDecideTakesTheBestBound(t *testing.T) {
	for _, c := range []struct {
		name        string
		a, b        cluster.Result
		wantBound   int
		wantOptimal bool
	}{
		{"the cheaper answer, the other's bound", cluster.Result{Objective: 7, Bound: 4, Note: "n"}, cluster.Result{Objective: 9, Bound: 6, Note: "n"}, 6, false},
		{"its own bound when it is better", cluster.Result{Objective: 7, Bound: 5, Note: "n"}, cluster.Result{Objective: 9, Bound: 2, Note: "n"}, 5, false},
		{"a bound that meets it proves it", cluster.Result{Objective: 7, Bound: 3, Note: "n"}, cluster.Result{Objective: 8, Bound: 7, Note: "n"}, 7, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := c.a, c.b
			got := decide(&a, &b, 0)
			if got.Objective != 7 || got.Bound != c.wantBound || got.Optimal != c.wantOptimal || (got.Note == "") != c.wantOptimal {
				t.Fatalf("got objective %d, bound %d, optimal %v, note %q; want 7, %d, %v", got.Objective, got.Bound, got.Optimal, got.Note, c.wantBound, c.wantOptimal)
			}
		})
	}
}

// staged: each stage starts from the best clustering so far and from the root loop's cuts of
// the stage before (the last, not the best: its loop is the one to continue), the answer is the
// best (the earliest on a tie) with the best bound, and a proof ends the stages.
func TestStagedKeepsTheBest(t *testing.T) {
	type call struct {
		limit time.Duration
		start []int
		cuts  *cluster.Cuts
	}
	run := func(limit time.Duration, answers []cluster.Result) (*cluster.Result, []call) {
		var calls []call
		res, err := staged(cluster.Options{TimeLimit: limit}, func(o cluster.Options) (*cluster.Result, error) {
			calls = append(calls, call{o.TimeLimit, o.Start, o.Cuts})
			r := answers[len(calls)-1]
			return &r, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return res, calls
	}
	cl := func(labels ...int) *cluster.Clustering { return &cluster.Clustering{Of: labels} }
	a := cluster.Result{Clustering: cl(0, 0, 1), Objective: 9, Bound: 5, Cuts: &cluster.Cuts{}}
	b := cluster.Result{Clustering: cl(0, 1, 1), Objective: 7, Bound: 4, Cuts: &cluster.Cuts{}}
	c := cluster.Result{Clustering: cl(1, 1, 1), Objective: 7, Bound: 6}
	got, calls := run(8*time.Second, []cluster.Result{a, b, c})
	if len(calls) != 3 || calls[0].limit != 2*time.Second || calls[1].limit != 2*time.Second || calls[2].limit != 4*time.Second {
		t.Fatalf("stages %v, want 2s, 2s, 4s", calls)
	}
	if calls[0].start != nil || !slices.Equal(calls[1].start, a.Of) || !slices.Equal(calls[2].start, b.Of) {
		t.Fatalf("starts %v, want none, then the best so far", calls)
	}
	if calls[0].cuts != nil || calls[1].cuts != a.Cuts || calls[2].cuts != b.Cuts {
		t.Fatalf("cuts %v, want none, then the stage before's", calls)
	}
	if got.Objective != 7 || !slices.Equal(got.Of, b.Of) || got.Bound != 6 || got.Optimal {
		t.Fatalf("got objective %d %v bound %d optimal %v; want the earlier of the two 7s, bound 6", got.Objective, got.Of, got.Bound, got.Optimal)
	}
	if _, calls = run(8*time.Second, []cluster.Result{b, a, c}); !slices.Equal(calls[2].start, b.Of) || calls[2].cuts != a.Cuts {
		t.Fatalf("after a worse stage: start %v, cuts %p; want the best's start %v and the worse stage's cuts %p", calls[2].start, calls[2].cuts, b.Of, a.Cuts)
	}
	proven := cluster.Result{Clustering: cl(0, 1, 1), Objective: 7, Optimal: true}
	got, calls = run(8*time.Second, []cluster.Result{a, proven, c})
	if len(calls) != 2 || !got.Optimal {
		t.Fatalf("after a proof: %d stages, optimal %v; want 2, true", len(calls), got.Optimal)
	}
	// A later stage that proves the best's objective (a proven result has no Bound of its own)
	// proves the best: the stages end, the earlier clustering kept.
	same := cluster.Result{Clustering: cl(1, 0, 0), Objective: 7, Optimal: true}
	got, calls = run(8*time.Second, []cluster.Result{b, same, c})
	if len(calls) != 2 || !got.Optimal || got.Objective != 7 || !slices.Equal(got.Of, b.Of) || got.Note != "" {
		t.Fatalf("a later stage proving the same objective: %d stages, optimal %v, objective %d, %v; want 2 stages, b proven", len(calls), got.Optimal, got.Objective, got.Of)
	}
	closes := cluster.Result{Clustering: cl(0, 0, 1), Objective: 9, Bound: 7}
	got, calls = run(8*time.Second, []cluster.Result{b, closes, c})
	if len(calls) != 2 || !got.Optimal || got.Objective != 7 {
		t.Fatalf("a later stage's bound that meets the best: %d stages, optimal %v, objective %d", len(calls), got.Optimal, got.Objective)
	}
}
