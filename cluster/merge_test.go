package cluster

import (
	"container/heap"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/cnf-tools/cnf/infer"
	"pgregory.net/rapid"
)

// The merger's decisions are Validate's: merging two clusters is allowed exactly when the
// merged clustering is valid; through random merges its cluster order stays a topological
// order of the cluster graph, and the ordered search for a path between two clusters answers
// as the unordered one does.
func TestMergerDecidesAsValidate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, g, sameSize := genGraph(t, 24)
		mg := newMerger(g, sameSize)
		for k := rapid.IntRange(0, 3*len(g.Nodes)).Draw(t, "merges"); k > 0; k-- {
			i := rapid.IntRange(0, len(g.Nodes)-1).Draw(t, "i")
			j := rapid.IntRange(0, len(g.Nodes)-1).Draw(t, "j")
			a, b := mg.label[i], mg.label[j]
			if a == b {
				continue
			}
			for c := range mg.members {
				if c != a && mg.reaches(a, c) != mg.reachesBoth(a, c) {
					t.Fatalf("reaches(%d, %d): ordered %v, searched from both ends %v", a, c, mg.reaches(a, c), mg.reachesBoth(a, c))
				}
			}
			of := slices.Clone(mg.label)
			for x := range of {
				if of[x] == b {
					of[x] = a
				}
			}
			valid := len(Validate(g, of, sameSize)) == 0
			if ok := mg.canMerge(a, b); ok != valid {
				t.Fatalf("canMerge(%d, %d) = %v, Validate says %v: %v", a, b, ok, valid, Validate(g, of, sameSize))
			}
			if !valid {
				continue
			}
			mg.merge(a, b)
			if !mg.ordered {
				t.Fatalf("a valid merge dropped the order")
			}
			for c, next := range mg.succ {
				for d := range next {
					if mg.ord[c] >= mg.ord[d] {
						t.Fatalf("edge %d -> %d against the order (%d, %d)", c, d, mg.ord[c], mg.ord[d])
					}
				}
			}
		}
	})
}

// Merging along a chain costs the merger a few steps a merge, not a walk along the chain: the
// stream merges of a chain of 3,000 maps and filters (every third a filter), for both
// variants. Searching from both ends of each merge walked the chain (4.5 million visits for
// the Megiddo and Sarkar variant), and weighing each pair of iteration classes made ours
// quadratic in the filters.
func TestChainMergesAreLinear(t *testing.T) {
	const n = 3000
	var b strings.Builder
	b.WriteString("chain :: Array Int -> Array Int\nchain xs0 = let\n")
	for i := 1; i <= n; i++ {
		if i%3 == 0 {
			fmt.Fprintf(&b, "    xs%d = filter (\\x -> x > %d) xs%d\n", i, i%7, i-1)
		} else {
			fmt.Fprintf(&b, "    xs%d = map (\\x -> x + %d) xs%d\n", i, i%5, i-1)
		}
	}
	fmt.Fprintf(&b, "  in xs%d\n", n)
	r := infer.Analyze("chain.cnf", []byte(b.String())).Funcs[0]
	if r == nil || !r.OK() {
		t.Fatal("the chain was rejected")
	}
	g := NewGraph(r)
	for _, sameSize := range []bool{false, true} {
		mg := newMerger(g, sameSize)
		mg.stream(unlimited(t.Context()))
		want := 1
		if sameSize {
			want = n / 3 // a filter and the two maps after it share a size
		}
		if len(mg.members) != want {
			t.Fatalf("sameSize %v: %d clusters, want %d", sameSize, len(mg.members), want)
		}
		if mg.visits > 10*n {
			t.Errorf("sameSize %v: %d visits for %d merges", sameSize, mg.visits, n-want)
		}
	}
}

// The greedy merges in two phases (merge.go) make the merges of the one heap that holds every
// candidate, which greedyOneHeap keeps as the reference: the same clustering, on random
// programs, for both variants, from the stream merges' clusters and from random ones.
func TestGreedyPhasesMergeAsOneHeap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, g, sameSize := genGraph(t, 30)
		start := randomMerges(t, g, sameSize)
		if rapid.Bool().Draw(t, "from stream") {
			mg := newMerger(g, sameSize)
			mg.stream(unlimited(t.Context()))
			start = mg.clustering()
		}
		phased, single := mergerFrom(start, sameSize), mergerFrom(start, sameSize)
		phased.greedy(unlimited(t.Context()), nil)
		greedyOneHeap(single)
		if a, b := phased.clustering(), single.clustering(); !slices.Equal(a.Of, b.Of) {
			t.Fatalf("two phases give %s, one heap %s", a, b)
		}
	})
}

// greedyOneHeap is the greedy merges with every candidate in one heap from the start.
func greedyOneHeap(m *merger) {
	version := map[int]int{}
	h := &funcHeap[candidate]{less: better}
	push := func(a, b int) {
		if a > b {
			a, b = b, a
		}
		if gain := m.gain(a, b); gain > 0 && m.compatible(a, b) {
			heap.Push(h, candidate{a: a, b: b, gain: gain, va: version[a], vb: version[b]})
		}
	}
	ids := slices.Sorted(maps.Keys(m.members))
	for x, a := range ids {
		for _, b := range ids[x+1:] {
			push(a, b)
		}
	}
	for h.Len() > 0 {
		c := heap.Pop(h).(candidate)
		if _, ok := m.members[c.a]; !ok || version[c.a] != c.va {
			continue
		}
		if _, ok := m.members[c.b]; !ok || version[c.b] != c.vb {
			continue
		}
		if !m.canMerge(c.a, c.b) {
			continue
		}
		m.merge(c.a, c.b)
		version[c.a]++
		for d := range m.members {
			if d != c.a {
				push(c.a, d)
			}
		}
	}
}
