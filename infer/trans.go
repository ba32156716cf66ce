package infer

import (
	"slices"

	"github.com/cnf-tools/cnf/syntax"
)

// transducers computes the parent transducer of every binding.
//
// Fig 1.7 read literally gives a fold no parent transducer and lets a map over a filter's
// output look past that filter, contradicting the text's own example (concestors(sum1, sum2) =
// (sum1, gts) in normalize2 needs sum2 = fold (+) 0 gts to have parent gts). We use the reading
// the text needs (../shared/papers/README.md): the parent transducer of a binding is the
// transducer whose *output size* is the binding's *iteration size*. The transducers are filter
// and, extending section 1.7, take, drop, slice and tail, whose outputs are contiguous parts of
// their inputs. Since every transducer has its own rigid output size, it is unique when it
// exists; generate, cross, append and external have none.
// structuralTrans computes the same thing by following the program (maps to their inputs,
// gathers to their indices, back to a filter), and tests check that the two agree.
func (r *Result) transducers() {
	for _, b := range r.Func.Def.Bindings {
		if v, ok := r.iter[b].(*Var); ok {
			if f := r.transOf[v]; f != nil && f != b {
				r.trans[b] = f
			}
		}
	}
}

// structuralTrans is Fig 1.7 in the reading above: for a binding that iterates over arrays ns,
// the transducer (if any) that determined the size of ns, found by following the combinators
// whose output has the size of their inputs (map_n, zip, scans, indexed, unzip, reverse) and
// gather (size of its indices) back to a transducer. It returns every candidate, so that the
// "sole transducer" property (at most one) can be checked.
func (r *Result) structuralTrans(b *syntax.Binding) []*syntax.Binding {
	switch c := b.Rhs.(type) {
	case *syntax.Map:
		return r.sizeOrigins(c.Arrays)
	case *syntax.Zip:
		return r.sizeOrigins([]*syntax.Ident{c.A, c.B})
	case *syntax.Gather:
		return r.sizeOrigin(c.Indices.Name)
	}
	if xs := syntax.Walked(b.Rhs); xs != nil {
		return r.sizeOrigin(xs.Name)
	}
	return nil // generate, cross, append, external
}

// sizeOrigin finds the transducers that determined an array's size.
func (r *Result) sizeOrigin(name string) []*syntax.Binding {
	b := r.Func.Binding(name)
	if b == nil {
		return nil // a parameter
	}
	switch b.Rhs.(type) {
	case *syntax.Filter, *syntax.Slice:
		return []*syntax.Binding{b}
	}
	// Every other array producer's output has the size it iterates over (or a size of its own,
	// for generate, cross, append and external, whose structuralTrans is empty).
	return r.structuralTrans(b)
}

// sizeOrigins is the union of the size origins of several arrays.
func (r *Result) sizeOrigins(arrays []*syntax.Ident) []*syntax.Binding {
	var out []*syntax.Binding
	for _, a := range arrays {
		out = union(out, r.sizeOrigin(a.Name))
	}
	return out
}

func union(a, b []*syntax.Binding) []*syntax.Binding {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}

// concestorPair is a memoised answer of concestors': the pair and its distance.
type concestorPair struct {
	a, b *syntax.Binding
	dist int
	ok   bool
}

// Concestors returns the compatible concestors of two bindings (Fig 1.8): the most recent pair
// of ancestor transducers, one on each side (a binding counts as its own ancestor), that have
// the same iteration size, and how many transducer steps separate them from a and b. For two
// bindings of the same iteration size it is (a, b, 0). ok is false when there is no such pair:
// the two can never share a loop.
//
// Where both sides lead to a pair, the *closest* is chosen (the left one on a tie, as Fig 1.8's
// closest does). The authors' implementation took the first pair it found, which they later
// published as an erratum.
//
// A Result is shared between goroutines (two clusterings are solved side by side, and the
// language server answers requests while it analyses), so the memo is guarded.
func (r *Result) Concestors(a, b *syntax.Binding) (ca, cb *syntax.Binding, dist int, ok bool) {
	r.concMu.Lock()
	defer r.concMu.Unlock()
	p := r.concestors(a, b)
	return p.a, p.b, p.dist, p.ok
}

func (r *Result) concestors(a, b *syntax.Binding) concestorPair {
	key := [2]*syntax.Binding{a, b}
	if p, ok := r.conc[key]; ok {
		return p
	}
	var best concestorPair
	if r.SameIter(a, b) {
		best = concestorPair{a: a, b: b, ok: true}
	} else {
		if ta := r.trans[a]; ta != nil {
			if p := r.concestors(ta, b); p.ok {
				best = p
			}
		}
		if tb := r.trans[b]; tb != nil {
			if p := r.concestors(a, tb); p.ok && (!best.ok || p.dist < best.dist) {
				best = p
			}
		}
		if best.ok {
			best.dist++
		}
	}
	r.conc[key] = best
	return best
}
