package cluster

import (
	"context"
	"fmt"
	"strings"
)

// ExclusionKind says what keeps a binding out of a loop.
type ExclusionKind int

const (
	// ByPath: a path between the binding and a binding of the loop crosses a fusion-preventing
	// edge, so they can never share a loop (Fig 1.13's possible).
	ByPath ExclusionKind = iota
	// ByExternal: the binding is an external, a host call between loops.
	ByExternal
	// BySizes: its iteration size and a loop member's have no common transducer ancestor.
	BySizes
	// ByForcedCost: re-solving with the binding forced into the loop gives a worse optimum.
	ByForcedCost
	// ByNoForcedClustering: no valid clustering puts the binding in that loop.
	ByNoForcedClustering
	// ByInvalidMove: moving the binding alone into the loop breaks the clustering.
	ByInvalidMove
	// ByMoveCost: moving the binding alone is valid but costs more.
	ByMoveCost
)

// Exclusion says why a binding is not in one other loop of a clustering: plain data, which the
// language server renders as hover text and `cnf cluster --explain` as text or JSON.
type Exclusion struct {
	Loop    int      // the other loop's number (Clustering.LoopNumber)
	Cluster *Cluster // the other loop
	Kind    ExclusionKind
	Path    []*Edge // ByPath: the path, in order, from one binding to the other
	With    *Node   // BySizes: the member whose size is unrelated; ByForced*: the loop's first binding
	// Objective is, for ByForcedCost, the best objective with the binding in that loop and, for
	// ByMoveCost, the objective of moving it alone; Base is the clustering's own objective.
	Objective, Base int
	Problem         string // ByInvalidMove: why the move is invalid
}

// Reason is the exclusion as a sentence: "a fusion-preventing path: sum1 → ys1 (sum1 is a
// fold: ...)".
func (x Exclusion) Reason() string {
	switch x.Kind {
	case ByPath:
		steps := make([]string, len(x.Path))
		for i, e := range x.Path {
			steps[i] = fmt.Sprintf("%s → %s", e.From.Name, e.To.Name)
			if e.Preventing {
				steps[i] += " (" + e.Reasons[0] + ")"
			}
		}
		return "a fusion-preventing path: " + strings.Join(steps, ", ")
	case ByExternal:
		return "it is an external: a host call between loops"
	case BySizes:
		return fmt.Sprintf("its iteration size and %s's are unrelated: no common transducer ancestor (a filter, take, drop, slice or tail both descend from)", x.With.Name)
	case ByForcedCost:
		return fmt.Sprintf("cost: the best clustering that puts it with %s has objective %d, against %d (+%d; re-solved with the two forced together)",
			x.With.Name, x.Objective, x.Base, x.Objective-x.Base)
	case ByNoForcedClustering:
		return fmt.Sprintf("no valid clustering puts it with %s", x.With.Name)
	case ByInvalidMove:
		return "moving it there alone is invalid: " + x.Problem
	}
	return fmt.Sprintf("cost: moving it there alone is valid but raises the objective from %d to %d (+%d)", x.Base, x.Objective, x.Objective-x.Base)
}

// KindName names an exclusion's kind for JSON: "path", "external", "sizes", "cost", ...
func (k ExclusionKind) String() string {
	return [...]string{"path", "external", "sizes", "forced-cost", "no-clustering", "invalid-move", "move-cost"}[k]
}

// Forced is the outcome of re-solving with a binding forced into another loop.
type Forced struct {
	Objective int
	OK        bool    // false: no valid clustering puts them together (or the solve failed)
	Work      float64 // the work of the re-solve (effort.go)
}

// NeedsForcing reports whether only cost could keep node n out of cluster c: no
// fusion-preventing path and related sizes with each of its bindings, neither an external.
// Those are the exclusions a forced re-solve can explain best.
func (r *Result) NeedsForcing(n int, c *Cluster) bool {
	g := r.Graph
	if c.Index == r.Of[n] || c.External() || g.Nodes[n].External() {
		return false
	}
	for _, m := range c.Nodes {
		if !g.Possible(n, m.ID) {
			return false
		}
		a, b := g.Nodes[n].Binding, m.Binding
		if !g.Sizes.SameIter(a, b) {
			if _, _, _, ok := g.Sizes.Concestors(a, b); !ok {
				return false
			}
		}
	}
	return true
}

