package analysis

import (
	"fmt"
	"strings"

	"github.com/cnf-tools/cnf/syntax"
)

// Diagnostic codes of what clustering and fusion find.
const (
	CodeFusionPreventing = "fusion-preventing"
	CodeClustering       = "clustering"
	CodeFusion           = "fusion"
)

// Diagnostics are what the clustering and fusion of a definition add to its front end's and
// sizes' diagnostics: each fusion-preventing edge (with its reasons, at the consumer's argument;
// at severity preventing, or none when preventing is 0), a solver failure, a clustering not
// proven optimal (and why), and loops that could not be fused.
func (d *Def) Diagnostics(preventing syntax.Severity) []syntax.Diagnostic {
	var out []syntax.Diagnostic
	g := d.Report.Graph
	if preventing != 0 {
		for _, e := range g.Edges {
			if !e.Preventing {
				continue
			}
			out = append(out, syntax.Diagnostic{Range: e.At, Severity: preventing, Code: CodeFusionPreventing,
				Message: fmt.Sprintf("%s and %s cannot share a loop: %s", e.From.Name, e.To.Name, strings.Join(e.Reasons, "; ")),
				Related: []syntax.Related{{Range: e.From.Binding.Names[0].Range, Message: e.From.Name + " is computed here"}}})
		}
	}
	ours := d.Report.Ours
	def := d.Sizes.Func.Def
	switch {
	case ours.Fallback != "":
		out = append(out, syntax.Diagnostic{Range: def.Name.Range, Severity: syntax.Warning, Code: CodeClustering, Message: ours.Fallback})
	case !ours.Optimal:
		out = append(out, syntax.Diagnostic{Range: def.Name.Range, Severity: syntax.Information, Code: CodeClustering,
			Message: fmt.Sprintf("the clustering of %s is not proven optimal: %s", def.Name.Name, ours.NotProven())})
	}
	cl := ours.Clustering
	for _, fu := range d.Fused() {
		if fu.Err == nil || fu.Cluster.External() {
			continue
		}
		out = append(out, syntax.Diagnostic{Range: fu.Cluster.Nodes[0].Binding.Names[0].Range, Severity: syntax.Warning, Code: CodeFusion,
			Message: fmt.Sprintf("loop %d (%s) cannot be fused into one process: %v; it runs as concurrent processes",
				cl.LoopNumber(fu.Cluster.Index), strings.Join(fu.Cluster.Names(), ", "), fu.Err)})
	}
	return out
}
