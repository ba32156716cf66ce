package cluster

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cnf-tools/cnf/syntax/gen"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"
)

// improve keeps a clustering valid, never raises its cost, and stops only where no single move
// of a node (to another cluster or to one of its own) that keeps it valid lowers the cost, as
// Cost and Validate themselves compute it: so its own reckoning of a move is right. It starts
// from a random valid clustering (random merges).
func TestImproveReachesALocalOptimum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g, sameSize, start := randomValidStart(t)
		got := improve(unlimited(context.Background()), start, sameSize, nil)
		if problems := Validate(g, got.Of, sameSize); len(problems) > 0 {
			t.Fatalf("improve made %s invalid: %v", got, problems)
		}
		if got.Cost() > start.Cost() {
			t.Fatalf("improve raised the cost %d -> %d", start.Cost(), got.Cost())
		}
		of := slices.Clone(got.Of)
		for v := range g.Nodes {
			from := of[v]
			for to := 0; to <= len(g.Nodes); to++ { // len(g.Nodes): a cluster of its own
				if to == from {
					continue
				}
				of[v] = to
				if len(Validate(g, of, sameSize)) == 0 {
					if moved, err := NewClustering(g, of); err == nil && moved.Cost() < got.Cost() {
						t.Fatalf("moving %s from %s lowers the cost %d -> %d", g.Nodes[v].Name, got, got.Cost(), moved.Cost())
					}
				}
				of[v] = from
			}
		}
	})
}

// A definition too large for the ILP gets the greedy clustering mended, within the limit, and
// says so.
func TestTooLargeIsMended(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, g, sameSize := genGraph(t, 40)
		res, err := Solve(context.Background(), g, Options{SameSizeOnly: sameSize, Budget: Budget{Columns: 1, Rows: 1}, TimeLimit: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		greedy := Greedy(context.Background(), g, sameSize)
		if res.Optimal {
			return // settled before the model's size mattered (nothing to fuse, or cost 0)
		}
		if !strings.Contains(res.Note, "too large for the ILP") {
			t.Fatalf("note %q", res.Note)
		}
		if problems := Validate(g, res.Clustering.Of, sameSize); len(problems) > 0 || res.Objective != res.Clustering.Cost() || res.Objective > greedy.Cost() {
			t.Fatalf("%s (objective %d) against the greedy %d: %v", res.Clustering, res.Objective, greedy.Cost(), problems)
		}
	})
}

// polish keeps a clustering valid, never raises its cost, and stops where neither a single
// move of a node nor a merge of two clusters that keeps it valid lowers the cost, as Cost and
// Validate compute it. It starts from random valid clusterings (random merges), ten for each
// graph: a start after which moves leave two clusters worth merging is rare (without the
// merges, one graph in about 120 showed it).
func TestPolishReachesALocalOptimum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, g, sameSize := genGraph(t, 20)
		for range 10 {
			polishFrom(t, g, sameSize, randomMerges(t, g, sameSize))
		}
	})
}

// polishFrom checks polish from one start (TestPolishReachesALocalOptimum).
func polishFrom(t *rapid.T, g *Graph, sameSize bool, start *Clustering) {
	got := polish(unlimited(context.Background()), start, sameSize, nil)
	if problems := Validate(g, got.Of, sameSize); len(problems) > 0 {
		t.Fatalf("polish made %s invalid: %v", got, problems)
	}
	if got.Cost() > start.Cost() {
		t.Fatalf("polish raised the cost %d -> %d", start.Cost(), got.Cost())
	}
	if again := improve(unlimited(context.Background()), got, sameSize, nil); again.Cost() < got.Cost() {
		t.Fatalf("a move lowers the cost of %s: %d -> %d (%s)", got, got.Cost(), again.Cost(), again)
	}
	labels := slices.Compact(slices.Sorted(slices.Values(got.Of)))
	for x, a := range labels {
		for _, b := range labels[x+1:] {
			of := slices.Clone(got.Of)
			for i, l := range of {
				if l == b {
					of[i] = a
				}
			}
			if len(Validate(g, of, sameSize)) > 0 {
				continue
			}
			if merged, err := NewClustering(g, of); err == nil && merged.Cost() < got.Cost() {
				t.Fatalf("merging two clusters of %s lowers the cost %d -> %d", got, got.Cost(), merged.Cost())
			}
		}
	}
}

