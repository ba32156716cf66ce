package fuse

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

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

// LoopsOptions choose what WriteLoops prints.
type LoopsOptions struct {
	Definition string // when set, each loop's header names the definition: "-- norm, loop 1: ..."
	Loop       int    // only this loop (1-based, externals not counted); 0 for every loop
	// Listing prints processes in the style of Listing 4.4 (WriteProcess) rather than for
	// people (WriteReadable; the caller prints ReadableHeader once above them).
	Listing   bool
	Notes     bool // with Listing: each instruction's joint labels and fusion rule
	Times     bool // how long fusion took
	Externals bool // the externals too, as host calls between loops
}

// WriteLoops prints the fused process of each loop of a clustering, as `cnf fuse` does and the
// editor's fused-process view shows: a header per loop, then its process (for people, or in
// the style of Listing 4.4), or why fusion failed with the processes as far as fusion got. It returns how
// many loops it printed and whether a fusion failed.
func WriteLoops(w io.Writer, fused []*Fused, opts LoopsOptions) (loops int, failed bool) {
	write := func(p *Process) {
		if opts.Listing {
			WriteProcess(w, p, opts.Notes)
		} else {
			WriteReadable(w, p)
		}
	}
	k := 0
	for _, f := range fused {
		if f.Cluster.External() {
			if opts.Externals && opts.Loop == 0 {
				b := f.Cluster.Nodes[0].Binding
				fmt.Fprintf(w, "-- external: %s = %s (a host call between loops)\n\n", strings.Join(f.Cluster.Names(), ", "), syntax.FormatCombinator(b.Rhs))
			}
			continue
		}
		k++
		if opts.Loop != 0 && k != opts.Loop {
			continue
		}
		loops++
		if opts.Definition != "" {
			fmt.Fprintf(w, "-- %s, loop %d: %s\n", opts.Definition, k, strings.Join(f.Cluster.Names(), ", "))
		} else {
			fmt.Fprintf(w, "-- loop %d: %s\n", k, strings.Join(f.Cluster.Names(), ", "))
		}
		var fe *FusionError
		switch {
		case f.Process != nil:
			fmt.Fprintf(w, "-- %d states", f.Process.States())
			if opts.Times {
				fmt.Fprintf(w, ", fused in %s", f.Time.Round(time.Microsecond))
			}
			fmt.Fprintln(w)
			write(f.Process)
		case errors.As(f.Err, &fe):
			failed = true
			fmt.Fprintf(w, "-- fusion failed: %v\n-- the loop runs as %d concurrent processes; as far as fusion got:\n", fe, len(fe.Partial))
			for _, p := range fe.Partial {
				write(p)
			}
		default:
			failed = true
			fmt.Fprintf(w, "-- %v\n", f.Err)
		}
		fmt.Fprintln(w)
	}
	return loops, failed
}
