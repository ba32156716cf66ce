package fuse

import (
	"errors"
	"fmt"
	"slices"
)

// Network is the process network of one cluster: a process per binding. Inputs are the
// channels the environment feeds (arrays streamed from memory); Outputs are the channels it
// must produce (arrays it writes, scalars it computes).
type Network struct {
	Procs   []*Process
	Inputs  []string
	Outputs []string
}

// FuseNetwork fuses a network into one process. It first follows section 4.5.1 (fuseBottomUp).
// That order is a heuristic, and the thesis shows networks where it fails; when it ends in a
// static deadlock, the network is fused again in dependency order (fuseTopDown), where each step
// adds one process to a process that already contains every producer of its inputs, so the
// order of every stream it reads is fixed before it arrives. Only if both fail is fusion
// reported as failed, with the first error (a *FusionError holding the partially fused
// processes).
func FuseNetwork(net *Network, maxStates int) (*Process, error) {
	p, err := fuseBottomUp(net, maxStates, false)
	if err == nil {
		return p, nil
	}
	var fe *FusionError
	if !errors.As(err, &fe) || fe.TooLarge {
		return nil, err // another order would not make fewer states
	}
	for _, try := range []func() (*Process, error){
		func() (*Process, error) { return fuseTopDown(net, maxStates, false) },
		func() (*Process, error) { return fuseBottomUp(net, maxStates, true) },
		func() (*Process, error) { return fuseTopDown(net, maxStates, true) },
	} {
		if q, err2 := try(); err2 == nil {
			return q, nil
		}
	}
	return nil, err
}

// fuseTopDown fuses the processes in dependency order, producers first; reverse breaks ties
// between independent processes the other way.
func fuseTopDown(net *Network, maxStates int, reverse bool) (*Process, error) {
	procs := append([]*Process(nil), net.Procs...)
	if reverse {
		for i, j := 0, len(procs)-1; i < j; i, j = i+1, j-1 {
			procs[i], procs[j] = procs[j], procs[i]
		}
	}
	order := topoOrder(procs)
	acc := order[0]
	done := []*Process{acc}
	for _, p := range order[1:] {
		fused, err := fusePair(acc, p, maxStates)
		if err != nil {
			if fe, ok := err.(*FusionError); ok {
				fe.Partial = append([]*Process{acc}, remaining(order, done, p)...)
			}
			return nil, err
		}
		done = append(done, p)
		acc = fused
		needed := map[string]bool{}
		for _, c := range net.Outputs {
			needed[c] = true
		}
		for _, q := range remaining(order, done, nil) {
			for _, c := range q.Ins {
				needed[c] = true
			}
		}
		Simplify(acc, needed)
	}
	return acc, nil
}

func remaining(order, done []*Process, also *Process) []*Process {
	var out []*Process
	for _, q := range order {
		if !slices.Contains(done, q) || q == also {
			out = append(out, q)
		}
	}
	return out
}

// topoOrder sorts processes so that each comes after the producers of its inputs.
func topoOrder(procs []*Process) []*Process {
	var out []*Process
	placed := map[*Process]bool{}
	for len(out) < len(procs) {
		progress := false
		for _, p := range procs {
			if placed[p] {
				continue
			}
			ready := true
			for _, q := range procs {
				if q != p && !placed[q] {
					for _, c := range p.Ins {
						if q.writes(c) {
							ready = false
						}
					}
				}
			}
			if ready {
				placed[p] = true
				out = append(out, p)
				progress = true
			}
		}
		if !progress { // a cycle: not produced by clusterings, which are acyclic
			for _, p := range procs {
				if !placed[p] {
					placed[p] = true
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// fuseBottomUp is section 4.5.1: start from a sink (a process nobody in the network reads from)
// and fuse it with its parents one at a time, the parent that reads another parent's output
// first, so that consumers impose their access patterns on producers; simplify after every
// step. Processes left unconnected are then fused in order. reverse takes the last candidate
// parent rather than the first where the heuristic does not decide.
func fuseBottomUp(net *Network, maxStates int, reverse bool) (*Process, error) {
	procs := append([]*Process(nil), net.Procs...)
	outputs := map[string]bool{}
	for _, c := range net.Outputs {
		outputs[c] = true
	}
	needed := func(except ...*Process) map[string]bool {
		m := map[string]bool{}
		for c := range outputs {
			m[c] = true
		}
		for _, p := range procs {
			if slices.Contains(except, p) {
				continue
			}
			for _, c := range p.Ins {
				m[c] = true
			}
		}
		return m
	}
	readsFrom := func(consumer, producer *Process) bool {
		for _, c := range consumer.Ins {
			if producer.writes(c) {
				return true
			}
		}
		return false
	}
	for len(procs) > 1 {
		sink := -1
		for i, p := range procs {
			isSink := true
			for j, q := range procs {
				if i != j && readsFrom(q, p) {
					isSink = false
					break
				}
			}
			if isSink {
				hasParent := false
				for j, q := range procs {
					if i != j && readsFrom(p, q) {
						hasParent = true
					}
				}
				if hasParent || sink < 0 {
					sink = i
				}
				if hasParent {
					break
				}
			}
		}
		if sink < 0 {
			sink = len(procs) - 1 // not reached: a network of a DAG has a sink
		}
		var parents []int
		for j, q := range procs {
			if j != sink && readsFrom(procs[sink], q) {
				parents = append(parents, j)
			}
		}
		partner := -1
		switch {
		case len(parents) > 0:
			// The parent that consumes another parent's output, so that it imposes its access
			// pattern on that parent in turn; otherwise the first.
			partner = parents[0]
			if reverse {
				partner = parents[len(parents)-1]
			}
			for _, a := range parents {
				for _, b := range parents {
					if a != b && readsFrom(procs[a], procs[b]) {
						partner = a
					}
				}
			}
		default:
			for j := range procs {
				if j != sink {
					partner = j
					break
				}
			}
		}
		p, q := procs[partner], procs[sink]
		fused, err := fusePair(p, q, maxStates)
		if err != nil {
			if fe, ok := err.(*FusionError); ok {
				fe.Partial = append([]*Process(nil), procs...)
			}
			return nil, err
		}
		rest := procs[:0:0]
		for j, r := range procs {
			if j != sink && j != partner {
				rest = append(rest, r)
			}
		}
		procs = append(rest, fused)
		Simplify(fused, needed(fused))
	}
	if len(procs) == 1 {
		Simplify(procs[0], needed(procs[0]))
		return procs[0], nil
	}
	return nil, fmt.Errorf("empty network")
}
