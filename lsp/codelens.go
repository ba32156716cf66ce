package lsp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/syntax"
)

// codeLens shows, above each definition, its loop count against the baselines (opening the
// clustering), and above the first binding of each loop a link to its fused process. Where each
// binding runs is an inlay hint (inlayhints.go), not a lens: a lens a binding doubled the
// height of a definition. Lenses come from the latest clustering, placed by name on the current
// text, so they stay while the text is being edited or has errors.
func (s *Server) codeLens(ctx context.Context, p *protocol.CodeLensParams) ([]codeLens, error) {
	uri := string(p.TextDocument.URI)
	vw, err := s.clusteredView(ctx, uri, firstLensWait)
	lenses := []codeLens{}
	if err != nil || vw == nil {
		return lenses, err
	}
	f := vw.file.Prog.Syntax.File
	if vw.good == nil && !hasErrors(vw.file.Prog.Diagnostics) {
		// Not clustered yet: a lens per definition that already works (the view it opens
		// waits for the clustering), and fresh lenses once the clustering is done.
		for _, def := range f.Definitions() {
			l := lens(f, def.Name.Range, "finding the optimal loops… — show clustering", cmdShowClustering, uri, def.Name.Name)
			lenses = append(lenses, l)
		}
		go s.refreshWhenClustered(uri)
		return lenses, nil
	}
	sigs := signatures(f)
	for _, def := range f.Definitions() {
		ad := vw.def(def.Name.Name)
		if ad == nil {
			continue
		}
		rep := ad.Report
		bl := rep.Baselines()
		loops := syntax.Plural(rep.Ours.Loops(), "loop")
		if !rep.Ours.Optimal {
			loops += ", not proven optimal" // said here, not only in a squiggle and the hover
		}
		title := fmt.Sprintf("%s (unfused %d · stream fusion %d · Megiddo %s) — show clustering", loops, bl.Unfused, bl.Stream, bl.MegiddoText())
		l := lens(f, def.Name.Range, title, cmdShowClustering, uri, def.Name.Name)
		l.Command.Tooltip = "Show the clustering diagram.\n" + termLines("loops", "unfused", "stream fusion", "Megiddo")
		if !rep.Ours.Optimal {
			l.Command.Tooltip += "\n" + termLines("not proven optimal") + "\n" + rep.Ours.NotProven() + ". Prove optimal: the command CNF: Prove the Clustering Optimal, or the quick fix."
		}
		lenses = append(lenses, l)
		// Above the signature when there is one: on the name's line, the two lenses together
		// are wider than an editor split in two.
		at := def.Name.Range
		if sig := sigs[def.Name.Name]; sig != nil {
			at = sig.Name.Range
		}
		bench := lens(f, at, "measure compiled", cmdBenchmark, uri, def.Name.Name)
		bench.Command.Tooltip = fmt.Sprintf("Compile the four clusterings to C and time them on %s random elements (cnf bench), in the background.", sizeText(s.benchSize()))
		if m, ok := vw.measured(def.Name.Name); ok {
			bench.Command.Title = m.summary
			bench.Command.Tooltip = m.detail + "Click to measure again."
		}
		lenses = append(lenses, bench)
		cl := rep.Ours.Clustering
		for _, b := range def.Bindings {
			nd := rep.Graph.Node(b.Name())
			if nd == nil {
				continue
			}
			if c := cl.Clusters[cl.Of[nd.ID]]; !c.External() && c.Nodes[0].Binding.Name() == b.Name() {
				k := cl.LoopNumber(c.Index)
				l := lens(f, b.Names[0].Range, fmt.Sprintf("loop %d: show fused process", k), cmdShowFusedProcess, uri, def.Name.Name, k)
				l.Command.Tooltip = fmt.Sprintf("Loop %d runs %s as one process (process fusion, thesis chapter 4): show it.", k, strings.Join(c.Names(), ", "))
				lenses = append(lenses, l)
			}
		}
	}
	return lenses, nil
}

// firstLensWait is how long a code lens request waits for a document's first clustering. An
// editor renders the lenses of its previous session without their commands until the first
// answer (VS Code's CodeLensCache), and it spaces its requests by the average time of the
// answers (its adaptive debounce): a request that waited for a slow clustering would keep
// dead lenses on the screen for that long, in this document and the next.
const firstLensWait = 250 * time.Millisecond

// refreshWhenClustered asks the client for lenses again once the document's current version
// is clustered, after the answer that preceded it has gone out (an editor may ignore a refresh
// that arrives while its request is in flight).
func (s *Server) refreshWhenClustered(uri string) {
	clustered := s.clusteredChan(uri)
	if clustered == nil {
		return
	}
	<-clustered
	time.Sleep(50 * time.Millisecond)
	s.refreshLenses()
}

// hasErrors reports whether diagnostics include an error (a text that will not be clustered).
func hasErrors(diags []syntax.Diagnostic) bool {
	for _, dg := range diags {
		if dg.Severity == syntax.Error {
			return true
		}
	}
	return false
}

func lens(f *syntax.File, r syntax.Range, title, cmd string, args ...any) codeLens {
	return codeLens{Range: toRange(f, r), Command: &command{Title: title, Command: cmd, Arguments: args}}
}

// signatures are a file's signatures by name (made once per lens request: a file may have
// tens of thousands of definitions).
func signatures(f *syntax.File) map[string]*syntax.Signature {
	out := map[string]*syntax.Signature{}
	for _, d := range f.Decls {
		if sig, ok := d.(*syntax.Signature); ok && sig.Name != nil && out[sig.Name.Name] == nil {
			out[sig.Name.Name] = sig // the first of two, as the front end reads them
		}
	}
	return out
}