// randomValidStart is a random graph and a random valid clustering of it.
func randomValidStart(t *rapid.T) (*Graph, bool, *Clustering) {
	_, g, sameSize := genGraph(t, 20)
	return g, sameSize, randomMerges(t, g, sameSize)
}

// randomMerges is a random valid clustering of g: random merges that keep it valid.
func randomMerges(t *rapid.T, g *Graph, sameSize bool) *Clustering {
	mg := newMerger(g, sameSize)
	for k := rapid.IntRange(0, 3*len(g.Nodes)).Draw(t, "merges"); k > 0; k-- {
		i := rapid.IntRange(0, len(g.Nodes)-1).Draw(t, "i")
		j := rapid.IntRange(0, len(g.Nodes)-1).Draw(t, "j")
		if a, b := mg.label[i], mg.label[j]; a != b && mg.canMerge(a, b) {
			mg.merge(a, b)
		}
	}
	return mg.clustering()
}

// mergerFromMerges is mergerFrom as one merge a node: the reference mergerFrom's state is
// checked against.
func mergerFromMerges(cl *Clustering, sameSizeOnly bool) *merger {
	mg := newMerger(cl.Graph, sameSizeOnly)
	rep := map[int]int{} // label -> the first node with it
	for i, l := range cl.Of {
		if r, ok := rep[l]; ok {
			mg.merge(mg.label[r], mg.label[i]) // merge takes labels, not nodes
		} else {
			rep[l] = i
		}
	}
	return mg
}

// mergerFrom builds at once the state the merges of a clustering's nodes leave: labels,
// members, the cluster graph, classes, open members, summaries, externals and single roots;
// and an order of the clusters that is one (every edge between clusters goes forward). On
// random valid clusterings of small programs, and on the greedy clusterings of generated
// programs of 200 bindings (clusters of more than smallCluster nodes, many iterations).
func TestMergerFromIsTheMerges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, g, sameSize := genGraph(t, 40)
		sameMerger(t, randomMerges(t, g, sameSize), sameSize)
		sameMerger(t, Greedy(context.Background(), g, sameSize), sameSize)
	})
	for _, shape := range []string{"fans", "glued", "mixed", "sizes"} {
		g := generatedGraph(t, 1, gen.Options{Bindings: 200, Shape: shape})
		sameMerger(t, Greedy(context.Background(), g, false), false)
	}
}

func sameMerger(t interface{ Fatalf(string, ...any) }, cl *Clustering, sameSize bool) {
	g := cl.Graph
	got, want := mergerFrom(cl, sameSize), mergerFromMerges(cl, sameSize)
	norm := func(b []bitset) [][]uint64 {
		out := make([][]uint64, len(b))
		for i, x := range b {
			if x != nil {
				out[i] = []uint64(x)
			}
		}
		return out
	}
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"label", got.label, want.label},
		{"members", got.members, want.members},
		{"succ", got.succ, want.succ},
		{"pred", got.pred, want.pred},
		{"classes", got.classes, want.classes},
		{"open", got.open, want.open},
		{"external", got.external, want.external},
		{"uniRoot", got.uniRoot, want.uniRoot},
		{"reach", norm(got.reach), norm(want.reach)},
		{"held", norm(got.held), norm(want.held)},
	} {
		if diff := cmp.Diff(c.want, c.got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%s differs (-merges +mergerFrom):\n%s", c.what, diff)
		}
	}
	if !got.ordered {
		t.Fatalf("mergerFrom left the clusters unordered")
	}
	for _, e := range g.Edges {
		if a, b := got.label[e.From.ID], got.label[e.To.ID]; a != b && got.ord[a] >= got.ord[b] {
			t.Fatalf("edge %d -> %d goes back in the order of clusters (%d, %d)", e.From.ID, e.To.ID, got.ord[a], got.ord[b])
		}
	}
}
