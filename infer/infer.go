package infer

import (
	"fmt"
	"strings"
	"sync"

	"github.com/cnf-tools/cnf/syntax"
	"github.com/cnf-tools/cnf/types"
)

// TypeOf is the element type of a parameter or binder, printed ("Array (Int, Float)"), or "" when
// the definition was not type-checked.
func (r *Result) TypeOf(name string) string {
	if r == nil {
		return ""
	}
	return r.Types.TypeOf(name)
}

// TypeAt is the type of a name in a worker at that occurrence (package types), printed, or "".
func (r *Result) TypeAt(id *syntax.Ident) string {
	if r == nil {
		return ""
	}
	return r.Types.TypeAt(id)
}

// CodeSize is the diagnostic code of size errors.
const CodeSize = "size"

// Constraint is an atomic equality constraint of Fig 1.4, `k_Array = Size`: the size variable of
// an array variable on the left, a size built from unification and rigid variables on the right.
// Parameters contribute `k_xs = k` for a fresh unification variable k (the Γ0 of rule SProgram).
type Constraint struct {
	Array   string
	Size    Size            // as generated, before solving
	Binding *syntax.Binding // the binding that generated it; nil for a parameter
}

// Result is the size analysis of one definition.
type Result struct {
	Func        *syntax.Func
	Constraints []Constraint
	Scheme      *Scheme // nil when the definition is rejected
	Diagnostics []syntax.Diagnostic
	// Types are the element types of the parameters and binders (package types). A type error
	// is among the program's diagnostics but does not reject the definition: sizes,
	// clustering and fusion do not depend on types.
	Types *types.Info

	sizes   map[string]Size // the first right-hand side for each array variable
	final   map[string]Size // the solved sizes, once inference is over (see freeze)
	iter    map[*syntax.Binding]Size
	trans   map[*syntax.Binding]*syntax.Binding
	transOf map[*Var]*syntax.Binding // rigid output size of a transducer -> the transducer
	s       *subst
	names   *naming
	live    map[*syntax.Binding]bool             // set once inference succeeds
	conc    map[[2]*syntax.Binding]concestorPair // memo of concestors, guarded by concMu
	concMu  sync.Mutex
}

// OK reports whether size inference accepted the definition.
func (r *Result) OK() bool { return r.Scheme != nil }

// Size returns the solved size of an array variable, or nil for a scalar or unknown name.
func (r *Result) Size(name string) Size {
	if r.final != nil {
		return r.final[name]
	}
	t, ok := r.sizes[name]
	if !ok {
		return nil
	}
	return r.s.resolve(t)
}

// freeze records every array's solved size, so that a finished Result is only read: requests
// of the language server read it from several goroutines, and resolving writes (path
// compression, memo tables).
func (r *Result) freeze() {
	final := make(map[string]Size, len(r.sizes))
	for name := range r.sizes {
		final[name] = r.Size(name)
	}
	r.final = final
	r.names.frozen = true
}

// Iter returns the iteration size of a binding (Fig 1.6); nil is ⊥ (an external).
func (r *Result) Iter(b *syntax.Binding) Size { return r.iter[b] }

// Trans returns the parent transducer of a binding (Fig 1.7), or nil if it has none.
func (r *Result) Trans(b *syntax.Binding) *syntax.Binding { return r.trans[b] }

// SameIter reports whether two bindings have the same, known, iteration size.
func (r *Result) SameIter(a, b *syntax.Binding) bool { return Equal(r.iter[a], r.iter[b]) }

// FormatSize prints a size with this definition's canonical variable names (k1, k2, ... in order
// of first appearance in the scheme, then in the program).
func (r *Result) FormatSize(t Size, unicode bool) string { return r.names.format(t, unicode) }

// Infer runs size inference on a checked definition. The definition must be valid (no syntax,
// name or kind errors): callers skip the others.
//
// A rejected definition still answers Size, but only with facts: the sizes that the bindings
// without size errors determine, from a second pass that leaves out the bindings whose rule
// failed and every binding that reads their outputs (see knownSizes). The first pass's unified
// sizes are not facts: a failed map2 of a parameter with a filter's output has already bound the
// parameter's size to the filter's.
func Infer(fn *syntax.Func) *Result {
	r, failed := inferSkipping(fn, nil)
	if len(r.Diagnostics) == 0 {
		r.iterations()
		r.transducers()
		r.Scheme = r.generalise()
		r.liveness()
		r.freeze()
		return r
	}
	r.freeze()
	r.final, r.names = knownSizes(fn, failed)
	return r
}

