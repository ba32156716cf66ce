package infer

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/cnf-tools/cnf/syntax"
)

// Summary is the size analysis of a definition in printable form: what `cnf infer --json`
// prints, with sizes in the canonical ASCII notation.
type Summary struct {
	Name       string            `json:"name"`
	Scheme     string            `json:"scheme,omitempty"`        // ASCII: forall k1. (xs : k1) -> (ys : k1)
	SchemeText string            `json:"schemeUnicode,omitempty"` // the thesis's notation
	Sizes      map[string]string `json:"sizes"`                   // every array variable
	Iteration  map[string]string `json:"iteration"`               // every binding; "unknown" is ⊥
	Transducer map[string]string `json:"transducer"`              // bindings that have a parent transducer
	Rigid      map[string]string `json:"rigid"`                   // each ∃ size -> the binding whose output it is
	Length     map[string]string `json:"length,omitempty"`        // each length binding -> how it is found
	Types      map[string]string `json:"types,omitempty"`         // every parameter and binder -> its element type (package types)
	Rejected   bool              `json:"rejected,omitempty"`
}

// Summarize returns the printable form of a result.
func (r *Result) Summarize() Summary {
	sm := Summary{
		Name:       r.Func.Def.Name.Name,
		Sizes:      map[string]string{},
		Iteration:  map[string]string{},
		Transducer: map[string]string{},
		Rigid:      map[string]string{},
		Rejected:   !r.OK(),
	}
	if r.Types != nil {
		sm.Types = map[string]string{}
		for name := range r.Types.Types {
			sm.Types[name] = r.TypeOf(name)
		}
	}
	if r.Scheme != nil {
		sm.Scheme = r.Scheme.Format(false)
		sm.SchemeText = r.Scheme.Format(true)
	}
	for _, name := range r.arrays() {
		t := r.Size(name)
		sm.Sizes[name] = r.FormatSize(t, false)
		for _, v := range rigidVars(t) {
			sm.Rigid[r.FormatSize(v, false)] = v.Output
		}
	}
	if r.OK() {
		for _, b := range r.Func.Def.Bindings {
			sm.Iteration[b.Name()] = r.FormatSize(r.iter[b], false)
			if t := r.trans[b]; t != nil {
				sm.Transducer[b.Name()] = t.Name()
			}
			if l, ok := r.LengthOf(b); ok {
				if sm.Length == nil {
					sm.Length = map[string]string{}
				}
				sm.Length[b.Name()] = l.Describe()
			}
		}
	}
	return sm
}

// arrays lists the array variables of the definition in source order: parameters, then binders.
func (r *Result) arrays() []string {
	var out []string
	for _, p := range r.Func.Params {
		if p.Kind == syntax.Array {
			out = append(out, p.Name)
		}
	}
	for _, b := range r.Func.Def.Bindings {
		for _, id := range b.Names {
			if _, ok := r.sizes[id.Name]; ok {
				out = append(out, id.Name)
			}
		}
	}
	return out
}

// WriteText prints the analysis of a definition: its scheme, the size of every array (with the
// origin of each ∃ size), and every binding's iteration size, parent transducer and element type.
func (r *Result) WriteText(out io.Writer, unicode bool) {
	var buf bytes.Buffer
	r.writeText(&buf, unicode)
	// tabwriter pads the last filled column; drop the trailing blanks.
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		trimmed := strings.TrimRight(line, " \n")
		if line == "" {
			continue
		}
		io.WriteString(out, trimmed+"\n")
	}
}

func (r *Result) writeText(w io.Writer, unicode bool) {
	name := r.Func.Def.Name.Name
	if r.Scheme == nil {
		fmt.Fprintf(w, "%s: rejected by size inference\n", name)
		return
	}
	fmt.Fprintf(w, "%s :_s %s\n", name, r.Scheme.Format(unicode))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  array\tsize\t\n")
	for _, a := range r.arrays() {
		t := r.Size(a)
		note := ""
		if v, ok := t.(*Var); ok && v.Rigid && v.Output == a && v.Origin != nil {
			note = fmt.Sprintf("chosen at run time by %s (line %d)", syntax.CallOf(v.Origin.Rhs).Keyword.Name, r.Func.File.Position(v.Origin.Start).Line)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", a, r.FormatSize(t, unicode), note)
	}
	tw.Flush()
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  binding\tcombinator\titeration\ttransducer\ttype\n")
	for _, b := range r.Func.Def.Bindings {
		trans := "-"
		if t := r.trans[b]; t != nil {
			trans = t.Name()
		}
		var types []string
		for _, id := range b.Names {
			types = append(types, r.TypeOf(id.Name))
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", binderList(b), syntax.CallOf(b.Rhs).Keyword.Name, r.FormatSize(r.iter[b], unicode), trans, strings.Join(types, ", "))
	}
	tw.Flush()
	for _, b := range r.Func.Def.Bindings {
		if l, ok := r.LengthOf(b); ok {
			fmt.Fprintf(w, "  %s = length: %s\n", b.Name(), l.Describe())
		}
	}
}

func binderList(b *syntax.Binding) string {
	s := b.Names[0].Name
	for _, id := range b.Names[1:] {
		s += ", " + id.Name
	}
	return s
}
