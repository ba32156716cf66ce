package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

func init() { onRequest("textDocument/hover", (*Server).hover) }

// combinatorDocs is the signature and one line of documentation of each combinator.
var combinatorDocs = map[string][2]string{
	"fold":     {"fold :: (a -> b -> a) -> a -> Array b -> a", "Reduces an array with a worker, from a starting value. Its value exists only after its whole loop."},
	"map":      {"map :: (a -> b) -> Array a -> Array b", "Applies the worker to every element; the output has the input's size."},
	"mapN":     {"mapN :: (a1 -> ... -> aN -> b) -> Array a1 -> ... -> Array aN -> Array b", "Applies the worker elementwise to N arrays, which must have the same size."},
	"filter":   {"filter :: (a -> Bool) -> Array a -> Array a", "Keeps the elements for which the predicate holds; the output size is known only at run time."},
	"generate": {"generate :: Nat -> (Nat -> a) -> Array a", "Builds [W 0, ..., W (s-1)]; the size is known only at run time."},
	"gather":   {"gather :: Array a -> Array Nat -> Array a", "Reads data at each index: the output has the indices' size; data must be materialised first."},
	"cross":    {"cross :: Array a -> Array b -> Array (a, b)", "Every pair, the loop over the first array outermost; the second array must be materialised first."},
	"external": {"external f args", "Calls a host function between loops: a fusion barrier; its array outputs get sizes known only at run time."},
}

func (s *Server) hover(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.HoverParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	d := s.snapshot(string(p.TextDocument.URI))
	if d == nil {
		return nil, nil
	}
	f := d.prog.Syntax.File
	t := d.locate(fromPosition(f, p.Position))
	if t == nil {
		return nil, nil
	}
	var b strings.Builder
	switch {
	case t.defName:
		hoverDefinition(&b, d, t)
	case t.comb != nil:
		name := t.id.Name
		if _, isMap := syntax.MapArity(name); isMap && name != "map" {
			name = "mapN"
		}
		doc := combinatorDocs[name]
		fmt.Fprintf(&b, "```haskell\n%s\n```\n%s", doc[0], doc[1])
	case t.host:
		fmt.Fprintf(&b, "`%s`: a host function (not bound by %s)", t.id.Name, t.fn.Def.Name.Name)
	case t.sym != nil:
		hoverSymbol(&b, d, t)
	}
	if b.Len() == 0 {
		return nil, nil
	}
	rng := toRange(f, t.id.Range)
	return protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: b.String()}, Range: &rng}, nil
}

func hoverDefinition(b *strings.Builder, d *document, t *target) {
	if t.sizes == nil || !t.sizes.OK() {
		fmt.Fprintf(b, "**%s**: no size scheme (the definition has errors)", t.fn.Def.Name.Name)
		return
	}
	fmt.Fprintf(b, "```\n%s\n```\n", t.sizes.Scheme.String())
	if fl := d.loopsOf(t.fn.Def.Name.Name); fl != nil {
		bl := fl.report.Baselines()
		fmt.Fprintf(b, "\n%s (unfused %d · stream fusion %d · Megiddo %d), objective %d", plural(fl.report.Ours.Loops(), "loop"), bl.Unfused, bl.Stream, bl.Megiddo, fl.report.Ours.Objective)
		if !fl.report.Ours.Optimal {
			b.WriteString(", not proven optimal")
		}
	}
}

func hoverSymbol(b *strings.Builder, d *document, t *target) {
	sym, r := t.sym, t.sizes
	kind := "scalar"
	if sym.Kind == syntax.Array {
		kind = "array"
	}
	role := "bound by " + t.fn.Def.Name.Name
	if sym.Param >= 0 {
		role = "a parameter of " + t.fn.Def.Name.Name
	}
	fmt.Fprintf(b, "**%s**: %s, %s", sym.Name, kind, role)
	if r != nil && sym.Kind == syntax.Array {
		if size := r.Size(sym.Name); size != nil {
			fmt.Fprintf(b, "\n\nsize `%s`", r.FormatSize(size, true))
			if v, ok := size.(*infer.Var); ok && v.Rigid && v.Origin != nil {
				fmt.Fprintf(b, " (∃: chosen at run time by the %s of %s)", syntax.CallOf(v.Origin.Rhs).Keyword.Name, v.Output)
			}
		}
	}
	if sym.Binding == nil || r == nil || !r.OK() {
		return
	}
	bnd := sym.Binding
	fmt.Fprintf(b, "\n\niteration size `%s`", r.FormatSize(r.Iter(bnd), true))
	if tr := r.Trans(bnd); tr != nil {
		fmt.Fprintf(b, ", parent transducer `%s`", tr.Name())
	}
	fl := d.loopsOf(t.fn.Def.Name.Name)
	if fl == nil {
		return
	}
	nd := fl.report.Graph.Node(bnd.Name())
	if nd == nil {
		return
	}
	cl := fl.report.Ours.Clustering
	c := cl.Clusters[cl.Of[nd.ID]]
	if c.External() {
		b.WriteString("\n\nan external: a host call between loops")
	} else {
		fmt.Fprintf(b, "\n\nloop %d of %d", loopNumber(cl, c.Index), cl.Loops())
		if others := without(c.Names(), bnd.Name()); len(others) > 0 {
			fmt.Fprintf(b, ", with %s", joinNames(others))
		}
		if sym.Kind == syntax.Array {
			if contains(c.Contracted, sym.Name) {
				b.WriteString("; **contracted**: never materialised")
			} else {
				b.WriteString("; **materialised**")
			}
		}
	}
	whyNot(b, fl, nd.ID)
}

func without(xs []string, x string) []string {
	var out []string
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
