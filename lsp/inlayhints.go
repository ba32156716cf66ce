package lsp

import (
	"context"
	"fmt"
	"strings"

	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/syntax"
)

// inlayHint shows, at the end of each binding, the loop it runs in (or why it runs in none),
// a click away from the loop's fused process, and after each array binding's name its size:
// what a per-binding lens said, without doubling the height of a definition. Both kinds can be
// turned off in the settings. Loops come from the latest clustering, found by name, and only
// while the definition's current text has no errors (otherwise they are of an older text);
// sizes come from the current text, and during a size error only the sizes that the bindings
// without errors determine (infer.Infer).
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
		if !vw.current(i) {
			def = nil
		}
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
				if label, tip, k := loopHint(def, b.Name()); label != "" {
					h := inlayHint{Position: toPosition(f, b.End), Label: label, PaddingLeft: true, Tooltip: tip}
					if k > 0 {
						// The label is a link to the loop's fused process (a per-loop lens was).
						h.Label = []inlayHintLabelPart{{Value: label, Tooltip: tip + "\nCtrl+click (Cmd+click on macOS): show the loop's fused process.",
							Command: &command{Title: "show fused process", Command: cmdShowFusedProcess, Arguments: []any{vw.uri, fn.Def.Name.Name, k}}}}
						h.Tooltip = ""
					}
					hints = append(hints, h)
				}
			}
		}
	}
	return hints, nil
}

// loopHint is what a binding's loop hint says ("loop 2"), its tooltip ("with ys2") and the
// loop's number (0 for none), from the definition's clustering; "" for a name the clustering
// does not know.
func loopHint(def *analysis.Def, name string) (label, tooltip string, loop int) {
	b := def.Sizes.Func.Binding(name)
	if b == nil {
		return "", "", 0
	}
	if title := notALoop(def, name); title != "" {
		label, _, _ = strings.Cut(title, ":")
		return label, title, 0
	}
	nd := def.Report.Graph.Node(name)
	if nd == nil {
		return "", "", 0
	}
	cl := def.Report.Ours.Clustering
	c := cl.Clusters[cl.Of[nd.ID]]
	if c.External() {
		return "external", "a host call between loops", 0
	}
	tooltip = fmt.Sprintf("loop %d of %d", cl.LoopNumber(c.Index), cl.Loops())
	if others := without(c.Names(), name); len(others) > 0 {
		tooltip += ", with " + strings.Join(others, ", ")
	}
	return fmt.Sprintf("loop %d", cl.LoopNumber(c.Index)), tooltip, cl.LoopNumber(c.Index)
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
