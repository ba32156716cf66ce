package fuse

import (
	"fmt"
	"io"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// WriteProcess prints a process in the style of Listing 4.4: its channels and heap, then each
// labelled instruction with its heap updates, followed by a comment naming the joint source
// labels and the fusion rule (or, for a template, nothing more). notes turns those comments on.
func WriteProcess(w io.Writer, p *Process, notes bool) {
	fmt.Fprintf(w, "process -- %s\n", strings.Join(p.Combinators, "; "))
	fmt.Fprintf(w, "{ ins:    { %s }\n", strings.Join(p.Ins, ", "))
	fmt.Fprintf(w, ", outs:   { %s }\n", strings.Join(p.Outs, ", "))
	var heap []string
	for _, h := range p.Heap {
		if h.Init != nil {
			heap = append(heap, h.Name+" = "+syntax.FormatExpr(h.Init))
		} else {
			heap = append(heap, h.Name)
		}
	}
	fmt.Fprintf(w, ", heap:   { %s }\n", strings.Join(heap, ", "))
	fmt.Fprintf(w, ", label:  %s\n", p.Start)
	fmt.Fprintf(w, ", instrs:\n")
	for i, l := range sortLabels(p) {
		lead := "  { "
		if i > 0 {
			lead = "  , "
		}
		in := p.Instrs[l]
		fmt.Fprintf(w, "%s%s = %s\n", lead, l, FormatInstr(in))
		if notes && in.Note != "" {
			fmt.Fprintf(w, "    -- %s\n", in.Note)
		}
	}
	fmt.Fprintf(w, "  } }\n")
}

// FormatInstr prints one instruction: pull xs v L1[] else L3[], push ys (f v) L2[ys.chan = f v].
func FormatInstr(in *Instr) string {
	nx := func(n Next) string {
		var us []string
		for _, u := range n.Updates {
			us = append(us, u.Var+" = "+syntax.FormatExpr(u.Expr))
		}
		return fmt.Sprintf("%s[%s]", n.Label, strings.Join(us, ", "))
	}
	switch in.Op {
	case Pull:
		return fmt.Sprintf("pull %s %s %s else %s", in.Chan, in.Var, nx(in.Next), nx(in.Else))
	case Push:
		return fmt.Sprintf("push %s %s %s", in.Chan, syntax.FormatAtom(in.Expr), nx(in.Next))
	case Close, Drop:
		return fmt.Sprintf("%s %s %s", in.Op, in.Chan, nx(in.Next))
	case Case:
		return fmt.Sprintf("case %s %s %s", syntax.FormatAtom(in.Expr), nx(in.Next), nx(in.Else))
	case Jump:
		return "jump " + nx(in.Next)
	}
	return "exit"
}
