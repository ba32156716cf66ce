package lsp

import (
	"fmt"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

func newFile(text []byte) *syntax.File { return syntax.NewFile("", text) }

// publish sends a document's diagnostics: always those of its current text (syntax, names,
// sizes), plus, when the clustering of this very version is known, the fusion-preventing edges
// (at the level the settings ask), fusion failures and clusterings not proven optimal.
func (s *Server) publish(uri string) {
	d := s.snapshot(uri)
	if d == nil {
		return
	}
	opts := s.options()
	f := d.prog.Syntax.File
	out := []protocol.Diagnostic{}
	for _, dg := range d.prog.Diagnostics {
		out = append(out, toDiagnostic(uri, f, dg))
	}
	if d.loops != nil && d.loops.version == d.version {
		for name, fl := range d.loops.funcs {
			fn := d.prog.Syntax.Func(name)
			if fn == nil {
				continue
			}
			out = append(out, s.loopDiagnostics(uri, f, fl, opts)...)
		}
	}
	s.post(uri, map[string]any{"uri": uri, "version": d.version, "diagnostics": out})
}

// outbox holds the diagnostics waiting to be sent, the latest per document. The reading
// goroutine never writes to the connection itself: with an unbuffered pipe, a client that
// writes while the server writes would deadlock both. Coalescing also bounds memory in a burst
// of edits: a document has at most one publication waiting, always of its latest text.
type outbox struct {
	mu      sync.Mutex
	pending map[string]any
	order   []string
	wake    chan struct{}
}

func newOutbox() *outbox {
	return &outbox{pending: map[string]any{}, wake: make(chan struct{}, 1)}
}

// post queues a document's diagnostics, replacing any not yet sent.
func (s *Server) post(uri string, params any) {
	o := s.out
	o.mu.Lock()
	if _, ok := o.pending[uri]; !ok {
		o.order = append(o.order, uri)
	}
	o.pending[uri] = params
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// sendLoop writes queued diagnostics until the connection ends.
func (s *Server) sendLoop() {
	o := s.out
	for {
		select {
		case <-o.wake:
		case <-s.conn.Done():
			return
		}
		for {
			o.mu.Lock()
			if len(o.order) == 0 {
				o.mu.Unlock()
				break
			}
			uri := o.order[0]
			o.order = o.order[1:]
			params := o.pending[uri]
			delete(o.pending, uri)
			o.mu.Unlock()
			s.notify("textDocument/publishDiagnostics", params)
		}
	}
}

func toDiagnostic(uri string, f *syntax.File, dg syntax.Diagnostic) protocol.Diagnostic {
	pd := protocol.Diagnostic{
		Range:    toRange(f, dg.Range),
		Severity: protocol.DiagnosticSeverity(dg.Severity),
		Code:     dg.Code,
		Source:   "cnf",
		Message:  dg.Message,
	}
	if dg.Code == syntax.CodeUnused || dg.Code == infer.CodeDead {
		// Editors fade code that is never used or never computed.
		pd.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
	}
	for _, r := range dg.Related {
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: protocol.DocumentURI(uri), Range: toRange(f, r.Range)},
			Message:  r.Message,
		})
	}
	return pd
}

// loopDiagnostics are the diagnostics clustering and fusion add to a definition.
func (s *Server) loopDiagnostics(uri string, f *syntax.File, fl *funcLoops, opts Options) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	g := fl.report.Graph
	if opts.FusionDiagnostics != "off" {
		sev := syntax.Information
		if opts.FusionDiagnostics == "hint" {
			sev = syntax.Hint
		}
		for _, e := range g.Edges {
			if !e.Preventing {
				continue
			}
			msg := fmt.Sprintf("%s and %s cannot share a loop: %s", e.From.Name, e.To.Name, e.Reasons[0])
			for _, r := range e.Reasons[1:] {
				msg += "; " + r
			}
			out = append(out, toDiagnostic(uri, f, syntax.Diagnostic{Range: e.At, Severity: sev, Code: "fusion-preventing", Message: msg,
				Related: []syntax.Related{{Range: e.From.Binding.Names[0].Range, Message: e.From.Name + " is computed here"}}}))
		}
	}
	ours := fl.report.Ours
	def := fl.sizes.Func.Def
	if ours.Fallback != "" {
		out = append(out, toDiagnostic(uri, f, syntax.Diagnostic{Range: def.Name.Range, Severity: syntax.Warning, Code: "clustering", Message: ours.Fallback}))
	} else if !ours.Optimal {
		out = append(out, toDiagnostic(uri, f, syntax.Diagnostic{Range: def.Name.Range, Severity: syntax.Information, Code: "clustering",
			Message: fmt.Sprintf("the clustering of %s is the best found within the solver's time limit (%s), not proven optimal", def.Name.Name, opts.TimeLimit)}))
	}
	for k, fu := range fl.fused {
		if fu.Err == nil || fu.Cluster.External() {
			continue
		}
		out = append(out, toDiagnostic(uri, f, syntax.Diagnostic{Range: fu.Cluster.Nodes[0].Binding.Names[0].Range, Severity: syntax.Warning, Code: "fusion",
			Message: fmt.Sprintf("loop %d (%s) cannot be fused into one process: %v; it runs as concurrent processes", k+1, joinNames(fu.Cluster.Names()), fu.Err)}))
	}
	return out
}
