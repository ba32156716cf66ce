package fuse

import (
	"context"
	"fmt"
	"strings"
)

// InState is the run-time state of a process's input channel (Fig 4.6).
type InState uint8

const (
	None InState = iota
	Pending
	Have
	Closed
)

type running struct {
	p       *Process
	label   Label
	heap    map[string]Value
	env     *Env
	ins     map[string]InState
	pending map[string]Value
}

// MaxIdleSteps bounds the steps an execution may take without a push, so that a process that
// would loop forever is reported. (Every process of a network, fused or not, pushes or ends
// within a number of steps its states bound; the elements it makes are bounded by
// MaxElements, as the reference interpreter's are.)
const MaxIdleSteps = 10_000_000

// Execute runs a process network by the rules of Figs 4.7 to 4.9, with one-element buffers: a
// push succeeds only when every reader of the channel has taken (dropped) the previous value.
// Processes are advanced in a fixed round-robin order, which is one of the executions the
// non-deterministic rules allow. Input channels that no process writes are fed from inputs;
// everything pushed to an output channel is collected. Names that are not heap variables
// (program scalars, materialised arrays) are looked up in env. A network in which nothing can
// advance before every process has exited is reported as a run-time deadlock.
func Execute(ctx context.Context, procs []*Process, inputs map[string]Array, outputs []string, env *Env) (map[string]Array, error) {
	rs := make([]*running, len(procs))
	written := map[string]bool{}
	for i, p := range procs {
		r := &running{p: p, label: p.Start, heap: map[string]Value{}, ins: map[string]InState{}, pending: map[string]Value{}}
		r.env = &Env{vars: r.heap, parent: env}
		for _, h := range p.Heap {
			if h.Init == nil {
				r.heap[h.Name] = nil
				continue
			}
			v, err := Eval(h.Init, env)
			if err != nil {
				return nil, fmt.Errorf("%s: initialising %s: %w", p.Name, h.Name, err)
			}
			r.heap[h.Name] = v
		}
		for _, c := range p.Ins {
			r.ins[c] = None
		}
		for _, c := range p.Outs {
			written[c] = true
		}
		rs[i] = r
	}
	out := map[string]Array{}
	for _, c := range outputs {
		out[c] = Array{}
	}
	feed := map[string]Array{}
	for c, vs := range inputs {
		if !written[c] {
			feed[c] = vs
		}
	}
	fed := map[string]bool{}
	// readersReady reports whether every reader of c can accept a message (Fig 4.7).
	readersReady := func(c string, except *running) bool {
		for _, r := range rs {
			if r != except && r.p.reads(c) && r.ins[c] != None {
				return false
			}
		}
		return true
	}
	inject := func(c string, v Value, closed bool, except *running) {
		for _, r := range rs {
			if r != except && r.p.reads(c) {
				if closed {
					r.ins[c] = Closed
				} else {
					r.ins[c] = Pending
					r.pending[c] = v
				}
			}
		}
	}
	var made, madeBefore int64 // elements pushed in all, and when idle steps were last counted
	for steps, idle := 0, 0; ; steps++ {
		if steps%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if made > MaxElements {
			return nil, errElementLimit
		}
		if made == madeBefore {
			if idle++; idle > MaxIdleSteps {
				return nil, fmt.Errorf("execution made no element in %d steps", MaxIdleSteps)
			}
		} else {
			idle, madeBefore = 0, made
		}
		progressed := false
		allExit := true
		for _, r := range rs {
			ok, err := r.advance(readersReady, inject, out, &made)
			if err != nil {
				return nil, err
			}
			progressed = progressed || ok
			if r.p.Instrs[r.label].Op != Exit {
				allExit = false
			}
		}
		if allExit {
			return out, nil
		}
		if progressed {
			continue
		}
		// Nothing could advance: feed the environment's inputs (FeedEnvPush, FeedEnvClose).
		for c, vs := range feed {
			if fed[c] || !readersReady(c, nil) {
				continue
			}
			if len(vs) == 0 {
				inject(c, nil, true, nil)
				fed[c] = true
			} else {
				inject(c, vs[0], false, nil)
				feed[c] = vs[1:]
			}
			progressed = true
		}
		if !progressed {
			var waits []string
			for _, r := range rs {
				in := r.p.Instrs[r.label]
				if in.Op != Exit {
					waits = append(waits, fmt.Sprintf("%s waits at %s (%s %s)", r.p.Name, r.label, in.Op, in.Chan))
				}
			}
			return nil, fmt.Errorf("the process network is stuck: %s", strings.Join(waits, "; "))
		}
	}
}

// advance takes one step of a process if it can (Fig 4.8).
func (r *running) advance(ready func(string, *running) bool, inject func(string, Value, bool, *running), out map[string]Array, made *int64) (bool, error) {
	in := r.p.Instrs[r.label]
	var next *Next
	switch in.Op {
	case Exit:
		return false, nil
	case Pull:
		switch r.ins[in.Chan] {
		case Pending:
			r.heap[in.Var] = r.pending[in.Chan]
			r.ins[in.Chan] = Have
			next = &in.Next
		case Closed:
			next = &in.Else
		default:
			return false, nil
		}
	case Push:
		if !ready(in.Chan, r) {
			return false, nil
		}
		v, err := Eval(in.Expr, r.env)
		if err != nil {
			return false, r.fail(in, err)
		}
		inject(in.Chan, v, false, r)
		*made++
		if arr, ok := out[in.Chan]; ok {
			out[in.Chan] = append(arr, v)
		}
		next = &in.Next
	case Close:
		if !ready(in.Chan, r) {
			return false, nil
		}
		inject(in.Chan, nil, true, r)
		next = &in.Next
	case Drop:
		if r.ins[in.Chan] != Have {
			return false, r.fail(in, fmt.Errorf("drop of %s without a pulled value", in.Chan))
		}
		r.ins[in.Chan] = None
		next = &in.Next
	case Case:
		v, err := Eval(in.Expr, r.env)
		if err != nil {
			return false, r.fail(in, err)
		}
		b, ok := v.(bool)
		if !ok {
			return false, r.fail(in, fmt.Errorf("case needs a Bool, got %s", FormatValue(v)))
		}
		next = &in.Else
		if b {
			next = &in.Next
		}
	case Jump:
		next = &in.Next
	}
	for _, u := range next.Updates {
		v, err := Eval(u.Expr, r.env)
		if err != nil {
			return false, r.fail(in, err)
		}
		r.heap[u.Var] = v
	}
	r.label = next.Label
	return true, nil
}

func (r *running) fail(in *Instr, err error) error {
	return fmt.Errorf("%s at %s (%s): %w", r.p.Name, r.label, in.Op, err)
}
