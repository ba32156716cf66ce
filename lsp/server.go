package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/cnf-tools/cnf/cluster"
	"github.com/cnf-tools/cnf/codegen"
	"github.com/cnf-tools/cnf/infer"
	"github.com/cnf-tools/cnf/internal/analysis"
)

// LSP error codes beyond JSON-RPC's.
const (
	codeServerNotInitialized jsonrpc2.Code = -32002
	codeRequestCancelled     jsonrpc2.Code = -32800
)

// Options configure a server (and come back from the client as settings).
type Options struct {
	// Debounce delays clustering and fusion after an edit; parsing and size inference are not
	// delayed.
	Debounce time.Duration
	// TimeLimit bounds the clustering of each definition.
	TimeLimit time.Duration
	// Solver solves the clustering ILP (cnf lsp --solver); nil: in-process HiGHS when linked,
	// else what cluster.SolverNamed("auto") finds.
	Solver cluster.Solver
	// FusionDiagnostics is the severity of fusion-preventing-edge diagnostics: "information",
	// "hint" (the default: subtle dots, so a correct program shows no squiggles) or "off".
	FusionDiagnostics string
	// LoopHints and SizeHints turn on the inlay hints that show each binding's loop at its end
	// and each array binding's size after its name.
	LoopHints, SizeHints bool
	// CodeLens turns on the lenses above each definition (its loops, "measure compiled"); off,
	// the same commands stay in the palette, the hover and the inlay hints.
	CodeLens bool
	// RPCTrace, when set, receives a line per protocol message in each direction (time,
	// direction, kind, id, method, size and the start of the body), like gopls -rpc.trace. It is
	// read once, when the server starts.
	RPCTrace io.Writer
	// BenchSize is the elements of every array of the benchmark the "measure compiled" lens
	// runs (0: 10^7, cnf bench's default).
	BenchSize int64
}

// DefaultOptions are the settings a client gets until it sends its own.
func DefaultOptions() Options {
	return Options{Debounce: 150 * time.Millisecond, TimeLimit: cluster.DefaultTimeLimit, FusionDiagnostics: "hint", LoopHints: true, SizeHints: true, CodeLens: true}
}

type state int

const (
	starting state = iota
	running
	shutDown
)

// Server is a cnf language server for one client connection.
type Server struct {
	conn   jsonrpc2.Conn
	stream *stream
	log    *log.Logger
	routes map[string]route
	engine *analysis.Engine
	out    *outbox

	mu       sync.Mutex
	state    state
	opts     Options
	client   clientCapabilities
	docs     map[string]*document // by URI string: untitled: URIs have no file name
	opened   int64                // counts didOpen: each open of a URI is a new generation
	inflight map[string]context.CancelFunc
	exited   chan struct{}
	exitOnce sync.Once
	progress progresses
	measure  measurements
	root     string // the workspace's directory (workspaceRoot), for a relative cnf.solver.rates
	// cfgMu orders the changes of the engine's configuration (settings, the rates file read
	// again); rates is the rates file's state, under cfgMu.
	cfgMu sync.Mutex
	rates rates
	// bench runs a measurement: codegen.Bench (tests count what it is asked).
	bench func(context.Context, *infer.Result, []codegen.Clustering, codegen.BenchOptions) (*codegen.BenchResult, error)
}

// Serve runs the language server on a connection (stdin/stdout for `cnf lsp`) until the client
// sends exit or the connection ends. Logs go to logw (stderr) and to the client as
// window/logMessage; nothing but the protocol is written to rwc. It returns nil after a
// shutdown request, an error otherwise (the exit status the LSP specification asks for).
func Serve(ctx context.Context, rwc io.ReadWriteCloser, logw io.Writer, opts Options) error {
	return NewServer(rwc, logw, opts).Run(ctx)
}

// NewServer makes a server on a connection without starting it (tests start it themselves).
func NewServer(rwc io.ReadWriteCloser, logw io.Writer, opts Options) *Server {
	st := newStream(rwc, opts.RPCTrace)
	s := &Server{
		conn:     jsonrpc2.NewConn(st),
		stream:   st,
		log:      log.New(logw, "cnf lsp: ", log.LstdFlags|log.Lmicroseconds),
		routes:   routes(),
		engine:   analysis.NewEngine(analysis.Config{TimeLimit: opts.TimeLimit, Solver: opts.Solver}),
		opts:     opts,
		docs:     map[string]*document{},
		inflight: map[string]context.CancelFunc{},
		exited:   make(chan struct{}),
		bench:    codegen.Bench,
	}
	s.out = newOutbox(s.conn, s.log)
	return s
}

