package lsp

import (
	"context"
	"log"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// outbox holds the diagnostics waiting to be sent, the latest per document, and sends them from
// its own goroutine (the reading goroutine never writes: with an unbuffered pipe, a client that
// writes while the server writes would deadlock both). Each publication is stamped with the
// document's generation (which didOpen it follows) and version; one older than what the outbox
// has accepted for that document is dropped, so a slow analysis of version N can never
// replace the diagnostics of version N+1. Coalescing bounds memory in a burst of edits.
type outbox struct {
	conn jsonrpc2.Conn
	log  *log.Logger

	mu       sync.Mutex
	pending  map[string]*outgoing
	order    []string
	accepted map[string]stamp // the newest stamp accepted per URI
	wake     chan struct{}
	// testHookBeforePost, when set by a test, runs between a publication's snapshot of a
	// document and its post: to reproduce an analysis that is overtaken.
	testHookBeforePost func(st stamp, p *publishDiagnosticsParams)
}

// stamp orders the publications of one URI: by generation, then version, then whether the
// clustering's diagnostics are in (the fuller publication of a version wins).
type stamp struct {
	gen       int64
	version   int32
	clustered bool
}

func (a stamp) before(b stamp) bool {
	switch {
	case a.gen != b.gen:
		return a.gen < b.gen
	case a.version != b.version:
		return a.version < b.version
	}
	return !a.clustered && b.clustered
}

// outgoing is what waits to be sent for one document.
type outgoing struct {
	diagnostics *publishDiagnosticsParams // the latest, or nil
	statuses    []Status                  // in order, after the diagnostics
}

func newOutbox(conn jsonrpc2.Conn, l *log.Logger) *outbox {
	return &outbox{conn: conn, log: l, pending: map[string]*outgoing{}, accepted: map[string]stamp{}, wake: make(chan struct{}, 1)}
}

// queue returns what waits for uri, making it. Call with mu held.
func (o *outbox) queue(uri string) *outgoing {
	q, ok := o.pending[uri]
	if !ok {
		q = &outgoing{}
		o.pending[uri] = q
		o.order = append(o.order, uri)
	}
	return q
}

func (o *outbox) wakeUp() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// postStatus queues a cnf/status notification, to follow the document's queued diagnostics.
func (o *outbox) postStatus(st Status) {
	o.mu.Lock()
	q := o.queue(st.URI)
	q.statuses = append(q.statuses, st)
	o.mu.Unlock()
	o.wakeUp()
}

// post queues a document's diagnostics, replacing any not yet sent, unless something newer has
// been accepted for the document. It reports whether it was queued.
func (o *outbox) post(st stamp, p *publishDiagnosticsParams) bool {
	uri := string(p.URI)
	o.mu.Lock()
	if last, ok := o.accepted[uri]; ok && st.before(last) {
		o.mu.Unlock()
		return false
	}
	o.accepted[uri] = st
	o.queue(uri).diagnostics = p
	o.mu.Unlock()
	o.wakeUp()
	return true
}

// run sends queued diagnostics until the connection ends.
func (o *outbox) run() {
	for {
		select {
		case <-o.wake:
		case <-o.conn.Done():
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
			q := o.pending[uri]
			delete(o.pending, uri)
			o.mu.Unlock()
			if q.diagnostics != nil {
				if err := o.conn.Notify(context.Background(), "textDocument/publishDiagnostics", q.diagnostics); err != nil {
					o.log.Printf("publishing diagnostics of %s: %v", uri, err)
				}
			}
			for _, st := range q.statuses {
				if err := o.conn.Notify(context.Background(), statusMethod, st); err != nil {
					o.log.Printf("sending the status of %s: %v", uri, err)
				}
			}
		}
	}
}
