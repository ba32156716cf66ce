package lsp

import (
	"context"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/internal/present"
	"github.com/cnf-tools/cnf/syntax"
)

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
		info, _ := syntax.LookupCombinator(t.id.Name)
		m.code("haskell", info.Signature())
		m.printf("%s", info.Doc)
	case t.host:
		m.printf("%s: a host function (not bound by %s)", m.mono(t.id.Name), t.fn.Def.Name.Name)
		if ty := t.sizes.TypeAt(t.id); ty != "" {
			m.printf("\n\n%s at this use %s", m.term("type"), m.mono(ty))
		}
	case t.local:
		m.printf("%s: a parameter of a worker", m.bold(t.id.Name))
		if ty := t.sizes.TypeAt(t.id); ty != "" {
			m.printf("\n\n%s %s", m.term("type"), m.mono(ty))
		}
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
	// The definition's type leads, as gopls and rust-analyzer lead with a signature; then its
	// size scheme (the papers' "f :_s σ", without the notation), shortened when it has many
	// results.
	if sig := signature(t.fn, t.sizes); sig != "" {
		m.code("haskell", sig)
	}
	scheme := strings.TrimPrefix(t.sizes.Scheme.String(), t.fn.Def.Name.Name+" :_s ")
	if r := []rune(scheme); len(r) > maxSchemeShown {
		scheme = string(r[:maxSchemeShown]) + " …"
	}
	m.printf("%s %s", m.term("size scheme"), m.mono(scheme))
	if def := vw.def(t.fn.Def.Name.Name); def != nil {
		rep := def.Report
		bl := present.BaselinesOf(rep)
		m.printf("\n\n%s (%s %d · %s %d · %s %s), %s %d", m.termCount(rep.Ours.Loops(), "loops"), m.term("unfused"), bl.Unfused, m.term("stream fusion"), bl.Stream,
			m.term("Megiddo"), bl.MegiddoText(), m.term("objective"), rep.Ours.Objective)
		if !rep.Ours.Optimal {
			m.printf(", %s", m.term("not proven optimal"))
			if b := rep.Ours.Bound; b > 0 {
				m.printf(" (the optimum is at least %d)", b)
			}
		}
		if rs := rep.Graph.MeasuredRates(); len(rs) > 0 {
			// The weights are not the guess: say whose (cnf.solver.rates).
			m.printf("\n\nfilters weighed by their measured rates: %s", present.RatesText(rs, m.mono))
		}
		if rs := rep.Graph.KnownRates(); len(rs) > 0 {
			// A test the same for every element: its filter weighs what it keeps.
			m.printf("\n\nfilters whose test is the same for every element, weighed so: %s", present.KnownRatesText(rs, m.mono))
		}
	}
	if ms, ok := vw.measured(t.fn.Def.Name.Name); ok {
		m.printf("\n\n%s (compiled to C, median of %d runs)", m.bold(ms.summary), benchRuns)
		if ms.verdict != "" {
			m.printf("\n\n%s", ms.verdict)
		}
		m.table(ms.header, ms.rows)
	}
}

// maxSchemeShown is how much of a size scheme a hover shows (a 60-result definition's was a
// wall of ∃k3 ... k30).
const maxSchemeShown = 240

// signature is a definition's type as CNF writes it ("f :: Array Int -> Int -> (Array Int,
// Int)"), from the types inferred; "" when a type is not known.
func signature(fn *syntax.Func, r *infer.Result) string {
	var parts []string
	for _, p := range fn.Params {
		ty := r.TypeOf(p.Name)
		if ty == "" {
			return ""
		}
		parts = append(parts, ty)
	}
	var res []string
	for _, id := range fn.Def.Results {
		ty := r.TypeOf(id.Name)
		if ty == "" {
			return ""
		}
		res = append(res, ty)
	}
	out := strings.Join(res, ", ")
	if len(res) != 1 {
		out = "(" + out + ")"
	}
	return fn.Def.Name.Name + " :: " + strings.Join(append(parts, out), " -> ")
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
	if ty := r.TypeOf(sym.Name); ty != "" {
		m.printf("\n\n%s %s", m.term("type"), m.mono(ty))
	}
	if r != nil && sym.Kind == syntax.Array {
		if size := r.Size(sym.Name); size != nil {
			m.printf("\n\nsize %s", m.mono(r.FormatSize(size, true)))
			if v, ok := size.(*infer.Var); ok && v.Rigid && v.Origin != nil {
				m.printf(" (∃: chosen at run time by the %s of %s)", syntax.CallOf(v.Origin.Rhs).Keyword.Name, v.Output)
			}
			if !r.OK() {
				m.printf("; as the bindings without size errors determine it")
			}
		} else if !r.OK() {
			m.printf("\n\nsize unknown while a size error in %s stands (it is, or reads, a binding with one)", t.fn.Def.Name.Name)
		}
	}
	if sym.Binding == nil || r == nil || !r.OK() {
		return
	}
	bnd := sym.Binding
	if !r.Live(bnd) {
		if len(sym.Uses) == 0 {
			m.printf("\n\n%s: nothing uses it", m.bold("unused, not computed"))
		} else {
			m.printf("\n\n%s: only lengths use it, and they need only its size", m.bold("not computed"))
		}
		return
	}
	if l, ok := r.LengthOf(bnd); ok && l.Known != nil {
		m.printf("\n\n%s: %s, from the sizes; no loop counts it", m.bold("known before any loop"), m.mono(syntax.FormatExpr(l.Known)))
		return
	}
	m.printf("\n\n%s %s", m.term("iteration size"), m.mono(r.FormatSize(r.Iter(bnd), true)))
	if tr := r.Trans(bnd); tr != nil {
		m.printf(", parent %s %s", m.term("transducer"), m.mono(tr.Name()))
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
		m.printf("\n\nan %s: a host call between loops", m.term("external"))
	} else {
		m.printf("\n\nloop %d of %d", cl.LoopNumber(c.Index), cl.Loops())
		if others := without(c.Names(), bnd.Name()); len(others) > 0 {
			m.printf(", with %s", strings.Join(others, ", "))
		}
		if sym.Kind == syntax.Array {
			if slices.Contains(c.Contracted, sym.Name) {
				m.printf("; %s: never written to memory", m.bold(m.term("contracted")))
			} else {
				m.printf("; %s", m.bold(m.term("materialised")))
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
