package lsp

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/cnf-tools/cnf/internal/analysis"
	"github.com/cnf-tools/cnf/internal/present"
	"github.com/cnf-tools/cnf/syntax"
)

// document is an open text document.
type document struct {
	uri string
	gen int64       // which didOpen of the URI this is (see stamp)
	cur *docVersion // the latest text
	// good is the latest version whose clustering is done and useful (it has analysed
	// definitions, or the text has no errors). Lenses and hovers find definitions and bindings
	// in it by name, so their answers stay put while the text is being edited or is broken.
	good *docVersion
	kick chan struct{} // wakes the parse worker
	done chan struct{} // closed by didClose: ends the worker
	// measured holds the benchmarks of definitions (benchmark.go), guarded by Server.mu and
	// replaced, never changed, so that views read it without the lock.
	measured map[string]measurement
}

// docVersion is one version of a document's text and its analysis. Its fields after ctx are
// guarded by Server.mu.
type docVersion struct {
	number int32
	text   []byte
	edited time.Time
	editAt int             // where this version's text starts to differ from the previous one; -1 for none
	ctx    context.Context // ends when a newer version arrives or the document closes
	cancel context.CancelFunc

	file      *analysis.File           // once parsed
	defs      map[string]*analysis.Def // once clustered
	parsed    chan struct{}            // closed once parsed or superseded
	clustered chan struct{}            // closed once clustered, failed or superseded
	ended     bool                     // the channels are closed
}

// supersede stops a version's work and releases whoever waits for it. Call with Server.mu held.
func (v *docVersion) supersede() {
	v.cancel()
	if v.file == nil {
		close(v.parsed)
	}
	if !v.ended {
		close(v.clustered)
		v.ended = true
	}
}

// open records a new document (or a reopened one: a new generation) and starts its worker.
func (s *Server) open(uri string, version int32, text []byte) {
	s.mu.Lock()
	if old := s.docs[uri]; old != nil {
		s.forget(old)
	}
	s.opened++
	d := &document{uri: uri, gen: s.opened, kick: make(chan struct{}, 1), done: make(chan struct{})}
	s.docs[uri] = d
	s.mu.Unlock()
	go s.worker(d)
	s.edit(uri, version, text)
}

// edit records a new version of an open document's text: the previous version's work stops,
// and the worker parses the new one. It returns at once (it runs on the reading goroutine).
func (s *Server) edit(uri string, version int32, text []byte) {
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil {
		s.mu.Unlock()
		return
	}
	s.replace(d, version, text)
}

// reanalyse analyses a document's current version again if it is still version (after a
// proof of optimality filled the cache: the new analysis finds the proven clustering there).
func (s *Server) reanalyse(uri string, version int32) {
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil || d.cur == nil || d.cur.number != version {
		s.mu.Unlock()
		return
	}
	s.replace(d, version, d.cur.text)
}

// replace makes a new version current and wakes the worker; s.mu is held and is released.
func (s *Server) replace(d *document, version int32, text []byte) {
	editAt := -1
	if d.cur != nil {
		d.cur.supersede()
		editAt = firstDifference(d.cur.text, text)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d.cur = &docVersion{number: version, text: text, edited: time.Now(), editAt: editAt, ctx: ctx, cancel: cancel,
		parsed: make(chan struct{}), clustered: make(chan struct{})}
	s.mu.Unlock()
	select {
	case d.kick <- struct{}{}:
	default: // the worker will see the newest version anyway
	}
}

// close forgets a document and clears its diagnostics.
func (s *Server) close(uri string) {
	s.mu.Lock()
	d := s.docs[uri]
	if d != nil {
		s.forget(d)
		delete(s.docs, uri)
	}
	s.mu.Unlock()
	if d != nil {
		// The last word for this generation: nothing still running for it can follow.
		s.out.post(stamp{gen: d.gen, version: math.MaxInt32}, &publishDiagnosticsParams{URI: uriOf(uri), Diagnostics: []protocol.Diagnostic{}}) // never null: vscode-languageclient 11 throws on it
	}
}

// forget stops a document's work. Call with Server.mu held.
func (s *Server) forget(d *document) {
	if d.cur != nil {
		d.cur.supersede()
	}
	close(d.done)
}

func (s *Server) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for uri, d := range s.docs {
		s.forget(d)
		delete(s.docs, uri)
	}
	for _, cancel := range s.inflight {
		cancel()
	}
}

