package lsp

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/syntax/gen"
)

// generated is a random program of n bindings (the classic generator), the same for a seed.
func generated(n int, seed uint64, shape string) string {
	return gen.Program(rand.New(rand.NewPCG(seed, 0x636e66)), gen.Options{Bindings: n, Shape: shape})
}

// clusteringDiagnostic is the message of the "clustering" diagnostic of a publication, or "".
func clusteringDiagnostic(p diagParams) string {
	for _, raw := range p.Diagnostics {
		var d struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		}
		json.Unmarshal(raw, &d)
		if d.Code == "clustering" {
			return d.Message
		}
	}
	return ""
}

// A clustering not proven under the time limit offers "Prove optimal"; running it shows a
// progress, and when the proof is done the document is analysed again: the diagnostic that
// said "not proven optimal" is gone, and the lens shows the proven clustering.
func TestProveOptimal(t *testing.T) {
	opts := DefaultOptions()
	opts.TimeLimit = 10 * time.Millisecond
	opts.Debounce = 0
	c := startServer(t, opts, map[string]any{"window": map[string]any{"workDoneProgress": true}})
	uri := "file:///prove.cnf"
	c.open(uri, generated(50, 4, ""))
	c.analysed(uri, 1)
	first := c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == 1 })
	if !strings.Contains(clusteringDiagnostic(first), "not proven optimal") {
		t.Skipf("the clustering was proven within %v: %q", opts.TimeLimit, clusteringDiagnostic(first))
	}
	var actions []protocol.CodeAction
	if err := c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range":   map[string]any{"start": map[string]any{"line": 3, "character": 2}, "end": map[string]any{"line": 3, "character": 2}},
		"context": map[string]any{"diagnostics": []any{}}}, &actions); err != nil {
		t.Fatal(err)
	}
	var prove *protocol.CodeAction
	for i, a := range actions {
		if a.Command != nil && a.Command.Command == cmdProveOptimal {
			prove = &actions[i]
		}
	}
	if prove == nil {
		t.Fatalf("no Prove optimal action among %+v", actions)
	}
	since := c.published(uri)
	c.mu.Lock()
	statuses := len(c.status[uri])
	c.mu.Unlock()
	if err := c.call("workspace/executeCommand", map[string]any{"command": prove.Command.Command, "arguments": prove.Command.Arguments}, nil); err != nil {
		t.Fatal(err)
	}
	c.waitProgress("begin", "Proving the clustering of prog optimal")
	c.waitProgress("end", "proven optimal")
	p := c.waitAfter(uri, since, func(p diagParams) bool { return clusteringDiagnostic(p) == "" })
	if p.Version != 1 {
		t.Errorf("republished version %d, want 1", p.Version)
	}
	// The status of the new analysis follows its diagnostics.
	var last Status
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		list := c.status[uri][statuses:]
		c.mu.Unlock()
		if i := slices.IndexFunc(list, func(s Status) bool { return s.State == "clustered" }); i >= 0 {
			last = list[i]
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(last.Definitions) != 1 || !last.Definitions[0].Optimal {
		t.Errorf("status after the proof: %+v", last.Definitions)
	}
}

