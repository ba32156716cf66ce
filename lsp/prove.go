package lsp

import (
	"context"
	"fmt"
	"github.com/cnf-tools/cnf/syntax"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/cluster"
)

// cmdProveOptimal solves a definition's clustering without a time limit, in the background,
// with a progress the user can cancel; when it is done, the document is analysed again, and
// the proven clustering (now in the engine's cache) replaces the one found under the limit in
// diagnostics, lenses and views. Arguments: the document URI and the definition's name.
const cmdProveOptimal = "cnf.proveOptimal"

// proveAction is the code action that runs cmdProveOptimal, offered inside a definition whose
// clustering is not proven optimal (the time limit ended its solve, or the user stopped it).
// diag is the diagnostic that says so, when the request touches it.
func proveAction(uri, name string, diag *protocol.Diagnostic) protocol.CodeAction {
	a := protocol.CodeAction{
		Title:   fmt.Sprintf("Prove the clustering of %s optimal (solve without a time limit)", name),
		Kind:    protocol.QuickFix,
		Command: &protocol.Command{Title: "Prove optimal", Command: cmdProveOptimal, Arguments: []any{uri, name}},
	}
	if diag != nil {
		a.Diagnostics = []protocol.Diagnostic{*diag}
	}
	return a
}

// prove runs one proof; it returns at once. The proof ends when it is done, when the user
// cancels its progress (which keeps what the proof found: a cheaper clustering or a higher
// bound), when the document closes or when the server exits.
func (s *Server) prove(vw *view, name string) {
	s.mu.Lock()
	d := s.docs[vw.uri]
	s.mu.Unlock()
	if d == nil || vw.good == nil {
		return
	}
	// The clustering shown is that of the last version that analysed cleanly: prove that one.
	file := vw.good.file
	ctx, cancel := s.documentJob(context.Background(), d)
	go func() {
		defer cancel()
		stop, stopNow := context.WithCancel(ctx)
		defer stopNow()
		p := s.startProgress("Proving the clustering of "+name+" optimal", "solving without a time limit", stopNow)
		shown := vw.good.defs[name]
		def, err := file.Prove(ctx, name, stop, func(objective, bound int) { p.report(proofProgress(objective, bound)) })
		switch {
		case ctx.Err() != nil:
			p.end("stopped: the clustering stays as it was")
			return
		case err != nil:
			p.end("failed")
			s.warnUser("proving the clustering of %s optimal: %v", name, err)
			return
		}
		ours := def.Report.Ours
		learnt := shown == nil || ours.Optimal || ours.Objective != shown.Report.Ours.Objective || ours.Bound != shown.Report.Ours.Bound
		withGap := func(msg string) string {
			if gap := ours.Gap(); gap != "" {
				return msg + "; " + gap
			}
			return msg
		}
		var outcome string
		switch {
		case ours.Optimal:
			outcome = fmt.Sprintf("proven optimal: %s, objective %d", syntax.Plural(ours.Loops(), "loop"), ours.Objective)
		case stop.Err() == nil:
			outcome = "not proven: " + ours.NotProven()
		case !learnt:
			outcome = withGap("stopped: nothing better found")
		default:
			outcome = withGap(fmt.Sprintf("stopped: objective %d", ours.Objective))
		}
		p.end(outcome)
		s.tellUser("%s: %s", name, outcome)
		if !learnt {
			return
		}
		s.reanalyse(vw.uri, vw.version)
	}()
}

// proofProgress is a proof's progress message: "best 614733 · the optimum is at least 549850
// (within 10.6%)".
func proofProgress(objective, bound int) string {
	if objective <= 0 {
		return fmt.Sprintf("the optimum is at least %d", bound)
	}
	r := cluster.Result{Objective: objective, Bound: bound}
	if gap := r.Gap(); gap != "" {
		return fmt.Sprintf("best %d · %s", objective, gap)
	}
	return fmt.Sprintf("best %d", objective)
}