// worker parses the newest version of a document whenever it changes, one at a time: a burst
// of edits is parsed once, at its end, and the reading goroutine never waits for a parse.
func (s *Server) worker(d *document) {
	for {
		select {
		case <-d.kick:
		case <-d.done:
			return
		}
		s.mu.Lock()
		v := d.cur
		todo := v != nil && v.file == nil && v.ctx.Err() == nil
		s.mu.Unlock()
		if !todo {
			continue
		}
		if s.refreshRates() { // a profile run again since the last version: this one uses it,
			s.reanalyseAll(d.uri) // and the other documents are analysed again
		}
		file := s.engine.Load(d.uri, v.text, v.edited.UnixNano())
		s.mu.Lock()
		current := d.cur == v && v.ctx.Err() == nil
		if current {
			v.file = file
			close(v.parsed)
		}
		s.mu.Unlock()
		if current {
			s.publish(d.uri)
			s.sendStatus(d.uri, "parsed")
			go s.cluster(d, v)
		}
	}
}

// cluster clusters and fuses every definition of a version after the debounce, unless a newer
// version arrives first; then it publishes the full diagnostics, asks for fresh lenses, and
// makes the forced re-solves that explain exclusions in hovers.
func (s *Server) cluster(d *document, v *docVersion) {
	select {
	case <-time.After(s.options().Debounce):
	case <-v.ctx.Done():
		return
	}
	// A clustering that takes longer than a moment shows a progress the user can cancel:
	// cancelling keeps the best clustering found so far.
	started := make(chan *progress, 1)
	slow := time.AfterFunc(slowClustering, func() {
		started <- s.startProgress("Clustering "+baseName(d.uri), "finding the optimal loops", v.file.StopSolves)
	})
	defs, err := v.file.Defs(v.ctx)
	if !slow.Stop() {
		(<-started).end("")
	}
	if err != nil {
		if v.ctx.Err() == nil {
			s.logf("%s: clustering: %v", d.uri, err)
		}
		return
	}
	byName := make(map[string]*analysis.Def, len(defs))
	for _, def := range defs {
		byName[def.Name] = def
	}
	s.mu.Lock()
	current := d.cur == v && v.ctx.Err() == nil
	if current {
		v.defs = byName
		if len(defs) > 0 || !syntax.HasErrors(v.file.Prog.Diagnostics) {
			d.good = v
		}
		close(v.clustered)
		v.ended = true
	}
	s.mu.Unlock()
	if !current {
		return
	}
	s.publish(d.uri)
	s.refreshLenses()
	s.sendStatus(d.uri, "clustered")
	for _, def := range defs {
		v.file.Force(v.ctx, def)
	}
	if v.ctx.Err() == nil {
		s.sendStatus(d.uri, "done")
	}
}

// slowClustering is how long a clustering runs before the client shows its progress.
const slowClustering = 500 * time.Millisecond

// baseName is the last element of a URI, for titles.
func baseName(uri string) string {
	if i := strings.LastIndexAny(uri, "/:"); i >= 0 {
		return uri[i+1:]
	}
	return uri
}

// view is what a request sees of a document: its current text, parsed, and the latest useful
// clustering.
type view struct {
	uri     string
	version int32
	file    *analysis.File
	editAt  int         // where the text changed last (docVersion.editAt)
	good    *docVersion // nil until a version has been clustered
	goodDef map[string]*analysis.Def
	// measurements are the document's benchmarks (measured gives one while it is current).
	measurements map[string]measurement
}