// inferSkipping generates and solves the constraints of every binding not in skip, in
// dependency order, and names the sizes; it returns the bindings whose rule reported a size
// error.
func inferSkipping(fn *syntax.Func, skip map[*syntax.Binding]bool) (*Result, map[*syntax.Binding]bool) {
	r := &Result{
		Func:    fn,
		sizes:   map[string]Size{},
		iter:    map[*syntax.Binding]Size{},
		trans:   map[*syntax.Binding]*syntax.Binding{},
		transOf: map[*Var]*syntax.Binding{},
		s:       newSubst(),
		names:   &naming{index: map[*Var]int{}},
		conc:    map[[2]*syntax.Binding]concestorPair{},
	}
	inf := &inferrer{Result: r, rigidParams: map[*syntax.Symbol]bool{}, failed: map[*syntax.Binding]bool{}}
	for _, p := range fn.Params {
		if p.Kind == syntax.Array {
			inf.constrain(p.Name, r.s.fresh(false, nil, ""), nil)
		}
	}
	for _, b := range fn.Order {
		if skip[b] {
			continue
		}
		inf.current = b
		inf.binding(b)
	}
	inf.current = nil
	r.name()
	return r, inf.failed
}

// knownSizes are the sizes of a rejected definition that are facts of its text: inference again
// without the failed bindings and those downstream of them (whose sizes derive from a failed
// rule). Each pass may find a failure the first one did not reach (a map_n stops at its first
// clash); those are left out in turn, so the passes are at most one per binding. The sizes of
// left-out arrays are unknown (absent).
func knownSizes(fn *syntax.Func, failed map[*syntax.Binding]bool) (map[string]Size, *naming) {
	skip := map[*syntax.Binding]bool{}
	for range len(fn.Order) + 1 {
		for b := range failed {
			skip[b] = true
		}
		// Downstream: fn.Order puts each binding after the ones it reads.
		for _, b := range fn.Order {
			if skip[b] {
				continue
			}
			if in := fn.Inputs[b]; in != nil {
				for _, a := range append(append([]*syntax.Symbol{}, in.Arrays...), in.Scalars...) {
					if a.Binding != nil && skip[a.Binding] {
						skip[b] = true
						break
					}
				}
			}
		}
		r, again := inferSkipping(fn, skip)
		if len(r.Diagnostics) == 0 {
			r.freeze()
			return r.final, r.names
		}
		if len(again) == 0 { // an error of no binding's rule: nothing to leave out
			break
		}
		failed = again
	}
	return map[string]Size{}, &naming{index: map[*Var]int{}, frozen: true}
}

type inferrer struct {
	*Result
	rigidParams map[*syntax.Symbol]bool // parameters already reported as forced to a rigid size
	current     *syntax.Binding         // the binding whose rule is being applied
	failed      map[*syntax.Binding]bool
}

// constrain records `k_array = t`, unifying t with the array's size if it has one already: the
// solving step of section 1.3.3, done as the constraints are generated.
func (inf *inferrer) constrain(array string, t Size, b *syntax.Binding) *clash {
	inf.Constraints = append(inf.Constraints, Constraint{Array: array, Size: t, Binding: b})
	old, ok := inf.sizes[array]
	if !ok {
		inf.sizes[array] = t
		return nil
	}
	return inf.s.unify(old, t)
}

