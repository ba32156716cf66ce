package lsp

import "github.com/cnf-tools/cnf/internal/present"

// cnf's own protocol: the commands' results and the status notification. The VS Code extension
// mirrors these types in vscode-extension/src/lsp_ext.ts; keep the two in step.

// Commands the server executes through workspace/executeCommand. Arguments: the document URI,
// the definition's name and, for cnf.showFusedProcess, optionally a loop number. A fourth,
// cnf.proveOptimal (prove.go), returns nothing and works in the background; so does
// cnf.benchmark (benchmark.go); cnf.showC returns a TextResult.
const (
	cmdShowClustering   = "cnf.showClustering"
	cmdShowFusedProcess = "cnf.showFusedProcess"
	cmdShowILP          = "cnf.showILP"
)

var commandNames = []string{cmdShowClustering, cmdShowFusedProcess, cmdShowILP, cmdProveOptimal, cmdShowC, cmdBenchmark}

// ClusteringResult is what cnf.showClustering returns: the diagram and the clusters.
type ClusteringResult struct {
	Function string          `json:"function"`
	DOT      string          `json:"dot"`
	Summary  present.Summary `json:"summary"`
	// Terms explains the words of the view's header (glossary.go), for its tooltips and links.
	Terms map[string]Term `json:"terms"`
	// Collapsed: the diagram draws each loop as a box, except the loops in Expanded.
	Collapsed bool  `json:"collapsed,omitempty"`
	Expanded  []int `json:"expanded,omitempty"`
}

// TextResult is what cnf.showFusedProcess and cnf.showILP return.
type TextResult struct {
	Function string `json:"function"`
	Text     string `json:"text"`
}

// statusMethod is the notification that tells a client (one whose capabilities include
// experimental.cnfStatus) where the analysis of a document stands, so that it never guesses
// with timers: "parsed" once the diagnostics of syntax and sizes are out, "clustered" once
// the clustering's diagnostics and lenses are ready, "done" once background explanations are
// finished too (the server is quiet for that document).
const statusMethod = "cnf/status"

// Status is the params of cnf/status.
type Status struct {
	URI         string             `json:"uri"`
	Version     int32              `json:"version"`
	State       string             `json:"state"` // "parsed", "clustered" or "done"
	Errors      int                `json:"errors"`
	Definitions []DefinitionStatus `json:"definitions"`
}

// DefinitionStatus is a definition's clustering in a status: what a status bar shows.
type DefinitionStatus struct {
	Name      string `json:"name"`
	StartLine int    `json:"startLine"` // 0-based, for the client to find the definition under the cursor
	EndLine   int    `json:"endLine"`
	Loops     int    `json:"loops"`
	Optimal   bool   `json:"optimal"`
	// Bound is, for a clustering not proven optimal, the least objective any clustering can
	// have (cluster.Result.Bound; 0: unknown).
	Bound     int               `json:"bound,omitempty"`
	Baselines present.Baselines `json:"baselines"`
	// Bindings place the loops on the current text, for a client to colour them (gutter,
	// border): each binding that runs in a loop, with the loop's number and colour.
	Bindings []BindingLoop `json:"bindings"`
}

// BindingLoop is where a binding of the current text runs: lines 0-based, inclusive.
type BindingLoop struct {
	Name      string `json:"name"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	Loop      int    `json:"loop"`
	Color     string `json:"color"` // cluster.LoopColor
}
