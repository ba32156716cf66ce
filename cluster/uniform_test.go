package cluster

import (
	"fmt"
	"testing"
)

// A filter whose test is the same for every element weighs what it keeps: nothing or all
// (uniform.go). Each case is a worker of `filter W xs` and the rate it is known to keep, or -1
// where the text does not decide it (the weights then guess ½).
func TestFiltersOfKnownRate(t *testing.T) {
	for _, c := range []struct {
		worker string
		want   float64
	}{
		{`\x -> x > x`, 0},
		{`\x -> x < x`, 0},
		{`\x -> x /= x`, 0},
		{`\x -> x == x`, 1},
		{`\x -> (x + 1) >= (x + 1)`, 1},
		{`\x -> (x - x) /= (7 - 2)`, 1},
		{`\x -> (x - x) >= (max x x)`, -1}, // 0 >= x: depends on x
		{`\x -> ((abs x) <= (if 5 <= (x * x) then x else x)) && (x > x)`, 0},
		{`\x -> (x > x) || (x == x)`, 1},
		{`\x -> (x > 3) || (x == x)`, 1},
		{`\x -> (x > 3) && (x == x)`, -1},
		{`\x -> not (x /= x)`, 1},
		{`\x -> (x * 0) > 2`, 0},
		{`\x -> (abs (0 - 4)) == (max 4 (min 1 2))`, 1},
		{`\x -> (if x > 3 then 5 else 5) == 5`, 1},
		{`\x -> (if x > x then x else 2) == 2`, 1},
		{`\x -> x > n`, -1},             // a scalar of the definition
		{`\x -> n > n`, 0},              // the same scalar on both sides
		{`\x -> (x * 2) > (x + x)`, -1}, // equal, but not by the text
		{`\x -> x > 3`, -1},
		{`\x -> (x == (x - x)) && (x > 6)`, 0}, // x is 0 and above 6 (ranges.go)
		{`\x -> (x < 3) && ((x > n) && (5 <= x))`, 0},
		{`\x -> (x >= 3) && (x <= 3)`, -1},
		{`\x -> (x < 3) && ((x + 1) > 5)`, -1}, // two expressions
		{`\x -> (x < 3) || (x > 5)`, -1},
	} {
		src := fmt.Sprintf("p :: Array Int -> Int -> Array Int\np xs n =\n  let f = filter (%s) xs\n  in  f\n", c.worker)
		g := NewGraph(sizesOf(t, src))
		got, ok := g.KnownRates()["f"]
		if !ok {
			got = -1
		}
		if got != c.want {
			t.Errorf("filter (%s): known rate %v, want %v", c.worker, got, c.want)
		}
	}
}

// A filter that keeps nothing by its text weighs as an empty array: the optimum writes it
// rather than read its input a second time (glued 170 of the second generator, reduced), and a
// measured rate still wins over the text.
func TestFilterThatKeepsNothingIsWritten(t *testing.T) {
	const src = `p :: Array Int -> (Array Int, Array Int)
p xs =
  let s = fold (+) 0 xs
      e = filter (\x -> (abs x <= x) && (x > x)) xs
      t = fold (\acc x -> acc + x) 0 e
      a = map (\x -> x + s) xs
      b = map (\x -> x + t) xs
      u = map (\x -> s) e
  in  (a, b)
`
	g := NewGraph(sizesOf(t, src))
	if r, ok := g.KnownRates()["e"]; !ok || r != 0 {
		t.Fatalf("known rate of e: %v %v, want 0", r, ok)
	}
	heavy := g.pairWeight(g.Node("e").ID, g.Node("t").ID)
	if n := len(g.Nodes); heavy != n {
		t.Errorf("e -> t weighs %d, want N = %d (an empty array)", heavy, n)
	}
	g.SetRates(Rates{"e": 1})
	if _, ok := g.KnownRates()["e"]; ok {
		t.Errorf("a measured rate of e left its known rate in place")
	}
	if n := len(g.Nodes); g.pairWeight(g.Node("e").ID, g.Node("t").ID) != n*n {
		t.Errorf("with e measured at 1, e -> t weighs %d, want N² = %d", g.pairWeight(g.Node("e").ID, g.Node("t").ID), n*n)
	}
}
