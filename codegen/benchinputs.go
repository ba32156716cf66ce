package codegen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

// The bench harness draws every array parameter with n elements of random values. An Int array
// parameter that gather reads as indices must hold valid indices, or every run fails ("index
// -81 out of range"): it is drawn in [0, m), m the size of the array it indexes, where that
// size follows from the parameters' (every array parameter has n elements: k1 is n, k1 + k2 is
// 2n, k1 × k2 is n·n). The harness says what it assumed.

// indexBound is how the harness draws one parameter's elements: in [0, Bound) (C, of n), and
// why (Note).
type indexBound struct {
	Bound string
	Note  string
}

// indexBounds finds the parameters that gather reads as indices directly, and the bound of
// each: the smallest of the sizes of the arrays it indexes. A parameter that indexes an array
// whose size is chosen at run time (by a filter, generate or external) has no bound the
// harness can know: that is an error, located at the gather.
func indexBounds(r *infer.Result) (map[string]indexBound, error) {
	fn := r.Func
	bounds := map[string][]string{}
	notes := map[string][]string{}
	for _, b := range fn.Order {
		g, ok := b.Rhs.(*syntax.Gather)
		if !ok {
			continue
		}
		sym := fn.Symbols[g.Indices.Name]
		if sym == nil || sym.Param < 0 {
			continue // computed indices: the program's own business
		}
		expr, ok := sizeInN(r.Size(g.Data.Name))
		if !ok {
			return nil, &CompileError{Range: g.Indices.Range, Message: fmt.Sprintf(
				"cnf bench cannot draw valid indices for %s: it indexes %s, whose size is chosen at run time; give %s a parameter's size, or measure with your own inputs",
				g.Indices.Name, g.Data.Name, g.Data.Name)}
		}
		bounds[g.Indices.Name] = append(bounds[g.Indices.Name], expr)
		notes[g.Indices.Name] = append(notes[g.Indices.Name], fmt.Sprintf("%s (size %s)", g.Data.Name, r.FormatSize(r.Size(g.Data.Name), true)))
	}
	out := map[string]indexBound{}
	for name, bs := range bounds {
		sort.Strings(bs)
		bound := bs[0]
		for _, b := range bs[1:] {
			bound = fmt.Sprintf("cnf_min_i64(%s, %s)", bound, b)
		}
		out[name] = indexBound{Bound: bound, Note: fmt.Sprintf("%s drawn in [0, %s): valid indices of %s", name, strings.ReplaceAll(bs[0], "(int64_t)", ""), strings.Join(notes[name], " and "))}
	}
	return out, nil
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
