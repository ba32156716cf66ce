package fuse

import (
	"fmt"

	"github.com/cnf-tools/cnf/syntax"
)

// Expression builders for templates.
func ident(name string) *syntax.Ident { return &syntax.Ident{Name: name} }

// app applies a worker to arguments. Operator sections applied to their missing operands are
// written as the operator application they stand for, so that fused processes read like
// Listing 4.4 (v / sum1 rather than (/ sum1) v).
func app(f syntax.Expr, args ...syntax.Expr) syntax.Expr {
	for {
		p, ok := f.(*syntax.Paren)
		if !ok {
			break
		}
		f = p.X
	}
	if sec, ok := f.(*syntax.Section); ok {
		switch {
		case sec.X == nil && sec.Y == nil && len(args) == 2:
			return bin2(sec.Op, args[0], args[1])
		case sec.Y != nil && len(args) == 1:
			return bin2(sec.Op, args[0], sec.Y)
		case sec.X != nil && len(args) == 1:
			return bin2(sec.Op, sec.X, args[0])
		}
	}
	if lam, ok := f.(*syntax.Lambda); ok && len(args) > 0 && len(args) >= len(lam.Params) {
		// Beta-reduce a lambda applied to variables: the arguments are heap variables, whose
		// names contain a dot and so can never be captured by a lambda inside the body. A
		// lambda given fewer arguments than it has parameters is left applied, so that its
		// value is the partial application the reference makes (a function value compares by
		// its arity and the arguments it holds, as cnf run shows it).
		body := lam.Body
		k := 0
		for ; k < len(args) && k < len(lam.Params); k++ {
			id, isName := lam.Params[k].(*syntax.Ident)
			arg, isVar := args[k].(*syntax.Ident)
			if !isName || !isVar {
				break
			}
			body = substitute(body, id.Name, arg)
		}
		if k == len(lam.Params) {
			if k == len(args) {
				return body
			}
			return app(body, args[k:]...)
		}
		if k > 0 {
			return &syntax.App{Fun: paren(&syntax.Lambda{Params: lam.Params[k:], Body: body}), Args: args[k:]}
		}
	}
	return &syntax.App{Fun: paren(f), Args: args}
}

// substitute replaces the free occurrences of name in e by repl.
func substitute(e syntax.Expr, name string, repl syntax.Expr) syntax.Expr {
	sub := func(x syntax.Expr) syntax.Expr { return substitute(x, name, repl) }
	switch e := e.(type) {
	case *syntax.Ident:
		if e.Name == name {
			return repl
		}
		return e
	case *syntax.App:
		args := make([]syntax.Expr, len(e.Args))
		for i, a := range e.Args {
			args[i] = sub(a)
		}
		return &syntax.App{Fun: sub(e.Fun), Args: args}
	case *syntax.Binary:
		return &syntax.Binary{Op: e.Op, X: sub(e.X), Y: sub(e.Y)}
	case *syntax.Neg:
		return &syntax.Neg{X: sub(e.X)}
	case *syntax.Section:
		s := &syntax.Section{Op: e.Op}
		if e.X != nil {
			s.X = sub(e.X)
		}
		if e.Y != nil {
			s.Y = sub(e.Y)
		}
		return s
	case *syntax.Lambda:
		for _, p := range e.Params {
			shadowed := false
			patternBinds(p, func(n string) { shadowed = shadowed || n == name })
			if shadowed {
				return e
			}
		}
		return &syntax.Lambda{Params: e.Params, Body: sub(e.Body)}
	case *syntax.Tuple:
		elems := make([]syntax.Expr, len(e.Elems))
		for i, x := range e.Elems {
			elems[i] = sub(x)
		}
		return &syntax.Tuple{Elems: elems}
	case *syntax.If:
		return &syntax.If{Cond: sub(e.Cond), Then: sub(e.Then), Else: sub(e.Else)}
	case *syntax.Paren:
		return &syntax.Paren{X: sub(e.X)}
	}
	return e
}

func patternBinds(p syntax.Pattern, f func(string)) {
	switch p := p.(type) {
	case *syntax.Ident:
		f(p.Name)
	case *syntax.TuplePattern:
		for _, q := range p.Elems {
			patternBinds(q, f)
		}
	}
}