func (inf *inferrer) binding(b *syntax.Binding) {
	s := inf.s
	switch c := b.Rhs.(type) {
	case *syntax.Map:
		inf.sameSize(b, c.Keyword, c.Arrays)
	case *syntax.Zip:
		inf.sameSize(b, c.Keyword, []*syntax.Ident{c.A, c.B})
	case *syntax.Scan:
		inf.sameSize(b, c.Keyword, []*syntax.Ident{c.Array})
	case *syntax.Indexed:
		inf.sameSize(b, c.Keyword, []*syntax.Ident{c.Array})
	case *syntax.Reverse:
		inf.sameSize(b, c.Keyword, []*syntax.Ident{c.Array})
	case *syntax.Unzip:
		// Both outputs have the size of the input: map fst ps and map snd ps.
		k := inf.sameSize(b, c.Keyword, []*syntax.Ident{c.Array})
		for _, id := range b.Names[1:] {
			inf.constrain(id.Name, k, b)
		}
	case *syntax.Filter, *syntax.Slice:
		// A transducer: the output size is chosen at run time (section 1.7 reads take, drop,
		// slice and tail as filter does).
		v := s.fresh(true, b, b.Name())
		inf.transOf[v] = b
		inf.constrain(b.Name(), v, b)
	case *syntax.Append:
		k1, k2 := s.fresh(false, nil, ""), s.fresh(false, nil, "")
		inf.constrain(c.A.Name, k1, b)
		inf.constrain(c.B.Name, k2, b)
		inf.constrain(b.Name(), s.mkSum(k1, k2), b)
	case *syntax.Length:
		// A scalar: like fold, it adds no constraint.
	case *syntax.Generate:
		inf.constrain(b.Name(), s.fresh(true, b, b.Name()), b)
	case *syntax.Gather:
		k := s.fresh(false, nil, "")
		inf.constrain(b.Name(), k, b)
		inf.constrain(c.Indices.Name, k, b)
	case *syntax.Cross:
		k1, k2 := s.fresh(false, nil, ""), s.fresh(false, nil, "")
		inf.constrain(b.Name(), s.mkCross(k1, k2), b)
		inf.constrain(c.A.Name, k1, b)
		inf.constrain(c.B.Name, k2, b)
	case *syntax.External:
		for _, id := range b.Names {
			if sym := inf.Func.Symbols[id.Name]; sym != nil && sym.Kind == syntax.Array {
				inf.constrain(id.Name, s.fresh(true, b, id.Name), b)
			}
		}
	case *syntax.Fold:
		// Fig 1.4: a fold adds nothing.
	}
}

// sameSize is the rule of map_n, shared by every combinator whose output has the size of its
// inputs: the arrays and the output get one size. It returns that size.
func (inf *inferrer) sameSize(b *syntax.Binding, kw *syntax.Ident, arrays []*syntax.Ident) Size {
	before := map[string]Size{} // sizes before this combinator relates them, for explanations
	for _, p := range inf.Func.Params {
		before[p.Name] = inf.Size(p.Name)
	}
	for _, xs := range arrays {
		before[xs.Name] = inf.Size(xs.Name)
	}
	k := inf.s.fresh(false, nil, "")
	for i, xs := range arrays {
		if cl := inf.constrain(xs.Name, k, b); cl != nil {
			inf.mapClash(kw, arrays, i, cl)
			return k
		}
	}
	inf.constrain(b.Name(), k, b)
	inf.checkParams(kw, arrays, before)
	return k
}

// mapClash explains why the i-th array of a map_n (or zip) cannot have the size of the ones
// before it.
func (inf *inferrer) mapClash(kw *syntax.Ident, arrays []*syntax.Ident, i int, cl *clash) {
	bad := arrays[i]
	// The earlier array whose size the clash involves: the first whose size contains one side.
	other := arrays[0]
	for _, a := range arrays[:i] {
		t := inf.Size(a.Name)
		if contains(t, cl.a) || contains(t, cl.b) {
			other = a
			break
		}
	}
	descOther, relOther := inf.describe(other.Name)
	descBad, relBad := inf.describe(bad.Name)
	reason := inf.reason(inf.Size(other.Name), inf.Size(bad.Name), cl)
	inf.errorf(bad.Range, append(relOther, relBad...),
		"%s needs %s and %s to have the same size, but %s and %s; %s",
		kw.Name, other.Name, bad.Name, descOther, descBad, reason)
}

