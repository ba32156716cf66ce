package fuse

import (
	"fmt"
	"io"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// ReadableHeader explains the notation of WriteReadable in two comment lines, for a reader
// who has not read chapter 4 of the thesis.
const ReadableHeader = `-- s0 starts; each state does one thing, then goes on ("->") with the heap updates in [ ]; pull takes a stream's next value ("closed ->" once it ends), drop releases it.
-- After each state, its joint label (thesis Fig 4.13): a label per fused combinator; [xs=h] holds a value of xs, [xs=p] has one pending, [xs=c] xs has closed.
`

// WriteReadable prints a process for people: its states renamed s0, s1, ... in control-flow
// order from the start (each branch followed before the next), one state a line with its
// successors, and the state's joint label of Fig 4.13 as a comment, where the marks read
// [xs=h]: a value of xs is held (pulled, not yet dropped); [xs=p]: pending (pushed by a
// fused producer, not yet pulled here); [xs=c]: xs is closed.
func WriteReadable(w io.Writer, p *Process) {
	order := controlFlowOrder(p)
	short := make(map[Label]string, len(order))
	for i, l := range order {
		short[l] = fmt.Sprintf("s%d", i)
	}
	fmt.Fprintf(w, "process -- %s\n", strings.Join(p.Combinators, "; "))
	fmt.Fprintf(w, "  reads  %s\n", orNone(p.Ins))
	fmt.Fprintf(w, "  writes %s\n", orNone(p.Outs))
	var heap []string
	for _, h := range p.Heap {
		if h.Init != nil {
			heap = append(heap, h.Name+" = "+syntax.FormatExpr(h.Init))
		} else {
			heap = append(heap, h.Name)
		}
	}
	fmt.Fprintf(w, "  heap   %s\n", orNone(heap))
	width := len(short[order[len(order)-1]])
	lines := make([]string, len(order))
	comment := 0 // the column of the comments: they line up, up to a point
	for i, l := range order {
		lines[i] = fmt.Sprintf("%-*s  %s", width+1, short[l]+":", readableInstr(p.Instrs[l], short))
		if n := len(lines[i]); n <= maxCommentColumn {
			comment = max(comment, n)
		}
	}
	for i, l := range order {
		fmt.Fprintf(w, "%-*s  -- %s\n", comment, lines[i], l)
	}
}

// readableInstr is one state: "pull xs into v -> s1 [v = ...]; closed -> s4".
func readableInstr(in *Instr, short map[Label]string) string {
	to := func(n Next) string {
		s := "-> " + short[n.Label]
		if len(n.Updates) > 0 {
			us := make([]string, len(n.Updates))
			for i, u := range n.Updates {
				us[i] = u.Var + " = " + syntax.FormatExpr(u.Expr)
			}
			s += " [" + strings.Join(us, "; ") + "]"
		}
		return s
	}
	switch in.Op {
	case Pull:
		return fmt.Sprintf("pull %s into %s %s; closed %s", in.Chan, in.Var, to(in.Next), to(in.Else))
	case Push:
		return fmt.Sprintf("push %s %s %s", in.Chan, syntax.FormatAtom(in.Expr), to(in.Next))
	case Close, Drop:
		return fmt.Sprintf("%s %s %s", in.Op, in.Chan, to(in.Next))
	case Case:
		return fmt.Sprintf("if %s %s; else %s", syntax.FormatExpr(in.Expr), to(in.Next), to(in.Else))
	case Jump:
		return "jump " + to(in.Next)
	}
	return "exit"
}

// controlFlowOrder lists a process's labels depth first from the start, each instruction's
// main successor (a value arrived, the condition held) before its other one, so that the
// states of one pass of the loop come together; labels not reachable come last, in printing
// order.
func controlFlowOrder(p *Process) []Label {
	seen := make(map[Label]bool, len(p.Instrs))
	var order []Label
	var visit func(l Label)
	visit = func(l Label) {
		for {
			in, ok := p.Instrs[l]
			if !ok || seen[l] {
				return
			}
			seen[l] = true
			order = append(order, l)
			ns := in.nexts()
			if len(ns) == 0 {
				return
			}
			for _, n := range ns[1:] {
				defer visit(n.Label) // after the main path
			}
			l = ns[0].Label
		}
	}
	visit(p.Start)
	for _, l := range sortLabels(p) {
		if !seen[l] {
			seen[l] = true
			order = append(order, l)
		}
	}
	return order
}

// maxCommentColumn is how far right the joint-label comments are lined up. A longer state has
// its comment two spaces after it: padding every short state out to a long one's width made
// lines that an editor split in two wrapped between "->" and the target state, which then
// began a line as a state label does.
const maxCommentColumn = 56

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "(none)"
	}
	return strings.Join(xs, ", ")
}
