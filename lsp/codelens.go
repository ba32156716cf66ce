package lsp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/syntax"
)

// codeLens shows, above each definition, its loop count against the baselines (opening the
// clustering); above each binding, its loop and loop-mates; above the first binding of each
// loop, a link to the loop's fused process. Lenses come from the latest clustering, placed by
// name on the current text, so they stay while the text is being edited or has errors.
func (s *Server) codeLens(ctx context.Context, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	uri := string(p.TextDocument.URI)
	opts := s.options()
	vw, err := s.clusteredView(ctx, uri, opts.Debounce+2*opts.TimeLimit+time.Second)
	lenses := []protocol.CodeLens{}
	if err != nil || vw == nil {
		return lenses, err
	}
	f := vw.file.Prog.Syntax.File
	for _, def := range f.Definitions() {
		ad := vw.def(def.Name.Name)
		if ad == nil {
			continue
		}
		rep := ad.Report
		bl := rep.Baselines()
		title := fmt.Sprintf("%s (unfused %d · stream fusion %d · Megiddo %s) — show clustering", syntax.Plural(rep.Ours.Loops(), "loop"), bl.Unfused, bl.Stream, bl.MegiddoText())
		lenses = append(lenses, lens(f, def.Name.Range, title, cmdShowClustering, uri, def.Name.Name))
		cl := rep.Ours.Clustering
		for _, b := range def.Bindings {
			nd := rep.Graph.Node(b.Name())
			if nd == nil {
				if title := notALoop(ad, b.Name()); title != "" {
					lenses = append(lenses, lens(f, b.Names[0].Range, title, "", uri, def.Name.Name))
				}
				continue
			}
			c := cl.Clusters[cl.Of[nd.ID]]
			if c.External() {
				lenses = append(lenses, lens(f, b.Names[0].Range, "external: a host call between loops", "", uri, def.Name.Name))
				continue
			}
			k := cl.LoopNumber(c.Index)
			title := fmt.Sprintf("loop %d of %d", k, cl.Loops())
			if others := without(c.Names(), b.Name()); len(others) > 0 {
				title += " · with " + strings.Join(others, ", ")
			}
			lenses = append(lenses, lens(f, b.Names[0].Range, title, "", uri, def.Name.Name))
			if c.Nodes[0].Binding.Name() == b.Name() {
				lenses = append(lenses, lens(f, b.Names[0].Range, "show fused process", cmdShowFusedProcess, uri, def.Name.Name, k))
			}
		}
	}
	return lenses, nil
}

func lens(f *syntax.File, r syntax.Range, title, command string, args ...any) protocol.CodeLens {
	return protocol.CodeLens{Range: toRange(f, r), Command: &protocol.Command{Title: title, Command: command, Arguments: args}}
}

// notALoop is the lens of a binding that is in no loop: a length known before any loop, or a
// binding that is never computed; "" for others (and for names the clustering does not know).
func notALoop(def *analysis.Def, name string) string {
	b := def.Sizes.Func.Binding(name)
	if b == nil {
		return ""
	}
	if !def.Sizes.Live(b) {
		return "never computed: only lengths use it"
	}
	if l, ok := def.Sizes.LengthOf(b); ok && l.Known != nil {
		return "before any loop: " + syntax.FormatExpr(l.Known)
	}
	return ""
}
