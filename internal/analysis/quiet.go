package analysis

import (
	"context"
	"math"
)

// Quiet takes every solve slot, first in line, and returns when it holds them all: no solve of
// this engine runs until release is called. A measurement of compiled code (the server's
// "measure compiled") holds it while it times, so that the solver does not share the cores
// with what is timed. Solves already running finish first (they are bounded by their time
// limit); new ones wait. Two Quiet callers take turns.
func (e *Engine) Quiet(ctx context.Context) (release func(), err error) {
	e.quiet.Lock()
	var held []func()
	releaseAll := func() {
		for _, r := range held {
			r()
		}
		e.quiet.Unlock()
	}
	for range e.slots.capacity {
		r, err := e.slots.acquire(ctx, math.MaxInt64)
		if err != nil {
			releaseAll()
			return nil, err
		}
		held = append(held, r)
	}
	return releaseAll, nil
}
