package fuse

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// stateF is the statically known part of an input channel's state (Fig 4.10's InputStateF).
type stateF uint8

const (
	noneF stateF = iota
	pendingF
	haveF
	closedF
)

var stateNames = [...]string{"none", "pending", "have", "closed"}

// chanType classifies a channel between two processes (Fig 4.10's ChannelType2).
type chanType uint8

const (
	in1     chanType = iota // only one process pulls from it
	in2                     // both pull from it
	in1out1                 // one pushes, the other pulls
	out1                    // one pushes, nobody here pulls
)

// channels is Fig 4.14's channels.
func channels(p, q *Process) map[string]chanType {
	cs := map[string]chanType{}
	for _, c := range append(append([]string{}, p.Ins...), q.Ins...) {
		switch {
		case p.reads(c) && q.reads(c):
			cs[c] = in2
		case p.writes(c) || q.writes(c):
			cs[c] = in1out1
		default:
			cs[c] = in1
		}
	}
	for _, c := range append(append([]string{}, p.Outs...), q.Outs...) {
		if _, ok := cs[c]; !ok {
			cs[c] = out1
		}
	}
	return cs
}

// side is one process's half of a joint label: its label and the static states of its inputs.
type side struct {
	l Label
	s map[string]stateF
}

func (sd side) with(c string, st stateF) side {
	m := make(map[string]stateF, len(sd.s))
	for k, v := range sd.s {
		m[k] = v
	}
	m[c] = st
	return side{l: sd.l, s: m}
}

func (sd side) at(l Label) side { return side{l: l, s: sd.s} }

func (sd side) key() string {
	keys := make([]string, 0, len(sd.s))
	for c := range sd.s {
		keys = append(keys, c)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(string(sd.l))
	b.WriteString("{")
	for i, c := range keys {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "%s=%s", c, stateNames[sd.s[c]])
	}
	b.WriteString("}")
	return b.String()
}

// joint is a label of the fused process: one side per source process.
type joint struct{ p, q side }

func (j joint) key() string { return j.p.key() + "|" + j.q.key() }

func (j joint) swap() joint { return joint{p: j.q, q: j.p} }

// jnext and jinstr are an instruction whose labels are joint labels.
type jnext struct {
	to  joint
	upd []Update
}

type jinstr struct {
	op          Op
	chan_, var_ string
	expr        syntax.Expr
	next, els   jnext
	rule        string
}

func (i *jinstr) swap() *jinstr {
	o := *i
	o.next.to = i.next.to.swap()
	o.els.to = i.els.to.swap()
	return &o
}

func (i *jinstr) outs() []jnext {
	switch i.op {
	case Pull, Case:
		return []jnext{i.next, i.els}
	case Exit:
		return nil
	}
	return []jnext{i.next}
}

func bufferVar(c string) string { return c + ".chan" }

func prepend(u Update, us []Update) []Update { return append([]Update{u}, us...) }

