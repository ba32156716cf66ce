package lsp

import (
	"context"
	"sync"
	"time"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/fuse"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/syntax"
)

// document is an open text document and what is known about it.
type document struct {
	uri     string
	version int32
	text    []byte
	// prog is the front end and size inference of the current text (computed on every edit).
	prog *infer.Program
	// loops is the clustering and fusion of the latest text that was clustered: of the current
	// version once the background work finishes, or of an earlier version while the current text
	// has errors or is still being analysed. Lenses and hovers find definitions and bindings in
	// it by name, so its answers stay put while the text around them changes.
	loops *loopAnalysis
	// cancel stops the background work started for this version.
	cancel context.CancelFunc
	// analysed is closed when the background work started for this version ends (finished,
	// cancelled by a newer version, or failed).
	analysed chan struct{}
}

// loopAnalysis is the clustering and fusion of every definition of one version of a document.
type loopAnalysis struct {
	version int32
	funcs   map[string]*funcLoops // by definition name
}

// funcLoops is one definition's clustering report and fused processes.
type funcLoops struct {
	sizes  *infer.Result
	report *cluster.Report
	fused  []*fuse.Fused // one per cluster, in execution order

	// forced holds, for a binding and another loop, the optimum with the binding forced into a
	// loop with that loop's first binding: filled in the background after publication.
	mu     sync.Mutex
	forced map[[2]int]forcedSolve
}

// forcedSolve is the result of re-solving with a pair forced together.
type forcedSolve struct {
	objective int
	ok        bool // false: no valid clustering puts them together, or the solve failed
}

func (fl *funcLoops) forcedResult(node, cluster int) (forcedSolve, bool) {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	r, ok := fl.forced[[2]int{node, cluster}]
	return r, ok
}

// MaxForcedSolves bounds the re-solves made per analysis to explain why bindings are not in
// other loops; the rest are explained by the cost of moving the binding alone.
const MaxForcedSolves = 40

// update replaces a document's text, analyses it at once (parsing, names, sizes), publishes
// its diagnostics, and schedules clustering and fusion after the debounce.
func (s *Server) update(uri string, version int32, text []byte) {
	prog := infer.Analyze(uri, text)
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil {
		d = &document{uri: uri}
		s.docs[uri] = d
	}
	if d.cancel != nil {
		d.cancel()
	}
	d.version, d.text, d.prog = version, text, prog
	ctx, cancel := context.WithCancel(context.Background())
	d.cancel = cancel
	done := make(chan struct{})
	d.analysed = done
	opts := s.opts
	s.mu.Unlock()
	s.publish(uri)
	var once sync.Once
	go s.analyseLoops(ctx, uri, version, prog, opts, func() { once.Do(func() { close(done) }) })
}

// awaitFirstLoops waits, for a document that has never been clustered, until the clustering of
// its current version is done (or the context ends, or the wait exceeds limit), and returns the
// document then. A request that arrives before the first clustering so gets the complete
// answer, rather than an empty one followed by a refresh that an editor may not act on: with
// code-server 4.100.3 we saw a refresh that arrived while the first codeLens request was in
// flight never followed by another request, leaving VS Code's cached, command-less lenses.
func (s *Server) awaitFirstLoops(ctx context.Context, uri string, limit time.Duration) *document {
	d := s.snapshot(uri)
	if d == nil || d.loops != nil || d.analysed == nil {
		return d
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case <-d.analysed:
	case <-ctx.Done():
	case <-timer.C:
	}
	return s.snapshot(uri)
}

// analyseLoops clusters and fuses every valid definition after the debounce, unless a newer
// version arrives first, then publishes the full diagnostics and asks for fresh code lenses.
// It calls analysed as soon as the clustering is stored (or when it gives up), before the
// refresh and the background re-solves for hovers.
func (s *Server) analyseLoops(ctx context.Context, uri string, version int32, prog *infer.Program, opts Options, analysed func()) {
	defer analysed()
	select {
	case <-time.After(opts.Debounce):
	case <-ctx.Done():
		return
	}
	la := &loopAnalysis{version: version, funcs: map[string]*funcLoops{}}
	for _, r := range prog.Funcs {
		if r == nil || !r.OK() {
			continue
		}
		rep, err := cluster.Analyze(ctx, r, cluster.Options{TimeLimit: opts.TimeLimit})
		if err != nil {
			if ctx.Err() == nil {
				s.logf("%s: clustering %s: %v", uri, r.Func.Def.Name.Name, err)
			}
			return
		}
		la.funcs[r.Func.Def.Name.Name] = &funcLoops{sizes: r, report: rep, fused: fuse.FuseClusters(rep.Ours.Clustering, fuse.MaxStates)}
	}
	if ctx.Err() != nil {
		return
	}
	s.mu.Lock()
	d := s.docs[uri]
	current := d != nil && d.version == version
	keep := current && (len(la.funcs) > 0 || !syntax.HasErrors(prog.Diagnostics))
	if keep {
		d.loops = la
	}
	s.mu.Unlock()
	analysed()
	if current {
		s.publish(uri)
		s.refreshLenses()
		forcedSolves(ctx, la, opts)
	}
}

