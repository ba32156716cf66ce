package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
)

func init() { onRequest("workspace/executeCommand", (*Server).executeCommand) }

// ClusteringResult is what cnf.showClustering returns: the diagram and the clusters.
type ClusteringResult struct {
	Function string          `json:"function"`
	DOT      string          `json:"dot"`
	Summary  cluster.Summary `json:"summary"`
}

// TextResult is what cnf.showFusedProcess and cnf.showILP return.
type TextResult struct {
	Function string `json:"function"`
	Text     string `json:"text"`
}

// executeCommand runs cnf.showClustering, cnf.showFusedProcess and cnf.showILP. Arguments:
// the document URI, the definition's name, and for cnf.showFusedProcess optionally the loop
// number (all loops without it). Answers come from the latest clustering; a document not yet
// clustered gets an error saying so.
func (s *Server) executeCommand(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.ExecuteCommandParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
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
	d := s.snapshot(uri)
	if d == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: the first argument must be the URI of an open document", p.Command)
	}
	if name == "" && d.loops != nil && len(d.loops.funcs) == 1 {
		for n := range d.loops.funcs {
			name = n
		}
	}
	fl := d.loopsOf(name)
	if fl == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %q has no clustering yet (it has errors, or analysis is still running)", p.Command, name)
	}
	switch p.Command {
	case "cnf.showClustering":
		var dot bytes.Buffer
		if err := cluster.WriteDOT(&dot, fl.report.Ours.Clustering, name); err != nil {
			return nil, err
		}
		return ClusteringResult{Function: name, DOT: dot.String(), Summary: fl.report.Summarize()}, nil
	case "cnf.showFusedProcess":
		var out bytes.Buffer
		k := 0
		for _, fu := range fl.fused {
			if fu.Cluster.External() {
				continue
			}
			k++
			if loop != 0 && k != loop {
				continue
			}
			fmt.Fprintf(&out, "-- %s, loop %d: %s\n", name, k, joinNames(fu.Cluster.Names()))
			var fe *fuse.FusionError
			switch {
			case fu.Process != nil:
				fmt.Fprintf(&out, "-- %d states\n", fu.Process.States())
				fuse.WriteProcess(&out, fu.Process, false)
			case errors.As(fu.Err, &fe):
				fmt.Fprintf(&out, "-- fusion failed: %v\n", fe)
			default:
				fmt.Fprintf(&out, "-- %v\n", fu.Err)
			}
			out.WriteString("\n")
		}
		if out.Len() == 0 {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s has no loop %d", name, loop)
		}
		return TextResult{Function: name, Text: out.String()}, nil
	case "cnf.showILP":
		var out bytes.Buffer
		m := fl.report.Ours.Model
		if m == nil { // solved without a model (nothing to optimise, or over the budget)
			m = cluster.Formulate(fl.report.Graph, cluster.FormulateOptions{})
		}
		if err := cluster.WriteLP(&out, m, "clustering ILP of "+name); err != nil {
			return nil, err
		}
		return TextResult{Function: name, Text: out.String()}, nil
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q", p.Command)
}
