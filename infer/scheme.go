package infer

import (
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// Scheme is a size scheme (Fig 1.3): ∀ over the sizes of the inputs, ∃ over the rigid sizes of
// the outputs, and the size of each parameter and result. Scalars appear in the scheme by name,
// without a size, so that the scheme shows the definition's whole interface.
type Scheme struct {
	Name    string
	Forall  []*Var
	Exists  []*Var
	Params  []Entry
	Results []Entry
	names   *naming
}

// Entry is a parameter or result of a scheme; Size is nil for a scalar.
type Entry struct {
	Name string
	Size Size
}

// generalise is rule SProgram of Fig 1.5. It is called only when solving succeeded, and the
// parameters' sizes have no rigid variable (checkParams reports those).
func (r *Result) generalise() *Scheme {
	sc := &Scheme{Name: r.Func.Def.Name.Name, names: r.names}
	var params []*Var
	for _, p := range r.Func.Params {
		e := Entry{Name: p.Name}
		if p.Kind == syntax.Array {
			e.Size = r.Size(p.Name)
			params = vars(e.Size, params)
		}
		sc.Params = append(sc.Params, e)
	}
	sc.Forall = params
	var results []*Var
	for i, id := range r.Func.Def.Results {
		e := Entry{Name: id.Name}
		if s := r.Func.Results[i]; s != nil && s.Kind == syntax.Array {
			e.Size = r.Size(id.Name)
			results = vars(e.Size, results)
		}
		sc.Results = append(sc.Results, e)
	}
	for _, v := range results {
		if v.Rigid {
			sc.Exists = append(sc.Exists, v)
		}
	}
	return sc
}

// String prints the scheme in the thesis's notation:
// `normalize2 :_s ∀k1. (xs : k1) → (ys1 : k1, ys2 : k1)`.
func (sc *Scheme) String() string { return sc.Name + " :_s " + sc.Format(true) }

// Format prints the scheme without its name, in the thesis's notation (unicode) or in ASCII:
// `forall k1. exists k2. (xs : k1) -> (ys1 : k1, ys2 : k2)`.
func (sc *Scheme) Format(unicode bool) string {
	var b strings.Builder
	quant := func(word, sym string, vs []*Var) {
		if len(vs) == 0 {
			return
		}
		if unicode {
			b.WriteString(sym)
		} else {
			b.WriteString(word + " ")
		}
		for i, v := range vs {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString(sc.names.format(v, unicode))
		}
		b.WriteString(". ")
	}
	quant("forall", "∀", sc.Forall)
	quant("exists", "∃", sc.Exists)
	b.WriteString(sc.entries(sc.Params, unicode))
	if unicode {
		b.WriteString(" → ")
	} else {
		b.WriteString(" -> ")
	}
	b.WriteString(sc.entries(sc.Results, unicode))
	return b.String()
}

func (sc *Scheme) entries(es []Entry, unicode bool) string {
	parts := make([]string, len(es))
	for i, e := range es {
		if e.Size == nil {
			parts[i] = e.Name
		} else {
			parts[i] = e.Name + " : " + sc.names.format(e.Size, unicode)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
