package fuse

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// Simplify applies the simplifications of section 4.5 until nothing changes: outputs nobody
// reads are dropped (their push and close become jumps), jumps are inlined into the
// instructions that lead to them, unreachable states are removed, and identical states merged.
// needed lists the channels that must stay outputs: read by another process, or results.
func Simplify(p *Process, needed map[string]bool) {
	dropUnread(p, needed)
	for {
		changed := inlineJumps(p)
		changed = removeUnreachable(p) || changed
		changed = mergeIdentical(p) || changed
		if !changed {
			return
		}
	}
}

func dropUnread(p *Process, needed map[string]bool) {
	var keep []string
	for _, c := range p.Outs {
		if needed[c] {
			keep = append(keep, c)
		}
	}
	if len(keep) == len(p.Outs) {
		return
	}
	p.Outs = keep
	for _, in := range p.Instrs {
		if (in.Op == Push || in.Op == Close) && !containsStr(keep, in.Chan) {
			in.Op, in.Chan, in.Expr = Jump, "", nil
		}
	}
}

// inlineJumps makes every successor that is a jump point past it, joining the updates (in
// order). A cycle of jumps (never made by the templates) is left alone.
func inlineJumps(p *Process) bool {
	changed := false
	for _, in := range p.Instrs {
		for _, n := range in.nexts() {
			seen := map[Label]bool{}
			for {
				t := p.Instrs[n.Label]
				if t == nil || t.Op != Jump || seen[n.Label] || t.Next.Label == n.Label {
					break
				}
				seen[n.Label] = true
				n.Updates = append(append([]Update{}, n.Updates...), t.Next.Updates...)
				n.Label = t.Next.Label
				changed = true
			}
		}
	}
	// A start that is a bare jump moves to its target.
	for {
		t := p.Instrs[p.Start]
		if t == nil || t.Op != Jump || len(t.Next.Updates) > 0 || t.Next.Label == p.Start {
			break
		}
		p.Start = t.Next.Label
		changed = true
	}
	return changed
}

func removeUnreachable(p *Process) bool {
	seen := map[Label]bool{}
	stack := []Label{p.Start}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[l] {
			continue
		}
		seen[l] = true
		if in := p.Instrs[l]; in != nil {
			for _, n := range in.nexts() {
				stack = append(stack, n.Label)
			}
		}
	}
	if len(seen) == len(p.Instrs) {
		return false
	}
	for l := range p.Instrs {
		if !seen[l] {
			delete(p.Instrs, l)
		}
	}
	p.Order = filterOrder(p)
	return true
}

func filterOrder(p *Process) []Label {
	var out []Label
	for _, l := range p.Order {
		if p.Instrs[l] != nil {
			out = append(out, l)
		}
	}
	return out
}

// shape is an instruction without its note: two states with the same shape behave the same.
func shape(in *Instr) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%s|%s|", in.Op, in.Chan, in.Var)
	if in.Expr != nil {
		b.WriteString(syntax.FormatExpr(in.Expr))
	}
	for _, n := range in.nexts() {
		fmt.Fprintf(&b, "|%s", n.Label)
		for _, u := range n.Updates {
			fmt.Fprintf(&b, ";%s=%s", u.Var, syntax.FormatExpr(u.Expr))
		}
	}
	return b.String()
}

func mergeIdentical(p *Process) bool {
	changed := false
	for {
		rep := map[string]Label{}
		rename := map[Label]Label{}
		for _, l := range p.Order {
			s := shape(p.Instrs[l])
			if r, ok := rep[s]; ok {
				rename[l] = r
			} else {
				rep[s] = l
			}
		}
		if len(rename) == 0 {
			return changed
		}
		changed = true
		for l := range rename {
			delete(p.Instrs, l)
		}
		for _, in := range p.Instrs {
			for _, n := range in.nexts() {
				if r, ok := rename[n.Label]; ok {
					n.Label = r
				}
			}
		}
		if r, ok := rename[p.Start]; ok {
			p.Start = r
		}
		p.Order = filterOrder(p)
	}
}

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
	if !errors.As(err, &fe) || strings.Contains(fe.Reason, "states") {
		return nil, err
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
		if !containsProc(done, q) || q == also {
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
			if containsProc(except, p) {
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

func containsProc(ps []*Process, p *Process) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// sortLabels orders labels for printing: the start first, then discovery order.
func sortLabels(p *Process) []Label {
	order := filterOrder(p)
	if len(order) != len(p.Instrs) {
		order = order[:0]
		for l := range p.Instrs {
			order = append(order, l)
		}
		sort.Slice(order, func(i, j int) bool { return order[i] < order[j] })
	}
	for i, l := range order {
		if l == p.Start && i > 0 {
			order = append([]Label{l}, append(order[:i:i], order[i+1:]...)...)
			break
		}
	}
	return order
}
