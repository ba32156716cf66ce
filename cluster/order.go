package cluster

import "container/heap"

// unionFind is a partition of 0..n-1 into sets, with path halving.
type unionFind []int

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = i
	}
	return u
}

// find returns the representative of i's set.
func (u unionFind) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

// union joins the sets of i and j.
func (u unionFind) union(i, j int) { u[u.find(i)] = u.find(j) }

// topological orders 0..n-1 so that each comes after its predecessors (succ(i) lists the
// successors of i, possibly with repeats); among those ready, the one less puts first comes
// first. ok is false when the relation has a cycle.
func topological(n int, succ func(int) []int, less func(a, b int) bool) (order []int, ok bool) {
	indeg := make([]int, n)
	for i := range n {
		for _, j := range succ(i) {
			indeg[j]++
		}
	}
	ready := &funcHeap[int]{less: less}
	for i := range n {
		if indeg[i] == 0 {
			heap.Push(ready, i)
		}
	}
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		order = append(order, i)
		for _, j := range succ(i) {
			if indeg[j]--; indeg[j] == 0 {
				heap.Push(ready, j)
			}
		}
	}
	return order, len(order) == n
}

// funcHeap is a heap (container/heap) of T ordered by less: the ready nodes of topological,
// the greedy merges' candidates, Dijkstra's queue of the path inequalities.
type funcHeap[T any] struct {
	less  func(a, b T) bool
	items []T
}

func (h *funcHeap[T]) Len() int           { return len(h.items) }
func (h *funcHeap[T]) Less(i, j int) bool { return h.less(h.items[i], h.items[j]) }
func (h *funcHeap[T]) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *funcHeap[T]) Push(x any)         { h.items = append(h.items, x.(T)) }
func (h *funcHeap[T]) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