// A proof reports the best objective and the bound as it goes; cancelling it keeps what it
// found: a clustering better than the one shown (found under a 10 ms limit, the greedy one)
// replaces it, marked as stopped, with the bound proved so far.
func TestStoppedProofKeepsWhatItFound(t *testing.T) {
	if !cluster.Linked() {
		t.Skip("the search's bounds come from HiGHS linked in (this build solves through executables)")
	}
	opts := DefaultOptions()
	opts.TimeLimit = 10 * time.Millisecond
	opts.Debounce = 0
	c := startServer(t, opts, map[string]any{"window": map[string]any{"workDoneProgress": true}})
	uri := "file:///stopped.cnf"
	c.open(uri, generated(200, 1, "fans")) // its proof takes minutes; its root loop reports its bound as it rises
	c.analysed(uri, 1)
	first := c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == 1 })
	if !strings.Contains(clusteringDiagnostic(first), "not proven optimal") {
		t.Fatalf("proven within %v: %q", opts.TimeLimit, clusteringDiagnostic(first))
	}
	since := c.published(uri)
	if err := c.call("workspace/executeCommand", map[string]any{"command": cmdProveOptimal, "arguments": []any{uri, "prog"}}, nil); err != nil {
		t.Fatal(err)
	}
	begin := c.waitProgress("begin", "Proving the clustering of prog optimal")
	report := c.waitProgress("report", "the optimum is at least")
	if report.Token != begin.Token {
		t.Fatalf("a report for progress %v, the proof's is %v", report.Token, begin.Token)
	}
	c.notify("window/workDoneProgress/cancel", map[string]any{"token": begin.Token})
	end := c.waitProgress("end", "stopped:")
	msg, _ := end.Value.(map[string]any)["message"].(string)
	if strings.Contains(msg, "nothing better found") {
		t.Skipf("nothing better than the greedy clustering by the first report on this machine: %q", msg)
	}
	if !strings.HasPrefix(msg, "stopped: objective ") || !strings.Contains(msg, "the optimum is at least") {
		t.Errorf("progress ended with %q", msg)
	}
	p := c.waitAfter(uri, since, func(p diagParams) bool { return strings.Contains(clusteringDiagnostic(p), "the solve was stopped") })
	if !strings.Contains(clusteringDiagnostic(p), "the optimum is at least") {
		t.Errorf("the clustering kept from the stopped proof: %q", clusteringDiagnostic(p))
	}
	// The definition's lens counts the loops of the clustering the proof kept, as the loop
	// hints number them (seen in the editor: the lens said 11 loops beside hints of 12).
	td := map[string]any{"uri": uri}
	var lenses []protocol.CodeLens
	if err := c.call("textDocument/codeLens", map[string]any{"textDocument": td}, &lenses); err != nil {
		t.Fatal(err)
	}
	var hints []inlayHint
	if err := c.call("textDocument/inlayHint", map[string]any{"textDocument": td, "range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 10000, "character": 0}}}, &hints); err != nil {
		t.Fatal(err)
	}
	most := 0
	for _, h := range hints {
		if m := regexp.MustCompile(`^"loop (\d+)`).FindStringSubmatch(hintText(h)); m != nil {
			k, _ := strconv.Atoi(m[1])
			most = max(most, k)
		}
	}
	want := fmt.Sprintf("%d loops", most)
	if len(lenses) == 0 || !strings.HasPrefix(lenses[0].Command.Title, want) {
		t.Errorf("after the stopped proof the hints number %d loops; the lenses: %+v", most, lenses)
	}
}

// A clustering that takes longer than a moment shows a progress; cancelling it stops the
// solve, and the best clustering found so far is published, marked as stopped.
func TestCancelSlowClustering(t *testing.T) {
	opts := DefaultOptions()
	opts.TimeLimit = time.Minute
	opts.Debounce = 0
	c := startServer(t, opts, map[string]any{"window": map[string]any{"workDoneProgress": true}})
	uri := "file:///slow.cnf"
	c.open(uri, generated(100, 2, "fans"))
	begin := c.waitProgress("begin", "Clustering slow.cnf")
	start := time.Now()
	c.notify("window/workDoneProgress/cancel", map[string]any{"token": begin.Token})
	c.analysed(uri, 1)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the clustering took %v after the cancel", d)
	}
	p := c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == 1 })
	if msg := clusteringDiagnostic(p); !strings.Contains(msg, "stopped") {
		t.Errorf("clustering diagnostic %q, want one that says the solve was stopped", msg)
	}
	c.waitProgress("end", "")
}

// The status places each binding that runs in a loop on the current text, with the loop's
// number and colour as the clustering view has them (one palette everywhere); bindings that
// run in no loop (externals) have none.
func TestStatusPlacesLoops(t *testing.T) {
	c := startServer(t, DefaultOptions(), nil)
	uri := "file:///loops.cnf"
	text := "f xs =\n  let s  = fold (+) 0 xs\n      e  = external g xs\n      ys = map (+ s) e\n      zs = map (* 2) e\n  in  (ys, zs)\n"
	c.open(uri, text)
	c.analysed(uri, 1)
	c.mu.Lock()
	var st Status
	for _, s := range c.status[uri] {
		if s.State == "clustered" {
			st = s
		}
	}
	c.mu.Unlock()
	var cl ClusteringResult
	if err := c.call("workspace/executeCommand", map[string]any{"command": cmdShowClustering, "arguments": []any{uri, "f"}}, &cl); err != nil {
		t.Fatal(err)
	}
	want := map[string]BindingLoop{}
	for _, cs := range cl.Summary.Clusters {
		for _, b := range cs.Bindings {
			if !cs.External {
				want[b] = BindingLoop{Name: b, Loop: cs.Loop, Color: cs.Color}
			}
		}
	}
	lines := strings.Split(text, "\n")
	if len(st.Definitions) != 1 || len(st.Definitions[0].Bindings) != len(want) {
		t.Fatalf("status %+v, want the bindings %v", st.Definitions, want)
	}
	for _, b := range st.Definitions[0].Bindings {
		w := want[b.Name]
		if b.Loop != w.Loop || b.Color != w.Color || b.Loop < 1 || b.Color == "" {
			t.Errorf("%s: loop %d colour %q, the view says loop %d colour %q", b.Name, b.Loop, b.Color, w.Loop, w.Color)
		}
		if !strings.Contains(lines[b.StartLine], " "+b.Name+" ") {
			t.Errorf("%s placed on line %d: %q", b.Name, b.StartLine, lines[b.StartLine])
		}
	}
}
