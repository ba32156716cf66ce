package lsp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/syntax"
)

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

// hover describes the name under the cursor: a definition's size scheme and loops; a
// combinator's type and meaning; a host function; a parameter's or binding's size, iteration
// size, transducer, loop and why it is not in each other loop.
func (s *Server) hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	vw, t, err := s.at(ctx, &p.TextDocumentPositionParams)
	if err != nil || t == nil {
		return nil, err
	}
	m := &markup{md: s.capabilities().markdown()}
	switch {
	case t.defName:
		hoverDefinition(m, vw, t)
	case t.comb != nil:
		name := t.id.Name
		if _, isMap := syntax.MapArity(name); isMap && name != "map" {
			name = "mapN"
		}
		doc := combinatorDocs[name]
		m.code("haskell", doc[0])
		m.printf("%s", doc[1])
	case t.host:
		m.printf("%s: a host function (not bound by %s)", m.mono(t.id.Name), t.fn.Def.Name.Name)
	case t.sym != nil:
		hoverSymbol(m, vw, t)
	}
	if m.b.Len() == 0 {
		return nil, nil
	}
	rng := toRange(vw.file.Prog.Syntax.File, t.id.Range)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKind(m.kind()), Value: m.String()}, Range: &rng}, nil
}

func hoverDefinition(m *markup, vw *view, t *target) {
	if t.sizes == nil || !t.sizes.OK() {
		m.printf("%s: no size scheme (the definition has errors)", m.bold(t.fn.Def.Name.Name))
		return
	}
	m.code("", t.sizes.Scheme.String())
	if def := vw.def(t.fn.Def.Name.Name); def != nil {
		rep := def.Report
		bl := rep.Baselines()
		m.printf("\n%s (unfused %d · stream fusion %d · Megiddo %s), objective %d", plural(rep.Ours.Loops(), "loop"), bl.Unfused, bl.Stream, bl.MegiddoText(), rep.Ours.Objective)
		if !rep.Ours.Optimal {
			m.printf(", not proven optimal")
		}
	}
}

func hoverSymbol(m *markup, vw *view, t *target) {
	sym, r := t.sym, t.sizes
	kind := "scalar"
	if sym.Kind == syntax.Array {
		kind = "array"
	}
	role := "bound by " + t.fn.Def.Name.Name
	if sym.Param >= 0 {
		role = "a parameter of " + t.fn.Def.Name.Name
	}
	m.printf("%s: %s, %s", m.bold(sym.Name), kind, role)
	if r != nil && sym.Kind == syntax.Array {
		if size := r.Size(sym.Name); size != nil {
			m.printf("\n\nsize %s", m.mono(r.FormatSize(size, true)))
			if v, ok := size.(*infer.Var); ok && v.Rigid && v.Origin != nil {
				m.printf(" (∃: chosen at run time by the %s of %s)", syntax.CallOf(v.Origin.Rhs).Keyword.Name, v.Output)
			}
		}
	}
	if sym.Binding == nil || r == nil || !r.OK() {
		return
	}
	bnd := sym.Binding
	if !r.Live(bnd) {
		m.printf("\n\n%s: no result needs its elements (it is used only for its length)", m.bold("never computed"))
		return
	}
	if l, ok := r.LengthOf(bnd); ok && l.Known != nil {
		m.printf("\n\n%s: %s, from the sizes; no loop counts it", m.bold("known before any loop"), m.mono(syntax.FormatExpr(l.Known)))
		return
	}
	m.printf("\n\niteration size %s", m.mono(r.FormatSize(r.Iter(bnd), true)))
	if tr := r.Trans(bnd); tr != nil {
		m.printf(", parent transducer %s", m.mono(tr.Name()))
	}
	if l, ok := r.LengthOf(bnd); ok {
		m.printf("; counts %s, whose size it is", m.mono(l.Source))
	}
	def := vw.def(t.fn.Def.Name.Name)
	if def == nil {
		return
	}
	nd := def.Report.Graph.Node(bnd.Name())
	if nd == nil {
		return
	}
	cl := def.Report.Ours.Clustering
	c := cl.Clusters[cl.Of[nd.ID]]
	if c.External() {
		m.printf("\n\nan external: a host call between loops")
	} else {
		m.printf("\n\nloop %d of %d", cl.LoopNumber(c.Index), cl.Loops())
		if others := without(c.Names(), bnd.Name()); len(others) > 0 {
			m.printf(", with %s", strings.Join(others, ", "))
		}
		if sym.Kind == syntax.Array {
			if slices.Contains(c.Contracted, sym.Name) {
				m.printf("; %s: never materialised", m.bold("contracted"))
			} else {
				m.printf("; %s", m.bold("materialised"))
			}
		}
	}
	whyNot(m, def, nd.ID)
}

// whyNot renders the exclusions of a binding from every other loop.
func whyNot(m *markup, def *analysis.Def, n int) {
	xs := def.WhyNot(n)
	if len(xs) == 0 {
		return
	}
	m.printf("\n\n%s", m.bold("Why not in another loop?"))
	for _, x := range xs {
		m.printf("\n- not in loop %d (%s): %s", x.Loop, strings.Join(x.Cluster.Names(), ", "), x.Reason())
	}
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

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