func bin2(op *syntax.Op, x, y syntax.Expr) syntax.Expr {
	return &syntax.Binary{Op: op, X: x, Y: y}
}

func paren(e syntax.Expr) syntax.Expr {
	switch e.(type) {
	case *syntax.Ident, *syntax.Paren, *syntax.Section, *syntax.Tuple, *syntax.IntLit, *syntax.FloatLit, *syntax.BoolLit:
		return e
	}
	return &syntax.Paren{X: e}
}

func bin(op string, x, y syntax.Expr) syntax.Expr {
	return &syntax.Binary{Op: &syntax.Op{Name: op}, X: x, Y: y}
}

func intLit(n int64) syntax.Expr { return &syntax.IntLit{Value: n} }

// builder numbers the labels of one template: name0, name1, ...
type builder struct {
	p      *Process
	prefix string
}

func newBuilder(name, prefix, comb string) *builder {
	return &builder{p: &Process{Name: name, Instrs: map[Label]*Instr{}, Combinators: []string{comb}}, prefix: prefix}
}

func (b *builder) l(i int) Label { return Label(fmt.Sprintf("%s%d", b.prefix, i)) }

func (b *builder) at(i int, in *Instr) {
	lab := b.l(i)
	b.p.Instrs[lab] = in
	b.p.Order = append(b.p.Order, lab)
}

func (b *builder) done(ins, outs []string, heap ...HeapVar) *Process {
	b.p.Ins, b.p.Outs, b.p.Heap = sortedUnique(ins), sortedUnique(outs), heap
	b.p.Start = b.l(0)
	return b.p
}

func next(l Label, us ...Update) Next { return Next{Label: l, Updates: us} }