// view waits until the current version of a document is parsed and returns it; nil for a
// document that is not open.
func (s *Server) view(ctx context.Context, uri string) (*view, error) {
	for {
		s.mu.Lock()
		d := s.docs[uri]
		if d == nil {
			s.mu.Unlock()
			return nil, nil
		}
		v := d.cur
		if v.file != nil {
			vw := &view{uri: uri, version: v.number, file: v.file, editAt: v.editAt, good: d.good, measurements: d.measured}
			if d.good != nil {
				vw.goodDef = d.good.defs
			}
			s.mu.Unlock()
			return vw, nil
		}
		parsed := v.parsed
		s.mu.Unlock()
		select {
		case <-parsed: // parsed, or superseded: look again
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// clusteredChan is the channel closed once the current version of a document is clustered (or
// superseded); nil for a document not open.
func (s *Server) clusteredChan(uri string) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[uri]; d != nil && d.cur != nil {
		return d.cur.clustered
	}
	return nil
}

// clusteredView is view, but for a document never clustered it first waits (at most limit) for
// the clustering of its current version. A request that arrives before the first clustering so
// gets the complete answer, rather than an empty one followed by a refresh that an editor may
// not act on: with code-server 4.100.3 we saw a refresh that arrived while the first codeLens
// request was in flight never followed by another request.
func (s *Server) clusteredView(ctx context.Context, uri string, limit time.Duration) (*view, error) {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	{
		vw, err := s.view(ctx, uri)
		if err != nil || vw == nil || vw.good != nil {
			return vw, err
		}
		clustered := s.clusteredChan(uri)
		if clustered == nil {
			return vw, nil
		}
		select {
		case <-clustered:
			// Clustered (a text with errors leaves no useful clustering), or superseded:
			// answer for the newest version once it is parsed.
			return s.view(ctx, uri)
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
			return vw, nil
		}
	}
}

// def returns the latest clustering of the definition called name, or nil.
func (vw *view) def(name string) *analysis.Def { return vw.goodDef[name] }

// current reports whether the current text of the i-th definition is accepted by the front end
// (syntax, names, sizes): only then do loops of its latest clustering describe it; otherwise
// they belong to an older version, and the hints that place them on bindings are dropped.
func (vw *view) current(i int) bool {
	fn, r := vw.file.Prog.Syntax.Funcs[i], vw.file.Prog.Funcs[i]
	return fn.Valid && !fn.Def.Broken && r != nil && r.OK()
}

// funcAt returns the definition of the current text that contains offset, with its checked form
// and sizes (nil when size inference did not run).
func (vw *view) funcAt(off syntax.Pos) (*syntax.Func, int) {
	for i, fn := range vw.file.Prog.Syntax.Funcs {
		if fn.Def.Range.Contains(off) {
			return fn, i
		}
	}
	return nil, -1
}

// funcBefore returns the last definition that starts before offset (the one being typed at
// its end, whose range does not reach the cursor yet), or nil.
func (vw *view) funcBefore(off syntax.Pos) (*syntax.Func, int) {
	var fn *syntax.Func
	k := -1
	for i, f := range vw.file.Prog.Syntax.Funcs {
		if f.Def.Start <= off {
			fn, k = f, i
		}
	}
	return fn, k
}

// publish sends a document's diagnostics: always those of its current text (syntax, names,
// sizes), plus, once the clustering of this very version is done, what clustering and fusion
// add (fusion-preventing edges at the level the settings ask, solver failures, clusterings not
// proven optimal, loops that could not be fused).
func (s *Server) publish(uri string) {
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil || d.cur == nil || d.cur.file == nil {
		s.mu.Unlock()
		return
	}
	v, gen, opts := d.cur, d.gen, s.opts
	file, defs := v.file, v.defs
	s.mu.Unlock()
	f := file.Prog.Syntax.File
	out := []protocolDiagnostic{}
	for _, dg := range collapseEditedLine(file.Prog.Diagnostics, file.Text, v.editAt) { // as codeAction finds them
		out = append(out, toDiagnostic(uri, f, dg))
	}
	st := stamp{gen: gen, version: v.number}
	if defs != nil {
		st.clustered = true
		sev := syntax.Severity(0)
		switch opts.FusionDiagnostics {
		case "information":
			sev = syntax.Information
		case "hint":
			sev = syntax.Hint
		}
		for _, name := range file.Names() {
			if def := defs[name]; def != nil {
				for _, dg := range def.Diagnostics(sev) {
					out = append(out, toDiagnostic(uri, f, dg))
				}
			}
		}
	}
	p := &publishDiagnosticsParams{URI: uriOf(uri), Version: v.number, Diagnostics: out}
	if hook := s.out.testHookBeforePost; hook != nil {
		hook(st, p)
	}
	s.out.post(st, p)
}

// firstDifference is the first offset where two texts differ (-1 when they are equal).
func firstDifference(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) == len(b) {
		return -1
	}
	return n
}

// collapseEditedLine reports the errors on the line being typed (the line of the latest edit)
// as one, at the line's end: while an application is incomplete its errors would otherwise
// come and go and move with every key, as gopls and rust-analyzer avoid for incomplete
// statements. The error keeps its message and quick fixes (a code action still finds them at
// their own place); several on the line are counted in the message. Errors elsewhere, and
// every error once the user edits another line, are reported where they are.
func collapseEditedLine(diags []syntax.Diagnostic, text []byte, editAt int) []syntax.Diagnostic {
	if editAt < 0 || editAt > len(text) {
		return diags
	}
	start, end := lineBounds(text, editAt)
	var out []syntax.Diagnostic
	var first *syntax.Diagnostic
	count := 0
	for _, dg := range diags {
		if dg.Severity == syntax.Error && int(dg.Range.Start) >= start && int(dg.Range.Start) <= end {
			if first == nil {
				d := dg
				first = &d
			}
			count++
			continue
		}
		out = append(out, dg)
	}
	if first == nil {
		return diags
	}
	first.Range = syntax.Range{Start: syntax.Pos(end), End: syntax.Pos(end)}
	if count > 1 {
		first.Message = fmt.Sprintf("%s (and %s on this line)", first.Message, syntax.Plural(count-1, "more error"))
		first.Fixes = nil
	}
	return append(out, *first)
}

// lineBounds returns the offsets of the start and the end of the line holding off.
func lineBounds(text []byte, off int) (start, end int) {
	start, end = off, off
	for start > 0 && text[start-1] != '\n' {
		start--
	}
	for end < len(text) && text[end] != '\n' && text[end] != '\r' {
		end++
	}
	return start, end
}

// republishAll sends every document's diagnostics again (after a change of settings).
func (s *Server) republishAll() {
	s.mu.Lock()
	uris := make([]string, 0, len(s.docs))
	for u := range s.docs {
		uris = append(uris, u)
	}
	s.mu.Unlock()
	slices.Sort(uris)
	for _, u := range uris {
		s.publish(u)
	}
}

// refreshLenses asks the client to request code lenses and inlay hints again (both show the
// latest clustering), for each that it said it can. In go.lsp.dev/protocol v0.12.0 these
// requests sit on the wrong interface, so they are raw calls.
func (s *Server) refreshLenses() {
	caps := s.capabilities().Workspace
	for _, r := range []struct {
		method string
		ok     bool
	}{{"workspace/codeLens/refresh", caps.CodeLens.RefreshSupport}, {"workspace/inlayHint/refresh", caps.InlayHint.RefreshSupport}} {
		if !r.ok {
			continue
		}
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			var result any
			if _, err := s.conn.Call(ctx, r.method, nil, &result); err != nil {
				s.log.Printf("%s: %v", r.method, err)
			}
		}()
	}
}