// tryStep is Fig 4.13: can the left process (label lp, instruction ip) advance, given what is
// statically known of both sides? It returns the fused instruction and the clause that made it.
func tryStep(cs map[string]chanType, lp side, ip *Instr, lq side) *jinstr {
	here := func(l Label, s side) joint { return joint{p: s.at(l), q: lq} }
	switch ip.Op {
	case Jump:
		return &jinstr{op: Jump, next: jnext{here(ip.Next.Label, lp), ip.Next.Updates}, rule: "LocalJump"}
	case Case:
		return &jinstr{op: Case, expr: ip.Expr, next: jnext{here(ip.Next.Label, lp), ip.Next.Updates},
			els: jnext{here(ip.Else.Label, lp), ip.Else.Updates}, rule: "LocalCase"}
	case Push:
		c := ip.Chan
		switch {
		case cs[c] == out1:
			return &jinstr{op: Push, chan_: c, expr: ip.Expr, next: jnext{here(ip.Next.Label, lp), ip.Next.Updates}, rule: "LocalPush"}
		case cs[c] == in1out1 && lq.s[c] == noneF:
			to := joint{p: lp.at(ip.Next.Label), q: lq.with(c, pendingF)}
			upd := ip.Next.Updates
			if len(upd) == 0 || upd[0].Var != bufferVar(c) {
				// An earlier fusion may already buffer this channel (another reader was fused
				// in before): the buffer holds the same value, so it is assigned once.
				upd = prepend(Update{Var: bufferVar(c), Expr: ip.Expr}, upd)
			}
			return &jinstr{op: Push, chan_: c, expr: ip.Expr, next: jnext{to, upd}, rule: "SharedPush"}
		}
	case Pull:
		c := ip.Chan
		switch {
		case cs[c] == in1:
			return &jinstr{op: Pull, chan_: c, var_: ip.Var, next: jnext{here(ip.Next.Label, lp), ip.Next.Updates},
				els: jnext{here(ip.Else.Label, lp), ip.Else.Updates}, rule: "LocalPull"}
		case (cs[c] == in2 || cs[c] == in1out1) && lp.s[c] == pendingF:
			to := joint{p: lp.with(c, haveF).at(ip.Next.Label), q: lq}
			return &jinstr{op: Jump, next: jnext{to, prepend(Update{Var: ip.Var, Expr: ident(bufferVar(c))}, ip.Next.Updates)}, rule: "SharedPullPending"}
		case (cs[c] == in2 || cs[c] == in1out1) && lp.s[c] == closedF:
			return &jinstr{op: Jump, next: jnext{here(ip.Else.Label, lp), ip.Else.Updates}, rule: "SharedPullClosed"}
		case cs[c] == in2 && lp.s[c] == noneF && lq.s[c] == noneF:
			return &jinstr{op: Pull, chan_: c, var_: bufferVar(c),
				next: jnext{joint{p: lp.with(c, pendingF), q: lq.with(c, pendingF)}, nil},
				els:  jnext{joint{p: lp.with(c, closedF), q: lq.with(c, closedF)}, nil}, rule: "SharedPullInject"}
		}
	case Drop:
		c := ip.Chan
		switch {
		case cs[c] == in1:
			return &jinstr{op: Drop, chan_: c, next: jnext{here(ip.Next.Label, lp), ip.Next.Updates}, rule: "LocalDrop"}
		case cs[c] == in1out1:
			return &jinstr{op: Jump, next: jnext{joint{p: lp.with(c, noneF).at(ip.Next.Label), q: lq}, ip.Next.Updates}, rule: "ConnectedDrop"}
		case cs[c] == in2 && (lq.s[c] == haveF || lq.s[c] == pendingF):
			return &jinstr{op: Jump, next: jnext{joint{p: lp.with(c, noneF).at(ip.Next.Label), q: lq}, ip.Next.Updates}, rule: "SharedDropOne"}
		case cs[c] == in2 && lq.s[c] == noneF:
			return &jinstr{op: Drop, chan_: c, next: jnext{joint{p: lp.with(c, noneF).at(ip.Next.Label), q: lq}, ip.Next.Updates}, rule: "SharedDropBoth"}
		}
	case Close:
		c := ip.Chan
		switch {
		case cs[c] == out1:
			return &jinstr{op: Close, chan_: c, next: jnext{here(ip.Next.Label, lp), ip.Next.Updates}, rule: "LocalClose"}
		case cs[c] == in1out1 && lq.s[c] == noneF:
			return &jinstr{op: Close, chan_: c, next: jnext{joint{p: lp.at(ip.Next.Label), q: lq.with(c, closedF)}, ip.Next.Updates}, rule: "SharedClose"}
		}
	case Exit:
		return &jinstr{op: Exit, rule: "LocalExit"}
	}
	return nil // Blocked
}

// tryStepPair is Fig 4.12: which process advances, with the DeferExit, PreferJump and
// DeferPull heuristics.
func tryStepPair(cs map[string]chanType, lp side, ip *Instr, lq side, iq *Instr) *jinstr {
	a := tryStep(cs, lp, ip, lq)
	b := tryStep(cs, lq, iq, lp)
	tag := func(i *jinstr, clause string) *jinstr { i.rule += "; " + clause; return i }
	switch {
	case a != nil && b != nil:
		switch {
		case b.op == Exit:
			return tag(a, "DeferExit1")
		case a.op == Exit:
			return tag(b.swap(), "DeferExit2")
		case a.op == Jump:
			return tag(a, "PreferJump1")
		case b.op == Jump:
			return tag(b.swap(), "PreferJump2")
		case b.op == Pull:
			return tag(a, "DeferPull1")
		case a.op == Pull:
			return tag(b.swap(), "DeferPull2")
		}
		return tag(a, "Run1")
	case a != nil:
		return tag(a, "Run1")
	case b != nil:
		return tag(b.swap(), "Run2")
	}
	return nil // Deadlock
}

// FusionError reports two processes that cannot be fused: a static deadlock (each waits for
// the other, clause Deadlock of Fig 4.12) or more states than the limit.
type FusionError struct {
	P, Q   string   // the two processes
	Chans  []string // the channels they disagree on
	Reason string
	// TooLarge: the fused process would have more states than allowed (rather than a static
	// deadlock).
	TooLarge bool
	// Partial holds the processes of the network as far as fusion got.
	Partial []*Process
}

func (e *FusionError) Error() string {
	return fmt.Sprintf("cannot fuse %s with %s: %s", e.P, e.Q, e.Reason)
}

// MaxStates bounds the states of a fused process (Fig 5.5 shows how fusion can blow up).
const MaxStates = 20000

