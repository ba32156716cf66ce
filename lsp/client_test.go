package lsp

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// client is a test client over net.Pipe, speaking to an in-process server.
type client struct {
	t      testing.TB
	conn   jsonrpc2.Conn
	server *Server
	done   chan error

	mu    sync.Mutex
	diags map[string][]diagParams // every publishDiagnostics, per URI
	seen  chan struct{}           // pulsed on every notification
	calls map[string]int          // server-to-client requests received
}

type diagParams struct {
	URI         string            `json:"uri"`
	Version     int32             `json:"version"`
	Diagnostics []json.RawMessage `json:"diagnostics"`
}

func startServer(t testing.TB, opts Options, capabilities map[string]any) *client {
	t.Helper()
	return startServerLog(t, opts, capabilities, io.Discard)
}

// startServerLog is startServer with the server's log written to logw.
func startServerLog(t testing.TB, opts Options, capabilities map[string]any, logw io.Writer) *client {
	t.Helper()
	serverSide, clientSide := net.Pipe()
	c := &client{t: t, diags: map[string][]diagParams{}, seen: make(chan struct{}, 1000), calls: map[string]int{}, done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	c.server = NewServer(serverSide, logw, opts)
	go func() { c.done <- c.server.Run(ctx) }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(clientSide))
	c.conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		c.mu.Lock()
		if req.Method() == "textDocument/publishDiagnostics" {
			var p diagParams
			if err := json.Unmarshal(req.Params(), &p); err == nil {
				c.diags[p.URI] = append(c.diags[p.URI], p)
			}
		}
		if _, isCall := req.(*jsonrpc2.Call); isCall {
			c.calls[req.Method()]++
		}
		c.mu.Unlock()
		select {
		case c.seen <- struct{}{}:
		default:
		}
		go reply(ctx, nil, nil) // as real clients do: never block the reading loop on a write
		return nil
	})
	if capabilities == nil {
		capabilities = map[string]any{}
	}
	var res map[string]any
	c.call("initialize", map[string]any{"processId": 1, "capabilities": capabilities}, &res)
	c.notify("initialized", map[string]any{})
	return c
}

func (c *client) call(method string, params, result any) error {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("notify %s: %v", method, err)
	}
}

func (c *client) open(uri, text string) {
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "cnf", "version": 1, "text": text}})
}

func (c *client) change(uri string, version int, text string) {
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []map[string]any{{"text": text}},
	})
}

// waitDiagnostics waits until a publication for uri satisfies ok, and returns it.
func (c *client) waitDiagnostics(uri string, ok func(diagParams) bool) diagParams {
	c.t.Helper()
	return c.waitAfter(uri, 0, ok)
}

// published counts the publications received for uri so far.
func (c *client) published(uri string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.diags[uri])
}

// waitAfter is waitDiagnostics among the publications after the first since.
func (c *client) waitAfter(uri string, since int, ok func(diagParams) bool) diagParams {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		list := c.diags[uri]
		for i := len(list) - 1; i >= since; i-- {
			if ok(list[i]) {
				c.mu.Unlock()
				return list[i]
			}
		}
		c.mu.Unlock()
		select {
		case <-c.seen:
		case <-deadline:
			c.t.Fatalf("timed out waiting for diagnostics of %s; got %d publications", uri, len(list))
		}
	}
}

// analysed waits until the clustering of the given version is stored and every publication the
// server has queued has arrived, so that the latest publication is the full one of that version.
func (c *client) analysed(uri string, version int32) {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	last, quiet := -1, 0
	for quiet < 5 {
		select {
		case <-deadline:
			c.t.Fatalf("timed out waiting for the clustering of %s version %d", uri, version)
		case <-time.After(10 * time.Millisecond):
		}
		d := c.server.snapshot(uri)
		if d == nil || d.loops == nil || d.loops.version != version {
			continue
		}
		c.server.out.mu.Lock()
		pending := len(c.server.out.order)
		c.server.out.mu.Unlock()
		n := c.published(uri)
		if pending == 0 && n == last {
			quiet++
		} else {
			last, quiet = n, 0
		}
	}
	c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == version })
}

// forcedDone waits until the background re-solves of the latest analysis have stopped adding
// results (they run after publication).
func (c *client) forcedDone(uri string) {
	c.t.Helper()
	count := func() int {
		d := c.server.snapshot(uri)
		if d == nil || d.loops == nil {
			return 0
		}
		n := 0
		for _, fl := range d.loops.funcs {
			fl.mu.Lock()
			n += len(fl.forced)
			fl.mu.Unlock()
		}
		return n
	}
	last, stable := -1, 0
	for stable < 10 {
		time.Sleep(20 * time.Millisecond)
		if n := count(); n == last {
			stable++
		} else {
			last, stable = n, 0
		}
	}
}
