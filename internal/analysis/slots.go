package analysis

import (
	"container/heap"
	"context"
	"sync"
)

// slots lets at most n solves run at once. A waiter with a higher priority (the server gives
// the time of the edit, so the document being typed in goes first) is served first; equal
// priorities are served in arrival order. A waiter whose context ends leaves the queue.
type slots struct {
	capacity int
	mu       sync.Mutex
	free     int
	waiting  waiters
	seq      int64
}

func newSlots(n int) *slots { return &slots{capacity: max(n, 1), free: max(n, 1)} }

type waiter struct {
	priority, seq int64
	ready         chan struct{}
	index         int // in the heap; -1 once removed
}

type waiters []*waiter

func (w waiters) Len() int { return len(w) }
func (w waiters) Less(i, j int) bool {
	if w[i].priority != w[j].priority {
		return w[i].priority > w[j].priority
	}
	return w[i].seq < w[j].seq
}
func (w waiters) Swap(i, j int) {
	w[i], w[j] = w[j], w[i]
	w[i].index, w[j].index = i, j
}
func (w *waiters) Push(x any) {
	x.(*waiter).index = len(*w)
	*w = append(*w, x.(*waiter))
}
func (w *waiters) Pop() any {
	old := *w
	x := old[len(old)-1]
	x.index = -1
	*w = old[:len(old)-1]
	return x
}

// acquire waits for a slot; the release function gives it back. It fails only with ctx's error.
func (s *slots) acquire(ctx context.Context, priority int64) (release func(), err error) {
	s.mu.Lock()
	if s.free > 0 && len(s.waiting) == 0 {
		s.free--
		s.mu.Unlock()
		return s.release, nil
	}
	s.seq++
	w := &waiter{priority: priority, seq: s.seq, ready: make(chan struct{})}
	heap.Push(&s.waiting, w)
	s.mu.Unlock()
	select {
	case <-w.ready:
		return s.release, nil
	case <-ctx.Done():
		s.mu.Lock()
		defer s.mu.Unlock()
		if w.index >= 0 {
			heap.Remove(&s.waiting, w.index)
			return nil, ctx.Err()
		}
		// Handed a slot just as the context ended: pass it on.
		s.releaseLocked()
		return nil, ctx.Err()
	}
}

func (s *slots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releaseLocked()
}

func (s *slots) releaseLocked() {
	if len(s.waiting) > 0 {
		w := heap.Pop(&s.waiting).(*waiter)
		close(w.ready)
		return
	}
	s.free++
}