// Template returns the process of a binding (Listings 4.1 and 4.2 in style). Arrays that the
// combinator streams are channels named after the arrays; arrays it reads at random (gather's
// data, cross's second array) are materialised and read from the environment by name. A fold
// pushes its final value on a channel named after its result.
func Template(b *syntax.Binding) (*Process, error) {
	name := b.Name()
	comb := b.Name() + " = " + syntax.FormatCombinator(b.Rhs)
	v := func(s string) string { return name + "." + s }
	switch c := b.Rhs.(type) {
	case *syntax.Map:
		return mapTemplate(name, comb, c), nil
	case *syntax.Filter:
		t := newBuilder("filter "+name, name+"_", comb)
		x := v("v")
		t.at(0, &Instr{Op: Pull, Chan: c.Array.Name, Var: x, Next: next(t.l(1)), Else: next(t.l(4))})
		t.at(1, &Instr{Op: Case, Expr: app(c.Worker, ident(x)), Next: next(t.l(2)), Else: next(t.l(3))})
		t.at(2, &Instr{Op: Push, Chan: name, Expr: ident(x), Next: next(t.l(3))})
		t.at(3, &Instr{Op: Drop, Chan: c.Array.Name, Next: next(t.l(0))})
		t.at(4, &Instr{Op: Close, Chan: name, Next: next(t.l(5))})
		t.at(5, &Instr{Op: Exit})
		return t.done([]string{c.Array.Name}, []string{name}, HeapVar{Name: x}), nil
	case *syntax.Fold:
		t := newBuilder("fold "+name, name+"_", comb)
		s, x := v("s"), v("v")
		t.at(0, &Instr{Op: Pull, Chan: c.Array.Name, Var: x, Next: next(t.l(1)), Else: next(t.l(2))})
		t.at(1, &Instr{Op: Drop, Chan: c.Array.Name, Next: next(t.l(0), Update{Var: s, Expr: app(c.Worker, ident(s), ident(x))})})
		t.at(2, &Instr{Op: Push, Chan: name, Expr: ident(s), Next: next(t.l(3))})
		t.at(3, &Instr{Op: Close, Chan: name, Next: next(t.l(4))})
		t.at(4, &Instr{Op: Exit})
		return t.done([]string{c.Array.Name}, []string{name}, HeapVar{Name: s, Init: c.Init}, HeapVar{Name: x}), nil
	case *syntax.Generate:
		i := v("i")
		return countTemplate(newBuilder("generate "+name, name+"_", comb), name, i, c.Size, app(c.Worker, ident(i))), nil
	case *syntax.Gather:
		t := newBuilder("gather "+name, name+"_", comb)
		x := v("v")
		t.at(0, &Instr{Op: Pull, Chan: c.Indices.Name, Var: x, Next: next(t.l(1)), Else: next(t.l(3))})
		t.at(1, &Instr{Op: Push, Chan: name, Expr: bin("!", ident(c.Data.Name), ident(x)), Next: next(t.l(2))})
		t.at(2, &Instr{Op: Drop, Chan: c.Indices.Name, Next: next(t.l(0))})
		t.at(3, &Instr{Op: Close, Chan: name, Next: next(t.l(4))})
		t.at(4, &Instr{Op: Exit})
		return t.done([]string{c.Indices.Name}, []string{name}, HeapVar{Name: x}), nil
	case *syntax.Cross:
		t := newBuilder("cross "+name, name+"_", comb)
		x, j := v("v"), v("j")
		t.at(0, &Instr{Op: Pull, Chan: c.A.Name, Var: x, Next: next(t.l(1)), Else: next(t.l(5))})
		t.at(1, &Instr{Op: Case, Expr: bin("<", ident(j), app(ident("length"), ident(c.B.Name))), Next: next(t.l(2)), Else: next(t.l(4))})
		t.at(2, &Instr{Op: Push, Chan: name, Expr: &syntax.Tuple{Elems: []syntax.Expr{ident(x), bin("!", ident(c.B.Name), ident(j))}}, Next: next(t.l(3))})
		t.at(3, &Instr{Op: Jump, Next: next(t.l(1), Update{Var: j, Expr: bin("+", ident(j), intLit(1))})})
		t.at(4, &Instr{Op: Drop, Chan: c.A.Name, Next: next(t.l(0), Update{Var: j, Expr: intLit(0)})})
		t.at(5, &Instr{Op: Close, Chan: name, Next: next(t.l(6))})
		t.at(6, &Instr{Op: Exit})
		return t.done([]string{c.A.Name}, []string{name}, HeapVar{Name: x}, HeapVar{Name: j, Init: intLit(0)}), nil
	case *syntax.Scan:
		t := newBuilder(c.Keyword.Name+" "+name, name+"_", comb)
		acc, x := v("s"), v("v")
		out := syntax.Expr(ident(acc)) // prescanl: the fold so far, before this element
		if c.Inclusive {
			out = app(c.Worker, ident(acc), ident(x))
		}
		t.at(0, &Instr{Op: Pull, Chan: c.Array.Name, Var: x, Next: next(t.l(1)), Else: next(t.l(3))})
		t.at(1, &Instr{Op: Push, Chan: name, Expr: out, Next: next(t.l(2), Update{Var: acc, Expr: app(c.Worker, ident(acc), ident(x))})})
		t.at(2, &Instr{Op: Drop, Chan: c.Array.Name, Next: next(t.l(0))})
		t.at(3, &Instr{Op: Close, Chan: name, Next: next(t.l(4))})
		t.at(4, &Instr{Op: Exit})
		return t.done([]string{c.Array.Name}, []string{name}, HeapVar{Name: acc, Init: c.Init}, HeapVar{Name: x}), nil
	case *syntax.Indexed:
		t := newBuilder("indexed "+name, name+"_", comb)
		i, x := v("i"), v("v")
		t.at(0, &Instr{Op: Pull, Chan: c.Array.Name, Var: x, Next: next(t.l(1)), Else: next(t.l(3))})
		t.at(1, &Instr{Op: Push, Chan: name, Expr: &syntax.Tuple{Elems: []syntax.Expr{ident(i), ident(x)}}, Next: next(t.l(2), Update{Var: i, Expr: bin("+", ident(i), intLit(1))})})
		t.at(2, &Instr{Op: Drop, Chan: c.Array.Name, Next: next(t.l(0))})
		t.at(3, &Instr{Op: Close, Chan: name, Next: next(t.l(4))})
		t.at(4, &Instr{Op: Exit})
		return t.done([]string{c.Array.Name}, []string{name}, HeapVar{Name: i, Init: intLit(0)}, HeapVar{Name: x}), nil
	case *syntax.Zip:
		// zip is map2 (\a b -> (a, b)).
		a, bb := ident("a"), ident("b")
		pair := &syntax.Lambda{Params: []syntax.Pattern{a, bb}, Body: &syntax.Tuple{Elems: []syntax.Expr{a, bb}}}
		return mapTemplate(name, comb, &syntax.Map{Call: c.Call, Worker: pair, Arrays: []*syntax.Ident{c.A, c.B}}), nil
	case *syntax.Unzip:
		first, second := b.Names[0].Name, b.Names[1].Name
		t := newBuilder("unzip "+first+", "+second, name+"_", comb)
		x := v("v")
		t.at(0, &Instr{Op: Pull, Chan: c.Array.Name, Var: x, Next: next(t.l(1)), Else: next(t.l(4))})
		t.at(1, &Instr{Op: Push, Chan: first, Expr: app(ident("fst"), ident(x)), Next: next(t.l(2))})
		t.at(2, &Instr{Op: Push, Chan: second, Expr: app(ident("snd"), ident(x)), Next: next(t.l(3))})
		t.at(3, &Instr{Op: Drop, Chan: c.Array.Name, Next: next(t.l(0))})
		t.at(4, &Instr{Op: Close, Chan: first, Next: next(t.l(5))})
		t.at(5, &Instr{Op: Close, Chan: second, Next: next(t.l(6))})
		t.at(6, &Instr{Op: Exit})
		return t.done([]string{c.Array.Name}, []string{first, second}, HeapVar{Name: x}), nil
	case *syntax.Slice:
		// Like filter, with the position as the predicate.
		t := newBuilder(c.Keyword.Name+" "+name, name+"_", comb)
		i, x := v("i"), v("v")
		t.at(0, &Instr{Op: Pull, Chan: c.Array.Name, Var: x, Next: next(t.l(1)), Else: next(t.l(4))})
		t.at(1, &Instr{Op: Case, Expr: SliceCond(c, ident(i)), Next: next(t.l(2)), Else: next(t.l(3))})
		t.at(2, &Instr{Op: Push, Chan: name, Expr: ident(x), Next: next(t.l(3))})
		t.at(3, &Instr{Op: Drop, Chan: c.Array.Name, Next: next(t.l(0), Update{Var: i, Expr: bin("+", ident(i), intLit(1))})})
		t.at(4, &Instr{Op: Close, Chan: name, Next: next(t.l(5))})
		t.at(5, &Instr{Op: Exit})
		return t.done([]string{c.Array.Name}, []string{name}, HeapVar{Name: i, Init: intLit(0)}, HeapVar{Name: x}), nil
	case *syntax.Append:
		return appendTemplate(name, comb, c), nil
	case *syntax.Length:
		return LengthTemplate(b, c.Array.Name), nil
	case *syntax.Reverse:
		// Like generate, reading the materialised input from its end.
		i := v("i")
		n := app(ident("length"), ident(c.Array.Name))
		elem := bin("!", ident(c.Array.Name), bin("-", bin("-", n, intLit(1)), ident(i)))
		return countTemplate(newBuilder("reverse "+name, name+"_", comb), name, i, n, elem), nil
	}
	return nil, fmt.Errorf("%s: an external is a host call between loops, not a process", name)
}

