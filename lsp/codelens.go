package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/syntax"
)

func init() { onRequest("textDocument/codeLens", (*Server).codeLens) }

// codeLens shows, above each definition, its loop count against the baselines (opening the
// clustering); above each binding, its loop and loop-mates; above the first binding of each loop,
// a link to the loop's fused process. Lenses come from the latest clustering, placed by name
// on the current text, so they stay while the text is being edited or has errors.
func (s *Server) codeLens(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.CodeLensParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	uri := string(p.TextDocument.URI)
	opts := s.options()
	d := s.awaitFirstLoops(ctx, uri, opts.Debounce+2*opts.TimeLimit+time.Second)
	lenses := []protocol.CodeLens{}
	if d == nil {
		return lenses, nil
	}
	f := d.prog.Syntax.File
	for _, def := range f.Definitions() {
		fl := d.loopsOf(def.Name.Name)
		if fl == nil {
			continue
		}
		rep := fl.report
		bl := rep.Baselines()
		title := fmt.Sprintf("%s (unfused %d · stream fusion %d · Megiddo %d) — show clustering", plural(rep.Ours.Loops(), "loop"), bl.Unfused, bl.Stream, bl.Megiddo)
		lenses = append(lenses, lens(f, def.Name.Range, title, "cnf.showClustering", uri, def.Name.Name))
		cl := rep.Ours.Clustering
		for _, b := range def.Bindings {
			nd := rep.Graph.Node(b.Name())
			if nd == nil {
				if title := notALoop(fl, b.Name()); title != "" {
					lenses = append(lenses, lens(f, b.Names[0].Range, title, "", uri, def.Name.Name))
				}
				continue
			}
			c := cl.Clusters[cl.Of[nd.ID]]
			if c.External() {
				lenses = append(lenses, lens(f, b.Names[0].Range, "external: a host call between loops", "", uri, def.Name.Name))
				continue
			}
			k := loopNumber(cl, c.Index)
			title := fmt.Sprintf("loop %d of %d", k, cl.Loops())
			if others := without(c.Names(), b.Name()); len(others) > 0 {
				title += " · with " + joinNames(others)
			}
			lenses = append(lenses, lens(f, b.Names[0].Range, title, "", uri, def.Name.Name))
			if c.Nodes[0].Binding == b {
				lenses = append(lenses, lens(f, b.Names[0].Range, "show fused process", "cnf.showFusedProcess", uri, def.Name.Name, k))
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
func notALoop(fl *funcLoops, name string) string {
	b := fl.sizes.Func.Binding(name)
	if b == nil {
		return ""
	}
	if !fl.sizes.Live(b) {
		return "never computed: only lengths use it"
	}
	if l, ok := fl.sizes.LengthOf(b); ok && l.Known != nil {
		return "before any loop: " + syntax.FormatExpr(l.Known)
	}
	return ""
}