// forcedSolves re-solves each definition with a binding forced into another loop, where only
// cost keeps it out, so that hovers can say by how much the best clustering with that choice is
// worse. It runs after publication, stops when a newer version arrives, and makes at most
// MaxForcedSolves solves.
func forcedSolves(ctx context.Context, la *loopAnalysis, opts Options) {
	limit := min(opts.TimeLimit, 500*time.Millisecond)
	budget := MaxForcedSolves
	for _, fl := range la.funcs {
		g := fl.report.Graph
		cl := fl.report.Ours.Clustering
		for _, nd := range g.Nodes {
			for _, c := range cl.Clusters {
				if budget == 0 || ctx.Err() != nil {
					return
				}
				if c.Index == cl.Of[nd.ID] || c.External() || nd.External() || !onlyCost(g, nd.ID, c) {
					continue
				}
				budget--
				res, err := cluster.Solve(ctx, g, cluster.Options{TimeLimit: limit, Together: [][2]int{{nd.ID, c.Nodes[0].ID}}})
				if err != nil {
					return
				}
				fs := forcedSolve{objective: res.Objective, ok: res.Fallback == "" && res.Of[nd.ID] == res.Of[c.Nodes[0].ID]}
				fl.mu.Lock()
				if fl.forced == nil {
					fl.forced = map[[2]int]forcedSolve{}
				}
				fl.forced[[2]int{nd.ID, c.Index}] = fs
				fl.mu.Unlock()
			}
		}
	}
}

// onlyCost reports whether nothing but cost could keep node n out of cluster c: no
// fusion-preventing path and compatible sizes with each of its bindings.
func onlyCost(g *cluster.Graph, n int, c *cluster.Cluster) bool {
	for _, m := range c.Nodes {
		if !g.Possible(n, m.ID) {
			return false
		}
		a, b := g.Nodes[n].Binding, m.Binding
		if !g.Sizes.SameIter(a, b) {
			if _, _, _, ok := g.Sizes.Concestors(a, b); !ok {
				return false
			}
		}
	}
	return true
}

// snapshot returns a document's current state, or nil.
func (s *Server) snapshot(uri string) *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[uri]
	if d == nil {
		return nil
	}
	cp := *d
	return &cp
}

func (s *Server) close(uri string) {
	s.mu.Lock()
	d := s.docs[uri]
	delete(s.docs, uri)
	s.mu.Unlock()
	if d != nil && d.cancel != nil {
		d.cancel()
	}
	s.post(uri, map[string]any{"uri": uri, "diagnostics": []any{}})
}

func (s *Server) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		if d.cancel != nil {
			d.cancel()
		}
	}
	for _, cancel := range s.inflight {
		cancel()
	}
}

// notify sends a notification to the client; failures (a closed connection) are logged.
func (s *Server) notify(method string, params any) {
	if err := s.conn.Notify(context.Background(), method, params); err != nil {
		s.log.Printf("sending %s: %v", method, err)
	}
}

// refreshLenses asks the client to request code lenses again, if it said it can. In
// go.lsp.dev/protocol v0.12.0 this request sits on the wrong interface, so it is a raw call.
func (s *Server) refreshLenses() {
	s.mu.Lock()
	ok := s.client.codeLensRefresh
	s.mu.Unlock()
	if !ok {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var result any
		if _, err := s.conn.Call(ctx, "workspace/codeLens/refresh", nil, &result); err != nil {
			s.log.Printf("workspace/codeLens/refresh: %v", err)
		}
	}()
}

// funcAt returns the definition of the current text that contains offset, with its checked form
// and sizes (nil when size inference did not run).
func (d *document) funcAt(off syntax.Pos) (*syntax.Func, *infer.Result) {
	for i, fn := range d.prog.Syntax.Funcs {
		if fn.Def.Range.Contains(off) {
			return fn, d.prog.Funcs[i]
		}
	}
	return nil, nil
}

// loopsOf returns the latest clustering of the definition called name, or nil.
func (d *document) loopsOf(name string) *funcLoops {
	if d.loops == nil {
		return nil
	}
	return d.loops.funcs[name]
}
