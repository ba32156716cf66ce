package lsp

import (
	"context"
	"fmt"
	"time"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/syntax"
)

// codeLens shows, above each definition, its loop count against the baselines (opening the
// clustering), and above the first binding of each loop a link to its fused process. Where each
// binding runs is an inlay hint (inlayhints.go), not a lens: a lens a binding doubled the
// height of a definition. Lenses come from the latest clustering, placed by name on the current
// text, so they stay while the text is being edited or has errors.
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
				continue
			}
			if c := cl.Clusters[cl.Of[nd.ID]]; !c.External() && c.Nodes[0].Binding.Name() == b.Name() {
				k := cl.LoopNumber(c.Index)
				lenses = append(lenses, lens(f, b.Names[0].Range, fmt.Sprintf("loop %d: show fused process", k), cmdShowFusedProcess, uri, def.Name.Name, k))
			}
		}
	}
	return lenses, nil
}

func lens(f *syntax.File, r syntax.Range, title, command string, args ...any) protocol.CodeLens {
	return protocol.CodeLens{Range: toRange(f, r), Command: &protocol.Command{Title: title, Command: command, Arguments: args}}
}