// Force re-solves with node n forced into cluster c (with its first binding), within opts.
func (r *Result) Force(ctx context.Context, n int, c *Cluster, opts Options) (Forced, error) {
	opts.Together = [][2]int{{n, c.Nodes[0].ID}}
	res, err := Solve(ctx, r.Graph, opts)
	if err != nil {
		return Forced{}, err
	}
	return Forced{Objective: res.Objective, OK: res.Fallback == "" && res.Of[n] == res.Of[c.Nodes[0].ID], Work: res.Work}, nil
}

// WhyNot explains, for every other loop, why node n is not in it: a fusion-preventing path
// (each edge and its reason), an external, unrelated iteration sizes, or cost. Cost is the
// optimum with n forced into that loop where forced has it (see Force), and otherwise the
// objective of moving n there alone (exact for that move, and instant).
func (r *Result) WhyNot(n int, forced func(cluster int) (Forced, bool)) []Exclusion {
	var out []Exclusion
	for _, c := range r.Clusters {
		if c.Index == r.Of[n] || c.External() {
			continue
		}
		x := Exclusion{Loop: r.LoopNumber(c.Index), Cluster: c, Base: r.Objective}
		out = append(out, r.exclusion(x, n, c, forced))
	}
	return out
}

func (r *Result) exclusion(x Exclusion, n int, c *Cluster, forced func(int) (Forced, bool)) Exclusion {
	g := r.Graph
	for _, m := range c.Nodes {
		if path := g.PreventingPath(n, m.ID); path != nil {
			x.Kind, x.Path = ByPath, path
			return x
		}
		if path := g.PreventingPath(m.ID, n); path != nil {
			x.Kind, x.Path = ByPath, path
			return x
		}
	}
	if g.Nodes[n].External() {
		x.Kind = ByExternal
		return x
	}
	for _, m := range c.Nodes {
		a, b := g.Nodes[n].Binding, m.Binding
		if !g.Sizes.SameIter(a, b) {
			if _, _, _, ok := g.Sizes.Concestors(a, b); !ok {
				x.Kind, x.With = BySizes, m
				return x
			}
		}
	}
	if forced != nil {
		if f, ok := forced(c.Index); ok {
			x.With = c.Nodes[0]
			if !f.OK {
				x.Kind = ByNoForcedClustering
				return x
			}
			x.Kind, x.Objective = ByForcedCost, f.Objective
			return x
		}
	}
	labels := append([]int(nil), r.Of...)
	labels[n] = c.Index
	if problems := Validate(g, labels, false); len(problems) > 0 {
		x.Kind, x.Problem = ByInvalidMove, problems[0]
		return x
	}
	moved, err := NewClustering(g, labels)
	if err != nil {
		x.Kind, x.Problem = ByInvalidMove, err.Error()
		return x
	}
	x.Kind, x.Objective, x.Base = ByMoveCost, moved.Cost(), r.Cost()
	return x
}

// PreventingPath returns a path from a to b that contains a fusion-preventing edge (the
// shortest such, found breadth first), or nil when there is none.
func (g *Graph) PreventingPath(a, b int) []*Edge {
	if !g.fpReach[a].has(b) {
		return nil
	}
	type state struct {
		node int
		fp   bool
	}
	prev := map[state]*Edge{}
	from := map[state]state{}
	start := state{a, false}
	queue := []state{start}
	seen := map[state]bool{start: true}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur.node == b && cur.fp {
			var path []*Edge
			for st := cur; st != start; st = from[st] {
				path = append(path, prev[st])
			}
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			return path
		}
		for _, e := range g.Out(cur.node) {
			next := state{e.To.ID, cur.fp || e.Preventing}
			if !seen[next] {
				seen[next] = true
				prev[next] = e
				from[next] = cur
				queue = append(queue, next)
			}
		}
	}
	return nil
}