// Run serves until the client sends exit, the connection ends or ctx is done; see Serve.
func (s *Server) Run(ctx context.Context) error {
	s.conn.Go(ctx, s.handle)
	go s.out.run()
	select {
	case <-s.conn.Done():
	case <-s.exited:
		s.conn.Close()
	case <-ctx.Done():
		s.conn.Close()
	}
	s.closeAll()
	if err := s.stream.failure(); err != nil {
		// The client restarts a server that exits with an error; one that stayed up with a
		// broken stream would answer nothing.
		s.log.Printf("ending the session: %v", err)
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == shutDown {
		return nil
	}
	return fmt.Errorf("the connection ended without a shutdown request")
}

// handle is called on the reading goroutine for every message, in order. Notifications run
// here, so they must be quick (they record an edit and wake a worker); requests run in
// goroutines; nothing is written from here.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic in %s: %v\n%s", req.Method(), r, debug.Stack())
			go reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", req.Method(), r))
		}
	}()
	method, params := req.Method(), req.Params()
	call, isCall := req.(*jsonrpc2.Call)
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	rt, known := s.routes[method]
	if !isCall {
		switch {
		case method == "$/cancelRequest":
			s.cancelRequest(params)
		case method == malformedMethod:
			s.logf("ignored a malformed message: %s", params)
		case known && rt.notification && (st == running || method == "exit"):
			_, _ = rt.handle(s, ctx, params)
		}
		return nil // a handler never returns an error: that would close the stream
	}
	answer := func(result any, err error) { go reply(ctx, result, replyError(err)) }
	switch {
	case st == starting && method != "initialize":
		answer(nil, jsonrpc2.NewError(codeServerNotInitialized, "the server is not initialized: send initialize first"))
		return nil
	case st == shutDown:
		answer(nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down: only exit is accepted"))
		return nil
	case !known || rt.notification:
		answer(nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not supported: %s", method))
		return nil
	case rt.inOrder:
		// initialize and shutdown change the server's state before the next message is read.
		answer(rt.handle(s, ctx, params))
		return nil
	}
	key := idKey(call.ID())
	rctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.inflight[key] = cancel
	s.mu.Unlock()
	go func() {
		defer func() {
			s.mu.Lock()
			delete(s.inflight, key)
			s.mu.Unlock()
			cancel()
			if r := recover(); r != nil {
				s.logf("panic in %s: %v\n%s", method, r, debug.Stack())
				_ = reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", method, r))
			}
		}()
		result, err := rt.handle(s, rctx, params)
		if rctx.Err() != nil {
			_ = reply(ctx, nil, jsonrpc2.NewError(codeRequestCancelled, "request cancelled"))
			return
		}
		_ = reply(ctx, result, replyError(err))
	}()
	return nil
}

func replyError(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*jsonrpc2.Error); ok {
		return err
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
}

// idKey is a request id as written on the wire: 5 or "abc". (jsonrpc2.ID's MarshalJSON has a
// pointer receiver: marshalling the value would give {} for every id.)
func idKey(id jsonrpc2.ID) string {
	data, err := json.Marshal(&id)
	if err != nil {
		return fmt.Sprint(id)
	}
	return string(data)
}

// cancelRequest handles $/cancelRequest. go.lsp.dev/jsonrpc2 v0.10.0's CancelHandler only
// understands int32 and string ids, and silently ignores the numbers VS Code sends (decoded as
// float64); here the id is compared as written on the wire.
func (s *Server) cancelRequest(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil || len(p.ID) == 0 {
		return
	}
	key := string(p.ID)
	var n float64
	if json.Unmarshal(p.ID, &n) == nil {
		key = fmt.Sprint(int64(n)) // 5 and 5.0 name the same request
	}
	s.mu.Lock()
	cancel := s.inflight[key]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// logf logs to stderr and, best effort, to the client as window/logMessage.
func (s *Server) logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.log.Print(msg)
	go s.notify("window/logMessage", logMessageParams{Type: messageLog, Message: msg})
}

// warnUser shows a warning in the client (window/showMessage) and logs it.
func (s *Server) warnUser(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.log.Print(msg)
	go s.notify("window/showMessage", logMessageParams{Type: messageWarning, Message: msg})
}

// tellUser shows an information message (a proof's outcome, whole: a progress notification's
// last message is cut to its width).
func (s *Server) tellUser(format string, args ...any) {
	go s.notify("window/showMessage", logMessageParams{Type: messageInfo, Message: fmt.Sprintf(format, args...)})
}

// notify sends a notification to the client; failures (a closed connection) are logged.
func (s *Server) notify(method string, params any) {
	if err := s.conn.Notify(context.Background(), method, params); err != nil {
		s.log.Printf("sending %s: %v", method, err)
	}
}

func (s *Server) options() Options {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts
}

func (s *Server) capabilities() clientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client
}
