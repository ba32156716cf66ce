package fuse

import (
	"fmt"
	"slices"
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
		if (in.Op == Push || in.Op == Close) && !slices.Contains(keep, in.Chan) {
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
