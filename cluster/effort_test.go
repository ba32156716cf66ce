package cluster

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/syntax/gen"
)

// busy keeps every core spinning until the returned function is called: a loaded machine.
func busy() (stop func()) {
	done := make(chan struct{})
	for range runtime.NumCPU() {
		go func() {
			for {
				select {
				case <-done:
					return
				default:
				}
			}
		}()
	}
	return func() { close(done) }
}

// A solve stopped by its effort gives the same clustering on every run, with the same work,
// however loaded the machine: the effort is counted in work, not time (effort.go). With a
// wall-clock limit, the second and third runs (beside busy cores) stopped elsewhere. The clock's
// safety net is given room here (netFactor): under the race detector the code runs several
// times slower than the prices assume, and the net then ends the busy runs (Clocked; the
// test below checks that they say so).
func TestSolveIsTheSameUnderLoad(t *testing.T) {
	if !Linked() {
		t.Skip("the work limit needs HiGHS linked in")
	}
	for _, c := range []struct {
		shape string
		seed  uint64
	}{{"fans", 2}, {"glued", 1}} {
		t.Run(c.shape, func(t *testing.T) {
			g := generatedGraph(t, c.seed, gen.Options{Bindings: 100, Shape: c.shape})
			var first *Result
			for run := range 3 {
				stop := func() {}
				if run > 0 {
					stop = busy()
				}
				res, err := Solve(context.Background(), g, Options{TimeLimit: 300 * time.Millisecond, netFactor: 40})
				stop()
				if err != nil {
					t.Fatal(err)
				}
				if res.Clocked {
					t.Skipf("run %d: the machine is too slow for the clock's safety net (%v)", run, res.SolveTime)
				}
				if first == nil {
					first = res
					if res.Optimal {
						t.Logf("proven optimal within the effort (work %.0f)", res.Work)
					}
					continue
				}
				if res.Objective != first.Objective || !slices.Equal(res.Of, first.Of) || res.Work != first.Work || res.Optimal != first.Optimal {
					t.Fatalf("run %d: objective %d, work %.0f, optimal %v; the first run: %d, %.0f, %v", run, res.Objective, res.Work, res.Optimal, first.Objective, first.Work, first.Optimal)
				}
			}
		})
	}
}

