package lsp

import (
	"bytes"
	"context"
	"errors"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/internal/present"
)

// executeCommand runs cnf.showClustering, cnf.showFusedProcess, cnf.showILP, cnf.showC,
// cnf.proveOptimal and cnf.benchmark (see ext.go).
// Answers come from the latest clustering; a definition not yet clustered gets an error
// saying so.
func (s *Server) executeCommand(ctx context.Context, p *protocol.ExecuteCommandParams) (any, error) {
	var uri, name string
	loop := 0
	if len(p.Arguments) > 0 {
		uri, _ = p.Arguments[0].(string)
	}
	if len(p.Arguments) > 1 {
		name, _ = p.Arguments[1].(string)
	}
	if len(p.Arguments) > 2 {
		if f, ok := p.Arguments[2].(float64); ok {
			loop = int(f)
		}
	}
	// A command sent right after the document opened (a title-bar button, a restored view)
	// waits for its first clustering (its effort is work, which a busy machine takes longer
	// to do: up to the clock's safety net).
	opts := s.options()
	vw, err := s.clusteredView(ctx, uri, opts.Debounce+cluster.SafetyFactor*opts.TimeLimit+time.Second)
	if err != nil {
		return nil, err
	}
	if vw == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: the first argument must be the URI of an open document", p.Command)
	}
	if name == "" && len(vw.goodDef) == 1 {
		for n := range vw.goodDef {
			name = n
		}
	}
	def := vw.def(name)
	if def == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %q has no clustering yet (it has errors, or analysis is still running)", p.Command, name)
	}
	switch p.Command {
	case cmdProveOptimal:
		s.prove(vw, name)
		return nil, nil
	case cmdBenchmark:
		s.benchmark(vw, name)
		return nil, nil
	case cmdShowC:
		return showC(vw, name), nil
	case cmdShowClustering:
		var view diagramView
		if len(p.Arguments) > 2 {
			view = diagramViewOf(p.Arguments[2])
		}
		return showClustering(def, view)
	case cmdShowFusedProcess:
		var out bytes.Buffer
		out.WriteString(fuse.ReadableHeader + "\n")
		if n, _ := fuse.WriteLoops(&out, def.Fused(), fuse.LoopsOptions{Definition: name, Loop: loop}); n == 0 {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s has no loop %d", name, loop)
		}
		return TextResult{Function: name, Text: out.String()}, nil
	case cmdShowILP:
		var out bytes.Buffer
		if err := cluster.WriteLP(&out, def.Model(), "clustering ILP of "+name); err != nil {
			return nil, err
		}
		return TextResult{Function: name, Text: out.String()}, nil
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q", p.Command)
}

func showClustering(def *analysis.Def, view diagramView) (ClusteringResult, error) {
	var dot bytes.Buffer
	cl := def.Report.Ours.Clustering
	opts := present.DOTOptions{Title: def.Name, Expanded: map[int]bool{}}
	// Large clusterings start with their loops collapsed to boxes; the view says otherwise
	// once the user has chosen.
	opts.Collapse = len(cl.Graph.Nodes) > present.CollapseAbove && cl.Loops() > 1
	if view.Collapse != nil {
		opts.Collapse = *view.Collapse
	}
	var expanded []int
	for _, k := range view.Expand {
		if k >= 1 && k <= cl.Loops() && !opts.Expanded[k] {
			opts.Expanded[k] = true
			expanded = append(expanded, k)
		}
	}
	if err := present.WriteDOT(&dot, cl, opts); err != nil {
		return ClusteringResult{}, errors.Join(errors.New("writing the diagram"), err)
	}
	return ClusteringResult{Function: def.Name, DOT: dot.String(), Summary: present.Summarize(def.Report), Terms: glossary(),
		Collapsed: opts.Collapse, Expanded: expanded}, nil
}

// diagramView is how a clustering view asks for its diagram, the optional third argument of
// cnf.showClustering: {"collapse": true, "expand": [2, 5]} (loops drawn as boxes, except loops
// 2 and 5). Without it a large clustering starts collapsed.
type diagramView struct {
	Collapse *bool
	Expand   []int
}

// diagramViewOf reads the argument; what it does not understand it leaves out.
func diagramViewOf(arg any) diagramView {
	var v diagramView
	m, ok := arg.(map[string]any)
	if !ok {
		return v
	}
	if b, ok := m["collapse"].(bool); ok {
		v.Collapse = &b
	}
	if xs, ok := m["expand"].([]any); ok {
		for _, x := range xs {
			if f, ok := x.(float64); ok && f == float64(int(f)) {
				v.Expand = append(v.Expand, int(f))
			}
		}
	}
	return v
}