// reason says, in the terms of the sizes involved, why they are not known to be equal.
func (inf *inferrer) reason(a, b Size, cl *clash) string {
	if cl.occurs {
		return "an array cannot have the size of a cross product that it is part of"
	}
	if sa, ok := a.(*Sum); ok {
		if sb, ok := b.(*Sum); ok && Equal(sa.L, sb.R) && Equal(sa.R, sb.L) {
			return "an append's size is not commutative: its halves come from different loops, one after the other"
		}
	}
	kind := func(t Size) string {
		switch t.(type) {
		case *Cross:
			return "cross"
		case *Sum:
			return "append"
		}
		v := t.(*Var)
		if v.Rigid && v.Origin != nil && v.Origin.Rhs != nil {
			return syntax.CallOf(v.Origin.Rhs).Keyword.Name
		}
		return "param"
	}
	ka, kb := kind(cl.a), kind(cl.b)
	switch {
	case ka == "filter" && kb == "filter":
		return "two filters are not known to keep the same elements"
	case ka == "cross" || kb == "cross":
		return "a cross product's size is a product of sizes, and is not known to equal the other size"
	case ka == "append" || kb == "append":
		return "an append's size is the sum of its inputs' sizes (in order), and is not known to equal the other size"
	}
	return "sizes that are only known at run time are not known to be equal"
}

// checkParams reports parameters whose size this map_n forced to a rigid size (bad1 of section
// 1.3.4): rule SProgram rejects them, since no caller can supply an array of that size. before
// holds the sizes of the parameters and of the map's arrays before the map related them.
func (inf *inferrer) checkParams(kw *syntax.Ident, arrays []*syntax.Ident, before map[string]Size) {
	for _, p := range inf.Func.Params {
		if p.Kind != syntax.Array || inf.rigidParams[p] {
			continue
		}
		rigid := rigidVars(inf.Size(p.Name))
		if len(rigid) == 0 {
			continue
		}
		inf.rigidParams[p] = true
		v := rigid[0]
		what := inf.origin(v)
		related := []syntax.Related{{Range: p.Decl.Range, Message: fmt.Sprintf("%s is a parameter: its size is chosen by the caller", p.Name)}}
		related = append(related, inf.originRelated(v)...)
		// The argument that brought the rigid size, and the argument through which p is reached
		// (p itself when p is an argument).
		var other, via *syntax.Ident
		for _, a := range arrays {
			if other == nil && contains(before[a.Name], v) {
				other = a
			}
			if via == nil && !contains(before[a.Name], v) && Equal(before[a.Name], before[p.Name]) {
				via = a
			}
		}
		if other == nil || via == nil { // not expected: fall back to a plain statement
			inf.errorf(kw.Range, related, "%s forces the parameter %s to have the size of %s, the output of %s; a caller cannot know that size in advance%s",
				kw.Name, p.Name, v.Output, what, sliceHint(v))
			continue
		}
		source := other.Name
		if other.Name != v.Output {
			source = fmt.Sprintf("%s, which has the size of %s", other.Name, v.Output)
		}
		if via.Name == p.Name {
			inf.errorf(via.Range, related, "%s needs %s and %s to have the same size, so the parameter %s would have to have the size of %s, the output of %s; a caller cannot know that size in advance%s",
				kw.Name, other.Name, p.Name, p.Name, source, what, sliceHint(v))
		} else {
			inf.errorf(via.Range, related, "%s needs %s and %s to have the same size, and %s has the size of the parameter %s, so %s would have to have the size of %s, the output of %s; a caller cannot know that size in advance%s",
				kw.Name, other.Name, via.Name, via.Name, p.Name, p.Name, source, what, sliceHint(v))
		}
	}
}

// sliceHint suggests, when a parameter meets a slice of an array (zip (tail xs) xs, the usual
// way to pair neighbours in list languages), the CNF way: number the slice and gather.
func sliceHint(v *Var) string {
	if v.Origin == nil {
		return ""
	}
	if _, ok := v.Origin.Rhs.(*syntax.Slice); !ok {
		return ""
	}
	return fmt.Sprintf(" (to pair each element of %s with another element, number %s with indexed and gather the partners by position, as examples/deltas.cnf does)", v.Output, v.Output)
}

// origin describes the binding that introduced a rigid size: "filter p1 (line 2)".
func (inf *inferrer) origin(v *Var) string {
	if v.Origin == nil || v.Origin.Rhs == nil {
		return "a run-time computation"
	}
	return fmt.Sprintf("%s (line %d)", shortCombinator(v.Origin.Rhs), inf.line(v.Origin.Start))
}