// fusePair is Fig 4.11: explore the joint states reachable from the two start labels, choosing
// each joint state's instruction with tryStepPair, until no new state appears.
func fusePair(p, q *Process, maxStates int) (*Process, error) {
	cs := channels(p, q)
	start := joint{p: side{l: p.Start, s: map[string]stateF{}}, q: side{l: q.Start, s: map[string]stateF{}}}
	for _, c := range p.Ins {
		start.p.s[c] = noneF
	}
	for _, c := range q.Ins {
		start.q.s[c] = noneF
	}
	out := &Process{
		Name:        p.Name + " / " + q.Name,
		Instrs:      map[Label]*Instr{},
		Combinators: append(append([]string{}, p.Combinators...), q.Combinators...),
	}
	names := map[string]Label{}
	used := map[Label]bool{}
	var queue []joint
	name := func(j joint) Label {
		k := j.key()
		if l, ok := names[k]; ok {
			return l
		}
		base := string(j.p.l) + "/" + string(j.q.l)
		var marks []string
		for _, sd := range []side{j.p, j.q} {
			for c, st := range sd.s {
				if st != noneF && cs[c] != in1 {
					marks = append(marks, c+"="+stateNames[st][:1])
				}
			}
		}
		sort.Strings(marks)
		marks = slices.Compact(marks)
		if len(marks) > 0 {
			base += "[" + strings.Join(marks, ",") + "]"
		}
		l := Label(base)
		for k := 2; used[l]; k++ {
			l = Label(fmt.Sprintf("%s#%d", base, k))
		}
		used[l] = true
		names[k] = l
		queue = append(queue, j)
		return l
	}
	out.Start = name(start)
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		lab := names[j.key()]
		if len(out.Instrs) >= maxStates {
			return nil, &FusionError{P: p.Name, Q: q.Name, TooLarge: true, Reason: fmt.Sprintf("the fused process would have more than %d states", maxStates)}
		}
		ip, iq := p.Instrs[j.p.l], q.Instrs[j.q.l]
		if ip == nil || iq == nil {
			return nil, fmt.Errorf("fusing %s and %s: label %s or %s has no instruction", p.Name, q.Name, j.p.l, j.q.l)
		}
		b := tryStepPair(cs, j.p, ip, j.q, iq)
		if b == nil {
			return nil, deadlock(p, q, ip, iq, j)
		}
		in := &Instr{Op: b.op, Chan: b.chan_, Var: b.var_, Expr: b.expr,
			Note: fmt.Sprintf("(%s, %s); %s", j.p.key(), j.q.key(), b.rule)}
		outs := b.outs()
		if len(outs) > 0 {
			in.Next = Next{Label: name(outs[0].to), Updates: outs[0].upd}
		}
		if len(outs) > 1 {
			in.Else = Next{Label: name(outs[1].to), Updates: outs[1].upd}
		}
		out.Instrs[lab] = in
		out.Order = append(out.Order, lab)
	}
	var ins, outsC []string
	buffered := map[string]bool{}
	for c, t := range cs {
		switch t {
		case in1, in2:
			ins = append(ins, c)
		case in1out1, out1:
			outsC = append(outsC, c)
		}
		if t == in2 || t == in1out1 {
			buffered[c] = true
		}
	}
	out.Ins, out.Outs = sortedUnique(ins), sortedUnique(outsC)
	out.Heap = append(append([]HeapVar{}, p.Heap...), q.Heap...)
	var bufs []string
	for c := range buffered {
		bufs = append(bufs, c)
	}
	sort.Strings(bufs)
	have := map[string]bool{}
	for _, h := range out.Heap {
		have[h.Name] = true
	}
	for _, c := range bufs {
		if !have[bufferVar(c)] {
			out.Heap = append(out.Heap, HeapVar{Name: bufferVar(c)})
		}
	}
	return out, nil
}

// deadlock describes a static deadlock: what each process waits for.
func deadlock(p, q *Process, ip, iq *Instr, j joint) *FusionError {
	wait := func(in *Instr) string {
		switch in.Op {
		case Pull:
			return "pull from " + in.Chan
		case Push:
			return "push to " + in.Chan
		case Drop:
			return "drop " + in.Chan
		case Close:
			return "close " + in.Chan
		}
		return in.Op.String()
	}
	var chans []string
	for _, in := range []*Instr{ip, iq} {
		if in.Chan != "" && !slices.Contains(chans, in.Chan) {
			chans = append(chans, in.Chan)
		}
	}
	return &FusionError{P: p.Name, Q: q.Name, Chans: chans,
		Reason: fmt.Sprintf("static deadlock: %s waits to %s while %s waits to %s (at %s / %s)",
			p.Name, wait(ip), q.Name, wait(iq), j.p.key(), j.q.key())}
}