// SliceKeeps is whether slice keeps the element at position i: start <= i < start + count,
// decided without computing start + count, which wraps when count is near maxBound (i is a
// position, at least 0, so with a positive count i - count cannot wrap).
func SliceKeeps(i, start, count int64, counted bool) bool {
	return i >= start && (!counted || count > 0 && i-count < start)
}

// SliceCond is SliceKeeps as an expression of the position i (the process's test, and the
// blocked loop's in codegen): start <= i, and 0 < count && i - count <
// start when the slice has a count (without 0 < count where the count is a positive literal).
func SliceCond(c *syntax.Slice, i syntax.Expr) syntax.Expr {
	var conds []syntax.Expr
	if c.Start != nil {
		conds = append(conds, bin(">=", i, c.Start))
	}
	if c.Count != nil {
		if c.Start != nil {
			within := bin("<", bin("-", i, c.Count), c.Start)
			if lit, ok := c.Count.(*syntax.IntLit); !ok || lit.Value <= 0 {
				within = bin("&&", paren(bin(">", c.Count, intLit(0))), paren(within))
			}
			conds = append(conds, within)
		} else {
			conds = append(conds, bin("<", i, c.Count))
		}
	}
	if len(conds) == 1 {
		return conds[0]
	}
	return bin("&&", paren(conds[0]), paren(conds[1]))
}

