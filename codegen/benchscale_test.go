package codegen

import (
	"context"
	"strings"
	"testing"
)

// A program whose arrays its data sizes past memory at the requested scale (a generate as long
// as the largest square of a gather's elements, ~n² elements) runs at a tenth of the scale, and
// again, until it fits: one array is bounded by CNF_MAX_BYTES (16 MB here, half of the
// machine's memory by default), so at 10^5 elements (up to 10^7 of the generate's, 80 MB) it
// fails as an allocation, and at 10^4 (10^5) it runs; the bench says at which size it ran.
func TestBenchScalesDownPastMemory(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	t.Setenv("CNF_MAX_BYTES", "16000000")
	src := `f :: Array Int -> (Array Int, Int)
f xs =
  let g = gather xs xs
      m = fold (\acc x -> max acc (x * x ` + "`div`" + ` 1000)) 0 g
      b = generate m (\i -> i * 2)
      s = fold (+) 0 b
  in  (b, s)
`
	r, rep := analyse(t, src)
	res, err := Bench(context.Background(), r, BenchClusterings(rep, nil), BenchOptions{Size: 100000, Runs: 1, Seed: 3, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	said := strings.Join(res.Assumed, "\n")
	if !strings.Contains(said, "every array parameter has 10000 elements") || !strings.Contains(said, "does not fit in memory") {
		t.Errorf("the bench does not say it ran at 10^4 elements:\n%s", said)
	}
	for _, m := range res.Clusterings {
		if !m.Agree {
			t.Errorf("%s disagrees", m.Name)
		}
	}
}

// Rounds run the clusterings in turn, each program Runs times a round: every clustering's
// median and minimum are over all the rounds' runs, and the copy loop's time is its best.
func TestBenchRoundsPoolTheRuns(t *testing.T) {
	t.Setenv("CNF_CACHE", t.TempDir())
	src := `f :: Array Int -> (Array Int, Int)
f xs =
  let ys = map (\x -> x + 1) xs
      s = fold (+) 0 xs
  in  (ys, s)
`
	r, rep := analyse(t, src)
	res, err := Bench(context.Background(), r, BenchClusterings(rep, nil), BenchOptions{Size: 1000, Runs: 2, Rounds: 3, Seed: 3, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range res.Clusterings {
		if m.Runs != 6 || !m.Agree || m.MinSeconds > m.Seconds || m.MinSeconds <= 0 {
			t.Errorf("%s: %d runs (want 6), agree %v, median %g, min %g", m.Name, m.Runs, m.Agree, m.Seconds, m.MinSeconds)
		}
	}
	if res.CopySeconds <= 0 {
		t.Errorf("no copy loop time")
	}
}
