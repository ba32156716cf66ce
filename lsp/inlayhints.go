package lsp

import (
	"context"
	"fmt"
	"strings"

	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/syntax"
)

// inlayHint shows, at the end of each binding, the loop it runs in (or why it runs in none),
// and after each array binding's name its size: what a per-binding lens said, without
// doubling the height of a definition. Both kinds can be turned off in the settings. Loops
// come from the latest clustering, found by name; sizes from the current text.
func (s *Server) inlayHint(ctx context.Context, p *inlayHintParams) ([]inlayHint, error) {
	vw, err := s.view(ctx, string(p.TextDocument.URI))
	hints := []inlayHint{}
	if err != nil || vw == nil {
		return hints, err
	}
	opts := s.options()
	f := vw.file.Prog.Syntax.File
	from, to := fromPosition(f, p.Range.Start), fromPosition(f, p.Range.End)
	for i, fn := range vw.file.Prog.Syntax.Funcs {
		if fn.Def.End < from || fn.Def.Start > to {
			continue
		}
		sizes := vw.file.Prog.Funcs[i]
		def := vw.def(fn.Def.Name.Name)
		for _, b := range fn.Def.Bindings {
			if b.End < from || b.Start > to {
				continue
			}
			if opts.SizeHints && sizes != nil {
				for _, id := range b.Names {
					if t := sizes.Size(id.Name); t != nil {
						hints = append(hints, inlayHint{Position: toPosition(f, id.End), Label: ": " + sizes.FormatSize(t, true), Kind: inlayHintType,
							Tooltip: "the size of " + id.Name})
					}
				}
			}
			if opts.LoopHints && def != nil {
				if label, tip := loopHint(def, b.Name()); label != "" {
					hints = append(hints, inlayHint{Position: toPosition(f, b.End), Label: label, PaddingLeft: true, Tooltip: tip})
				}
			}
		}
	}
	return hints, nil
}

// loopHint is what a binding's loop hint says ("loop 2") and its tooltip ("with ys2"), from the
// definition's clustering; "" for a name the clustering does not know.
func loopHint(def *analysis.Def, name string) (label, tooltip string) {
	b := def.Sizes.Func.Binding(name)
	if b == nil {
		return "", ""
	}
	if title := notALoop(def, name); title != "" {
		label, _, _ = strings.Cut(title, ":")
		return label, title
	}
	nd := def.Report.Graph.Node(name)
	if nd == nil {
		return "", ""
	}
	cl := def.Report.Ours.Clustering
	c := cl.Clusters[cl.Of[nd.ID]]
	if c.External() {
		return "external", "a host call between loops"
	}
	tooltip = fmt.Sprintf("loop %d of %d", cl.LoopNumber(c.Index), cl.Loops())
	if others := without(c.Names(), name); len(others) > 0 {
		tooltip += ", with " + strings.Join(others, ", ")
	}
	return fmt.Sprintf("loop %d", cl.LoopNumber(c.Index)), tooltip
}

// notALoop says why a binding is in no loop: it is never computed (unused, or used only by
// lengths), or it is a length known before any loop; "" for others.
func notALoop(def *analysis.Def, name string) string {
	b := def.Sizes.Func.Binding(name)
	if b == nil {
		return ""
	}
	if !def.Sizes.Live(b) {
		for _, id := range b.Names {
			if s := def.Sizes.Func.Symbols[id.Name]; s != nil && len(s.Uses) > 0 {
				return "not computed: only lengths use it, and they need only its size"
			}
		}
		return "unused: not computed"
	}
	if l, ok := def.Sizes.LengthOf(b); ok && l.Known != nil {
		return "before any loop: " + syntax.FormatExpr(l.Known)
	}
	return ""
}
