package codegen

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
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
// external) have no bound the harness can know: that is an error, located at the gather (the
// bounds of the others are returned with it).
func indexBounds(r *infer.Result) (map[string]indexBound, error) {
	fn := r.Func
	var undrawable error
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
			if undrawable == nil {
				undrawable = &CompileError{Range: g.Indices.Range, Message: fmt.Sprintf(
					"cnf bench cannot draw valid indices for %s: it indexes %s, whose size is chosen at run time; give %s a parameter's size, or give the inputs (--inputs DIR)",
					g.Indices.Name, g.Data.Name, g.Data.Name)}
			}
			continue
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
	return out, undrawable
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
// a size chosen at run time. A generate of a literal count has that size (generate 3 ...: 3).
func sizeInN(t infer.Size) (string, bool) {
	switch t := t.(type) {
	case *infer.Var:
		if t.Rigid && t.Origin != nil {
			if g, ok := t.Origin.Rhs.(*syntax.Generate); ok {
				if lit, ok := g.Size.(*syntax.IntLit); ok {
					return strconv.FormatInt(max(lit.Value, 0), 10), true
				}
			}
		}
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

// benchScale is how many elements the harness gives each array parameter (and the value of
// each scalar parameter left to its default) when asked for size elements: size itself, unless
// an array of the program multiplies parameters' sizes (a cross: k1 × k2, or k1 × n for a
// generate of a scalar n); then the d-th root of size, d the most sizes a product multiplies,
// so that the largest array has about size elements, not size^d (a cross of two arrays of
// 10⁷ elements, 10¹⁴, is no benchmark). Sizes the data chooses (a filter's output, an
// external's, a generate of a computed count) count as none: a cross of two filters' outputs
// is as large as the filters keep. fixed are the scalars given a value (--arg). The note
// says what was assumed ("" when nothing was).
//
// bounded counts a filter's or a slice's output as its input's size (its bound) rather than as
// none: the scale tried when a cross of such outputs could not be allocated at the first.
func benchScale(r *infer.Result, size int64, fixed map[string]bool, bounded bool) (int64, string) {
	fn := r.Func
	var degree func(t infer.Size) int
	degree = func(t infer.Size) int {
		switch t := t.(type) {
		case *infer.Var:
			if !t.Rigid {
				return 1
			}
			if bounded && t.Origin != nil {
				var from *syntax.Ident
				switch c := t.Origin.Rhs.(type) {
				case *syntax.Filter:
					from = c.Array
				case *syntax.Slice: // take, drop, tail, slice
					from = c.Array
				}
				if from != nil {
					if in := r.Size(from.Name); in != nil {
						return degree(in)
					}
				}
			}
			if t.Origin != nil {
				if g, ok := t.Origin.Rhs.(*syntax.Generate); ok {
					if id, ok := g.Size.(*syntax.Ident); ok {
						if sym := fn.Symbols[id.Name]; sym != nil && sym.Param >= 0 && !fixed[id.Name] {
							return 1
						}
					}
				}
			}
			return 0
		case *infer.Cross:
			return degree(t.L) + degree(t.R)
		case *infer.Sum:
			return max(degree(t.L), degree(t.R))
		}
		return 0
	}
	d, widest := 1, ""
	for _, b := range fn.Order {
		for _, id := range b.Names {
			t := r.Size(id.Name)
			if t == nil {
				continue
			}
			if k := degree(t); k > d {
				d, widest = k, fmt.Sprintf("%s (size %s)", id.Name, r.FormatSize(t, true))
			}
		}
	}
	if d == 1 || size <= 1 {
		return size, ""
	}
	n := int64(math.Floor(math.Pow(float64(size), 1/float64(d))))
	for n > 1 && pow(n, d) > size {
		n--
	}
	for pow(n+1, d) <= size {
		n++
	}
	how := ""
	if bounded {
		how = ", counting a filter's or a slice's output as large as its input"
	}
	return n, fmt.Sprintf("every array parameter has %d elements and scalars default to %d, not %d: %s multiplies %d of their sizes%s, %d elements", n, n, size, widest, d, how, pow(n, d))
}

// pow is n^d, or the largest int64 when that is larger.
func pow(n int64, d int) int64 {
	p := int64(1)
	for range d {
		if n > 0 && p > math.MaxInt64/n {
			return math.MaxInt64
		}
		p *= n
	}
	return p
}

// computedIndices names the gathers whose indices a worker computes from the inputs ("b6 =
// gather xs7 b5"), which the harness cannot draw valid: when a run fails on an index out of
// range, Bench says that these may be why and how to give inputs the program accepts.
func computedIndices(r *infer.Result) []string {
	var out []string
	for _, b := range r.Func.Order {
		g, ok := b.Rhs.(*syntax.Gather)
		if !ok {
			continue
		}
		if params, ok := origins(r.Func, g.Indices.Name, 0); !ok || len(params) == 0 {
			out = append(out, fmt.Sprintf("%s = gather %s %s", b.Name(), g.Data.Name, g.Indices.Name))
		}
	}
	return out
}