// A solve that the clock's safety net cuts short says so (Clocked, and its note), even when a
// phase after the stop spends past the work limit (the search's set-up): such a run was
// reported as the deterministic answer, and the test above failed on a busy CI machine.
func TestClockedSolveSaysSo(t *testing.T) {
	if !Linked() {
		t.Skip("the work limit needs HiGHS linked in")
	}
	g := generatedGraph(t, 1, gen.Options{Bindings: 100, Shape: "glued"})
	// The net at a fifth of the limit: it ends the root loop, and the search's set-up is
	// spent after it, past the limit (the proof takes about half the limit's work).
	res, err := Solve(context.Background(), g, Options{TimeLimit: 300 * time.Millisecond, netFactor: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Optimal {
		t.Skipf("proven optimal in %v, before the clock's net: the machine is too fast for this test", res.SolveTime)
	}
	if !res.Clocked || !strings.HasPrefix(res.Note, clockNote) {
		t.Fatalf("optimal %v, clocked %v, note %q: want a clocked answer that says so", res.Optimal, res.Clocked, res.Note)
	}
}

// The stages of a limit at or above the default are the first stages of every longer
// limit's, and add up to at most the limit; a limit up to the default is one search.
func TestStagesArePrefixes(t *testing.T) {
	limits := []time.Duration{DefaultTimeLimit, 3 * time.Second, 4 * time.Second, 5 * time.Second, 8 * time.Second, 15 * time.Second, 16 * time.Second, time.Minute}
	for _, short := range []time.Duration{NoTimeLimit, 0, time.Millisecond, time.Second, DefaultTimeLimit} {
		want := short
		if short == 0 {
			want = DefaultTimeLimit
		}
		if got := Stages(short); !slices.Equal(got, []time.Duration{want}) {
			t.Errorf("Stages(%v) = %v, want one search of %v", short, got, want)
		}
	}
	for i, a := range limits {
		sa := Stages(a)
		total := time.Duration(0)
		for _, s := range sa {
			total += s
		}
		if total > a || total <= a/2 {
			t.Errorf("Stages(%v) = %v: they add up to %v, want at most the limit and more than half", a, sa, total)
		}
		for _, b := range limits[i:] {
			if sb := Stages(b); len(sb) < len(sa) || !slices.Equal(sb[:len(sa)], sa) {
				t.Errorf("Stages(%v) = %v does not begin with Stages(%v) = %v", b, sb, a, sa)
			}
		}
	}
}

// A meter's children share its count: work spent in a child is spent in the parent, and a
// child's limit is its share of what was left when it was made.
func TestMeterShares(t *testing.T) {
	m := newMeter(context.Background(), 100)
	m.spend(20)
	half := m.until(0.5) // 20 + 40
	if half.spend(30) || half.left() != 10 || m.left() != 50 {
		t.Fatalf("after 50 spent: child left %v, parent left %v; want 10 and 50", half.left(), m.left())
	}
	if !half.spend(10) || m.out() {
		t.Fatal("the child is out at its limit, the parent is not")
	}
	// A capped child stops at its cap in all (a carried stage's search), never past the parent.
	p := newMeter(context.Background(), 100)
	p.spend(60)
	if c := p.capped(55); !c.out() || c.left() != 0 {
		t.Fatalf("capped below what is spent (60): out %v, left %v; want out", c.out(), c.left())
	}
	if c := p.capped(1000); c.left() != 40 {
		t.Fatalf("capped past the parent's limit: left %v, want the parent's 40", c.left())
	}
	if c := p.capped(75); c.left() != 15 || c.spend(10) || !c.spend(5) || p.out() || p.left() != 25 {
		t.Fatalf("capped at 75 after 60: want 15 left, out after 15 more, the parent not")
	}
	r := NewRace(1e9)
	m.race = r
	r.proved(70)
	if m.out() || m.left() != 10 {
		t.Fatalf("after another search proved with 70: left %v, want 10 (to the proof's work)", m.left())
	}
	if !m.spend(10) || !m.raced() || m.exhausted() {
		t.Fatal("at the proof's work the meter is out, by the race, not by its own work")
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := newMeter(ctx, 100)
	cancel()
	if !n.out() || n.exhausted() {
		t.Fatal("a meter whose net is done is out, without its work spent")
	}
	// A phase after the net's stop that spends a fixed cost past the limit (a search's set-up)
	// does not make the stop the work's: the search was cut short, and says so (Clocked).
	n.until(0.5).spend(200)
	if !n.exhausted() || !n.cutShort() {
		t.Fatal("a meter out by its net, then spent past its limit: want it cut short")
	}
	// Work spent first, the net done after: the work ended it.
	ctx, cancel = context.WithCancel(context.Background())
	o := newMeter(ctx, 100)
	o.spend(100)
	cancel()
	if !o.out() || o.cutShort() {
		t.Fatal("a meter out of work before its net was done: want it not cut short")
	}
}

// The leading search tells the race when its work passes the lead (the second search then
// starts), from its own spending and from HiGHS's search as it goes.
func TestLeadPassed(t *testing.T) {
	r := NewRace(100)
	m := newMeter(context.Background(), 1000)
	m.race, m.leads = r, true
	m.spend(60)
	select {
	case <-r.Passed():
		t.Fatal("passed after 60 of a lead of 100")
	default:
	}
	m.until(0.5).spend(50)
	select {
	case <-r.Passed():
	default:
		t.Fatal("not passed after 110 of a lead of 100")
	}
	r2 := NewRace(100)
	m2 := newMeter(context.Background(), 1000)
	m2.race = r2 // not the leading search
	m2.spend(500)
	m2.observe(500)
	select {
	case <-r2.Passed():
		t.Fatal("the second search's work passed the lead")
	default:
	}
}
