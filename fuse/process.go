package fuse

import (
	"slices"
	"sort"

	"github.com/cnf-tools/cnf/syntax"
)

// Label names an instruction of a process.
type Label string

// Op is the kind of an instruction (Fig 4.6).
type Op uint8

const (
	Pull  Op = iota // pull c x next else: take the next value of c into x, or go to else when c is closed
	Push            // push c e next: send e to every reader of c
	Close           // close c next: end the stream c
	Drop            // drop c next: the value pulled from c is no longer needed
	Case            // case e next else: branch on a Bool
	Jump            // jump next
	Exit            // exit: the process is finished
)

var opNames = [...]string{"pull", "push", "close", "drop", "case", "jump", "exit"}

func (o Op) String() string { return opNames[o] }

// Update assigns a heap variable. The updates of one Next run in order, each seeing the ones
// before it. (Fig 4.8 evaluates them simultaneously; the templates never read a variable that
// an earlier update of the same instruction writes, and where fusion adds an update it comes
// first, so the two readings agree, and in order inlining a jump is a plain concatenation.)
type Update struct {
	Var  string
	Expr syntax.Expr
}

// Next is the label an instruction goes to, with the heap updates on the way.
type Next struct {
	Label   Label
	Updates []Update
}

// Instr is an instruction. Pull uses Next when a value arrives and Else when the channel is
// closed; Case uses Next when Expr is True and Else when it is False.
type Instr struct {
	Op   Op
	Chan string
	Var  string
	Expr syntax.Expr
	Next Next
	Else Next
	// Note is shown after the instruction: for a template, which combinator; for a fused
	// instruction, the joint source labels and the rule of Fig 4.13 that made it.
	Note string
}

// nexts returns pointers to the instruction's successors (none for exit).
func (in *Instr) nexts() []*Next {
	switch in.Op {
	case Pull, Case:
		return []*Next{&in.Next, &in.Else}
	case Exit:
		return nil
	}
	return []*Next{&in.Next}
}

// HeapVar is a process-local variable; Init is nil for an uninitialised one.
type HeapVar struct {
	Name string
	Init syntax.Expr
}

// Process is a process of Fig 4.6: input and output channels, a heap, a start label and
// labelled instructions.
type Process struct {
	Name   string // what it does: "map ys1", or the fused processes' names joined by " / "
	Ins    []string
	Outs   []string
	Heap   []HeapVar
	Start  Label
	Instrs map[Label]*Instr
	Order  []Label // instruction order for printing: discovery order
	// Combinators are the bindings whose templates the process contains, as written.
	Combinators []string
}

// States is the number of labelled instructions.
func (p *Process) States() int { return len(p.Instrs) }

func (p *Process) reads(c string) bool { return slices.Contains(p.Ins, c) }

func (p *Process) writes(c string) bool { return slices.Contains(p.Outs, c) }

func sortedUnique(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	k := 0
	for i, x := range out {
		if i == 0 || x != out[k-1] {
			out[k] = x
			k++
		}
	}
	return out[:k]
}
