package lsp

import (
	"context"
	"fmt"
	"time"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/internal/present"
	"github.com/cnf-tools/cnf/syntax"
)

// codeLens shows, above each definition, its loop count against the baselines (opening the
// clustering), and above its body (the let) the "measure compiled" lens: each in one place,
// whether or not the definition has a signature. Where each binding runs, and the link to its
// loop's fused process, is an inlay hint (inlayhints.go), not a lens: lenses per binding or per
// loop doubled the height of a definition and read as section headers. Lenses come from the
// latest clustering, placed by name on the current text, so they stay while the text is being
// edited or has errors; a definition whose current text has errors says that its lens is of
// the last version that had none. The setting cnf.codeLens.enable turns them off.
func (s *Server) codeLens(ctx context.Context, p *protocol.CodeLensParams) ([]codeLens, error) {
	uri := string(p.TextDocument.URI)
	vw, err := s.clusteredView(ctx, uri, firstLensWait)
	lenses := []codeLens{}
	if err != nil || vw == nil || !s.options().CodeLens {
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
	current := map[string]bool{} // once per request: a file may have thousands of definitions
	for i, fn := range vw.file.Prog.Syntax.Funcs {
		current[fn.Def.Name.Name] = vw.current(i)
	}
	for _, def := range f.Definitions() {
		ad := vw.def(def.Name.Name)
		if ad == nil {
			continue
		}
		rep := ad.Report
		bl := present.BaselinesOf(rep)
		loops := syntax.Plural(rep.Ours.Loops(), "loop")
		if !rep.Ours.Optimal {
			loops += ", not proven optimal" // said here, not only in a squiggle and the hover
		}
		title := fmt.Sprintf("%s (unfused %d · stream fusion %d · Megiddo %s) — show clustering", loops, bl.Unfused, bl.Stream, bl.MegiddoText())
		stale := !current[def.Name.Name]
		if stale {
			title = "last good version: " + title
		}
		l := lens(f, def.Name.Range, title, cmdShowClustering, uri, def.Name.Name)
		l.Command.Tooltip = "Show the clustering diagram.\n" + termLines("loops", "unfused", "stream fusion", "Megiddo")
		if stale {
			l.Command.Tooltip = "The definition has errors: these are the loops of its last version without them.\n" + l.Command.Tooltip
		}
		if !rep.Ours.Optimal {
			l.Command.Tooltip += "\n" + termLines("not proven optimal") + "\n" + rep.Ours.NotProven() + ". Prove optimal: the command CNF: Prove the Clustering Optimal, or the quick fix."
		}
		lenses = append(lenses, l)
		// Above the body, on a line of its own: beside the loops lens, a split editor cut it
		// off; above the signature when there was one, it moved between two places.
		at := def.Name.Range
		if def.Let >= 0 {
			at = syntax.Range{Start: def.Let, End: def.Let + 3}
		}
		bench := lens(f, at, "measure compiled", cmdBenchmark, uri, def.Name.Name)
		bench.Command.Tooltip = fmt.Sprintf("Compile the four clusterings to C and time them on %s random elements (cnf bench), in the background.", sizeText(s.benchSize()))
		if m, ok := vw.measured(def.Name.Name); ok {
			bench.Command.Title = m.summary
			bench.Command.Tooltip = m.detail + "Click to measure again."
		}
		lenses = append(lenses, bench)
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