// LengthTemplate counts the elements of source, an array of the length's size (see
// infer.Length), and pushes the count when it closes.
func LengthTemplate(b *syntax.Binding, source string) *Process {
	name := b.Name()
	t := newBuilder("length "+name, name+"_", b.Name()+" = "+syntax.FormatCombinator(b.Rhs))
	s, x := name+".s", name+".v"
	t.at(0, &Instr{Op: Pull, Chan: source, Var: x, Next: next(t.l(1)), Else: next(t.l(2))})
	t.at(1, &Instr{Op: Drop, Chan: source, Next: next(t.l(0), Update{Var: s, Expr: bin("+", ident(s), intLit(1))})})
	t.at(2, &Instr{Op: Push, Chan: name, Expr: ident(s), Next: next(t.l(3))})
	t.at(3, &Instr{Op: Close, Chan: name, Next: next(t.l(4))})
	t.at(4, &Instr{Op: Exit})
	return t.done([]string{source}, []string{name}, HeapVar{Name: s, Init: intLit(0)}, HeapVar{Name: x})
}

// appendTemplate pulls all of the first array, then all of the second, pushing each element.
// append xs xs cannot pull the closed channel xs again: its second half reads xs from memory
// (an append's inputs always come from memory, since no loop producing one of them can have
// the append's iteration size).
func appendTemplate(name, comb string, c *syntax.Append) *Process {
	t := newBuilder("append "+name, name+"_", comb)
	x, y, j := name+".v", name+".w", name+".j"
	t.at(0, &Instr{Op: Pull, Chan: c.A.Name, Var: x, Next: next(t.l(1)), Else: next(t.l(3))})
	t.at(1, &Instr{Op: Push, Chan: name, Expr: ident(x), Next: next(t.l(2))})
	t.at(2, &Instr{Op: Drop, Chan: c.A.Name, Next: next(t.l(0))})
	if c.A.Name == c.B.Name {
		t.at(3, &Instr{Op: Case, Expr: bin("<", ident(j), app(ident("length"), ident(c.B.Name))), Next: next(t.l(4)), Else: next(t.l(6))})
		t.at(4, &Instr{Op: Push, Chan: name, Expr: bin("!", ident(c.B.Name), ident(j)), Next: next(t.l(5))})
		t.at(5, &Instr{Op: Jump, Next: next(t.l(3), Update{Var: j, Expr: bin("+", ident(j), intLit(1))})})
		t.at(6, &Instr{Op: Close, Chan: name, Next: next(t.l(7))})
		t.at(7, &Instr{Op: Exit})
		return t.done([]string{c.A.Name}, []string{name}, HeapVar{Name: x}, HeapVar{Name: j, Init: intLit(0)})
	}
	t.at(3, &Instr{Op: Pull, Chan: c.B.Name, Var: y, Next: next(t.l(4)), Else: next(t.l(6))})
	t.at(4, &Instr{Op: Push, Chan: name, Expr: ident(y), Next: next(t.l(5))})
	t.at(5, &Instr{Op: Drop, Chan: c.B.Name, Next: next(t.l(3))})
	t.at(6, &Instr{Op: Close, Chan: name, Next: next(t.l(7))})
	t.at(7, &Instr{Op: Exit})
	return t.done([]string{c.A.Name, c.B.Name}, []string{name}, HeapVar{Name: x}, HeapVar{Name: y})
}

