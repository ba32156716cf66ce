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
	// TimeLimit bounds each ILP solve.
	TimeLimit time.Duration
	// FusionDiagnostics is the severity of fusion-preventing-edge diagnostics: "information",
	// "hint" or "off".
	FusionDiagnostics string
	// RPCTrace, when set, receives a line per protocol message in each direction (time,
	// direction, kind, id, method, size and the start of the body), like gopls -rpc.trace. It is
	// read once, when the server starts.
	RPCTrace io.Writer
}

// DefaultOptions are the settings a client gets until it sends its own.
func DefaultOptions() Options {
	return Options{Debounce: 150 * time.Millisecond, TimeLimit: 2 * time.Second, FusionDiagnostics: "information"}
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

	mu       sync.Mutex
	state    state
	opts     Options
	docs     map[string]*document // by URI string: untitled: URIs have no file name
	inflight map[string]context.CancelFunc
	client   clientSupport
	exited   chan struct{}
	exitOnce sync.Once
	out      *outbox
}

// clientSupport records what the client said it can do.
type clientSupport struct {
	codeLensRefresh bool
	showDocument    bool
	markdown        bool
}

// Serve runs the language server on a connection (stdin/stdout for `cnf lsp`) until the client
// sends exit or the connection ends. Logs go to logw (stderr) and to the client as
// window/logMessage; nothing but the protocol is written to rwc. It returns nil after a
// shutdown request, an error otherwise (the exit status the LSP specification asks for).
func Serve(ctx context.Context, rwc io.ReadWriteCloser, logw io.Writer, opts Options) error {
	return NewServer(rwc, logw, opts).Run(ctx)
}

// Run serves until the client sends exit, the connection ends or ctx is done; see Serve.
func (s *Server) Run(ctx context.Context) error {
	s.conn.Go(ctx, s.handle)
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

// NewServer makes a server on a connection without starting it (tests start it themselves).
func NewServer(rwc io.ReadWriteCloser, logw io.Writer, opts Options) *Server {
	st := newStream(rwc, opts.RPCTrace)
	s := &Server{
		conn:     jsonrpc2.NewConn(st),
		stream:   st,
		log:      log.New(logw, "cnf lsp: ", log.LstdFlags|log.Lmicroseconds),
		opts:     opts,
		docs:     map[string]*document{},
		inflight: map[string]context.CancelFunc{},
		exited:   make(chan struct{}),
		out:      newOutbox(),
	}
	go s.sendLoop()
	return s
}

// requestHandler answers a request from its raw params.
type requestHandler func(s *Server, ctx context.Context, params json.RawMessage) (any, error)

// notificationHandler acts on a notification. Notifications run in order, on the reading
// goroutine, so they must be quick: they update documents and start background work.
type notificationHandler func(s *Server, ctx context.Context, params json.RawMessage)

var (
	requests      = map[string]requestHandler{}
	notifications = map[string]notificationHandler{}
)

// onRequest and onNotification register the handlers of each method; each handler lives in
// its own file and registers itself in init (the tables are written only then).
func onRequest(method string, h requestHandler)           { requests[method] = h }
func onNotification(method string, h notificationHandler) { notifications[method] = h }

func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	defer func() {
		if r := recover(); r != nil {
			s.logf("panic in %s: %v\n%s", req.Method(), r, debug.Stack())
			_ = reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", req.Method(), r))
		}
	}()
	call, isCall := req.(*jsonrpc2.Call)
	method, params := req.Method(), req.Params()
	if !isCall {
		switch method {
		case "$/cancelRequest":
			s.cancelRequest(params)
		case malformedMethod:
			s.logf("ignored a malformed message: %s", params)
		default:
			s.mu.Lock()
			st := s.state
			s.mu.Unlock()
			if h := notifications[method]; h != nil && (st == running || method == "exit") {
				h(s, ctx, params)
			}
		}
		return nil // a handler never returns an error: that would close the stream
	}
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	switch {
	case st == starting && method != "initialize":
		return reply(ctx, nil, jsonrpc2.NewError(codeServerNotInitialized, "the server is not initialized: send initialize first"))
	case st == shutDown:
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down: only exit is accepted"))
	}
	h := requests[method]
	if h == nil {
		return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not supported: %s", method))
	}
	if method == "initialize" || method == "shutdown" {
		result, err := h(s, ctx, params)
		return reply(ctx, result, replyError(err))
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
		result, err := h(s, rctx, params)
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

func (s *Server) logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.log.Print(msg)
	// window/logMessage (type 4 = log), best effort, never from the reading goroutine.
	go func() {
		_ = s.conn.Notify(context.Background(), "window/logMessage", map[string]any{"type": 4, "message": msg})
	}()
}

func (s *Server) options() Options {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts
}

func decode(params json.RawMessage, v any) error {
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	return nil
}
