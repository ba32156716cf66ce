package codegen

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

// The bench harness draws every array parameter with n elements of random values. An Int array
// parameter whose elements gather reads as indices must hold valid indices, or every run fails
// ("index -81 out of range"): it is drawn in [0, m), m the size of the array it indexes, where
// that size follows from the parameters' (every array parameter has n elements: k1 is n,
// k1 + k2 is 2n, k1 × k2 is n·n). The indices may be a parameter's elements moved without
// change: gathered (gather ys (gather xs is) reads xs's elements as indices of ys), kept by a
// filter, sliced, reversed or appended; the parameter they come from is drawn so. Indices
// computed by a worker are the program's own business. The harness says what it assumed.

// indexBound is how the harness draws one parameter's elements: in [0, Bound) (C, of n), and
// why (Note).
type indexBound struct {
	Bound string
	Note  string
}

// indexBounds finds the parameters whose elements gather reads as indices, directly or moved
// by the combinators above, and the bound of each: the smallest of the sizes of the arrays it
// indexes. Indices into an array whose size is chosen at run time (by a filter, generate or
// external) have no bound the harness can know: that is an error, located at the gather.
func indexBounds(r *infer.Result) (map[string]indexBound, error) {
	fn := r.Func
	bounds := map[string][]string{}
	notes := map[string][]string{}
	for _, b := range fn.Order {
		g, ok := b.Rhs.(*syntax.Gather)
		if !ok {
			continue
		}
		params, ok := origins(fn, g.Indices.Name, 0)
		if !ok || len(params) == 0 {
			continue // computed indices: the program's own business
		}
		expr, ok := sizeInN(r.Size(g.Data.Name))
		if !ok {
			return nil, &CompileError{Range: g.Indices.Range, Message: fmt.Sprintf(
				"cnf bench cannot draw valid indices for %s: it indexes %s, whose size is chosen at run time; give %s a parameter's size, or measure with your own inputs",
				g.Indices.Name, g.Data.Name, g.Data.Name)}
		}
		for _, p := range params {
			bounds[p] = append(bounds[p], expr)
			note := fmt.Sprintf("%s (size %s)", g.Data.Name, r.FormatSize(r.Size(g.Data.Name), true))
			if p != g.Indices.Name {
				note += fmt.Sprintf(", as the elements of %s", g.Indices.Name)
			}
			notes[p] = append(notes[p], note)
		}
	}
	out := map[string]indexBound{}
	for name, bs := range bounds {
		sort.Strings(bs)
		bs = slices.Compact(bs)
		bound := bs[0]
		for _, b := range bs[1:] {
			bound = fmt.Sprintf("cnf_min_i64(%s, %s)", bound, b)
		}
		out[name] = indexBound{Bound: bound, Note: fmt.Sprintf("%s drawn in [0, %s): valid indices of %s", name, strings.ReplaceAll(bs[0], "(int64_t)", ""), strings.Join(notes[name], " and "))}
	}
	return out, nil
}

// origins are the parameters whose elements the array name holds without change (a parameter
// itself; gather's data, a filter's, a slice's or reverse's input, both of append's), sorted;
// false when some of them are computed (by a worker, a scan, an external, ...). depth guards
// against a definition deeper than any program (the bindings are acyclic).
func origins(fn *syntax.Func, name string, depth int) ([]string, bool) {
	sym := fn.Symbols[name]
	if sym == nil || depth > 1000 {
		return nil, false
	}
	if sym.Param >= 0 {
		return []string{name}, true
	}
	if sym.Binding == nil {
		return nil, false
	}
	var from []*syntax.Ident
	switch c := sym.Binding.Rhs.(type) {
	case *syntax.Gather:
		from = []*syntax.Ident{c.Data}
	case *syntax.Filter:
		from = []*syntax.Ident{c.Array}
	case *syntax.Slice:
		from = []*syntax.Ident{c.Array}
	case *syntax.Reverse:
		from = []*syntax.Ident{c.Array}
	case *syntax.Append:
		from = []*syntax.Ident{c.A, c.B}
	default:
		return nil, false
	}
	var out []string
	for _, id := range from {
		ps, ok := origins(fn, id.Name, depth+1)
		if !ok {
			return nil, false
		}
		for _, p := range ps {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out, true
}

// sizeInN is a size as a C expression of n, every parameter's size being n; false when it has
// a size chosen at run time.
func sizeInN(t infer.Size) (string, bool) {
	switch t := t.(type) {
	case *infer.Var:
		return "n", !t.Rigid
	case *infer.Sum:
		l, ok1 := sizeInN(t.L)
		r, ok2 := sizeInN(t.R)
		return "(" + l + " + " + r + ")", ok1 && ok2
	case *infer.Cross:
		l, ok1 := sizeInN(t.L)
		r, ok2 := sizeInN(t.R)
		return "(" + l + " * " + r + ")", ok1 && ok2
	}
	return "", false
}