// mapTemplate pulls from each input in turn, pushes the worker's result, and drops every input.
// When an input closes, the inputs already pulled this round are dropped, the output is closed,
// and the other inputs are drained: pulled and dropped in the same lockstep order as the main
// loop until each closes. Inputs of one map_n have one size, so draining never runs; but fusion
// explores it statically, and a drain with another access pattern than the main loop's, or a
// reader left waiting for the output, would be a static deadlock.
func mapTemplate(name, comb string, c *syntax.Map) *Process {
	t := newBuilder(c.Keyword.Name+" "+name, name+"_", comb)
	n := len(c.Arrays)
	chans := make([]string, n)
	vars := make([]string, n)
	args := make([]syntax.Expr, n)
	heap := make([]HeapVar, n)
	for i, a := range c.Arrays {
		chans[i] = a.Name
		vars[i] = fmt.Sprintf("%s.v%d", name, i+1)
		if n == 1 {
			vars[i] = name + ".v"
		}
		args[i] = ident(vars[i])
		heap[i] = HeapVar{Name: vars[i]}
	}
	// Duplicate inputs (map2 f xs xs) read the channel once and reuse the value.
	first := map[string]int{}
	var uniq []int
	for i, ch := range chans {
		if _, ok := first[ch]; !ok {
			first[ch] = i
			uniq = append(uniq, i)
		}
	}
	var copies []Update
	for i := range chans {
		if first[chans[i]] != i {
			copies = append(copies, Update{Var: vars[i], Expr: ident(vars[first[chans[i]]])})
		}
	}
	free := 0
	alloc := func() int { free++; return free - 1 }
	exitL := -1
	drains := map[string]int{}
	// loop emits a lockstep round over the inputs rs: pull each, then (if push) push the result,
	// then drop each and start again. When input k closes, drop those pulled before it, close
	// the output if it is still open, and drain the rest.
	var loop func(rs []int, push bool) int
	loop = func(rs []int, push bool) int {
		key := fmt.Sprint(rs, push)
		if l, ok := drains[key]; ok {
			return l
		}
		if len(rs) == 0 {
			return exitL
		}
		pulls := make([]int, len(rs))
		for k := range rs {
			pulls[k] = alloc()
		}
		drains[key] = pulls[0]
		pushAt := -1
		if push {
			pushAt = alloc()
		}
		drops := make([]int, len(rs))
		for k := range rs {
			drops[k] = alloc()
		}
		for k, r := range rs {
			then := drops[0]
			var us []Update
			switch {
			case k+1 < len(rs):
				then = pulls[k+1]
			case push:
				then, us = pushAt, copies
			}
			// Input r closed: drop the ones pulled this round, close, drain the others.
			onClose := alloc()
			at := onClose
			for m := 0; m < k; m++ {
				nx := alloc()
				t.at(at, &Instr{Op: Drop, Chan: chans[rs[m]], Next: next(t.l(nx))})
				at = nx
			}
			rest := append(append([]int{}, rs[:k]...), rs[k+1:]...)
			if push {
				nx := alloc()
				t.at(at, &Instr{Op: Close, Chan: name, Next: next(t.l(nx))})
				at = nx
			}
			t.at(at, &Instr{Op: Jump, Next: next(t.l(loop(rest, false)))})
			t.at(pulls[k], &Instr{Op: Pull, Chan: chans[r], Var: vars[r], Next: next(t.l(then), us...), Else: next(t.l(onClose))})
		}
		if push {
			t.at(pushAt, &Instr{Op: Push, Chan: name, Expr: app(c.Worker, args...), Next: next(t.l(drops[0]))})
		}
		for k, r := range rs {
			to := pulls[0]
			if k+1 < len(rs) {
				to = drops[k+1]
			}
			t.at(drops[k], &Instr{Op: Drop, Chan: chans[r], Next: next(t.l(to))})
		}
		return pulls[0]
	}
	exitL = 1 << 20 // placeholder until the exit label is known
	start := loop(uniq, true)
	realExit := alloc()
	t.at(realExit, &Instr{Op: Exit})
	for _, in := range t.p.Instrs {
		for _, nx := range in.nexts() {
			if nx.Label == t.l(exitL) {
				nx.Label = t.l(realExit)
			}
		}
	}
	if start != 0 {
		panic("fuse: the map template must start at its first label")
	}
	return t.done(chans, []string{name}, heap...)
}

// countTemplate is a process without inputs that counts i from 0 while i < bound, pushing elem
// (an expression of i) to out each time, then closes out: generate, reverse and array sources.
func countTemplate(t *builder, out, i string, bound, elem syntax.Expr) *Process {
	t.at(0, &Instr{Op: Case, Expr: bin("<", ident(i), bound), Next: next(t.l(1)), Else: next(t.l(3))})
	t.at(1, &Instr{Op: Push, Chan: out, Expr: elem, Next: next(t.l(2))})
	t.at(2, &Instr{Op: Jump, Next: next(t.l(0), Update{Var: i, Expr: bin("+", ident(i), intLit(1))})})
	t.at(3, &Instr{Op: Close, Chan: out, Next: next(t.l(4))})
	t.at(4, &Instr{Op: Exit})
	return t.done(nil, []string{out}, HeapVar{Name: i, Init: intLit(0)})
}
