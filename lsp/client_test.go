package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"strings"
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

	mu       sync.Mutex
	diags    map[string][]diagParams // every publishDiagnostics, per URI
	status   map[string][]Status     // every cnf/status, per URI
	seen     chan struct{}           // pulsed on every notification
	calls    map[string]int          // server-to-client requests received
	progress []progressParams        // every $/progress, in order
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
	c := &client{t: t, diags: map[string][]diagParams{}, status: map[string][]Status{}, seen: make(chan struct{}, 1000), calls: map[string]int{}, done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	c.server = NewServer(serverSide, logw, opts)
	addTestRoutes(c.server)
	go func() { c.done <- c.server.Run(ctx) }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(clientSide))
	c.conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		c.mu.Lock()
		switch req.Method() {
		case "textDocument/publishDiagnostics":
			// vscode-languageclient throws on "diagnostics": null (it then drops the queue).
			if bytes.Contains(req.Params(), []byte(`"diagnostics":null`)) {
				t.Errorf("publishDiagnostics with null diagnostics: %s", req.Params())
			}
			var p diagParams
			if err := json.Unmarshal(req.Params(), &p); err == nil {
				c.diags[p.URI] = append(c.diags[p.URI], p)
			}
		case statusMethod:
			var p Status
			if err := json.Unmarshal(req.Params(), &p); err == nil {
				c.status[p.URI] = append(c.status[p.URI], p)
			}
		case "$/progress":
			var p struct {
				Token string          `json:"token"`
				Value json.RawMessage `json:"value"`
			}
			if err := json.Unmarshal(req.Params(), &p); err == nil {
				var v map[string]any
				json.Unmarshal(p.Value, &v)
				c.progress = append(c.progress, progressParams{Token: p.Token, Value: v})
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
	if _, ok := capabilities["experimental"]; !ok {
		capabilities["experimental"] = map[string]any{"cnfStatus": true} // what the tests wait for
	}
	var res map[string]any
	c.call("initialize", map[string]any{"processId": 1, "capabilities": capabilities}, &res)
	c.notify("initialized", map[string]any{})
	return c
}

func (c *client) call(method string, params, result any) error {
	c.t.Helper()
	return c.callWithin(30*time.Second, method, params, result)
}

// callWithin is call with its own deadline, for the requests whose answer is large by design
// (the outline of a 5 MB document is 65 MB of JSON; with the race detector on a loaded
// machine, encoding and decoding it take longer than 30 s). How fast they are is measured by
// benchmarks, not by deadlines.
func (c *client) callWithin(limit time.Duration, method string, params, result any) error {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
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

// waitProgress waits until a $/progress of the given kind ("begin", "end") whose title or
// message contains text has arrived, and returns it.
func (c *client) waitProgress(kind, text string) progressParams {
	c.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		c.mu.Lock()
		for _, p := range c.progress {
			v := p.Value.(map[string]any)
			title, _ := v["title"].(string)
			msg, _ := v["message"].(string)
			if v["kind"] == kind && (strings.Contains(title, text) || strings.Contains(msg, text)) {
				c.mu.Unlock()
				return p
			}
		}
		c.mu.Unlock()
		select {
		case <-c.seen:
		case <-deadline:
			c.t.Fatalf("timed out waiting for a %s progress with %q", kind, text)
		}
	}
}

// waitStatus waits until the server reports state for the given version of uri (cnf/status).
func (c *client) waitStatus(uri string, version int32, state string) {
	c.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		c.mu.Lock()
		for _, st := range c.status[uri] {
			if st.Version == version && st.State == state {
				c.mu.Unlock()
				return
			}
		}
		c.mu.Unlock()
		select {
		case <-c.seen:
		case <-deadline:
			c.t.Fatalf("timed out waiting for %s of %s version %d", state, uri, version)
		}
	}
}

// analysed waits until the clustering of the given version is done and its diagnostics have
// arrived, so that the latest publication is the full one of that version.
func (c *client) analysed(uri string, version int32) {
	c.t.Helper()
	c.waitStatus(uri, version, "clustered")
	// The status follows the version's diagnostics (the outbox sends them in that order).
	c.waitDiagnostics(uri, func(p diagParams) bool { return p.Version == version })
}

// forcedDone waits until the background re-solves of the latest analysis are finished.
func (c *client) forcedDone(uri string) {
	c.t.Helper()
	c.mu.Lock()
	list := c.status[uri]
	c.mu.Unlock()
	if len(list) == 0 {
		c.t.Fatalf("no status for %s", uri)
	}
	c.waitStatus(uri, list[len(list)-1].Version, "done")
}
