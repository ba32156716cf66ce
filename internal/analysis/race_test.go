package analysis

import (
	"errors"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/cluster"
)

// firstAnswer: a proven optimum wins at once and cancels the rest; otherwise the cheaper of
// the answers once both are in; an error counts only when nothing else came; and at the hard
// limit an unproven answer in hand is returned without waiting for a search that never ends.
func TestFirstAnswer(t *testing.T) {
	proven := &cluster.Result{Objective: 9, Optimal: true}
	cheap := &cluster.Result{Objective: 5}
	dear := &cluster.Result{Objective: 7}
	failed := errors.New("failed")
	cases := []struct {
		name       string
		sent       []outcome // reported at once, in order; the rest never report
		total      int
		hard       bool // the hard limit fires (after 20 ms)
		want       *cluster.Result
		wantErr    error
		wantCancel bool
	}{
		{"a proven optimum wins at once", []outcome{{res: proven}}, 2, false, proven, nil, true},
		{"the cheaper of two unproven", []outcome{{res: dear}, {res: cheap}}, 2, false, cheap, nil, false},
		{"an error and an answer", []outcome{{err: failed}, {res: dear}}, 2, false, dear, nil, false},
		{"two errors", []outcome{{err: failed}, {err: errors.New("other")}}, 2, false, nil, failed, false},
		{"at the limit, the answer in hand", []outcome{{res: dear}}, 2, true, dear, nil, true},
		{"at the limit with nothing in hand, the next answer", []outcome{{res: cheap}, {res: dear}}, 2, true, cheap, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			results := make(chan outcome, c.total)
			var hard <-chan time.Time
			if c.hard {
				hard = time.After(20 * time.Millisecond)
			}
			if c.hard && len(c.sent) == 2 {
				// Nothing in hand at the limit: the answers arrive after it.
				go func() {
					time.Sleep(50 * time.Millisecond)
					for _, o := range c.sent {
						results <- o
					}
				}()
			} else {
				for _, o := range c.sent {
					results <- o
				}
			}
			cancelled := false
			done := make(chan struct{})
			var got *cluster.Result
			var err error
			go func() {
				defer close(done)
				got, err = firstAnswer(results, c.total, hard, func() { cancelled = true })
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("firstAnswer waited for a search that never reports")
			}
			if got != c.want || !errors.Is(err, c.wantErr) || (c.wantErr == nil) != (err == nil) || cancelled != c.wantCancel {
				t.Fatalf("got %v, %v, cancelled %v; want %v, %v, cancelled %v", got, err, cancelled, c.want, c.wantErr, c.wantCancel)
			}
		})
	}
}

// The searches of a race solve the same model, so the answer carries the best of their
// bounds; a bound that meets the answer's objective proves it optimal.
func TestFirstAnswerTakesTheBestBound(t *testing.T) {
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
			results := make(chan outcome, 2)
			a, b := c.a, c.b
			results <- outcome{res: &a}
			results <- outcome{res: &b}
			got, err := firstAnswer(results, 2, nil, func() {})
			if err != nil {
				t.Fatal(err)
			}
			if got.Objective != 7 || got.Bound != c.wantBound || got.Optimal != c.wantOptimal || (got.Note == "") != c.wantOptimal {
				t.Fatalf("got objective %d, bound %d, optimal %v, note %q; want 7, %d, %v", got.Objective, got.Bound, got.Optimal, got.Note, c.wantBound, c.wantOptimal)
			}
		})
	}
}
