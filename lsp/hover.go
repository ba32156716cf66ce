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
	"fold":      {"fold :: (a -> b -> a) -> a -> Array b -> a", "Reduces an array with a worker, from a starting value. Its value exists only after its whole loop."},
	"map":       {"map :: (a -> b) -> Array a -> Array b", "Applies the worker to every element; the output has the input's size."},
	"mapN":      {"mapN :: (a1 -> ... -> aN -> b) -> Array a1 -> ... -> Array aN -> Array b", "Applies the worker elementwise to N arrays, which must have the same size."},
	"filter":    {"filter :: (a -> Bool) -> Array a -> Array a", "Keeps the elements for which the predicate holds; the output size is known only at run time."},
	"generate":  {"generate :: Nat -> (Nat -> a) -> Array a", "Builds [W 0, ..., W (s-1)]; the size is known only at run time."},
	"gather":    {"gather :: Array a -> Array Nat -> Array a", "Reads data at each index: the output has the indices' size; data must be materialised first."},
	"cross":     {"cross :: Array a -> Array b -> Array (a, b)", "Every pair, the loop over the first array outermost; the second array must be materialised first."},
	"external":  {"external f args", "Calls a host function between loops: a fusion barrier; its array outputs get sizes known only at run time."},
	"postscanl": {"postscanl :: (a -> b -> a) -> a -> Array b -> Array a", "Inclusive scan: element i is the fold of the first i+1 elements. The output has the input's size and fuses like map."},
	"prescanl":  {"prescanl :: (a -> b -> a) -> a -> Array b -> Array a", "Exclusive scan: element i is the fold of the first i elements, so it starts with the starting value. The output has the input's size and fuses like map."},
	"indexed":   {"indexed :: Array a -> Array (Nat, a)", "Pairs each element with its position; the output has the input's size."},
	"zip":       {"zip :: Array a -> Array b -> Array (a, b)", "Pairs the elements at each position; both arrays must have the same size (map2 (\\x y -> (x, y)))."},
	"unzip":     {"(as, bs) = unzip :: Array (a, b) -> (Array a, Array b)", "Splits an array of pairs into the first and the second components, both of the input's size."},
	"take":      {"take :: Int -> Array a -> Array a", "The first n elements (all of them when n is larger). A transducer like filter: its output size is known only at run time."},
	"drop":      {"drop :: Int -> Array a -> Array a", "All but the first n elements (none when n is larger). A transducer like filter: its output size is known only at run time."},
	"slice":     {"slice :: Int -> Int -> Array a -> Array a", "The elements at positions i to i+n-1 that exist. A transducer like filter: its output size is known only at run time."},
	"tail":      {"tail :: Array a -> Array a", "All but the first element (drop 1; empty for an empty array). A transducer like filter."},
	"append":    {"append :: Array a -> Array a -> Array a", "All of the first array, then all of the second: size k1 + k2, in that order. Its inputs are read from memory; its consumers fuse with it."},
	"length":    {"length :: Array a -> Int", "The number of elements. Known before any loop when the array's size comes from the parameters; otherwise counted over the array whose size it is, and its users wait for it."},
	"reverse":   {"reverse :: Array a -> Array a", "The elements from last to first, with the input's size. Reads its input from the end, so the input must be materialised first; its consumers fuse with it."},
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
	if !r.Live(bnd) {
		b.WriteString("\n\n**never computed**: no result needs its elements (it is used only for its length)")
		return
	}
	if l, ok := r.LengthOf(bnd); ok && l.Known != nil {
		fmt.Fprintf(b, "\n\n**known before any loop**: `%s`, from the sizes; no loop counts it", syntax.FormatExpr(l.Known))
		return
	}
	fmt.Fprintf(b, "\n\niteration size `%s`", r.FormatSize(r.Iter(bnd), true))
	if tr := r.Trans(bnd); tr != nil {
		fmt.Fprintf(b, ", parent transducer `%s`", tr.Name())
	}
	if l, ok := r.LengthOf(bnd); ok {
		fmt.Fprintf(b, "; counts `%s`, whose size it is", l.Source)
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