func (inf *inferrer) originRelated(v *Var) []syntax.Related {
	if v.Origin == nil {
		return nil
	}
	kw := "filter"
	if v.Origin.Rhs != nil {
		kw = syntax.CallOf(v.Origin.Rhs).Keyword.Name
	}
	return []syntax.Related{{Range: v.Origin.Names[0].Range, Message: fmt.Sprintf("the size of %s is chosen at run time by this %s", v.Output, kw)}}
}

// describe says where an array's size comes from, for size errors.
func (inf *inferrer) describe(name string) (string, []syntax.Related) {
	t := inf.Size(name)
	switch t := t.(type) {
	case *Var:
		if t.Rigid {
			if t.Output == name {
				return fmt.Sprintf("%s is the output of %s", name, inf.origin(t)), inf.originRelated(t)
			}
			return fmt.Sprintf("%s has the size of %s, the output of %s", name, t.Output, inf.origin(t)), inf.originRelated(t)
		}
		for _, p := range inf.Func.Params {
			if p.Kind == syntax.Array && Equal(inf.Size(p.Name), t) {
				if p.Name == name {
					return fmt.Sprintf("%s is a parameter", name), nil
				}
				return fmt.Sprintf("%s has the size of the parameter %s", name, p.Name), nil
			}
		}
		return fmt.Sprintf("%s has size %s", name, inf.names.format(t, true)), nil
	case *Cross:
		return fmt.Sprintf("%s has size %s (a cross product)", name, inf.names.format(t, true)), nil
	case *Sum:
		return fmt.Sprintf("%s has size %s (an append)", name, inf.names.format(t, true)), nil
	}
	return name + " has an unknown size", nil
}

func (inf *inferrer) line(p syntax.Pos) int {
	return inf.Func.File.Position(p).Line
}

// shortCombinator prints a combinator application without its array arguments and with long
// workers elided: "filter p1", "generate n (\i -> ...)", "external splitbox".
func shortCombinator(c syntax.Combinator) string {
	call := syntax.CallOf(c)
	var parts []string
	parts = append(parts, call.Keyword.Name)
	var keep []syntax.Expr
	switch c := c.(type) {
	case *syntax.Filter, *syntax.Slice:
		keep = call.Args[:len(call.Args)-1]
	case *syntax.Generate:
		keep = call.Args
	case *syntax.External:
		keep = []syntax.Expr{c.Func}
	default:
		keep = call.Args
	}
	for _, a := range keep {
		s := syntax.FormatAtom(a)
		if len([]rune(s)) > 24 {
			s = string([]rune(s)[:22]) + "…)"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func (inf *inferrer) errorf(r syntax.Range, related []syntax.Related, format string, args ...any) {
	if inf.current != nil {
		inf.failed[inf.current] = true
	}
	inf.Diagnostics = append(inf.Diagnostics, syntax.Diagnostic{
		Range: r, Severity: syntax.Error, Code: CodeSize, Message: fmt.Sprintf(format, args...), Related: related,
	})
}

// name fixes the canonical variable names: the scheme's order first (parameters, then results),
// then every other array in source order.
func (r *Result) name() {
	for _, p := range r.Func.Params {
		r.names.add(r.Size(p.Name))
	}
	for _, s := range r.Func.Results {
		if s != nil {
			r.names.add(r.Size(s.Name))
		}
	}
	for _, b := range r.Func.Def.Bindings {
		for _, id := range b.Names {
			r.names.add(r.Size(id.Name))
		}
	}
}

// iterations computes Fig 1.6, extended to the new combinators: a combinator that walks one
// array iterates over it (the table's Walks: syntax.Walked; for map_n, zip and gather that
// array's size is their output's); generate and append iterate over their output, cross over
// the product of its inputs.
func (r *Result) iterations() {
	for _, b := range r.Func.Def.Bindings {
		var it Size
		switch c := b.Rhs.(type) {
		case *syntax.Append, *syntax.Generate:
			it = r.Size(b.Name())
		case *syntax.Cross:
			it = r.s.mkCross(r.Size(c.A.Name), r.Size(c.B.Name))
		case *syntax.External:
			it = nil // ⊥
		default:
			it = r.Size(syntax.Walked(c).Name)
		}
		r.iter[b] = it
	}
}