// sendStatus sends cnf/status for a document's current version, to a client that asked for it.
func (s *Server) sendStatus(uri, state string) {
	if !s.capabilities().Experimental.CNFStatus {
		return
	}
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil || d.cur == nil || d.cur.file == nil {
		s.mu.Unlock()
		return
	}
	v, good := d.cur, d.good
	s.mu.Unlock()
	st := Status{URI: uri, Version: v.number, State: state, Definitions: []DefinitionStatus{}}
	// The errors publish sends, counted alike: the status bar said "3 errors" while Problems
	// listed 2, the edited line's collapsed into one.
	for _, dg := range collapseEditedLine(v.file.Prog.Diagnostics, v.file.Text, v.editAt) {
		if dg.Severity == syntax.Error {
			st.Errors++
		}
	}
	f := v.file.Prog.Syntax.File
	for _, fn := range v.file.Prog.Syntax.Funcs {
		if good == nil || good.defs[fn.Def.Name.Name] == nil {
			continue
		}
		rep := good.defs[fn.Def.Name.Name].Report
		ds := DefinitionStatus{
			Name: fn.Def.Name.Name, StartLine: f.LSPPosition(fn.Def.Range.Start).Line, EndLine: f.LSPPosition(fn.Def.Range.End).Line,
			Loops: rep.Ours.Loops(), Optimal: rep.Ours.Optimal, Bound: rep.Ours.Bound, Baselines: present.BaselinesOf(rep), Bindings: []BindingLoop{},
		}
		// Placed by name, like the lenses, so that the colours stay while the text is edited.
		cl := rep.Ours.Clustering
		colors := present.Colors(cl)
		for _, b := range fn.Def.Bindings {
			nd := rep.Graph.Node(b.Name())
			if nd == nil {
				continue
			}
			k := cl.LoopNumber(cl.Of[nd.ID])
			if k == 0 {
				continue
			}
			ds.Bindings = append(ds.Bindings, BindingLoop{Name: b.Name(), StartLine: f.LSPPosition(b.Range.Start).Line,
				EndLine: f.LSPPosition(b.Range.End).Line, Loop: k, Color: colors[k]})
		}
		st.Definitions = append(st.Definitions, ds)
	}
	s.out.postStatus(st)
}
